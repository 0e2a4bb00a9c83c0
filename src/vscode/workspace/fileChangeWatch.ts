// Watches one file outside the workspace (`~/.claude/settings.json`) by polling its stat: VS Code's
// watcher covers the workspace folders, and a watch on a folder that does not exist yet (no `~/.claude`)
// never reports the file appearing. A stat a second costs nothing and sees creation, change and deletion.
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import type * as vscode from 'vscode';

/** How often the file's stat is read. Ours: a settings edit applies within about a second. */
export const FILE_POLL_INTERVAL_MS = 1000;

export function watchFileChanges(file: string, onChange: () => void, intervalMs = FILE_POLL_INTERVAL_MS): vscode.Disposable {
  const listener = (current: Stats, previous: Stats) => {
    if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size || current.ino !== previous.ino) onChange();
  };
  // Not persistent: the watch never keeps the extension host alive.
  watchFile(file, { interval: intervalMs, persistent: false }, listener);
  return { dispose: () => unwatchFile(file, listener) };
}

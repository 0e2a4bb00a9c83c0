// What a run's server and browser wrote to disk: the files that hold a text (a planted secret, say),
// and the wait until VS Code has saved a chat.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workbench } from './workbench';

/** Waits until VS Code has written the chat (a chatSessions file under workspaceStorage holds `text`). */
export async function waitForSavedChat(workbench: Workbench, text: string, timeoutMs: number): Promise<void> {
  const storage = path.join(workbench.userDataDir, 'User', 'workspaceStorage');
  const started = Date.now();
  while (filesContaining([storage], text).filter((file) => file.includes(`${path.sep}chatSessions${path.sep}`)).length === 0) {
    if (Date.now() - started > timeoutMs) throw new Error(`no chat session under ${storage} holds "${text}" after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Files at or under `paths` whose bytes hold `text` (as UTF-8 or UTF-16, as browsers store strings). */
export function filesContaining(paths: readonly string[], text: string): string[] {
  const needles = [Buffer.from(text, 'utf8'), Buffer.from(text, 'utf16le')];
  const holds = (file: string) => {
    const bytes = fs.readFileSync(file);
    return needles.some((needle) => bytes.includes(needle));
  };
  const found: string[] = [];
  for (const start of paths) {
    const stat = fs.statSync(start, { throwIfNoEntry: false });
    if (stat?.isFile() && holds(start)) found.push(start);
    if (!stat?.isDirectory()) continue;
    for (const entry of fs.readdirSync(start, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && holds(file)) found.push(file);
    }
  }
  return found;
}

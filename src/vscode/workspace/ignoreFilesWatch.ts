// Keeps the agents' ignore files current in VS Code: read again when one of them changes, when the
// folders change, or when `agentToolExecutor.ignoreFiles` names other files.
import * as vscode from 'vscode';
import { AgentIgnoreFiles, DEFAULT_AGENT_IGNORE_FILES } from '../../node/settings/agentIgnore';
import { disposableStore, toDisposable } from '../../common/lifecycle';

const SETTING = 'agentToolExecutor.ignoreFiles';

export function watchedIgnoreFiles(folders: () => readonly string[]): { readonly ignored: AgentIgnoreFiles; readonly disposable: vscode.Disposable } {
  const names = () => vscode.workspace.getConfiguration().get<string[]>(SETTING) ?? [...DEFAULT_AGENT_IGNORE_FILES];
  const ignored = new AgentIgnoreFiles(folders, names());
  const disposables = disposableStore();
  let watcher: vscode.FileSystemWatcher | undefined;
  const watch = () => {
    watcher?.dispose();
    const list = names().filter((name) => /^[^{},]+$/.test(name));
    watcher = vscode.workspace.createFileSystemWatcher(`**/{${list.join(',')}}`);
    const reload = () => ignored.reload();
    watcher.onDidChange(reload);
    watcher.onDidCreate(reload);
    watcher.onDidDelete(reload);
  };
  watch();
  disposables.addAll(
    // The current watcher, whichever `watch` made last.
    toDisposable(() => watcher?.dispose()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => ignored.reload()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTING)) return;
      ignored.reload(names());
      watch();
    }),
  );
  return { ignored, disposable: disposables };
}

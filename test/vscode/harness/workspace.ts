// The folder the suites open: a few real files the tests read, change and diff.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WORKSPACE_FILES: Readonly<Record<string, string>> = {
  'README.md': '# Scratch workspace\n\nOpened by the VS Code suites of Agent Tool Executor.\n',
  'notes.txt': 'first line\nsecond line\n',
  /** Eight folders down: past the workspace walk's 4 levels, so only a file watcher sees it change. */
  'deep/a/b/c/d/e/f/g/deep.txt': 'before\n',
};

export function writeWorkspace(root: string): void {
  for (const [name, text] of Object.entries(WORKSPACE_FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
}

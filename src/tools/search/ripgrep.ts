// Where the ripgrep binary is: the one VS Code ships (under `vscode.env.appRoot`), or the system `rg` on PATH.
import * as fs from 'node:fs';
import * as path from 'node:path';

const RG = process.platform === 'win32' ? 'rg.exe' : 'rg';

/** The `rg` VS Code bundles, given `vscode.env.appRoot`; undefined when this build has none. */
export function findVsCodeRipgrep(appRoot: string): string | undefined {
  const candidates = [
    path.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', RG),
    path.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', RG),
    path.join(appRoot, 'node_modules', 'vscode-ripgrep', 'bin', RG),
    path.join(appRoot, 'node_modules.asar.unpacked', 'vscode-ripgrep', 'bin', RG),
  ];
  return candidates.find(isExecutable);
}

/** `configured` when it exists, else the first `rg` on PATH. */
export function findRipgrep(configured?: string, envPath = process.env.PATH ?? ''): string | undefined {
  if (configured) return isExecutable(configured) ? configured : undefined;
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, RG);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The message Grep returns when there is no ripgrep. */
export function ripgrepMissingMessage(configured?: string): string {
  const where = configured ? `the configured ripgrep ${configured} does not exist` : 'ripgrep (rg) was not found on PATH';
  return (
    `Grep cannot run: ${where}. Install ripgrep (Debian/Ubuntu: apt-get install ripgrep; macOS: brew install ripgrep; ` +
    'Windows: winget install BurntSushi.ripgrep.MSVC). Inside VS Code the binary VS Code ships is used.'
  );
}

/** An executable file (not a folder), following links: what `which` and a spawn accept. */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// `npm start` (scripts/start.sh): the real VS Code that code-server bundles, served on 127.0.0.1
// with the packaged .vsix installed into fresh folders, the scripted demo model switched on, and a
// fresh copy of examples/demo-workspace open. It runs until Ctrl-C or SIGTERM, which kill the
// server's process group (processes.ts); the temporary folders go once nothing of the run is left.
// Usage: node out/test/vscode/harness/startDemo.js [--check]
//   --check  also opens the workbench in headless Chromium, waits for the chat view and the demo
//            model, saves test-results/start-demo.png and stops: a smoke test of `npm start`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkWorkbench } from './demoCheck';
import { loadPaths } from './paths';
import { trackTag } from './processes';
import { freePort, installVsix, makeScratch, startServer, tail } from './server';

/** The port `npm start` prefers, so a bookmarked URL keeps working; PORT overrides it. */
export const DEFAULT_PORT = 8765;
/** User settings of the demo profile: the scripted model is off unless asked for. */
const DEMO_SETTINGS = { 'agentToolExecutor.demoModel.enabled': true };
const DEMO_FOLDER_NAME = 'demo-workspace';
const MAX_PORT = 65_535;
/** The shell's exit codes for a process ended by SIGINT (128 + 2) and SIGTERM (128 + 15). */
const EXIT_SIGINT = 130;
const EXIT_SIGTERM = 143;

const log = (line: string) => process.stdout.write(`[start] ${line}\n`);

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const paths = await loadPaths();
  if (!fs.existsSync(paths.VSIX)) throw new Error(`${paths.VSIX} is missing: run npm run package first`);

  // 1. Fresh folders. From here on Ctrl-C or SIGTERM kills whatever this run started and exits
  //    (processes.ts); the exit hook removes the folders once those processes are gone.
  const scratch = makeScratch('ate-start');
  trackTag(scratch.runTag);
  process.once('exit', () => fs.rmSync(scratch.root, { recursive: true, force: true }));
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
  });
  const workspace = path.join(scratch.root, DEMO_FOLDER_NAME);
  fs.cpSync(path.join(paths.REPO_ROOT, 'examples', DEMO_FOLDER_NAME), workspace, { recursive: true });
  const userSettings = path.join(scratch.userData, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(userSettings), { recursive: true });
  fs.writeFileSync(userSettings, `${JSON.stringify(DEMO_SETTINGS, null, 2)}\n`);

  // 2. The packaged extension, as a user installs it, then the server.
  await installVsix(paths, scratch, paths.VSIX);
  const preferred = preferredPort();
  const port = await freePort(preferred);
  if (port !== preferred) log(`port ${preferred} is taken: using ${port}`);
  const server = await startServer(paths, scratch, { port });
  try {
    // Slashes need no escaping in a query; unescaped, the folder in the URL reads as a path.
    const url = server.workbenchUrl(workspace).replace(/%2F/gi, '/');
    if (check) {
      const screenshot = await checkWorkbench(paths, scratch, url);
      log(`the workbench, the chat view, the scripted demo model and @executor's answer showed up: ${screenshot}`);
      return 0;
    }

    // 3. Say where to go, then serve until a signal ends the process (or the server dies).
    log(`VS Code (code-server ${paths.CODE_SERVER_VERSION}) serves a fresh copy of examples/${DEMO_FOLDER_NAME} on port ${port}. Open:`);
    log('');
    log(`    ${url}`);
    log('');
    log('In the chat view, pick the model "Scripted demo (offline)" and say "tour", "slow" or "fail" to the extension\'s participant.');
    log(`Desktop VS Code instead: code --install-extension ${path.relative(process.cwd(), paths.VSIX) || paths.VSIX}`);
    log(`Server log: ${path.join(scratch.root, 'server.log')}. Ctrl-C stops the server and removes ${scratch.root}.`);
    const ended = await Promise.race([signalled, server.exited.then((code) => ({ code }))]);
    if (typeof ended === 'string') {
      log(`${ended}: stopping the server and removing ${scratch.root}`);
      return ended === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM;
    }
    log(`the server exited (${ended.code}):\n${tail(path.join(scratch.root, 'server.log'))}`);
    return 1;
  } finally {
    await server.stop();
  }
}

/** PORT, else DEFAULT_PORT; freePort falls back to any free port when it is taken. */
function preferredPort(): number {
  const port = process.env.PORT ? Number(process.env.PORT) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port <= 0 || port > MAX_PORT) throw new Error(`PORT=${process.env.PORT} is not a port number`);
  return port;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`[start] ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);

// Runs the mocha suite in test/vscode/suite inside the real extension host: installs the
// packaged .vsix with the server's CLI, starts a fresh VS Code server, opens the workbench in
// headless Chromium with a test payload, and relays the suite's log and exit code.
// Usage: node out/test/vscode/run.js   (after `npm run package`)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import { launchBrowser, type Browser } from './harness/browser';
import { loadPaths } from './harness/paths';
import { findTagged } from './harness/processes';
import { installFixtureExtension, installVsix, makeScratch, startServer, type Scratch, type VscodeServer } from './harness/server';
import { writeWorkspace } from './harness/workspace';

/** The whole suite, server start included; measured at well under a minute. */
const SUITE_TIMEOUT_MS = 240_000;
/** Lines the suite prints carry this prefix (see suite/index.ts); the rest goes to workbench.log. */
const SUITE_LINE_PREFIX = '[suite] ';

async function main(): Promise<number> {
  const started = Date.now();
  const paths = await loadPaths();
  if (!fs.existsSync(paths.VSIX)) {
    throw new Error(`${paths.VSIX} is missing: run npm run package first`);
  }
  const scratch = withScratchHome(makeScratch('ate-vscode'));
  let server: VscodeServer | undefined;
  let browser: Browser | undefined;
  let exitCode = 1;
  const stopAll = async () => {
    await browser?.close();
    await server?.stop();
  };
  try {
    // 1. Install the packaged build into a folder of its own and load it from there as the
    //    development extension, so the suite tests what the .vsix ships.
    const packaged = path.join(scratch.root, 'packaged');
    fs.mkdirSync(packaged);
    const extensionFolder = await installVsix(paths, scratch, paths.VSIX, packaged);
    writeWorkspace(scratch.workspace);
    // Another extension with language model tools (lmToolsExternal.test.ts), installed as a user's would be.
    installFixtureExtension(path.join(paths.REPO_ROOT, 'test', 'vscode', 'fixtures', 'fake-tools'), scratch.extensions);
    // A model with a small window that counts and refuses as a real provider does (chatContext.test.ts).
    installFixtureExtension(path.join(paths.REPO_ROOT, 'test', 'vscode', 'fixtures', 'window-model'), scratch.extensions);

    // 2. A fresh server and browser; the workbench runs the suite and reports through the hooks.
    server = await startServer(paths, scratch);
    browser = await launchBrowser(paths, scratch);
    let reportExit!: (code: number) => void;
    const exited = new Promise<number>((resolve) => (reportExit = resolve));
    const workbenchLog = fs.createWriteStream(path.join(scratch.root, 'workbench.log'));
    await browser.page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      workbenchLog.write(`[${type}] ${text}\n`);
      for (const line of text.split('\n')) {
        if (line.startsWith(SUITE_LINE_PREFIX)) {
          process.stdout.write(`${line.slice(SUITE_LINE_PREFIX.length)}\n`);
        }
      }
    });
    await browser.page.exposeFunction('codeAutomationExit', (code: number) => reportExit(code));
    browser.page.on('pageerror', (error) => process.stderr.write(`[workbench] ${error.message}\n`));
    const tests = path.join(__dirname, 'suite', 'index.js');
    await browser.page.goto(server.workbenchUrl(scratch.workspace, [
      ['extensionDevelopmentPath', server.remoteUri(extensionFolder)],
      ['extensionTestsPath', server.remoteUri(tests)],
      ['skipWelcome', 'true'],
    ]));

    // 3. Wait for the exit code, bounded.
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, SUITE_TIMEOUT_MS, 'timeout').unref());
    const outcome = await Promise.race([exited, timeout]);
    if (outcome === 'timeout') {
      process.stderr.write(`vscode: the suite did not finish within ${SUITE_TIMEOUT_MS} ms\n`);
    } else {
      exitCode = outcome;
    }
  } finally {
    // 4. Kill both groups, then check that nothing of this run is left.
    await stopAll();
    const left = findTagged(scratch.runTag);
    if (left.length > 0) {
      process.stderr.write(`vscode: processes left after the run:\n${left.map((p) => `  ${p.pid} ${p.command}`).join('\n')}\n`);
      exitCode = 1;
    }
    if (exitCode === 0) {
      fs.rmSync(scratch.root, { recursive: true, force: true });
    } else {
      process.stderr.write(`vscode: logs kept in ${scratch.root}\n`);
    }
    process.stdout.write(`vscode: suite finished in ${((Date.now() - started) / 1000).toFixed(1)} s (exit code ${exitCode})\n`);
  }
  return exitCode;
}

/**
 * A home folder of the run's own for the VS Code processes: the suite never reads the developer's
 * ~/.claude/settings.json (whose rules would change what asks) and may write one (lmToolsLiveSettings).
 */
function withScratchHome(scratch: Scratch): Scratch {
  const home = path.join(scratch.root, 'home');
  fs.mkdirSync(home);
  return { ...scratch, env: { ...scratch.env, HOME: home } };
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`vscode: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);

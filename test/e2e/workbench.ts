// A fresh VS Code server with the packaged .vsix installed, and the workbench open in headless
// Chromium: what the end-to-end tests click through, as a user would.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../vscode/harness/browser';
import { loadPaths, type VscodePaths } from '../vscode/harness/paths';
import { findTagged } from '../vscode/harness/processes';
import { installVsix, makeScratch, startServer, type Scratch, type VscodeServer } from '../vscode/harness/server';
import { writeWorkspace } from '../vscode/harness/workspace';

/** Bounds one wait on the workbench (it is ready 3-4 s after navigation; a dialog appears at once). */
export const UI_TIMEOUT_MS = 30_000;
/** The extension host of a fresh server activates us about 10 s after the workbench shows. */
const ACTIVATION_TIMEOUT_MS = 90_000;
/** What the extension's log channel writes once `activate` ran (src/extension.ts). */
const ACTIVATED_LINE = /\[info\] activated \{/;
/** A quick input opens within milliseconds; one closed under us is reopened this often. */
const QUICK_INPUT_TIMEOUT_MS = 5_000;
const QUICK_INPUT_ATTEMPTS = 3;

export class Workbench {
  private constructor(
    readonly page: Page,
    readonly workspace: string,
    private readonly paths: VscodePaths,
    private readonly scratch: Scratch,
    private readonly server: VscodeServer,
    private readonly browser: Browser,
  ) {}

  /**
   * Installs build/agent-tool-executor.vsix into a fresh server and opens a fresh workspace with
   * the given files (a function of the workspace's absolute path, for files that name it).
   */
  static async start(files: (workspace: string) => Readonly<Record<string, string>> = () => ({})): Promise<Workbench> {
    const paths = await loadPaths();
    if (!fs.existsSync(paths.VSIX)) {
      throw new Error(`${paths.VSIX} is missing: run npm run package first`);
    }
    const scratch = makeScratch('ate-e2e');
    let server: VscodeServer | undefined;
    try {
      await installVsix(paths, scratch, paths.VSIX);
      writeWorkspace(scratch.workspace);
      for (const [name, text] of Object.entries(files(scratch.workspace))) {
        fs.writeFileSync(path.join(scratch.workspace, name), text);
      }
      server = await startServer(paths, scratch);
      const browser = await launchBrowser(paths, scratch);
      const workbench = new Workbench(browser.page, scratch.workspace, paths, scratch, server, browser);
      browser.page.setDefaultTimeout(UI_TIMEOUT_MS);
      await browser.page.goto(server.workbenchUrl(scratch.workspace));
      await browser.page.locator('.monaco-workbench').waitFor();
      await browser.page.locator('#workbench\\.parts\\.statusbar').waitFor();
      await workbench.waitForActivation();
      return workbench;
    } catch (error) {
      await server?.stop();
      throw error;
    }
  }

  /**
   * Waits until the extension has activated, as its log says. A fresh server's extension host
   * takes about 10 s to come up; until then the palette and our command are not responsive.
   */
  private async waitForActivation(): Promise<void> {
    const logs = path.join(this.scratch.userData, 'logs');
    const started = Date.now();
    while (!activationLogged(logs)) {
      if (Date.now() - started > ACTIVATION_TIMEOUT_MS) {
        throw new Error(`the extension did not log its activation within ${ACTIVATION_TIMEOUT_MS} ms (logs: ${logs})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Runs a command from the palette (F1) by its title, as a user would. */
  async runCommand(title: string): Promise<void> {
    await this.quickPick('F1', `>${title}`, title);
  }

  /**
   * Opens a top-level workspace file by double-clicking it in the Explorer, and waits for its tab.
   * (Quick Open's file search takes about 12 s to warm up on a fresh server.)
   */
  async openFile(name: string): Promise<void> {
    await this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first().dblclick();
    await this.activeTab(name).waitFor();
  }

  /**
   * Opens a quick input with `key`, types `text` and accepts the row showing `rowText`. While the
   * workbench is still settling (views opening, the extension activating) it can take the focus
   * and close the widget; then the same steps are tried again, as a user would.
   */
  private async quickPick(key: string, text: string, rowText: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: rowText }).first();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.page.keyboard.press(key);
        await input.fill(text, { timeout: QUICK_INPUT_TIMEOUT_MS });
        await row.waitFor();
        await this.page.keyboard.press('Enter');
        return;
      } catch (error) {
        if (attempt >= QUICK_INPUT_ATTEMPTS) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /** The active tab of a resource whose file name contains `nameContains`. */
  activeTab(nameContains: string): Locator {
    return this.page.locator(`.tabs-container .tab.active[data-resource-name*=${JSON.stringify(nameContains)}]`);
  }

  /** Our approval dialog for a call of `toolName` (the Copilot sign-in dialog shares its class). */
  approvalDialog(toolName: string): Locator {
    return this.page
      .locator('.monaco-dialog-box', { has: this.page.locator('.dialog-message-text', { hasText: toolName }) })
      .filter({ has: this.page.getByRole('button', { name: 'Allow', exact: true }) });
  }

  /** The text an editor shows, spaces normalised (the editor renders them as no-break spaces). */
  async editorText(editor: Locator): Promise<string> {
    return (await editor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
  }

  /** The results document the Run Tool Calls command opens beside the editor. */
  resultsEditor(): Locator {
    return this.page.locator('.monaco-editor[data-uri^="executor-results:"]').last();
  }

  /**
   * Runs one test's steps; when they fail, saves `FAILED-<name>.png` and dismisses any dialog and
   * editor left open, so the next test starts from a clean workbench.
   */
  async steps(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      await this.screenshot(`FAILED-${name}`).catch(() => undefined);
      await this.page.keyboard.press('Escape').catch(() => undefined);
      await this.closeAllEditors().catch(() => undefined);
      throw error;
    }
  }

  /** Closes every editor (View: Close All Editors). */
  async closeAllEditors(): Promise<void> {
    await this.runCommand('View: Close All Editors');
    await this.page.locator('.editor-group-container .tab').first().waitFor({ state: 'detached' });
  }

  /** Saves a PNG into test-results/ (git-ignored) for a person to look at. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(this.paths.RESULTS_DIR, { recursive: true });
    const file = path.join(this.paths.RESULTS_DIR, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  readFile(name: string): string {
    return fs.readFileSync(path.join(this.workspace, name), 'utf8');
  }

  /** Closes the browser and the server as process groups; returns what of this run is still running. */
  async stop(): Promise<string[]> {
    await this.browser.close();
    await this.server.stop();
    const left = findTagged(this.scratch.runTag).map((p) => `${p.pid} ${p.command}`);
    if (left.length === 0) {
      fs.rmSync(this.scratch.root, { recursive: true, force: true });
    }
    return left;
  }
}

/** True once the extension's log file under `logs` has its activation line. */
function activationLogged(logs: string): boolean {
  if (!fs.existsSync(logs)) return false;
  const files = (fs.readdirSync(logs, { recursive: true }) as string[]).filter(
    (file) => file.includes('agent-tool-executor.agent-tool-executor') && file.endsWith('.log'),
  );
  return files.some((file) => ACTIVATED_LINE.test(fs.readFileSync(path.join(logs, file), 'utf8')));
}

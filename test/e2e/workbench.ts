// A fresh VS Code server with the packaged .vsix installed, and the workbench open in headless
// Chromium: what the end-to-end tests click through, as a user would.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../vscode/harness/browser';
import { loadPaths, type VscodePaths } from '../vscode/harness/paths';
import { findTagged } from '../vscode/harness/processes';
import { installFixtureExtension, installVsix, makeScratch, startServer, type Scratch, type VscodeServer } from '../vscode/harness/server';
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
/** Its rows show within a second even on a loaded machine; a row gone for this long went with a closed widget. */
const QUICK_INPUT_ROW_TIMEOUT_MS = 10_000;
/** A link's editor opens within a second or two of the click; one that did not is clicked again. */
const LINK_OPEN_TIMEOUT_MS = 10_000;
const LINK_OPEN_ATTEMPTS = 3;
/** Running Extensions lists about 20 extensions, 70 px a row; scroll its list at most this often. */
const RUNNING_EXTENSIONS_SCROLLS = 30;

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
   * `options.copyOf` fills the workspace from a folder of the repository instead of the suites'
   * files; `options.userSettings` are written as the profile's user settings before the server starts;
   * `options.fixtureExtensions` (folders of the repository) are installed beside it.
   */
  static async start(
    files: (workspace: string) => Readonly<Record<string, string>> = () => ({}),
    options: {
      readonly copyOf?: string;
      readonly userSettings?: Readonly<Record<string, unknown>>;
      readonly cacheHome?: string;
      readonly fixtureExtensions?: readonly string[];
    } = {},
  ): Promise<Workbench> {
    const paths = await loadPaths();
    if (!fs.existsSync(paths.VSIX)) {
      throw new Error(`${paths.VSIX} is missing: run npm run package first`);
    }
    const fresh = makeScratch('ate-e2e');
    // `cacheHome`: an XDG cache folder kept across starts (the bench's warm starts use the extension's code cache).
    const scratch = options.cacheHome ? { ...fresh, env: { ...fresh.env, XDG_CACHE_HOME: options.cacheHome } } : fresh;
    let server: VscodeServer | undefined;
    let browser: Browser | undefined;
    try {
      // Copied first: the install writes extensions.json from what the folder holds, and VS Code loads only what it lists.
      for (const folder of options.fixtureExtensions ?? []) installFixtureExtension(path.join(paths.REPO_ROOT, folder), scratch.extensions);
      await installVsix(paths, scratch, paths.VSIX);
      if (options.copyOf) fs.cpSync(path.join(paths.REPO_ROOT, options.copyOf), scratch.workspace, { recursive: true });
      else writeWorkspace(scratch.workspace);
      if (options.userSettings) {
        const settingsFile = path.join(scratch.userData, 'User', 'settings.json');
        fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
        fs.writeFileSync(settingsFile, `${JSON.stringify(options.userSettings, null, 2)}\n`);
      }
      for (const [name, text] of Object.entries(files(scratch.workspace))) {
        fs.mkdirSync(path.dirname(path.join(scratch.workspace, name)), { recursive: true });
        fs.writeFileSync(path.join(scratch.workspace, name), text);
      }
      server = await startServer(paths, scratch);
      browser = await launchBrowser(paths, scratch);
      const workbench = new Workbench(browser.page, scratch.workspace, paths, scratch, server, browser);
      browser.page.setDefaultTimeout(UI_TIMEOUT_MS);
      await browser.page.goto(server.workbenchUrl(scratch.workspace));
      await browser.page.locator('.monaco-workbench').waitFor();
      await browser.page.locator('#workbench\\.parts\\.statusbar').waitFor();
      await workbench.waitForActivation();
      return workbench;
    } catch (error) {
      // A workbench that did not load (or an extension that did not activate) leaves no browser or server behind.
      await browser?.close();
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

  /** The fields of the extension's `activated` log line (its session, its own load and activate times, …). */
  activationFields(): Record<string, unknown> {
    const fields = this.loggedFields('activated');
    if (fields === undefined) throw new Error('the extension has not logged its activation');
    return fields;
  }

  /** The events the extension has logged (`activated`, `core.started`, …), in order, from the log that has its activation. */
  loggedEvents(): string[] {
    const log = extensionLogs(path.join(this.scratch.userData, 'logs')).find((lines) => lines.some((line) => ACTIVATED_LINE.test(line))) ?? [];
    return log.map((line) => /\[(?:trace|debug|info|warning|warn|error)\] ([\w.]+) \{/.exec(line)?.[1]).filter((event): event is string => event !== undefined);
  }

  /** The fields of the extension's first log line of `event` (`core.started`: its core's load and start times), if logged. */
  loggedFields(event: string): Record<string, unknown> | undefined {
    const line = loggedLine(path.join(this.scratch.userData, 'logs'), new RegExp(`\\[info\\] ${event.replace(/\./g, '\\.')} \\{`));
    return line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>);
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
   * Opens a quick input with `key`, types `text` and clicks the row showing `rowText`. While the
   * workbench is still settling (views opening, the extension activating) it can take the focus
   * and close the widget; then the same steps are tried again, as a user would. A click, not Enter:
   * Enter after the widget closed goes to whatever took the focus and runs nothing, while a click
   * waits for the row and fails (and is tried again) when it is gone.
   */
  private async quickPick(key: string, text: string, rowText: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: rowText }).first();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.page.keyboard.press(key);
        await input.fill(text, { timeout: QUICK_INPUT_TIMEOUT_MS });
        await row.click({ timeout: QUICK_INPUT_ROW_TIMEOUT_MS });
        return;
      } catch (error) {
        if (attempt >= QUICK_INPUT_ATTEMPTS) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /**
   * Opens Developer: Show Running Extensions (a modal editor in 1.139) and returns the row of the
   * extension shown as `displayName`, once VS Code reports its activation time ("Activation: N ms",
   * its code loading + activate call; "Activating..." before). The list is virtual: rows out of view
   * are not in the DOM, so it is scrolled until the row is.
   */
  async runningExtension(displayName: string): Promise<Locator> {
    await this.runCommand('Developer: Show Running Extensions');
    const list = this.page.locator('.runtime-extensions-editor .monaco-list').first();
    await list.waitFor();
    const row = this.page.locator('.runtime-extensions-editor .monaco-list-row', { has: this.page.locator('.desc .name', { hasText: displayName }) });
    for (let step = 0; (await row.count()) === 0; step++) {
      if (step >= RUNNING_EXTENSIONS_SCROLLS) throw new Error(`no ${displayName} in Running Extensions`);
      await list.hover();
      await this.page.mouse.wheel(0, 280);
      await this.page.waitForTimeout(100);
    }
    await row.scrollIntoViewIfNeeded();
    await this.page.waitForFunction((element) => /Activation: \d+ms/.test(element?.textContent ?? ''), await row.locator('.time .activation-time').elementHandle());
    return row;
  }

  /**
   * Ctrl-clicks a link in an editor and waits for the tab of what it opens (`tabName`). On a loaded
   * machine a click can land while the editor is still deciding the link (its hover shows, nothing
   * opens); then it is clicked again, as a user would. A second open of the same resource only focuses it.
   */
  async openLink(link: Locator, tabName: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Bounded too: while the editor redraws its links the click can find nothing to land on
        // (`<html> intercepts pointer events`, then the link replaced) and wait out the whole test.
        await link.click({ modifiers: ['Control'], timeout: LINK_OPEN_TIMEOUT_MS });
        await this.activeTab(tabName).waitFor({ timeout: LINK_OPEN_TIMEOUT_MS });
        return;
      } catch (error) {
        if (attempt >= LINK_OPEN_ATTEMPTS) throw error;
        // The link's hover may cover it for the next click, and a Ctrl the editor still takes as held
        // keeps the link in its active form.
        await this.page.keyboard.up('Control');
        await this.page.mouse.move(0, 0);
      }
    }
  }

  /** The active tab of a resource whose file name contains `nameContains`. */
  activeTab(nameContains: string): Locator {
    return this.page.locator(`.tabs-container .tab.active[data-resource-name*=${JSON.stringify(nameContains)}]`);
  }

  /** The active tab whose title contains `text` (a diff editor's title, say). */
  activeTabTitled(text: string): Locator {
    return this.page.locator('.tabs-container .tab.active', { hasText: text });
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
      this.saveLogs(`FAILED-${name}`);
      await this.page.keyboard.press('Escape').catch(() => undefined);
      await this.closeAllEditors().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Sends a prompt in the chat view as a user does: clicks the input, clears it (a sticky participant
   * leaves its `@name` there), inserts the whole text (typing key by key lets the suggest widget
   * rewrite `@name`), presses Enter. Resolves with the reply, the last one in the view (the list is
   * virtualised: older items leave the DOM, so counting them does not work).
   */
  async chat(prompt: string): Promise<Locator> {
    const input = this.page.locator('.interactive-input-part .interactive-input-editor .monaco-editor').first();
    await input.click();
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.page.keyboard.press('Backspace');
    await this.page.keyboard.insertText(prompt);
    await this.page.keyboard.press('Enter');
    // The request shows `@name` and `/command` as decorations and may wrap JSON: look for a word.
    const rest = prompt.replace(/^@\S+\s*/, '').replace(/^\/\S+\s*/, '');
    const word = (rest.match(/[A-Za-z]{4,}/g) ?? []).pop() ?? prompt.replace(/^@\S+\s*/, '');
    // Not `.last()` first: the list's sticky header repeats an earlier request after the real ones.
    await this.page.locator('.interactive-item-container.interactive-request', { hasText: word }).last().waitFor();
    const reply = this.page.locator('.interactive-item-container.interactive-response').last();
    await reply.waitFor();
    return reply;
  }

  /**
   * Attaches a workspace file to the next prompt as a user does: the chat input's Add Context button,
   * then the file picked by name in the quick pick.
   */
  async attachFile(name: string): Promise<void> {
    await this.page.locator('.interactive-input-part .action-label[aria-label^="Add Context"]').first().click();
    const quickInput = this.page.locator('.quick-input-widget');
    await quickInput.waitFor();
    await this.page.keyboard.insertText(name);
    await quickInput.locator('.monaco-list-row', { hasText: name }).first().click();
    await this.page.locator('.interactive-input-part .chat-attached-context', { hasText: name }).first().waitFor();
  }

  /**
   * Unfolds the steps a reply folded under "Completed N steps", so their buttons can be clicked. The
   * click is dispatched: scrolled to the top of a long reply, the label sits under the chat's sticky
   * title, which would take a pointer click.
   */
  async unfoldSteps(reply: Locator): Promise<void> {
    const folded = reply.getByText(/^Completed \d+ steps?/).first();
    if (!(await folded.count())) return;
    await folded.scrollIntoViewIfNeeded();
    await folded.dispatchEvent('click');
  }

  /**
   * Clicks a button of a reply. The chat list keeps re-laying out a long reply (it never counts as
   * "stable" for Playwright), so the click is dispatched to the button once it is visible.
   */
  async clickReplyButton(reply: Locator, label: string): Promise<void> {
    const button = reply.locator('.monaco-button', { hasText: label }).first();
    await button.scrollIntoViewIfNeeded();
    await button.waitFor({ state: 'visible' });
    await button.dispatchEvent('click');
  }

  /** All of a reply's text, including steps folded under "Completed N steps" (innerText skips those). */
  async replyText(reply: Locator): Promise<string> {
    return (await reply.evaluate((element) => element.textContent ?? '')).replace(/\u00a0/g, ' ');
  }

  /** Waits until a reply has finished streaming. */
  async replyDone(reply: Locator, timeout = UI_TIMEOUT_MS): Promise<void> {
    await this.page.waitForFunction((element) => element !== null && !element.classList.contains('chat-response-loading'), await reply.elementHandle(), { timeout });
  }

  /** Clicks the chat's stop button (it replaces the send button while a reply is streaming). */
  async stopChat(): Promise<void> {
    await this.page.locator('.interactive-input-part .action-label[class*="codicon-stop"], .interactive-input-part .action-label[aria-label^="Cancel"]').first().click();
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

  /**
   * Copies this server's logs of the extension and of its extension host into `<name>.log` in the
   * results folder (the scratch folder goes with the server): what a failed test saw happen.
   */
  saveLogs(name: string): void {
    const logs = path.join(this.scratch.userData, 'logs');
    if (!fs.existsSync(logs)) return;
    const files = (fs.readdirSync(logs, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.log') && (file.includes('agent-tool-executor') || file.includes('exthost')))
      .sort();
    const text = files.map((file) => `==> ${file} <==\n${fs.readFileSync(path.join(logs, file), 'utf8')}`).join('\n');
    fs.mkdirSync(this.paths.RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(this.paths.RESULTS_DIR, `${name}.log`), text);
  }

  /** Every file and folder of this run's server and browser (profile, storage, logs, caches), not the workspace. */
  statePaths(): string[] {
    return fs.readdirSync(this.scratch.root).map((name) => path.join(this.scratch.root, name)).filter((folder) => folder !== this.workspace);
  }

  /** The user-data folder the server was started with (its `User/` holds settings and workspaceStorage). */
  get userDataDir(): string {
    return this.scratch.userData;
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

/** Polls `check` until it holds (a file on disk, a process gone); fails naming `what` after `timeoutMs`. */
export async function waitUntil(what: string, timeoutMs: number, check: () => boolean): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** True once the extension's log file under `logs` has its activation line. */
function activationLogged(logs: string): boolean {
  return activatedLine(logs) !== undefined;
}

/** The extension's `activated` log line (the text from its `{`), if it was written. */
function activatedLine(logs: string): string | undefined {
  return loggedLine(logs, ACTIVATED_LINE);
}

/** The extension's first log line matching `pattern` (the text from its `{`), if it was written. */
function loggedLine(logs: string, pattern: RegExp): string | undefined {
  for (const lines of extensionLogs(logs)) {
    const line = lines.find((text) => pattern.test(text));
    if (line !== undefined) return line.slice(line.indexOf('{'));
  }
  return undefined;
}

/** The lines of each of the extension's log files under `logs` (its output channel's). */
function extensionLogs(logs: string): string[][] {
  if (!fs.existsSync(logs)) return [];
  const files = (fs.readdirSync(logs, { recursive: true }) as string[]).filter(
    (file) => file.includes('agent-tool-executor.agent-tool-executor') && file.endsWith('.log'),
  );
  return files.map((file) => fs.readFileSync(path.join(logs, file), 'utf8').split('\n'));
}

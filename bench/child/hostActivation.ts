// Child of the bundle row: one start of the real VS Code (the server code-server 4.139.1 bundles, so
// a fresh extension host) with build/agent-tool-executor.vsix installed, the workbench in headless
// Chromium, exactly as the end-to-end tests start it (test/e2e/workbench.ts). Once the extension has
// activated (onStartupFinished), it reads the activation times VS Code's extension host measured
// itself (ExtensionActivationTimes) from two views of the workbench:
//   - "Developer: Show Running Extensions": our row's `.activation-time` ("Activation: N ms", which is
//     code loading + activate call), read from the DOM;
//   - "Developer: Startup Performance": the row of its "Extension Activation Stats" table (Load Code,
//     Call Activate, Finish Activate), read as the editor's text (select all, copy).
// Saves a screenshot of each to test-results/ and prints one JSON line. Every process it starts ends.
// With BENCH_CACHE_HOME set, VS Code's XDG cache folder is that folder (kept across starts, where the
// extension keeps its code cache), and a start that found no cache waits until the extension wrote one.
// It also reads the extension's own measure of its load and activate from its log, and the other extensions
// the same event activated (their code loading runs inside ours as VS Code times it: see bench/rows/bundle.ts).
// Usage: node out/bench/child/hostActivation.js [screenshot-suffix]
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { Workbench } from '../../test/e2e/workbench';

const EXTENSION_ID = 'agent-tool-executor.agent-tool-executor';
const DISPLAY_NAME = 'Agent Tool Executor';
/** A start takes about 20 s (server, workbench, activation about 10 s after it shows); this bounds a hang. */
const BACKSTOP_MS = 180_000;
/** Copies of Startup Performance until one holds our row of its table (it was missing once, under load). */
const COPY_ATTEMPTS = 5;
const COPY_RETRY_MS = 500;
/** A cold start waits at most this long for the code cache (the extension writes it 5 s after activating). */
const CACHE_WAIT_MS = 20_000;
/** How long the first use may take to log `core.started` (it takes well under a second). */
const FIRST_USE_WAIT_MS = 20_000;

export interface HostActivation {
  /** Running Extensions' "Activation: N ms" (VS Code shows code loading + activate call). */
  readonly runningViewMs: number;
  /** Startup Performance's Load Code, Call Activate and Finish Activate (ms, as VS Code rounds them). */
  readonly codeLoadingMs: number;
  readonly activateCallMs: number;
  readonly activateResolvedMs: number;
  /** The activation event VS Code reports (`onStartupFinished`) and whether it counts it as eager. */
  readonly event: string;
  readonly eager: boolean;
  /**
   * Our own share, as the extension measured it in the host and logged it (`activated`): loading and running
   * extension-main.js (the launcher's `loadMs`), and `activate` up to its log line.
   */
  readonly ownLoadMs: number;
  readonly ownActivateMs: number;
  /** The extension host thread's CPU time in each (`loadCpuMs`, `activateCpuMs`); the rest is waiting for a core. */
  readonly ownLoadCpuMs: number;
  readonly ownActivateCpuMs: number;
  /** The time in each the thread waited on a run queue for a core (`loadRunQueueMs`, `activateRunQueueMs`: the kernel's count). */
  readonly ownLoadRunQueueMs: number;
  readonly ownActivateRunQueueMs: number;
  /**
   * The first use, after the measures above: "Agent Tool Executor: Permission Rules…" reads the rules, which starts
   * the core (src/vscode/activation/core.ts `startCore`), logged as `core.started`: loading and running extension-core.js, and
   * starting the executor with its tools and adapters, each with the thread's CPU time, and the core's code cache.
   */
  readonly firstUse: { readonly loadMs: number; readonly loadCpuMs: number; readonly startMs: number; readonly startCpuMs: number; readonly codeCache: string };
  /** The other extensions the same event activated (`onStartupFinished`), with their Load Code (ms). */
  readonly batchMates: ReadonlyArray<{ readonly id: string; readonly codeLoadingMs: number }>;
  /** Whether the start found the extension's code cache (`warm`), wrote it (`cold`), or ran without BENCH_CACHE_HOME. */
  readonly codeCache: 'warm' | 'cold' | 'none';
  readonly screenshots: readonly string[];
}

/** The whole text of the Startup Performance editor (a read-only markdown document, `perf:` scheme). */
async function startupPerformanceText(page: Page): Promise<string> {
  await page.locator('.tabs-container .tab.active', { hasText: 'Startup Performance' }).waitFor();
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await editor.locator('.view-lines').getByText('## System Info').waitFor();
  // The document is generated again while extensions activate; a copy made meanwhile can miss the table.
  for (let attempt = 1; ; attempt++) {
    await editor.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('ControlOrMeta+C');
    const text = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    if ((text.includes('## Extension Activation Stats') && text.includes(`| ${EXTENSION_ID} `)) || attempt >= COPY_ATTEMPTS) return text;
    await page.waitForTimeout(COPY_RETRY_MS);
  }
}

interface StatsRow {
  readonly id: string;
  readonly codeLoadingMs: number;
  readonly activateCallMs: number;
  readonly activateResolvedMs: number;
  readonly event: string;
  readonly eager: boolean;
}

/** The rows of "Extension Activation Stats", checked against the table's header; ours must be there. */
function statsRows(text: string): StatsRow[] {
  const lines = text.split(/\r?\n/);
  const cells = (line: string) => line.split('|').slice(1, -1).map((cell) => cell.trim());
  const heading = lines.findIndex((line) => line.trim() === '## Extension Activation Stats');
  if (heading < 0) throw new Error('no "Extension Activation Stats" in Startup Performance');
  const headerIndex = lines.findIndex((line, index) => index > heading && line.startsWith('|'));
  const header = cells(lines[headerIndex] ?? '');
  const expected = ['Extension', 'Eager', 'Load Code', 'Call Activate', 'Finish Activate', 'Event', 'By'];
  if (header.join() !== expected.join()) throw new Error(`unexpected Extension Activation Stats header: ${header.join(', ')}`);
  const rows: StatsRow[] = [];
  // The table's rows follow its |---| line, up to the first line that is not a row.
  for (let index = headerIndex + 2; index < lines.length && lines[index]!.startsWith('|'); index++) {
    const row = cells(lines[index]!);
    const number = (cell: string | undefined) => {
      const value = Number(cell);
      if (cell === undefined || cell === '' || !Number.isFinite(value)) throw new Error(`not a number in ${lines[index]}`);
      return value;
    };
    rows.push({ id: row[0] ?? '', codeLoadingMs: number(row[2]), activateCallMs: number(row[3]), activateResolvedMs: number(row[4]), event: row[5] ?? '', eager: row[1] === 'true' });
  }
  if (!rows.some((row) => row.id === EXTENSION_ID)) throw new Error(`${EXTENSION_ID} is not in Extension Activation Stats`);
  return rows;
}

/** A number field of one of the extension's log lines. */
function logged(fields: Record<string, unknown>, name: string): number {
  const value = fields[name];
  if (typeof value !== 'number') throw new Error(`the log line has no number ${name}: ${JSON.stringify(fields)}`);
  return value;
}

async function main(): Promise<void> {
  const suffix = process.argv[2] ?? '1';
  const backstop = setTimeout(() => {
    process.stderr.write(`host activation: no result within ${BACKSTOP_MS} ms\n`);
    // The harness's handler kills every group and tagged process this process started, then exits.
    process.kill(process.pid, 'SIGTERM');
  }, BACKSTOP_MS);
  backstop.unref();
  // Waits until the extension's log says it activated (test/e2e/workbench.ts).
  const cacheHome = process.env.BENCH_CACHE_HOME;
  const codeCache = cacheHome ? path.join(cacheHome, 'agent-tool-executor', 'code-cache') : undefined;
  const cached = () => {
    const names = codeCache && fs.existsSync(codeCache) ? fs.readdirSync(codeCache) : [];
    return ['extension-main', 'extension-core'].every((file) => names.some((name) => name.startsWith(`${file}.js.`) && name.endsWith('.v8cache')));
  };
  const warm = cached();
  const workbench = await Workbench.start(undefined, cacheHome ? { cacheHome } : {});
  let result: HostActivation | undefined;
  let failure: unknown;
  try {
    const page = workbench.page;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    // Wide enough for the screenshot to show our table row up to its Finish Activate column.
    await page.setViewportSize({ width: 1920, height: 900 });
    const running = (await (await workbench.runningExtension(DISPLAY_NAME)).locator('.time .activation-time').textContent()) ?? '';
    const runningShot = await workbench.screenshot(`bench-host-activation-running-${suffix}`);
    await page.keyboard.press('Escape');
    await workbench.runCommand('Developer: Startup Performance');
    const rows = statsRows(await startupPerformanceText(page));
    const { id: _id, ...stats } = rows.find((row) => row.id === EXTENSION_ID)!;
    const batchMates = rows.filter((row) => row.id !== EXTENSION_ID && row.event === stats.event).map((row) => ({ id: row.id, codeLoadingMs: row.codeLoadingMs }));
    const own = workbench.activationFields();
    // Find our id (its first match is our row of the table; the document is regenerated as extensions
    // activate, so its line may move), so the screenshot shows the numbers read, highlighted.
    // Typing reveals the first match after the cursor (Enter would go on to the row's last cell).
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.press('ControlOrMeta+F');
    await page.locator('.editor-group-container.active .find-widget textarea, .editor-group-container.active .find-widget input').first().fill(`| ${EXTENSION_ID} `);
    await page.waitForTimeout(300);
    const perfShot = await workbench.screenshot(`bench-host-activation-perf-${suffix}`);
    const match = /Activation: (\d+)ms/.exec(running);
    if (!match) throw new Error(`unexpected Running Extensions text: ${running}`);
    // The core starts on first use: nothing above may have started it.
    if (workbench.loggedFields('core.started') !== undefined) throw new Error('the extension started its core before its first use');
    await page.keyboard.press('Escape');
    await workbench.runCommand('Agent Tool Executor: Permission Rules…');
    let core = workbench.loggedFields('core.started');
    for (let waited = 0; core === undefined && waited < FIRST_USE_WAIT_MS; waited += 100) {
      await page.waitForTimeout(100);
      core = workbench.loggedFields('core.started');
    }
    if (core === undefined) throw new Error(`Permission Rules did not start the core within ${FIRST_USE_WAIT_MS} ms`);
    const firstUse = { loadMs: logged(core, 'loadMs'), loadCpuMs: logged(core, 'loadCpuMs'), startMs: logged(core, 'startMs'), startCpuMs: logged(core, 'startCpuMs'), codeCache: String(core.codeCache) };
    result = { runningViewMs: Number(match[1]), ...stats, ownLoadMs: logged(own, 'loadMs'), ownActivateMs: logged(own, 'activateMs'), ownLoadCpuMs: logged(own, 'loadCpuMs'), ownActivateCpuMs: logged(own, 'activateCpuMs'), ownLoadRunQueueMs: logged(own, 'loadRunQueueMs'), ownActivateRunQueueMs: logged(own, 'activateRunQueueMs'), firstUse, batchMates, codeCache: codeCache ? (warm ? 'warm' : 'cold') : 'none', screenshots: [runningShot, perfShot].map((file) => path.relative(process.cwd(), file)) };
    // The extension writes its code caches a few seconds after a cold activation (src/extensionLauncher.ts) and
    // after the core's first load (src/vscode/coreModules.ts).
    for (let waited = 0; codeCache && !warm && !cached() && waited < CACHE_WAIT_MS; waited += 100) await page.waitForTimeout(100);
  } catch (error) {
    failure = error;
    await workbench.screenshot(`bench-host-activation-FAILED-${suffix}`).catch(() => undefined);
  }
  const left = await workbench.stop();
  if (left.length > 0) throw new Error(`still running after stop:\n${left.join('\n')}`);
  if (failure !== undefined) throw failure;
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}

// Headless Debian Chromium driven by playwright-core, in its own process group, tagged like
// every process of a run so the leak check finds whatever it leaves behind.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { killTagged, RUN_TAG_VARIABLE, trackTag } from './processes';
import type { VscodePaths } from './paths';
import type { Scratch } from './server';

/** Flags measured on these machines: no sandbox as root, no network chatter, no GPU. */
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--disable-breakpad',
];

/** A closing browser normally exits at once; this bounds a hung close before the group is killed. */
const CLOSE_TIMEOUT_MS = 10_000;

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(paths: VscodePaths, scratch: Scratch): Promise<Browser> {
  const tag = `${scratch.runTag}browser`;
  const untrack = trackTag(tag);
  const context = await chromium.launchPersistentContext(scratch.browserProfile, {
    executablePath: paths.CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
    env: { ...scratch.env, [RUN_TAG_VARIABLE]: tag },
    // Playwright starts Chromium detached, as its own process group.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      const timer = new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref());
      await Promise.race([context.close().catch(() => undefined), timer]);
      await killTagged(tag);
      untrack();
    },
  };
}

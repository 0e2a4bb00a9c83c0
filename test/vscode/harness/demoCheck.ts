// `npm start -- --check`: opens the served workbench in headless Chromium as a person would, waits
// for the chat view with the scripted demo model selected in its model picker, asks `@executor`
// something and waits for its answer, and saves a screenshot.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser } from './browser';
import type { VscodePaths } from './paths';
import type { Scratch } from './server';

/** The workbench shows 3-4 s after navigation; the extension host and the model take about 10 s more. */
const CHECK_TIMEOUT_MS = 90_000;
/** The model's name in the picker (src/vscode/demoModel/provider.ts). */
export const DEMO_MODEL_NAME = 'Scripted demo (offline)';
const SCREENSHOT = 'start-demo.png';
/** A prompt the demo model answers without tools (src/vscode/demoModel/recap.ts), and its answer. */
const CHECK_PROMPT = '@executor recap';
const CHECK_ANSWER = 'no tool results from earlier';

/** Resolves with the screenshot's path once the chat view has the demo model selected; throws after the timeout. */
export async function checkWorkbench(paths: VscodePaths, scratch: Scratch, url: string): Promise<string> {
  const browser = await launchBrowser(paths, scratch);
  try {
    const page = browser.page;
    page.setDefaultTimeout(CHECK_TIMEOUT_MS);
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator('#workbench\\.parts\\.statusbar').waitFor();
    await page.locator('.interactive-session').first().waitFor();
    // The picker's label shows the selected model (cut short in a narrow chat view); opening it
    // shows the whole name, ticked, for the screenshot.
    const picker = page.locator('.interactive-input-part .model-picker-name .chat-input-picker-label', { hasText: DEMO_MODEL_NAME });
    await picker.waitFor();
    await picker.click();
    await page.locator('.monaco-list-row', { hasText: DEMO_MODEL_NAME }).first().waitFor();
    fs.mkdirSync(paths.RESULTS_DIR, { recursive: true });
    const file = path.join(paths.RESULTS_DIR, SCREENSHOT);
    // The picker fades in; a finished animation makes the screenshot readable.
    await page.keyboard.press('Escape');
    // The participant answers: the scripted model's reply to a prompt that runs no tool.
    const input = page.locator('.interactive-input-part .interactive-input-editor .monaco-editor').first();
    await input.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.insertText(CHECK_PROMPT);
    await page.keyboard.press('Enter');
    await page.locator('.interactive-item-container.interactive-response', { hasText: CHECK_ANSWER }).first().waitFor();
    await page.screenshot({ path: file, animations: 'disabled' });
    return file;
  } finally {
    await browser.close();
  }
}

// `dist/extension.js`, the extension's `main`: runs the extension proper, `dist/extension-main.js`, with a V8
// code cache where it can (src/node/codeCache.ts; issue 13: load + activate in the real extension host, where
// loading the code was most of it). The cache is written once, a little after the first activation without
// one, so it holds what activating compiled. Only Node built-ins here, so this file stays a few KB.
import * as path from 'node:path';
import { loadWithCodeCache } from './node/codeCache';

/** How long after activation the code cache is written: activation and the first requests have compiled by then. */
export const CODE_CACHE_SAVE_DELAY_MS = 5000;

interface ExtensionModule {
  activate(context: unknown): unknown;
  deactivate?(): unknown;
}

const loaded = loadWithCodeCache(path.join(__dirname, 'extension-main.js'));
const main = loaded.module.exports as ExtensionModule;

export function activate(context: unknown): unknown {
  const api = main.activate(context);
  setTimeout(() => loaded.save(), CODE_CACHE_SAVE_DELAY_MS).unref();
  return api;
}

export function deactivate(): unknown {
  return main.deactivate?.();
}

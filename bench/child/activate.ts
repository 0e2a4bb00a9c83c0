// Child of the bundle row: loads a bundled extension.js in plain Node with a minimal `vscode` stub
// (a proxy that answers every API with a harmless value) and times require + activate(). The real
// extension host adds its own costs; this measures what the bundle itself costs to load and start.
// Usage: node out/bench/child/activate.js path/to/extension.js [--first-use]
import Module from 'node:module';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Anything: callable, constructible, every property another stub; settings read as unset. */
function stub(name: string): unknown {
  const target = function () {} as unknown as object;
  const assigned = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    set(_target, key, value) {
      assigned.set(key, value);
      return true;
    },
    get(_target, key) {
      if (assigned.has(key)) return assigned.get(key);
      if (key === 'then' || key === Symbol.asyncIterator) return undefined;
      // Lists the API returns (`lm.tools`, …) read as empty.
      if (key === Symbol.iterator) return () => [][Symbol.iterator]();
      if (key === Symbol.toPrimitive) return () => name;
      // `get` and `inspect` (each layer of a setting): unset. Otherwise an `inspect`ed setting reads as
      // set, and the extension starts what a setting names (an agent) as it would in no real window.
      if (key === 'get' || key === 'inspect') return () => undefined;
      if (key === 'workspaceFolders') return [];
      if (key === 'fsPath' || key === 'path') return STORAGE;
      if (key === 'subscriptions') return [];
      if (key === 'appRoot') return tmpdir();
      return stub(`${name}.${String(key)}`);
    },
    apply: () => stub(`${name}()`),
    construct: () => stub(`new ${name}`) as object,
  });
}

const STORAGE = mkdtempSync(path.join(tmpdir(), 'bench-ext-'));

const extensionPath = path.resolve(process.argv[2] ?? 'dist/extension.js');
/** Every top-level name of the `vscode` API, from its type declarations (the extension may use any). */
function apiNames(): string[] {
  const declarations = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  const names = new Set<string>();
  for (const match of declarations.matchAll(/^\s{1,8}export (?:class|namespace|enum|function|const|let) ([A-Za-z_$][\w$]*)/gm)) names.add(match[1]!);
  return [...names];
}
const NAMESPACES = apiNames();
/** The `vscode` module: a plain object (a bundle copies its own keys), each namespace a stub. */
const vscode = Object.fromEntries(NAMESPACES.map((name) => [name, stub(`vscode.${name}`)]));
const originalLoad = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
(Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load = function (request: string, ...rest: unknown[]) {
  if (request === 'vscode') return vscode;
  return originalLoad.call(this, request, ...rest);
};

const started = performance.now();
const extension = require(extensionPath) as { activate(context: unknown): unknown };
const loaded = performance.now();
const context = {
  subscriptions: [] as unknown[],
  extensionPath: STORAGE,
  extensionUri: stub('extensionUri'),
  storageUri: stub('storageUri'),
  globalStorageUri: stub('globalStorageUri'),
  workspaceState: stub('workspaceState'),
  globalState: stub('globalState'),
  secrets: stub('secrets'),
  extensionMode: 1,
  logUri: stub('logUri'),
  extension: { id: 'agent-tool-executor.agent-tool-executor', packageJSON: JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')), extensionUri: stub('extensionUri') },
};
const api = extension.activate(context) as { registry: { names(): string[] } };
const activated = performance.now();
// `--first-use`: then what the first use costs, which loads and starts the core (src/vscode/coreModules.ts).
const firstUse = process.argv.includes('--first-use') ? { tools: api.registry.names().length, firstUseMs: performance.now() - activated } : {};
process.stdout.write(`${JSON.stringify({ loadMs: loaded - started, activateMs: activated - loaded, ...firstUse })}\n`);
process.exit(0);

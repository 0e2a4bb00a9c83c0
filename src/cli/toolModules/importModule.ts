// `import()` of a `--tools` module, in a file of its own: the CLI bundle (dist/cli-main.js) may be compiled by
// `vm.Script` from a V8 code cache (src/cli/launch/cliCodeCache.ts), and on Node 20 an `import()` in a script
// deserialized from a cache fails ("A dynamic import callback was not specified"). In the bundle this module
// is `dist/cli-import.js`, which Node's own loader compiles (scripts/build.mjs), so its `import()` is Node's.
export function importModule(url: string): Promise<unknown> {
  return import(url);
}

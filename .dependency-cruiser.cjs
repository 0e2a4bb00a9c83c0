// No import cycles in src, type-only imports included (a knot in the layers even when erased at run time).
// Run by `npm run lint` (after ESLint, which keeps what each layer may import: eslint.config.mjs).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others, are one knot: move what both need to one owner.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(out|dist|node_modules)/' },
  },
};

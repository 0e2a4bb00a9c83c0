// The layer rules of eslint.config.mjs and the cycle check of .dependency-cruiser.cjs, each broken once on
// a snippet: a config that stopped matching (a moved folder, a renamed rule) fails here, not silently.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The rules that `source`, as the file `file` (from the repository root), breaks: `rule: message`. */
async function broken(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

function assertReported(found: readonly string[], rule: string, words: string): void {
  assert.ok(
    found.some((line) => line.startsWith(`${rule}:`) && line.includes(words)),
    `expected ${rule} saying "${words}", got ${JSON.stringify(found)}`,
  );
}

describe('lint: each layer rule reports what breaks it', () => {
  it('the core imports no vscode', async () => {
    assertReported(await broken('src/executor/call/probe.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n"), 'no-restricted-imports', 'never imports vscode');
  });

  it('the core does no I/O of its own: no node:fs, fs/promises or child_process', async () => {
    for (const module of ['node:fs', 'fs/promises', 'node:child_process']) {
      assertReported(await broken('src/executor/policy/path/probe.ts', `import * as m from '${module}';\nexport const x = m;\n`), 'no-restricted-imports', 'through its ports');
    }
  });

  it('the core imports nothing from outside src/executor', async () => {
    const found = await broken('src/executor/policy/path/probe.ts', "import { processMountTable } from '../../../node/runtime/localMounts';\nexport const x = processMountTable;\n");
    assertReported(found, 'import-x/no-restricted-paths', 'imports nothing from outside it');
  });

  it('outside the core, only the barrel; the glue may also read results/artifactLayout', async () => {
    assertReported(await broken('src/cli/probe.ts', "import { judgePath } from '../executor/policy/path/judgePath';\nexport const x = judgePath;\n"), 'import-x/no-restricted-paths', 'only through its barrel');
    assertReported(await broken('src/tools/file/probe.ts', "import { ARTIFACT_SCHEME } from '../../executor/results/artifactLayout';\nexport const x = ARTIFACT_SCHEME;\n"), 'import-x/no-restricted-paths', 'only through its barrel');
    assertReported(await broken('src/vscode/probe.ts', "import { judgePath } from '../executor/policy/path/judgePath';\nexport const x = judgePath;\n"), 'import-x/no-restricted-paths', 'only through its barrel');
    assert.deepEqual(await broken('src/vscode/probe.ts', "import { ARTIFACT_SCHEME } from '../executor/results/artifactLayout';\nimport { resolveModelPath } from '../executor';\nexport const x = [ARTIFACT_SCHEME, resolveModelPath];\n"), []);
  });

  it('the tools import no vscode and no front end', async () => {
    assertReported(await broken('src/tools/shell/probe.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n"), 'no-restricted-imports', 'never import vscode');
    assertReported(await broken('src/tools/sandbox/probe.ts', "import { BridgeService } from '../../bridge/service';\nexport const x = BridgeService;\n"), 'import-x/no-restricted-paths', 'do not import src/bridge');
  });

  it('bridge, ACP and CLI import each other only through the named modules', async () => {
    assertReported(await broken('src/bridge/probe.ts', "import { OrderedPrinter } from '../cli/output';\nexport const x = OrderedPrinter;\n"), 'import-x/no-restricted-paths', 'src/bridge does not import src/cli');
    assertReported(await broken('src/acp/probe.ts', "import { Methods } from '../bridge/protocol';\nexport const x = Methods;\n"), 'import-x/no-restricted-paths', 'src/acp does not import src/bridge');
    assertReported(await broken('src/cli/probe.ts', "import { wireEvent } from '../bridge/wire';\nexport const x = wireEvent;\n"), 'import-x/no-restricted-paths', 'only through bind.ts, framing.ts, protocol.ts, service.ts');
    assert.deepEqual(await broken('src/cli/probe.ts', "import { BridgeService } from '../bridge/service';\nexport const x = BridgeService;\n"), []);
  });

  it('no vscode outside the glue', async () => {
    assertReported(await broken('src/node/probe.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n"), 'no-restricted-imports', 'only the extension glue');
  });
});

describe('lint: the cycle check reports a cycle through a type-only import', () => {
  it('fails on two modules that import each other, and passes once the knot is gone', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ate-cycles-'));
    try {
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', strict: true }, include: ['src/**/*.ts'] }));
      execFileSync('mkdir', ['-p', path.join(dir, 'src')]);
      writeFileSync(path.join(dir, 'src', 'a.ts'), "import type { B } from './b';\nexport interface A { b?: B }\n");
      writeFileSync(path.join(dir, 'src', 'b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\nexport const b = 1;\n");
      const depcruise = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
      const config = path.join(ROOT, '.dependency-cruiser.cjs');
      const run = () => execFileSync(depcruise, ['src', '--config', config], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
      assert.throws(run, (error: { stdout?: string }) => /no-cycle: src\/a\.ts → \s*src\/b\.ts →\s*src\/a\.ts/.test(error.stdout ?? ''));
      writeFileSync(path.join(dir, 'src', 'b.ts'), 'export interface B { a?: unknown }\n');
      assert.match(run(), /no dependency violations found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

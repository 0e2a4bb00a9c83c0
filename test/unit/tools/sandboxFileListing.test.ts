// The sandbox runtime bundle's file listing (src/tools/sandbox/runtime/fileListing.ts), which stands in for the
// library's `rg --files` run on every wrap: the library's own arguments, taken from its real call, are
// answered without ripgrep, with what ripgrep lists for them (or more, never less) over a tree of
// protected names, look-alikes, links and special files; a folder that cannot be read is reported as
// ripgrep reports it; arguments of any other shape run ripgrep itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listFiles, parseListing, ripGrep, RipgrepError } from '../../../src/tools/sandbox/runtime/fileListing';
import { SandboxRuntimeProcess } from '../../../src/tools/sandbox/runtime/runtimeProcess';
import { sandboxRuntimeConfig } from '../../../src/tools/sandbox/sandboxConfig';
import { CAN_SANDBOX } from './canSandbox';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const RG = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();

/** Files (relative paths), `dir/` folders, links (`name -> target`) and a FIFO (`|name`) of the tree. */
const TREE = [
  '.bashrc', '.BashRC', 'foo.bashrc', '.gitconfig', '.Mcp.Json', 'plain.txt',
  'sub/.gitconfig', 'sub/.bash_profile', 'sub/sub2/.bashrc', 'sub/sub2/.zshrc', 'sub/node_modules/.zshrc',
  '.vscode/settings.json', '.vscode/sub/x', '.Vscode/y', 'dirA/.idea/x', 'dirA/.IDEA/deeper/y',
  'node_modules/.bashrc', 'node_modules/pkg/.bashrc', 'node_modules/pkg/.vscode/z', 'NODE_MODULES/.bashrc', 'NODE_MODULES/pkg/.bashrc',
  '.git/HEAD', '.git/config', '.git/hooks/pre-commit', 'nested/.git/HEAD', 'nested/.git/config', 'nested/.git/hooks/pre-push',
  '.claude/commands/a.md', '.claude/agents/deep/b.md', 'sub/.claude/commands/c.md', 'sub/.Claude/Agents/d.md',
  '.ripgreprc/inner', 'empty/', 'deep/a/b/c/.profile',
  '.profile -> /etc/hostname', '.zshrc -> /nonexistent', '.idea -> sub', 'sub/.gitmodules -> ../.vscode/settings.json',
  '|.mcp.json',
];

function makeTree(root: string): void {
  for (const entry of TREE) {
    const [name, target] = entry.split(' -> ');
    const file = path.join(root, name!.replace(/^\|/, ''));
    fs.mkdirSync(name!.endsWith('/') ? file : path.dirname(file), { recursive: true });
    if (target) fs.symlinkSync(target, file);
    else if (name!.startsWith('|')) spawnSync('mkfifo', [file]);
    else if (!name!.endsWith('/')) fs.writeFileSync(file, '');
  }
}

/** What ripgrep lists for `args` in `root`, sorted. */
function ripgrepLists(args: readonly string[], root: string): string[] {
  const run = spawnSync(RG, [...args, root], { encoding: 'utf8' });
  assert.ok(run.status === 0 || run.status === 1, `rg ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.split('\n').filter(Boolean).sort();
}

/** `args` with `--max-depth` set to `depth`. */
const atDepth = (args: readonly string[], depth: number) => args.map((arg, index) => (args[index - 1] === '--max-depth' ? String(depth) : arg));

describe("the sandbox runtime's file listing", { skip: RG ? false : 'needs ripgrep to compare with (scripts/setup.sh)' }, () => {
  let dir: string;
  let tree: string;
  /** A `rg` that notes each run's arguments (a line each, NUL between them) and runs the real one. */
  let loggingRg: string;
  let log: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'file-listing-')));
    tree = path.join(dir, 'tree');
    makeTree(tree);
    log = path.join(dir, 'rg.log');
    loggingRg = path.join(dir, 'rg');
    fs.writeFileSync(loggingRg, `#!/bin/sh\nprintf '%s\\0' "$@" >> '${log}'\nprintf '\\n' >> '${log}'\nexec '${RG}' "$@"\n`, { mode: 0o755 });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The runs of the logging `rg` so far, each its arguments. */
  const runs = (): string[][] =>
    fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\0').slice(0, -1)) : [];

  /** A wrap of `true` in `tree` by the runtime process of `script`, the library told to use the logging `rg`. */
  async function wrapInTree(script?: string): Promise<void> {
    const runtime = new SandboxRuntimeProcess(script ? { script } : {});
    try {
      await runtime.initialize(sandboxRuntimeConfig({ folders: [tree], home: os.homedir(), platform: process.platform, allowedDomains: [], ripgrep: loggingRg }));
      fs.rmSync(log, { force: true });
      await runtime.wrap({ command: 'true', shell: '/bin/sh', key: 'listing', cwd: tree }, new AbortController().signal);
      await runtime.commandEnded();
    } finally {
      await runtime.reset();
    }
  }

  it("answers the library's own call, as it makes it, with what ripgrep lists at any depth, or more under node_modules", { skip: CAN_SANDBOX ? false : 'needs Linux with bubblewrap and socat (scripts/setup.sh)' }, async () => {
    // tsc's output runs the library as it is published: its own ripGrep runs the logging `rg`.
    await wrapInTree();
    const calls = runs();
    assert.equal(calls.length, 1, 'one ripgrep run per wrap');
    const args = calls[0]!.slice(0, -1);
    assert.equal(calls[0]!.at(-1), tree, 'over the folder the command runs in');
    assert.ok(parseListing(args), `the library's arguments are a listing answered without ripgrep: ${args.join(' ')}`);
    for (const depth of [0, 1, 2, 3, 4, 6]) {
      const expected = ripgrepLists(atDepth(args, depth), tree);
      const listed = (await ripGrep(atDepth(args, depth), tree)).sort();
      assert.deepEqual(expected.filter((file) => !listed.includes(file)), [], `at depth ${depth}, nothing ripgrep lists is missing`);
      assert.deepEqual(listed.filter((file) => !expected.includes(file) && !/\/node_modules\//i.test(file)), [], `at depth ${depth}, nothing more but under node_modules`);
    }
    const twoDeep = (await ripGrep(atDepth(args, 2), tree)).map((file) => path.relative(tree, file)).sort();
    assert.deepEqual(twoDeep, ['.BashRC', '.Mcp.Json', '.Vscode/y', '.bashrc', '.git/HEAD', '.git/config', '.gitconfig', '.vscode/settings.json', 'NODE_MODULES/.bashrc', 'node_modules/.bashrc', 'sub/.bash_profile', 'sub/.gitconfig']);
  });

  it('runs no ripgrep in the production bundle, whose wraps it answers', { skip: CAN_SANDBOX ? false : 'needs Linux with bubblewrap and socat (scripts/setup.sh)' }, async () => {
    const bundle = path.join(REPO, 'dist', 'sandbox-host.js');
    assert.ok(fs.existsSync(bundle), 'npm run build makes dist/sandbox-host.js before the unit tests');
    await wrapInTree(bundle);
    assert.deepEqual(runs(), [], 'the wrap started no ripgrep');
  });

  it('lists the rest and reports a folder it cannot read as ripgrep does, by its path', () => {
    const request = parseListing(['--files', '--hidden', '--no-ignore', '--no-config', '--max-depth', '3', '--iglob', '.bashrc'])!;
    const unreadable = path.join(tree, 'sub');
    const read = (folder: string) => {
      if (folder === unreadable) throw Object.assign(new Error(`EACCES: permission denied, scandir '${folder}'`), { code: 'EACCES' });
      return fs.readdirSync(folder, { withFileTypes: true });
    };
    assert.throws(
      () => listFiles(request, tree, read),
      (error: unknown) => {
        assert.ok(error instanceof RipgrepError);
        assert.deepEqual(error.listed.map((file) => path.relative(tree, file)).sort(), ['.BashRC', '.bashrc', 'NODE_MODULES/.bashrc', 'NODE_MODULES/pkg/.bashrc', 'node_modules/.bashrc', 'node_modules/pkg/.bashrc']);
        assert.equal(error.stderr, `rg: ${unreadable}: EACCES`);
        return true;
      },
    );
  });

  it('runs ripgrep itself for arguments of any other shape, as the library does', async () => {
    fs.rmSync(log, { force: true });
    for (const args of [
      ['--files', '--hidden', '--no-ignore', '--no-config', '--max-depth', '2', '--iglob', '*.txt'],
      ['--files', '--hidden', '--no-ignore', '--max-depth', '2', '--iglob', '.bashrc'],
      ['--files', '--hidden', '--no-ignore', '--no-config', '--max-depth', '2', '--sort', 'path', '--iglob', '.bashrc'],
      ['--files', '--hidden', '--no-ignore', '--no-config', '--iglob', '**/a/**/b'],
    ]) {
      assert.equal(parseListing(args), undefined, args.join(' '));
      assert.deepEqual((await ripGrep(args, tree, undefined, { command: loggingRg })).sort(), ripgrepLists(args, tree), args.join(' '));
    }
    assert.equal(runs().length, 4);
    assert.deepEqual(await ripGrep(['--files', '--no-config', '--iglob', 'no-such-name'], tree, undefined, { command: loggingRg }), [], 'exit 1: nothing found');
    await assert.rejects(ripGrep(['--files', '--no-config'], path.join(tree, 'gone'), undefined, { command: loggingRg }), RipgrepError, 'exit 2');
  });
});

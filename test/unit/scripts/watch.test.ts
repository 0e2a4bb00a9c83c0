import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';

/** The repository root, from out/test/unit/scripts. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
/** A backstop for one round of the watch build, far above what it takes, so a hang fails instead of waiting forever. */
const ROUND_BACKSTOP_MS = 120_000;

/** A JSON file with comments, as VS Code reads `.vscode/*.json`. */
function readJsonc(file: string): any {
  const parsed = ts.parseConfigFileTextToJson(file, fs.readFileSync(path.join(ROOT, file), 'utf8'));
  assert.equal(parsed.error, undefined, `${file} parses`);
  return parsed.config;
}

describe('the VS Code project setup', () => {
  const launch = readJsonc('.vscode/launch.json');
  const tasks = readJsonc('.vscode/tasks.json');
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

  it('F5 has "Run Extension" and "Extension Tests", each after a task that exists', () => {
    const names = launch.configurations.map((config: { name: string }) => config.name);
    assert.deepEqual(names, ['Run Extension', 'Extension Tests']);
    const labels = new Set(tasks.tasks.map((task: { label: string }) => task.label));
    for (const config of launch.configurations) {
      assert.equal(config.type, 'extensionHost');
      assert.ok(labels.has(config.preLaunchTask), `${config.name}: preLaunchTask ${config.preLaunchTask}`);
    }
    const suite = launch.configurations[1].args.find((arg: string) => arg.startsWith('--extensionTestsPath='));
    assert.equal(suite, '--extensionTestsPath=${workspaceFolder}/out/test/vscode/suite/index');
    assert.ok(fs.existsSync(path.join(ROOT, 'test', 'vscode', 'suite', 'index.ts')));
  });

  it('each task runs an npm script that exists, and each task it depends on exists', () => {
    const labels = new Set(tasks.tasks.map((task: { label: string }) => task.label));
    for (const task of tasks.tasks) {
      if (task.type === 'npm') assert.ok(scripts[task.script], `npm run ${task.script}`);
      for (const dependency of task.dependsOn ?? []) assert.ok(labels.has(dependency), `${task.label} depends on ${dependency}`);
    }
    assert.equal(scripts.watch, 'node scripts/build.mjs --watch');
  });

  it('recommends ESLint', () => {
    assert.deepEqual(readJsonc('.vscode/extensions.json').recommendations, ['dbaeumer.vscode-eslint']);
  });
});

describe('npm run watch', () => {
  // The watch build of a copy of the sources, so the test can change one without touching the repository's.
  let copy: string;
  let watcher: ChildProcess;
  let output = '';
  /** Callers waiting for a round of the watch build after which their condition holds. */
  let waiters: { holds: () => boolean; resolve: () => void }[] = [];
  let rounds = 0;
  /** Resolves at the end of the first round of the watch build (now or later) after which `holds()`. */
  const roundWhere = (holds: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      if (rounds > 0 && holds()) return resolve();
      const backstop = setTimeout(() => reject(new Error(`no round of the watch build made it so:\n${output}`)), ROUND_BACKSTOP_MS);
      waiters.push({ holds, resolve: () => (clearTimeout(backstop), resolve()) });
    });

  before(() => {
    copy = fs.mkdtempSync(path.join(tmpdir(), 'ate-watch-'));
    for (const name of ['src', 'scripts', 'package.json', 'tsconfig.json']) fs.cpSync(path.join(ROOT, name), path.join(copy, name), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    watcher = spawn(process.execPath, ['scripts/build.mjs', '--watch'], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      const done = output.match(/^\[watch\] build finished$/gm)?.length ?? 0;
      if (done === rounds) return;
      rounds = done;
      waiters = waiters.filter((waiter) => (waiter.holds() ? (waiter.resolve(), false) : true));
    };
    watcher.stdout!.on('data', take);
    watcher.stderr!.on('data', take);
  });

  after(async () => {
    if (watcher.exitCode === null) {
      const exited = new Promise((resolve) => watcher.once('exit', resolve));
      watcher.kill();
      await exited;
    }
    fs.rmSync(copy, { recursive: true, force: true });
  });

  it('rebuilds the extension\'s core when a file only the core imports changes, and reports errors as the task expects', async () => {
    await roundWhere(() => true);
    assert.match(output, /^\[watch\] build started$/m);
    const core = path.join(copy, 'dist', 'extension-core.js');
    const lookup = path.join(copy, 'src', 'executor', 'call', 'stages', 'admit', 'lookup.ts');
    const text = fs.readFileSync(lookup, 'utf8');
    assert.ok(text.includes("'unknown tool: (no tool name given)'"));
    assert.ok(!fs.readFileSync(core, 'utf8').includes('no tool name given, watched'));

    fs.writeFileSync(lookup, text.replace('(no tool name given)', '(no tool name given, watched)'));
    // Each bundle's context notices the change on its own (esbuild polls), so wait for the core itself; before
    // the core's files were watched, this waited in vain while the CLI's bundle was rebuilt.
    await roundWhere(() => fs.readFileSync(core, 'utf8').includes('no tool name given, watched'));

    fs.writeFileSync(lookup, text.replace("'unknown tool: (no tool name given)'", "'unknown tool: (no tool name given)' +"));
    // The problem matcher of .vscode/tasks.json: the message, then `    file:line:column:`.
    const pattern = tasks().problemMatcher.pattern as { regexp: string }[];
    const errorAt = () => output.split('\n').findIndex((line) => new RegExp(pattern[0]!.regexp).test(line));
    await roundWhere(() => errorAt() >= 0);
    const lines = output.split('\n');
    const at = errorAt();
    const where = new RegExp(pattern[1]!.regexp).exec(lines[at + 1]!);
    assert.equal(where?.[1], 'src/executor/call/stages/admit/lookup.ts', output);
  });
});

function tasks(): { problemMatcher: { pattern: unknown } } {
  return readJsonc('.vscode/tasks.json').tasks.find((task: { label: string }) => task.label === 'npm: watch');
}

// Git's files that name commands or folders (`src/executor/policy/path/gitFiles.ts`), attacked the way a hostile
// agent would: a sandboxed command that points `.git/commondir` at a folder it controls, rewrites a worktree's
// `.git` file, adds `core.fsmonitor` to a config git reads, or makes `.gitmodules` and ignore files that do not
// exist yet. Each must be refused by the sandbox, always asked for by Write (acceptEdits mode answers no
// other edit), and listed in Workspace Changes when something writes it anyway. The proof is the host's own
// `git status` afterwards: the payload must not run.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import { createNodeSnapshotter, type NodeWorkspaceSnapshotter } from '../../../src/node/snapshot/nodeSnapshotter';
import { ProcessSupervisor } from '../../../src/tools/process/supervisor';
import { repositoryPaths } from '../../../src/tools/sandbox/gitPaths';
import { CAN_SANDBOX, sandboxPerSuite } from './canSandbox';
import { makeWorkspace, type Workspace } from './helpers';

const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const ALLOW_ALL = { requestApproval: async () => ({ kind: 'allowOnce' as const }) };

/** A git config whose fsmonitor hook leaves `marker` behind: what `git status` runs on the host. */
const payloadConfig = (marker: string) => `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${marker}; false"\n`;

/** Shell that builds a repository folder `dir` git accepts, with the payload in its config. */
const evilRepository = (dir: string, marker: string) =>
  `mkdir -p ${dir}/objects ${dir}/refs/heads && echo 'ref: refs/heads/main' > ${dir}/HEAD && printf '${payloadConfig(marker).replaceAll('\n', '\\n').replaceAll('\t', '\\t')}' > ${dir}/config`;

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
}

/** The host's `git status`, as VS Code's git extension runs it unasked; its failure is no concern here. */
function hostGitStatus(cwd: string): void {
  spawnSync('git', ['status', '--porcelain'], { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** One attack: the command, and the workspace it starts from (`repo`, `worktree` or none). */
interface Vector {
  readonly name: string;
  readonly start: 'repo' | 'worktree' | 'empty';
  /** A command that, unhindered, makes the host's next `git status` leave `marker`. */
  command(marker: string, ws: string): string;
}

const VECTORS: readonly Vector[] = [
  { name: '.git/commondir pointing at a folder the command controls', start: 'repo', command: (marker) => `${evilRepository('evil', marker)}; echo "$PWD/evil" > .git/commondir` },
  { name: "a worktree's .git file pointing elsewhere (gitdir:)", start: 'worktree', command: (marker) => `${evilRepository('evil', marker)}; echo "gitdir: $PWD/evil" > .git` },
  { name: 'core.fsmonitor through `git config`', start: 'repo', command: (marker) => `git config core.fsmonitor "touch ${marker}; false"` },
  { name: 'config.worktree with extensions.worktreeConfig already on', start: 'repo', command: (marker) => `printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' > .git/config.worktree` },
  { name: 'a repository made where there was none', start: 'empty', command: (marker) => evilRepository('.git', marker) },
];

/** Main repositories of the worktree vectors, removed at the end. */
const mainRepositories: string[] = [];
after(() => mainRepositories.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function prepare(ws: string, start: Vector['start']): void {
  if (start === 'empty') return;
  const repo = start === 'repo' ? ws : fs.mkdtempSync(path.join(os.tmpdir(), 'git-main-'));
  if (repo !== ws) mainRepositories.push(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init');
  // The worktree vector's extension: a repository whose per-worktree config git reads.
  if (start === 'repo') git(repo, 'config', 'extensions.worktreeConfig', 'true');
  if (start === 'worktree') {
    fs.rmSync(ws, { recursive: true, force: true });
    git(repo, 'worktree', 'add', '-q', ws);
  }
}

describe('git files, through the sandboxed Bash', { skip: !CAN_SANDBOX || !HAS_GIT ? 'needs git, and Linux with bubblewrap and socat (scripts/setup.sh)' : false }, () => {
  let ws: Workspace;
  let supervisor: ProcessSupervisor;
  const suite = sandboxPerSuite();
  beforeEach(() => {
    supervisor = new ProcessSupervisor();
    // Every approval answered yes: only the sandbox stands between the command and the file.
    const permissionPolicy = new RulesPolicy();
    permissionPolicy.sandboxed = (request) => suite.sandbox.autoAllows(request);
    ws = makeWorkspace({ tools: { supervisor, sandbox: suite.sandbox }, executor: { permissionPolicy, approvalClient: ALLOW_ALL } });
  });
  afterEach(async () => {
    await supervisor.dispose();
    await ws.dispose();
  });
  const configure = async (ignoreFiles?: readonly string[]) => {
    await suite.sandbox.configure({ enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: [] }, { folders: [ws.dir], webFetchDomains: [], ...(ignoreFiles ? { ignoreFiles } : {}) });
    assert.equal(suite.sandbox.state, 'ready', suite.sandbox.unavailableReason);
  };

  for (const vector of VECTORS) {
    it(`refuses ${vector.name}: the host's git status runs nothing`, async () => {
      prepare(ws.dir, vector.start);
      await configure();
      const marker = path.join(suite.home, `PWNED-${Math.random().toString(36).slice(2)}`);
      const result = await ws.run('Bash', { command: vector.command(marker, ws.dir) });
      hostGitStatus(ws.dir);
      assert.equal(fs.existsSync(marker), false, `the payload ran on the host after: ${result.modelContent}`);
      assert.match(result.modelContent, /The OS sandbox blocked: writing |Device or resource busy/);
    });
  }

  it("refuses a submodule checkout's .git file below the folder's root: the host's git status runs nothing", async () => {
    prepare(ws.dir, 'repo');
    // A submodule as `git submodule add` leaves it: its checkout's .git file points into .git/modules.
    ws.write('.gitmodules', '[submodule "lib"]\n\tpath = libs/lib\n\turl = ./nowhere\n');
    ws.write('libs/lib/.git', 'gitdir: ../../.git/modules/lib\n');
    await configure();
    const marker = path.join(suite.home, `PWNED-${Math.random().toString(36).slice(2)}`);
    const result = await ws.run('Bash', { command: `${evilRepository('evil', marker)}; echo "gitdir: $PWD/evil" > libs/lib/.git` });
    hostGitStatus(ws.dir);
    hostGitStatus(ws.file('libs/lib'));
    assert.equal(fs.existsSync(marker), false, `the payload ran on the host after: ${result.modelContent}`);
    assert.equal(ws.read('libs/lib/.git'), 'gitdir: ../../.git/modules/lib\n');
  });

  it("refuses a working-tree file the repository's config includes (include.path)", async () => {
    prepare(ws.dir, 'repo');
    git(ws.dir, 'config', 'include.path', '../team.gitconfig');
    ws.write('team.gitconfig', '[user]\n\tname = team\n');
    await configure();
    const marker = path.join(suite.home, `PWNED-${Math.random().toString(36).slice(2)}`);
    const result = await ws.run('Bash', { command: `printf '${payloadConfig(marker).replaceAll('\n', '\\n').replaceAll('\t', '\\t')}' > team.gitconfig` });
    hostGitStatus(ws.dir);
    assert.equal(fs.existsSync(marker), false, `the payload ran on the host after: ${result.modelContent}`);
    assert.equal(ws.read('team.gitconfig'), '[user]\n\tname = team\n');
  });

  it('refuses .gitmodules and objects/info/alternates, and leaves the rest of the workspace writable', async () => {
    prepare(ws.dir, 'repo');
    await configure();
    const result = await ws.run('Bash', { command: 'echo x > .gitmodules; echo /tmp > .git/objects/info/alternates; echo ok > fine.txt' });
    assert.equal(fs.existsSync(ws.file('.gitmodules')), false, result.modelContent);
    assert.equal(fs.existsSync(ws.file('.git/objects/info/alternates')), false, result.modelContent);
    assert.equal(ws.read('fine.txt'), 'ok\n');
  });

  it('refuses ignore files that do not exist yet, by the names in force', async () => {
    await configure(['.aiignore', '.cursorignore', '.myignore']);
    const result = await ws.run('Bash', { command: 'for f in .aiignore .cursorignore .myignore; do echo "*" > $f; done; echo ok > fine.txt' });
    for (const name of ['.aiignore', '.cursorignore', '.myignore']) assert.equal(fs.existsSync(ws.file(name)), false, `${name} was made: ${result.modelContent}`);
    assert.equal(ws.read('fine.txt'), 'ok\n');
  });
});

describe('git files, through Write in acceptEdits mode', () => {
  let ws: Workspace;
  let asked: ApprovalRequest[];
  beforeEach(() => {
    asked = [];
    ws = makeWorkspace({
      executor: {
        permissionPolicy: new RulesPolicy({ mode: 'acceptEdits' }),
        approvalClient: { requestApproval: async (request) => (asked.push(request), { kind: 'deny' }) },
      },
    });
  });
  afterEach(() => ws.dispose());

  for (const file of ['.git/commondir', '.git/config.worktree', '.git/objects/info/alternates', '.git/worktrees/w/gitdir', '.git/modules/lib/config', '.git/HEAD', 'lib/.git', '.gitmodules', 'lib/.gitmodules', '.aiignore', '.cursorignore', '.clineignore']) {
    it(`asks before writing ${file}, whatever the mode`, async () => {
      const result = await ws.run('Write', { file_path: ws.file(file), content: 'gitdir: /tmp/evil\n' });
      assert.equal(asked.length, 1, `asked: ${result.modelContent}`);
      assert.equal(asked[0]!.sessionAllowed, false, 'an always-ask is never remembered');
      assert.equal(fs.existsSync(ws.file(file)), false);
    });
  }

  for (const file of ['src/config', '.gitignore', 'notes.git', '.github/workflows/ci.yml', 'git/commondir']) {
    it(`writes ${file} unasked (a near miss)`, async () => {
      const result = await ws.run('Write', { file_path: ws.file(file), content: 'x\n' });
      assert.equal(asked.length, 0, result.modelContent);
      assert.equal(ws.read(file), 'x\n');
    });
  }
});

describe("a file the repository's config includes, through Write in acceptEdits mode", { skip: HAS_GIT ? false : 'needs git' }, () => {
  let ws: Workspace;
  let asked: ApprovalRequest[];
  let dir: string;
  beforeEach(async () => {
    asked = [];
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'git-include-')));
    prepare(dir, 'repo');
    git(dir, 'config', 'include.path', '../team.gitconfig');
    const permissionPolicy = new RulesPolicy({ mode: 'acceptEdits', gitPaths: await repositoryPaths(dir, os.homedir()) });
    ws = makeWorkspace({ executor: { workspaceFolders: [dir], permissionPolicy, approvalClient: { requestApproval: async (request) => (asked.push(request), { kind: 'deny' }) } } });
    mainRepositories.push(dir);
  });
  afterEach(() => ws.dispose());

  it('asks, whatever the mode; a file beside it does not', async () => {
    const included = await ws.executor.execute({ id: 'i1', name: 'Write', input: { file_path: path.join(dir, 'team.gitconfig'), content: '[core]\n' } });
    assert.equal(asked.length, 1, included.modelContent);
    assert.match(asked[0]!.reason, /includes/);
    assert.equal(fs.existsSync(path.join(dir, 'team.gitconfig')), false);
    await ws.executor.execute({ id: 'i2', name: 'Write', input: { file_path: path.join(dir, 'other.gitconfig'), content: 'x\n' } });
    assert.equal(asked.length, 1, 'a near miss is an ordinary edit');
  });
});

describe('git files, in Workspace Changes', { skip: HAS_GIT ? false : 'needs git' }, () => {
  let ws: Workspace;
  let snapshotter: NodeWorkspaceSnapshotter;
  beforeEach(() => {
    snapshotter = createNodeSnapshotter();
    ws = makeWorkspace({ executor: { snapshotter, approvalClient: ALLOW_ALL } });
    prepare(ws.dir, 'repo');
  });
  afterEach(async () => {
    await snapshotter.dispose();
    await ws.dispose();
  });

  it("lists every change to git's command and folder files, also where an ignore file names them", async () => {
    ws.write('.aiignore', '.gitmodules\nlib/\n');
    ws.write('lib/keep.txt', 'x\n');
    const files = ['.git/commondir', '.git/config', '.git/config.worktree', '.git/hooks/post-checkout', '.git/info/attributes', '.git/objects/info/alternates', '.git/worktrees/w/gitdir', '.git/modules/a/b/config', '.gitmodules', 'lib/.git'];
    const command = files.map((file) => `mkdir -p "$(dirname ${file})" && echo x >> ${file}`).join(' && ');
    const result = await ws.run('Bash', { command });
    const listed = result.changes.map((change) => change.path).sort();
    assert.deepEqual(listed, [...files].sort(), result.modelContent);
  });

  it('keeps the rest of .git out of the listing (objects, refs, the index)', async () => {
    ws.write('a.txt', 'a\n');
    const result = await ws.run('Bash', { command: 'git add a.txt && git -c user.name=t -c user.email=t@t commit -q -m a' });
    assert.deepEqual(result.changes.map((change) => change.path), [], result.modelContent);
  });
});

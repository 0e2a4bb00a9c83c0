// Fault catalogue, class 12: guards a write, a lasting rule, a URI or a credential's form got around.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import { NodeArtifactStore } from '../../../src/node/artifacts/nodeArtifactStore';
import { allow, call, cli, core, result } from '../define';

// ── 12. Guards got around ────────────────────────────────────────────────────────────────────────────────
const acceptEdits = ['--mode', 'acceptEdits'];
const alwaysAsks = (id: string, fault: string, file: string) =>
  cli(id, 12, fault, 'asks even in acceptEdits: denied without a terminal, nothing written', {
    extra: acceptEdits,
    calls: [call('w', 'Write', { file_path: file, content: 'gitdir: /tmp/elsewhere\n' }), call('ok', 'Write', { file_path: 'plain.txt', content: 'x\n' })],
    check: (run) => {
      assert.equal(result(run, 'w').errorKind, 'permission', result(run, 'w').content);
      assert.equal(fs.existsSync(path.join(run.workspace, file)), false);
      assert.equal(result(run, 'ok').isError, false, 'a plain edit still runs unasked');
    },
  });
alwaysAsks('git-commondir-write', 'Write .git/commondir (points git at a config the agent controls) in acceptEdits mode', '.git/commondir');
alwaysAsks('git-gitfile-write', "Write a submodule's or worktree's .git file (gitdir:) in acceptEdits mode", 'lib/.git');
alwaysAsks('git-alternates-write', 'Write .git/objects/info/alternates in acceptEdits mode', '.git/objects/info/alternates');
alwaysAsks('gitmodules-write', 'Write .gitmodules in acceptEdits mode', '.gitmodules');
alwaysAsks('ignore-file-absent-write', 'Write .aiignore, which does not exist yet, in acceptEdits mode', '.aiignore');
cli('git-files-listed', 12, "a command writes git's hook, commondir and a .git file while .aiignore names .git/ and lib/", 'Workspace Changes lists all three', {
  extra: allow,
  files: { '.aiignore': '.git/\nlib/\n', 'lib/keep.txt': 'x\n', '.git/HEAD': 'ref: refs/heads/main\n' },
  calls: [call('c', 'Bash', { command: 'mkdir -p .git/hooks && echo x > .git/hooks/post-checkout && echo /tmp > .git/commondir && echo gitdir: /tmp > lib/.git' })],
  check: (run) => {
    const content = result(run, 'c').content;
    for (const file of ['.git/hooks/post-checkout', '.git/commondir', 'lib/.git']) assert.match(content, new RegExp(`\\+ ${file.replaceAll('.', '\\.')} \\(created`), content);
  },
});
const PROXY_PASS = 'Pr0xy-Pa55word-7c1e';
cli('redact-proxyauth', 12, 'a command prints GIT_SSH_COMMAND with socat\'s proxyauth=user:pass', 'the password is redacted everywhere', {
  extra: allow,
  calls: [call('c', 'Bash', { command: `echo "GIT_SSH_COMMAND=ssh -o ProxyCommand='socat - PROXY:proxy:%h:%p,proxyport=3128,proxyauth=alice:${PROXY_PASS}'"` })],
  secrets: [PROXY_PASS],
  check: (run) => assert.match(result(run, 'c').content, /proxyauth=\[REDACTED:password\]/),
});
cli('redact-userinfo-no-scheme', 12, 'a command prints `curl -x alice:pass@proxy:3128` (no scheme)', 'the password is redacted; an email address beside it is not', {
  extra: allow,
  calls: [call('c', 'Bash', { command: `echo "curl -x alice:${PROXY_PASS}@proxy.corp:3128 # ask alice@example.com"` })],
  secrets: [PROXY_PASS],
  check: (run) => assert.match(result(run, 'c').content, /alice:\[REDACTED:url-credentials\]@proxy\.corp:3128 # ask alice@example\.com/),
});
core('artifact-uri-session-record', 12, 'host: an artifact URI naming a session record, a manifest or another file in the artifacts folder', 'resolves to nothing; the real artifact still resolves', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-artifacts-'));
  try {
    const store = new NodeArtifactStore({ artifactsDir: dir });
    const ref = await store.write({ sessionId: 's', callId: 'c', retention: 'project', content: 'x' });
    fs.mkdirSync(path.join(dir, 'sessions'));
    fs.writeFileSync(path.join(dir, 'sessions', 'other.jsonl'), '{}\n');
    for (const uri of ['executor-artifact://sessions/other.jsonl', 'executor-artifact://s/retention.json']) assert.equal(store.resolve(uri), undefined, uri);
    assert.equal(store.resolve(ref.uri), ref.path);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
core('rule-writer-glob', 12, 'host: "Allow in this Workspace" for a Write to a file named `*`, `{a,b}`, `!(x)`', 'the rule written, read back, allows that file and not a sibling or ~/.bashrc', async () => {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fault-rules-')));
  const write = { name: 'Write', sideEffectScope: 'workspace', inputSchema: {} } as never;
  const judge = (policy: RulesPolicy, file: string) => policy.evaluate({ tool: write, input: { file_path: file, content: '' }, callId: 'c', workspaceFolders: [ws] }, new AbortController().signal);
  try {
    for (const name of ['*', '{a,b}', '!(x)']) {
      const request = { tool: write, input: { file_path: path.join(ws, name), content: '' }, callId: 'c', workspaceFolders: [ws] };
      const texts = await new RulesPolicy().workspaceRuleTexts(request);
      const read = new RulesPolicy({ workspace: { allow: texts ?? [] } });
      assert.equal((await judge(read, path.join(ws, name))).behavior, 'allow', name);
      for (const other of [path.join(ws, 'a'), path.join(os.homedir(), '.bashrc')]) assert.notEqual((await judge(read, other)).behavior, 'allow', `${name} → ${other}`);
    }
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

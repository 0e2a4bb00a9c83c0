// The fault catalogue (hardening issue): every bad input and fault a hostile tester tried, and more of
// each defect class, with the result it must give. Each entry runs through the built CLI (or, for what
// only a host sees, through the core) and `checkInvariants` holds for every CLI entry. RELIABILITY.md's
// table is generated from this list (`reliabilityTable`), and a test fails when the two differ.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createPolicyFromSettings } from '../../src/executor/policy/index';
import { errorClassOf, projectErrorMessage } from '../../src/executor/errors';
import { buildFileDiffDisplay } from '../../src/executor/results/displays/fileDiff';
import { PLANTED } from '../unit/executor/results/secrets';
import { checkInvariants, commandLine, FIXTURES, HOSTILE_TOOLS, runCli, type Run, type RunOptions } from './harness';

export type DefectClass = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface FaultEntry {
  readonly id: string;
  /** 1–7: the defect classes; 0: malformed input in general. */
  readonly defectClass: DefectClass;
  readonly fault: string;
  readonly expected: string;
  readonly via: 'cli' | 'core';
  run(): Promise<void>;
}

export const CLASS_NAMES: Readonly<Record<DefectClass, string>> = {
  0: 'Malformed input',
  1: 'Settings that fail open',
  2: 'Results lost on termination',
  3: 'A custom tool takes the batch down',
  4: 'Secrets around the Read rule',
  5: 'Processes that escape',
  6: 'Errors misreported',
  7: 'Unbounded sizes',
};

const GITHUB = PLANTED.find((planted) => planted.secret.startsWith('ghp_'))!.secret;
const AWS = PLANTED.find((planted) => planted.rule === 'aws-access-key')!.secret;
const STRIPE = PLANTED.find((planted) => planted.rule === 'stripe-key')!.secret;
/** A value no redaction format knows: only not reading the file keeps it out. */
const PLAIN_SECRET = 'plain-unformatted-value-7f3a9c';
const ENV_FILE = `DB_PASSWORD_PLAIN=${PLAIN_SECRET}\nGITHUB_TOKEN=${GITHUB}\n`;

type CallSpec = { id: string; name: string; input?: unknown };
const call = (id: string, name: string, input: unknown = {}): CallSpec => ({ id, name, input });
const ids = (calls: readonly CallSpec[]) => calls.map((item) => item.id);

interface CliSpec extends Omit<RunOptions, 'id' | 'args'> {
  readonly calls?: unknown;
  readonly extra?: readonly string[];
  readonly exit?: number;
  /** Expected result ids; default: the ids of `calls` when it is an array of calls. */
  readonly ids?: readonly string[];
  readonly secrets?: readonly string[];
  readonly check?: (run: Run) => void | Promise<void>;
  /** Without `--json` (the listing for people). */
  readonly human?: boolean;
  /** The results printed may be any prefix of the calls (the CLI ended before it could print them all). */
  readonly prefix?: boolean;
}

const entries: FaultEntry[] = [];

function cli(id: string, defectClass: DefectClass, fault: string, expected: string, spec: CliSpec): void {
  entries.push({
    id,
    defectClass,
    fault,
    expected,
    via: 'cli',
    run: async () => {
      const settings = spec.settings === undefined ? [] : settingsArgs;
      const args = ['run', '--workspace', '{workspace}', '--artifacts', '{artifacts}', ...(spec.human ? [] : ['--json']), ...settings, ...(spec.extra ?? []), spec.stdin !== undefined && spec.calls === undefined ? '-' : '{calls}'];
      const run = await runCli({ ...spec, id, args });
      let expectedIds = spec.ids ?? (Array.isArray(spec.calls) && (spec.exit ?? 0) !== 2 ? ids(spec.calls as CallSpec[]) : []);
      if (spec.prefix) expectedIds = ids(spec.calls as CallSpec[]).slice(0, run.results.length);
      await checkInvariants(id, run, { ids: spec.human ? [] : expectedIds, exit: spec.exit ?? 0, secrets: spec.secrets });
      if (!spec.human && !spec.prefix && (spec.exit ?? 0) !== 2) assert.ok(run.summary, 'the summary line is printed');
      await spec.check?.(run);
    },
  });
}

function core(id: string, defectClass: DefectClass, fault: string, expected: string, run: () => void | Promise<void>): void {
  entries.push({ id, defectClass, fault, expected, via: 'core', run: async () => run() });
}

const settingsArgs = ['--settings', '{base}/settings.json'];
/** Live processes whose command line is exactly `command` (for those that shed the entry's marker). */
function processesRunning(command: string): number {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && commandLine(Number(entry)) === command).length;
}
const result = (run: Run, id: string) => run.results.find((line) => line.id === id)!;
const hostile = ['--tools', HOSTILE_TOOLS];
const allow = ['--approve', 'allow'];

// ── 0. Malformed input ────────────────────────────────────────────────────────────────────────────────
cli('calls-not-json', 0, 'CALLS file that is not JSON', 'exit 2, names the file and the parse error', { calls: '[{"id": ', exit: 2, check: (run) => assert.match(run.stderr, /is not valid JSON/) });
cli('calls-not-array', 0, 'CALLS is a JSON object, not an array', 'exit 2, "must be a JSON array"', { calls: { id: 'a' }, exit: 2, check: (run) => assert.match(run.stderr, /must be a JSON array/) });
cli('calls-missing-id', 0, 'a call without "id"', 'exit 2, names item 0 and the field', { calls: [{ name: 'ok' }], exit: 2, check: (run) => assert.match(run.stderr, /item 0: "id" must be a non-empty string/) });
cli('calls-duplicate-id', 0, 'two calls with the same id', 'exit 2, "duplicate id"', { calls: [call('a', 'ok'), call('a', 'ok')], exit: 2, extra: hostile, check: (run) => assert.match(run.stderr, /duplicate id "a"/) });
cli('calls-input-array', 0, 'input given as an array', 'exit 2, names the field', { calls: [{ id: 'a', name: 'ok', input: [1] }], exit: 2, check: (run) => assert.match(run.stderr, /"input" must be an object/) });
cli('calls-missing-file', 0, 'CALLS path that does not exist', 'exit 2, "no such file"', { extra: [], exit: 2, check: (run) => assert.match(run.stderr, /no such file/) });
cli('calls-empty', 0, 'an empty batch', 'exit 0, summary with 0 calls', { calls: [], check: (run) => assert.equal(run.summary!.calls, 0) });
cli('unknown-tool', 0, 'a call to a tool that does not exist', '"unknown tool: NAME", invocation error', {
  calls: [call('a', 'NoSuchTool')],
  check: (run) => assert.equal(result(run, 'a').content, 'unknown tool: NoSuchTool'),
});
cli('raw-input-broken-json', 0, "the model's raw argument string is broken JSON", '<tool_use_error> naming the tool; not repaired', {
  calls: [{ id: 'a', name: 'Read', input: '{"file_path": ' }],
  check: (run) => assert.match(result(run, 'a').content, /^<tool_use_error>tool Read: invalid input: arguments are not valid JSON/),
});
cli('schema-missing-field', 0, 'input without a required field', 'invocation error naming the field', {
  calls: [call('a', 'Read', {})],
  check: (run) => assert.match(result(run, 'a').content, /^<tool_use_error>tool Read: invalid input: missing required field/),
});
cli('stop-turn', 0, 'a result asks the turn to stop', 'later groups get the synthetic cancelled result', {
  calls: [call('a', 'stopTurn'), call('b', 'ok')],
  extra: hostile,
  check: (run) => assert.match(result(run, 'b').content, /previous tool result requested a turn stop/),
});
cli('many-calls', 0, '300 calls in one batch', '300 results in order', {
  calls: Array.from({ length: 300 }, (_, index) => call(`c${index}`, 'ok', { ms: 1 })),
  extra: hostile,
});
cli('stream-bad-line', 0, '--stream with a bad third line', 'the first two run and are reported, then exit 2 naming line 3', {
  stdin: `${JSON.stringify(call('a', 'ok', { ms: 1 }))}\n${JSON.stringify(call('b', 'ok', { ms: 1 }))}\n{nope\n`,
  extra: [...hostile, '--stream'],
  exit: 2,
  ids: ['a', 'b'],
  check: (run) => assert.match(run.stderr, /line 3 is not valid JSON/),
});
cli('bad-flag', 0, 'an unknown command-line option', 'exit 2 with the option named', { calls: [], extra: ['--frobnicate'], exit: 2, check: (run) => assert.match(run.stderr, /frobnicate/) });

// ── 1. Settings that fail open ──────────────────────────────────────────────────────────────────────────
const writeCall = [call('w', 'Write', { file_path: 'made.txt', content: 'x' })];
const refused = (key: RegExp) => (run: Run) => {
  assert.match(run.stderr, /settings\.json/);
  assert.match(run.stderr, key);
  assert.equal(fs.existsSync(path.join(run.workspace, 'made.txt')), false, 'nothing ran');
};
cli('settings-deny-string', 1, 'permissions.deny given as a string', 'exit 2 naming the file, permissions.deny and the problem; nothing runs', { settings: { permissions: { deny: 'Write' } }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions\.deny must be an array/) });
cli('settings-deny-object', 1, 'permissions.deny given as an object', 'exit 2, permissions.deny named', { settings: { permissions: { deny: { Write: true } } }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions\.deny must be an array/) });
cli('settings-permissions-array', 1, '`permissions` is an array', 'exit 2, "permissions must be an object"', { settings: { permissions: ['Write'] }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions must be an object/) });
cli('settings-permissions-string', 1, '`permissions` is a string', 'exit 2, "permissions must be an object"', { settings: { permissions: 'deny all' }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions must be an object/) });
cli('settings-rule-unbalanced', 1, 'a deny rule with unbalanced parentheses', 'exit 2, the rule and "no closing parenthesis"', { settings: { permissions: { deny: ['Write(made.txt'] } }, calls: writeCall, extra: allow, exit: 2, check: refused(/no closing parenthesis/) });
cli('settings-ask-number', 1, 'a number in permissions.ask', 'exit 2, permissions.ask[0] named', { settings: { permissions: { ask: [42] } }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions\.ask\[0\] must be a string/) });
cli('settings-bad-mode', 1, 'permissions.defaultMode is not a mode', 'exit 2, defaultMode named', { settings: { permissions: { defaultMode: 'yolo' } }, calls: writeCall, extra: allow, exit: 2, check: refused(/defaultMode "yolo"/) });
cli('settings-hooks-string', 1, '`hooks` is a string', 'exit 2, "hooks must be an object"', { settings: { hooks: 'deny.sh' }, calls: writeCall, extra: allow, exit: 2, check: refused(/hooks must be an object/) });
cli('settings-hook-entry-broken', 1, 'a PreToolUse hook entry without a command', 'exit 2, the entry named', { settings: { hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } }, calls: writeCall, extra: allow, exit: 2, check: refused(/hooks\.PreToolUse\[0\]\.hooks\[0\]/) });
cli('settings-not-object', 1, 'a settings file holding an array', 'exit 2, "must hold a JSON object"', { settings: [], calls: writeCall, extra: allow, exit: 2, check: refused(/must hold a JSON object/) });
cli('settings-invalid-json', 1, 'a settings file that is not JSON', 'exit 2, "is not valid JSON"', { settings: '{"permissions": ', calls: writeCall, extra: allow, exit: 2, check: refused(/is not valid JSON/) });
cli('settings-unsupported-event', 1, 'a hook event the executor does not run (Stop)', 'runs: a notice, not a refusal', {
  settings: { hooks: { Stop: [] }, permissions: { allow: ['Write'] } },
  calls: writeCall,
  check: (run) => assert.equal(result(run, 'w').isError, false, result(run, 'w').content),
});
cli('settings-bom', 1, 'a settings file with a UTF-8 byte-order mark', 'accepted; its deny rule applies', {
  settings: `\uFEFF${JSON.stringify({ permissions: { deny: ['Write'] } })}`,
  calls: writeCall,
  extra: allow,
  check: (run) => assert.equal(result(run, 'w').errorKind, 'permission'),
});
core('policy-broken-deny-fails-closed', 1, 'host: a deny rule that does not parse (`Bash(rm -rf`)', 'every Bash call is denied, and the problem is listed', async () => {
  const policy = createPolicyFromSettings({ user: { permissions: { deny: ['Bash(rm -rf'], allow: ['Bash(ls:*)'] } }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
  assert.equal(policy.problems.length, 1);
  const decision = await policy.evaluate({ tool: { name: 'Bash', description: '', inputSchema: {} as never, handler: () => ({ content: '' }), sideEffectScope: 'external' } as never, input: { command: 'ls' }, workspaceFolders: ['/tmp'] } as never, new AbortController().signal);
  assert.equal(decision.behavior, 'deny');
});
core('policy-broken-deny-list', 1, 'host: permissions.deny is an object', 'every tool is denied, even reads', async () => {
  const policy = createPolicyFromSettings({ user: { permissions: { deny: { Read: true } } }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
  const decision = await policy.evaluate({ tool: { name: 'Read', readOnly: true, sideEffectScope: 'none' } as never, input: { file_path: 'a.txt' }, workspaceFolders: ['/tmp'] } as never, new AbortController().signal);
  assert.equal(decision.behavior, 'deny');
});
core('policy-bad-mode-plan', 1, 'host: defaultMode is misspelled', 'plan mode: nothing that writes runs', () => {
  assert.equal(createPolicyFromSettings({ user: { permissions: { defaultMode: 'bypassPermission' } }, workspaceTrusted: true }).mode, 'plan');
});

// ── 2. Results lost on termination ─────────────────────────────────────────────────────────────────────
const longCommand = [call('ok1', 'ok', { ms: 1 }), call('sleep', 'Bash', { command: 'sleep 37; echo never' }), call('after', 'ok', { ms: 1 })];
const allCancelled = (run: Run) => {
  assert.equal(result(run, 'sleep').errorKind, 'cancelled');
  assert.equal(result(run, 'after').errorKind, 'cancelled');
};
for (const [signal, exit] of [['SIGTERM', 143], ['SIGHUP', 129], ['SIGINT', 130]] as const) {
  cli(`signal-${signal.toLowerCase()}`, 2, `${signal} while a command runs`, `every call reported (the running and later ones cancelled), tree killed, exit ${exit}`, {
    calls: longCommand,
    extra: [...allow, ...hostile],
    exit,
    during: async (child, io) => {
      await io.process(/sleep 37/);
      child.kill(signal);
    },
    check: allCancelled,
  });
}
cli('signal-twice', 2, 'SIGTERM twice', 'exits at once with 143; the exit hook still kills the tree', {
  calls: longCommand,
  extra: [...allow, ...hostile],
  exit: 143,
  prefix: true,
  during: async (child, io) => {
    await io.process(/sleep 37/);
    child.kill('SIGTERM');
    child.kill('SIGTERM');
  },
});
cli('signal-background', 2, 'SIGTERM while a background command runs', 'results printed, the background command stopped, exit 143', {
  calls: [call('bg', 'Bash', { command: 'sleep 38', run_in_background: true }), call('wait', 'ok', { ms: 60_000 })],
  extra: [...allow, ...hostile],
  exit: 143,
  during: async (child, io) => {
    await io.process(/sleep 38/);
    await io.lines(1);
    child.kill('SIGTERM');
  },
  check: (run) => assert.equal(result(run, 'wait').errorKind, 'cancelled'),
});
cli('stdout-closed', 2, 'the reader of stdout goes away (`| head -1`)', 'no EPIPE stack trace; running calls cancelled, processes stopped, exit 141', {
  calls: [call('bg', 'Bash', { command: 'sleep 39', run_in_background: true }), call('first', 'ok', { ms: 1 }), call('slow', 'serialSlow', { ms: 300 }), call('later', 'ok', { ms: 1 })],
  extra: [...allow, ...hostile],
  exit: 141,
  prefix: true,
  during: async (child, io) => {
    await io.lines(1);
    child.stdout!.destroy();
  },
});
cli('stdin-stream-cut', 2, '--stream input that ends mid-line', 'the complete lines run; the cut line is a misuse (exit 2)', {
  stdin: `${JSON.stringify(call('a', 'ok', { ms: 1 }))}\n{"id":"b","na`,
  extra: [...hostile, '--stream'],
  exit: 2,
  ids: ['a'],
});

// ── 3. A custom tool takes the batch down ───────────────────────────────────────────────────────────────
const withNeighbours = (name: string, input: unknown = {}) => [call('before', 'ok', { ms: 150 }), call('bad', name, input), call('after', 'ok', { ms: 1 })];
const neighboursFine = (pattern: RegExp) => (run: Run) => {
  assert.equal(result(run, 'before').content, 'ok before');
  assert.equal(result(run, 'after').content, 'ok after');
  assert.equal(result(run, 'bad').isError, true);
  assert.match(result(run, 'bad').content, pattern);
};
cli('tool-timer-throw', 3, 'a handler throws in a timer', 'that call: "crashed: an uncaught exception…"; the others keep their results', { calls: withNeighbours('timerThrow'), extra: hostile, check: neighboursFine(/crashed: an uncaught exception outside its handler .*boom in a timer/) });
cli('tool-unhandled-rejection', 3, 'a handler leaves a rejected promise unhandled', 'that call: "crashed: an unhandled promise rejection"', { calls: withNeighbours('unhandledReject'), extra: hostile, check: neighboursFine(/unhandled promise rejection: Error: nobody caught this/) });
cli('tool-exit-zero', 3, 'a handler calls process.exit(0)', 'that call fails; exit 0 with every result (not an empty exit 0)', { calls: withNeighbours('exitZero'), extra: hostile, check: neighboursFine(/called process\.exit\(0\); a tool cannot end the batch/) });
cli('tool-exit-timer', 3, 'process.exit(3) from a timer', 'that call fails; the CLI exits 0, not 3', { calls: withNeighbours('exitLater'), extra: hostile, check: neighboursFine(/process\.exit\(3\)/) });
cli('tool-exit-caught', 3, 'process.exit() whose throw the handler swallows', 'still that call fails', { calls: withNeighbours('exitCaught'), extra: hostile, check: neighboursFine(/process\.exit\(4\)/) });
cli('tool-forges-stdout', 3, 'a handler writes a fake result line to stdout (process.stdout and console.log)', '--json carries only the CLI lines; the text lands on stderr', {
  calls: withNeighbours('forgeStdout'),
  extra: hostile,
  check: (run) => {
    assert.ok(!run.stdout.includes('forged'));
    assert.match(run.stderr, /forged/);
    assert.equal(run.summary!.calls, 3);
  },
});
cli('tool-leaves-timer', 3, 'a handler leaves an interval running', 'the CLI still exits after the batch', { calls: withNeighbours('leaveTimer'), extra: hostile, check: (run) => assert.equal(result(run, 'bad').isError, false) });
cli('tool-faults-in-parallel', 3, 'two faulty calls run at once beside good ones', 'each fault is attributed to its own call', {
  calls: [call('t', 'timerThrow'), call('o1', 'ok', { ms: 100 }), call('u', 'unhandledReject'), call('o2', 'ok', { ms: 100 })],
  extra: hostile,
  check: (run) => {
    assert.match(result(run, 't').content, /boom in a timer/);
    assert.match(result(run, 'u').content, /nobody caught this/);
    assert.equal(result(run, 'o1').isError, false);
    assert.equal(result(run, 'o2').isError, false);
  },
});
cli('module-timer-throw', 3, 'a module starts a timer at import that throws later', 'named on stderr as the module\'s fault; every call keeps its result', {
  calls: [call('a', 'slowish'), call('b', 'slowish')],
  extra: ['--tools', path.join(FIXTURES, 'module-timer-throw.mjs')],
  check: (run) => {
    assert.equal(result(run, 'a').content, 'slowish done');
    assert.match(run.stderr, /module-timer-throw\.mjs caused an uncaught exception/);
  },
});
cli('tool-human-forge', 3, 'a handler writes to stdout in the human listing', 'stdout holds only the listing', {
  calls: withNeighbours('forgeStdout'),
  extra: hostile,
  human: true,
  check: (run) => {
    assert.ok(!run.stdout.includes('forged'));
    assert.match(run.stdout, /3 calls/);
  },
});
cli('tool-progress-spam', 3, 'a handler reports progress 10000 times', 'its result arrives; nothing floods stdout', { calls: withNeighbours('progressSpam'), extra: hostile, check: (run) => assert.equal(result(run, 'bad').content, 'progressed') });

// ── 4. Secrets reachable around the Read rule ───────────────────────────────────────────────────────────
const secretFiles = { '.env': ENV_FILE, 'sub/.env.local': ENV_FILE, 'id_rsa': `${PLAIN_SECRET}\n`, 'notes.txt': 'plain notes\nDB_PASSWORD_PLAIN is documented here\n' };
const cmdRules = { permissions: { allow: ['Bash(cat:*)', 'Bash(ls:*)', 'Bash(cd:*)', 'Bash(head:*)', 'Bash(grep:*)', 'Bash(echo:*)'] } };
cli('grep-workspace-skips-secrets', 4, 'Grep over the workspace for a name that is in .env', 'no secret file listed, its values never read', {
  files: secretFiles,
  calls: [call('g', 'Grep', { pattern: 'DB_PASSWORD_PLAIN', output_mode: 'content' }), call('v', 'Grep', { pattern: `${PLAIN_SECRET.slice(0, -1)}.` })],
  secrets: [PLAIN_SECRET, GITHUB],
  check: (run) => {
    assert.match(result(run, 'g').content, /notes\.txt/);
    assert.doesNotMatch(result(run, 'g').content, /\.env/);
    assert.match(result(run, 'v').content, /^No matches/);
  },
});
cli('grep-glob-cannot-reinclude', 4, 'Grep with glob ".env*" trying to re-include secret files', 'still skipped', {
  files: secretFiles,
  calls: [call('g', 'Grep', { pattern: 'DB', glob: '.env*', output_mode: 'content' })],
  secrets: [PLAIN_SECRET],
});
cli('grep-names-secret-file', 4, 'Grep with path .env', 'asks first (like Read): denied without a terminal', {
  files: secretFiles,
  calls: [call('g', 'Grep', { pattern: 'DB', path: '.env', output_mode: 'content' })],
  secrets: [PLAIN_SECRET],
  check: (run) => assert.equal(result(run, 'g').errorKind, 'permission'),
});
cli('read-secret-file', 4, 'Read .env with no approval', 'asks: denied without a terminal', { files: secretFiles, calls: [call('r', 'Read', { file_path: '.env' })], secrets: [PLAIN_SECRET], check: (run) => assert.equal(result(run, 'r').errorKind, 'permission') });
const askedCommand = (id: string, fault: string, command: string) =>
  cli(id, 4, fault, 'the allow rule does not cover the argument: asks, denied without a terminal', {
    files: secretFiles,
    settings: cmdRules,
    calls: [call('c', 'Bash', { command })],
    secrets: [PLAIN_SECRET],
    check: (run) => assert.equal(result(run, 'c').errorKind, 'permission', result(run, 'c').content),
  });
askedCommand('shell-cat-env', 'Bash(cat:*) allowed; `cat .env`', 'cat .env');
askedCommand('shell-cat-nested-env', 'Bash(cat:*) allowed; `cat sub/.env.local`', 'cat sub/.env.local');
askedCommand('shell-head-key', 'Bash(head:*) allowed; `head -c 100 id_rsa`', 'head -c 100 id_rsa');
askedCommand('shell-cat-tilde', 'Bash(cat:*) allowed; `cat ~/.netrc`', 'cat ~/.netrc');
askedCommand('shell-ls-tilde', 'Bash(ls:*) allowed; `ls ~`', 'ls ~');
askedCommand('shell-cat-home-var', 'Bash(cat:*) allowed; `cat $HOME/.aws/credentials`', 'cat $HOME/.aws/credentials');
askedCommand('shell-cat-home-braces', 'Bash(cat:*) allowed; `cat "${HOME}/x"`', 'cat "${HOME}/x"');
askedCommand('shell-cat-outside', 'Bash(cat:*) allowed; `cat /etc/hostname`', 'cat /etc/hostname');
askedCommand('shell-cat-dotdot', 'Bash(cat:*) allowed; `cat ../settings.json`', 'cat ../settings.json');
askedCommand('shell-cat-glob', 'Bash(cat:*) allowed; `cat *` (the glob reaches .env)', 'cat *');
askedCommand('shell-cat-substitution', 'Bash(cat:*) allowed; `cat "$(echo .env)"`', 'cat "$(echo .env)"');
askedCommand('shell-cd-out', 'Bash(cd:*) and Bash(cat:*) allowed; `cd .. && cat settings.json`', 'cd .. && cat settings.json');
askedCommand('shell-cd-home', 'Bash(cd:*) allowed; `cd && ls`', 'cd && ls');
askedCommand('shell-option-value', 'Bash(grep:*) allowed; `grep --file=/etc/passwd x notes.txt`', 'grep --file=/etc/passwd x notes.txt');
askedCommand('shell-dotdot-in-path', 'Bash(cat:*) allowed; `cat sub/../.env`', 'cat sub/../.env');
cli('shell-allowed-plain', 4, 'Bash(cat:*) allowed; `cat notes.txt` (inside, not secret)', 'runs without asking', {
  files: secretFiles,
  settings: cmdRules,
  calls: [call('c', 'Bash', { command: 'cat notes.txt' })],
  check: (run) => assert.match(result(run, 'c').content, /plain notes/),
});
cli('secret-env-not-inherited', 4, 'a command echoes a secret-named environment variable', 'the variable is not passed to commands, so nothing to leak', {
  env: { MY_SERVICE_API_KEY: STRIPE },
  calls: [call('c', 'Bash', { command: 'echo "[$MY_SERVICE_API_KEY]"' })],
  extra: allow,
  secrets: [STRIPE],
});
cli('secret-in-output', 4, 'a command prints known secret formats', 'masked in content, artifact and session record', {
  calls: [call('c', 'Bash', { command: `echo ${GITHUB}; echo ${AWS}` })],
  extra: allow,
  secrets: [GITHUB, AWS],
  check: (run) => assert.match(result(run, 'c').content, /REDACTED/),
});
const PREFIXED_VALUE = 'Zq8vLw3nXr5tKp2m';
cli('secret-prefixed-name', 4, 'a command prints `X_SECRET_TOKEN=…` and `DATABASE_PASSWORD=…` (prefixed secret names)', 'the values are masked everywhere (redactor patterns for prefixed names)', {
  calls: [call('c', 'Bash', { command: `echo X_SECRET_TOKEN=${PREFIXED_VALUE}1; echo DATABASE_PASSWORD=${PREFIXED_VALUE}2; echo 'export MY_APP_API_KEY="${PREFIXED_VALUE}3"'` })],
  extra: allow,
  secrets: [`${PREFIXED_VALUE}1`, `${PREFIXED_VALUE}2`, `${PREFIXED_VALUE}3`],
});
cli('secret-glued-token', 4, 'a token glued to preceding letters (`id=abc` + a GitHub token)', 'masked everywhere', {
  calls: [call('c', 'secretOutput', { text: `abc${GITHUB}` })],
  extra: hostile,
  secrets: [GITHUB],
});
cli('secret-in-crash', 4, 'a handler throws an error holding a secret', 'the crash message is redacted', { calls: [call('c', 'secretCrash', { text: GITHUB })], extra: hostile, secrets: [GITHUB] });
cli('secret-in-input-record', 4, 'a secret in a call input', 'the session record holds it redacted', { calls: [call('c', 'secretOutput', { text: AWS })], extra: hostile, secrets: [AWS] });
cli('secret-module-load-error', 4, 'a --tools module fails to load with a secret in its message', 'exit 2, the message redacted', {
  baseFiles: { 'leaky.mjs': `throw new Error('cannot connect with ${GITHUB}');\n` },
  calls: [],
  extra: ['--tools', '{base}/leaky.mjs'],
  exit: 2,
  secrets: [GITHUB],
  check: (run) => assert.match(run.stderr, /cannot load --tools/),
});

// ── 5. Processes that escape ────────────────────────────────────────────────────────────────────────────
cli('setsid-daemon-holds-pipe', 5, 'a command starts a setsid daemon that holds the output pipe', 'the call ends when the shell does; the daemon is found by its marker and killed', {
  calls: [call('c', 'Bash', { command: 'setsid sleep 41 & echo started' })],
  extra: allow,
  check: (run) => {
    assert.equal(result(run, 'c').isError, false, result(run, 'c').content);
    assert.match(result(run, 'c').content, /was stopped/);
  },
});
cli('env-i-setsid', 5, 'a daemon started with `env -i setsid` (no marker) that holds the output', 'found as the holder of the output pipe and stopped', {
  calls: [call('c', 'Bash', { command: 'env -i setsid sleep 53.5 & echo started' })],
  extra: allow,
  check: async (run) => {
    assert.match(result(run, 'c').content, /1 process the command left running was stopped/);
    assert.equal(processesRunning('sleep 53.5'), 0);
  },
});
cli('double-fork', 5, 'a double fork `(sleep 42 &)` leaves the group', 'stopped after the command exits', { calls: [call('c', 'Bash', { command: '( sleep 42 & ) ; echo forked' })], extra: allow });
cli('nohup-disown', 5, '`nohup sleep 43 & disown`', 'stopped after the command exits', { calls: [call('c', 'Bash', { command: 'nohup sleep 43 >/dev/null 2>&1 & disown; echo ok' })], extra: allow });
cli('setsid-on-timeout', 5, 'a setsid daemon in a command that times out', 'timeout result; the daemon killed too', {
  calls: [call('c', 'Bash', { command: 'setsid sleep 44 & sleep 45', timeout: 300 })],
  extra: allow,
  check: (run) => assert.equal(result(run, 'c').errorKind, 'timeout'),
});
cli('ignores-sigterm', 5, 'a command that ignores SIGTERM runs past its timeout', 'errorKind timeout (not execution); killed with SIGKILL', {
  calls: [call('c', 'Bash', { command: 'trap "" TERM; sleep 46', timeout: 300 })],
  extra: allow,
  check: (run) => {
    assert.equal(result(run, 'c').errorKind, 'timeout');
    assert.match(result(run, 'c').content, /timed out after 300ms and its process tree was killed/);
  },
});
cli('background-at-exit', 5, 'a background command still running when the batch ends', 'named in the summary (backgroundStopped) and stopped', {
  calls: [call('bg', 'Bash', { command: 'sleep 47', run_in_background: true })],
  extra: allow,
  check: (run) => {
    const stopped = run.summary!.backgroundStopped as { id: string; command: string }[];
    assert.equal(stopped.length, 1);
    assert.match(stopped[0]!.command, /sleep 47/);
  },
});
cli('background-human', 5, 'the same in the human listing', 'a line names the stopped background command', {
  calls: [call('bg', 'Bash', { command: 'sleep 48', run_in_background: true })],
  extra: allow,
  human: true,
  check: (run) => assert.match(run.stdout, /stopped background .* sleep 48/),
});
cli('many-children', 5, 'a command that starts 20 sleeping children and exits', 'all stopped, counted in the result', {
  calls: [call('c', 'Bash', { command: 'for i in $(seq 20); do sleep 49 & done; echo spawned' })],
  extra: allow,
  check: (run) => assert.match(result(run, 'c').content, /20 processes the command left running were stopped/),
});
cli('killbash', 5, 'KillBash of a running background command', 'stopped; its tree gone', {
  calls: [call('bg', 'Bash', { command: 'setsid sleep 50 & sleep 51', run_in_background: true }), call('k', 'KillBash', { task_id: 'task-1' })],
  extra: allow,
});

// ── 6. Errors misreported ───────────────────────────────────────────────────────────────────────────────
const crash = (id: string, tool: string, fault: string, expected: string, pattern: RegExp, kind = 'execution') =>
  cli(id, 6, fault, expected, { calls: withNeighbours(tool), extra: hostile, check: (run) => {
    neighboursFine(pattern)(run);
    assert.equal(result(run, 'bad').errorKind, kind);
  } });
crash('error-message-getter', 'throwingMessage', 'an error whose message getter throws', 'a crash (execution), not a user cancel', /^tool throwingMessage crashed: Error$/);
crash('error-proxy', 'throwingProxy', 'a thrown Proxy whose every trap throws', 'a crash with "could not be described"', /could not be described/);
crash('error-hostile-result', 'hostileResult', 'a result whose content getter throws', 'an execution error, "cannot be read"', /returned a result that cannot be read/);
crash('error-null', 'throwNull', 'a handler throws null', '"crashed: null"', /crashed: null/);
crash('error-string', 'throwString', 'a handler throws a string', 'the string is the reason', /crashed: just a string/);
crash('error-no-result', 'returnsNothing', 'a handler returns undefined', '"returned no result"', /returned no result/);
crash('error-number-result', 'returnsNumber', 'a handler returns 42', '"returned no result"', /returned no result/);
crash('error-content-object', 'contentNotText', 'content is an object', '"content is not text"', /content is not text/);
crash('error-cyclic-cause', 'cyclicError', 'an error whose cause is itself', 'one message, no loop', /crashed: Error/);
crash('error-deep-cause', 'deepCause', 'a 100-deep cause chain of wrappers', 'the first real message within 12 levels, or the wrapper', /crashed: wrapped error/);
crash('error-sync-block', 'syncBlock', 'a synchronous handler blocks past its deadline', 'a timeout, not a success', /timed out after 100ms/, 'timeout');
crash('error-reject-late', 'rejectLate', 'a handler rejects after its call timed out', 'a timeout; the late rejection is no crash', /timed out after 50ms/, 'timeout');
crash('error-ignores-abort', 'ignoresAbort', 'a handler never settles and ignores its signal', 'a timeout at its deadline', /timed out after 100ms/, 'timeout');
const nul = (id: string, fault: string, tool: string, input: unknown, field: string) =>
  cli(id, 6, fault, `invalid input naming ${field}, not a crash`, {
    calls: [call('n', tool, input)],
    extra: allow,
    check: (run) => {
      assert.equal(result(run, 'n').errorKind, 'invocation');
      assert.match(result(run, 'n').content, new RegExp(`field ${field} contains a NUL byte`));
    },
  });
nul('nul-read', 'a NUL byte in a Read path', 'Read', { file_path: 'a\u0000b' }, 'file_path');
nul('nul-write', 'a NUL byte in a Write path', 'Write', { file_path: 'x\u0000y', content: '1' }, 'file_path');
nul('nul-grep', 'a NUL byte in a Grep path', 'Grep', { pattern: 'x', path: 'a\u0000' }, 'path');
nul('nul-grep-pattern', 'a NUL byte in a Grep pattern', 'Grep', { pattern: 'x\u0000y' }, 'pattern');
nul('nul-bash', 'a NUL byte in a command', 'Bash', { command: 'echo a\u0000b' }, 'command');
nul('nul-glob', 'a NUL byte in a Glob pattern', 'Glob', { pattern: '*\u0000' }, 'pattern');
const badModule = (id: string, fault: string, file: string, pattern: RegExp) =>
  cli(id, 6, fault, 'exit 2 with a message, no stack trace', { calls: [], extra: ['--tools', file], exit: 2, check: (run) => assert.match(run.stderr, pattern) });
badModule('module-bad-schema', 'a --tools module with an invalid JSON Schema', path.join(FIXTURES, 'bad-schema-tools.mjs'), /tool "broken" cannot be registered/);
badModule('module-bad-name', 'a --tools module with an invalid tool name', path.join(FIXTURES, 'bad-name-tools.mjs'), /cannot be registered: invalid tool name/);
badModule('module-missing', 'a --tools module that does not exist', '{base}/nope.mjs', /cannot load --tools/);
badModule('module-not-array', 'a --tools module whose default export is not an array', path.join(FIXTURES, 'not-array-tools.mjs'), /default export must be an array/);
badModule('module-duplicate', 'a --tools module redefining a built-in tool', path.join(FIXTURES, 'duplicate-tools.mjs'), /already registered/);
core('errors-getter-class', 6, 'core: errorClassOf and projectErrorMessage on hostile values', 'never throw; a message for each', () => {
  const hostileValues: unknown[] = [
    new Proxy({}, { get: () => { throw new Error('x'); }, getPrototypeOf: () => { throw new Error('x'); } }),
    Object.create(null),
    Symbol('s'),
    (() => { const error = new Error('m'); Object.defineProperty(error, 'name', { get: () => { throw new Error('n'); } }); return error; })(),
  ];
  for (const value of hostileValues) {
    assert.equal(typeof projectErrorMessage(value), 'string');
    assert.equal(typeof errorClassOf(value), 'string');
  }
});

// ── 7. Unbounded sizes ──────────────────────────────────────────────────────────────────────────────────
const BIG = 'a'.repeat(20 * 1024 * 1024);
cli('write-20mb-display', 7, 'a 20 MB single-line Write', 'file_diff within 8 hunks and 160 lines of capped length; the --json line stays small', {
  calls: [call('w', 'Write', { file_path: 'big.txt', content: BIG })],
  extra: allow,
  check: (run) => {
    const display = result(run, 'w').display as { diff: string; truncated: boolean };
    assert.ok(display.diff.length < 200_000, `diff is ${display.diff.length} chars`);
    assert.equal(display.truncated, true);
    assert.ok(run.stdout.length < 3 * 1024 * 1024, `stdout is ${run.stdout.length} chars`);
  },
});
cli('write-20mb-record', 7, 'the same write in the session record', 'the recorded input is cut with a note; the record stays small', {
  calls: [call('w', 'Write', { file_path: 'big.txt', content: BIG })],
  extra: allow,
  check: (run) => {
    const dir = path.join(run.artifacts, 'sessions');
    const size = fs.readdirSync(dir).reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0);
    assert.ok(size < 4 * 1024 * 1024, `the session record is ${size} bytes`);
    assert.match(fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]!), 'utf8'), /not recorded: \d+ more chars/);
  },
});
cli('long-line-custom', 7, 'a custom tool returns one 600000-char line', 'saved as an artifact, with a preview of the line', {
  calls: [call('l', 'longLine', { ms: 600_000 })],
  extra: hostile,
  check: (run) => {
    const line = result(run, 'l');
    assert.ok(line.artifactPath && fs.statSync(line.artifactPath).size === 600_000);
    assert.match(line.content, /Preview[^\n]*\n+x{100}/);
  },
});
cli('long-line-small', 7, 'a custom tool returns one 30000-char line (under the spill size)', 'still saved whole, so nothing is lost', {
  calls: [call('l', 'longLine', { ms: 30_000 })],
  extra: hostile,
  check: (run) => assert.ok(result(run, 'l').artifactPath),
});
cli('huge-output', 7, 'a custom tool returns 5 MB', 'an artifact and a 2000-char preview', { calls: [call('h', 'hugeOutput')], extra: hostile, check: (run) => assert.ok(result(run, 'h').artifactPath && result(run, 'h').content.length < 12_000) });
cli('bash-huge-output', 7, 'a command prints 20 MB', 'streamed to an artifact; bash_output display within 150000 bytes', {
  calls: [call('c', 'Bash', { command: 'head -c 20000000 /dev/zero | tr "\\0" "y"' })],
  extra: allow,
  check: (run) => {
    const line = result(run, 'c');
    assert.ok(line.artifactPath);
    assert.ok(Buffer.byteLength(String((line.display as { output: string }).output)) <= 150_000);
  },
});
cli('ansi-from-command', 7, 'a command prints colours, an OSC title and a hyperlink', 'the model gets the text without escape sequences', {
  calls: [call('c', 'Bash', { command: "printf '\\033[31mred\\033[0m \\033]0;title\\007 \\033]8;;https://x\\033\\\\link\\033]8;;\\033\\\\ end\\n'" })],
  extra: allow,
  check: (run) => {
    assert.ok(!result(run, 'c').content.includes('\u001b'), JSON.stringify(result(run, 'c').content));
    assert.match(result(run, 'c').content, /red  link end/);
  },
});
cli('ansi-human', 7, 'escape sequences in a result shown in the human listing', 'shown escaped (\\x1b), never sent to the terminal', {
  calls: [call('a', 'ansiOutput')],
  extra: hostile,
  human: true,
  check: (run) => {
    assert.ok(!run.stdout.includes('\u001b'));
    assert.match(run.stdout, /\\x1b\[31mred/);
  },
});
cli('calls-bom', 7, 'a CALLS file with a UTF-8 byte-order mark', 'accepted, as settings files are', { calls: `\uFEFF${JSON.stringify([call('a', 'ok', { ms: 1 })])}`, extra: hostile, ids: ['a'] });
cli('stream-bom', 7, '--stream input starting with a byte-order mark', 'accepted', { stdin: `\uFEFF${JSON.stringify(call('a', 'ok', { ms: 1 }))}\n`, extra: [...hostile, '--stream'], ids: ['a'] });
cli('empty-output', 7, 'a custom tool returns empty content', '"(NAME completed with no output)"', { calls: [call('e', 'emptyOutput')], extra: hostile, check: (run) => assert.equal(result(run, 'e').content, '(emptyOutput completed with no output)') });
core('diff-line-cap', 7, 'core: a file_diff of a 1 MB minified line', 'each diff line cut to FILE_DIFF_MAX_LINE_CHARS with a marker', () => {
  const display = buildFileDiffDisplay('min.js', 'x'.repeat(1_000_000), 'y'.repeat(1_000_000));
  assert.ok(display.diff.length < 5_000);
  assert.match(display.diff, /more chars on this line/);
});

/** Every entry, in catalogue order. */
export const FAULT_CATALOGUE: readonly FaultEntry[] = entries;

/** The test that runs an entry, as RELIABILITY.md names it. */
export const CATALOGUE_TEST = 'test/unit/faults/faults.test.ts';

/** The RELIABILITY.md section listing the catalogue (generated; a test keeps the file in step). */
export function reliabilityTable(): string {
  const lines = [
    `${FAULT_CATALOGUE.length} entries (${FAULT_CATALOGUE.filter((entry) => entry.via === 'cli').length} through the built CLI, ${FAULT_CATALOGUE.filter((entry) => entry.via === 'core').length} through the core), by defect class:`,
    '',
    '| class | entries |',
    '|---|---|',
    ...([1, 2, 3, 4, 5, 6, 7, 0] as const).map((defectClass) => `| ${defectClass === 0 ? '–' : defectClass}. ${CLASS_NAMES[defectClass]} | ${FAULT_CATALOGUE.filter((entry) => entry.defectClass === defectClass).length} |`),
    '',
    '| # | class | input or fault | expected result | test |',
    '|---|---|---|---|---|',
    ...FAULT_CATALOGUE.map((entry, index) => `| ${index + 1} | ${entry.defectClass === 0 ? '–' : entry.defectClass} | ${cell(entry.fault)} | ${cell(entry.expected)} | \`${CATALOGUE_TEST}\` › ${entry.id} (${entry.via}) |`),
  ];
  return lines.join('\n');
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

// Fault catalogue, class 4: Secrets reachable around the Read rule.
import assert from 'node:assert/strict';
import { allow, AWS, call, cli, ENV_FILE, GITHUB, hostile, PLAIN_SECRET, result, STRIPE } from '../define';

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
askedCommand('shell-cat-listing', 'Bash(cat:*) and Bash(ls:*) allowed; `cat $(ls -a)` (the listing names .env)', 'cat $(ls -a)');
askedCommand('shell-cat-backticks', 'Bash(cat:*) and Bash(ls:*) allowed; `cat `ls -A``', 'cat `ls -A`');
askedCommand('shell-cat-brace-range', 'Bash(cat:*) allowed; `cat .en{u..w}` (the range spells .env)', 'cat .en{u..w}');
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

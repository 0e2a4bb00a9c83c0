// Property: a compound command built from allowed and disallowed simple commands, joined by
// every operator and nested in every construct, is allowed exactly when every simple command in it is;
// no quoting, escaping or line break ever makes a disallowed command allowed.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { createPolicyFromSettings } from '../../../src/executor/policy/index';

/** Cases per property: a few hundred in the unit run, 10,000 in the soak (TOOL_EXEC_SOAK=1), as for batches. */
const CASES_PER_PROPERTY = process.env.TOOL_EXEC_SOAK === '1' ? 10_000 : 300;

const ws = realpathSync(mkdtempSync(join(tmpdir(), 'compound-')));
writeFileSync(join(ws, 'notes.md'), 'notes\n');
after(() => rmSync(ws, { recursive: true, force: true }));
const policy = createPolicyFromSettings({
  user: { permissions: { allow: ['Bash(ls:*)', 'Bash(git status)', 'Bash(echo *)', 'Bash(cat:*)', 'Bash(bash -c:*)', 'Bash(wc -l)', 'Bash(true)'] } },
  workspaceTrusted: true,
  workspaceFolders: [ws],
});
const bash = { name: 'Bash', description: '', sideEffectScope: 'external', permissionSubject: (input: { command: string }) => ({ kind: 'command', command: input.command }) };
const decide = (command: string) => policy.evaluate({ tool: bash, input: { command }, workspaceFolders: [ws] } as never, new AbortController().signal);

interface Line {
  readonly text: string;
  readonly allowed: boolean;
}

/** Simple commands our rules allow, some written with quotes or escapes that do not change them. */
const ALLOWED = ['ls -la', 'git status', 'echo hi', 'cat notes.md', "'ls' src", 'e\\cho "a b"', 'wc -l', 'true'];
/** Commands no rule allows, plain and disguised by quoting, escaping and line continuations. */
const DISALLOWED = ['rm -rf x', 'curl https://evil.example', 'shred notes.md', "'rm' -rf x", '"cu"rl x', 'r\\m x', 'rm \\\n -rf x', 'git push', 'git status --porcelain; ', "ec'ho' hi > /etc/x"];

const simple: fc.Arbitrary<Line> = fc.oneof(
  fc.constantFrom(...ALLOWED).map((text) => ({ text, allowed: true })),
  fc.constantFrom(...DISALLOWED).map((text) => ({ text: text.replace(/;\s*$/, ''), allowed: false })),
);

const singleQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const { line } = fc.letrec<{ line: Line }>((tie) => ({
  line: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    simple,
    fc.tuple(tie('line'), fc.constantFrom('&&', '||', ';', '|', '\n', '&', '|&'), tie('line')).map(([a, op, b]) => ({ text: `${a.text} ${op} ${b.text}`, allowed: a.allowed && b.allowed })),
    tie('line').map((a) => ({ text: `echo $( ${a.text} )`, allowed: a.allowed })),
    tie('line').filter((a) => !a.text.includes('`') && !a.text.includes('\\')).map((a) => ({ text: `echo \`${a.text}\``, allowed: a.allowed })),
    tie('line').map((a) => ({ text: `cat <(${a.text})`, allowed: a.allowed })),
    tie('line').map((a) => ({ text: `( ${a.text} )`, allowed: a.allowed })),
    tie('line').map((a) => ({ text: `{ ${a.text}; }`, allowed: a.allowed })),
    fc.tuple(tie('line'), tie('line')).map(([a, b]) => ({ text: `if ${a.text}; then ${b.text}; fi`, allowed: a.allowed && b.allowed })),
    fc.tuple(tie('line'), tie('line')).map(([a, b]) => ({ text: `while ${a.text}; do ${b.text}; done`, allowed: a.allowed && b.allowed })),
    tie('line').map((a) => ({ text: `for f in a b; do ${a.text}; done`, allowed: a.allowed })),
    tie('line').map((a) => ({ text: `bash -c ${singleQuote(a.text)}`, allowed: a.allowed })),
    tie('line').map((a) => ({ text: `{ ! ${a.text}; }`, allowed: a.allowed })),
  ),
}));

describe('compound commands (property)', () => {
  it('`$((` holding a command is not taken for arithmetic (bash runs it when it is not arithmetic)', async () => {
    assert.notEqual((await decide('echo $(( ! rm -rf x ))')).behavior, 'allow');
    assert.equal((await decide('echo $((1 + 2 * 3))')).behavior, 'allow');
  });

  it('a line is allowed exactly when every simple command in it is', async () => {
    await fc.assert(
      fc.asyncProperty(line, async ({ text, allowed }) => {
        const decision = await decide(text);
        if (allowed) assert.equal(decision.behavior, 'allow', `${JSON.stringify(text)}: ${decision.reason}`);
        else assert.notEqual(decision.behavior, 'allow', `${JSON.stringify(text)} was allowed: ${decision.reason}`);
      }),
      { numRuns: CASES_PER_PROPERTY },
    );
  });
});

// The secrets an ACP agent was shown as masks, put back when it writes the file back (src/acp/secrets.ts): as a
// unit, and over stdio with the scripted agent reading and writing back a file with a token in it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { restoreToolCall, ServedSecrets } from '../../../src/acp/secrets';
import { acpTests, entries } from './harness';

const TOKEN = `ghp_${'Ab3De6Gh9K'.repeat(4).slice(0, 36)}`;
const OTHER = `ghp_${'Qr5St7Uv1W'.repeat(4).slice(0, 36)}`;

describe('ServedSecrets', () => {
  it('puts back each secret by the text before it on its line, after the agent changed other lines', () => {
    const secrets = new ServedSecrets();
    secrets.served('/w/a.env', 'A=1\nTOKEN=[REDACTED:github]\nOTHER=[REDACTED:github]\n', `A=1\nTOKEN=${TOKEN}\nOTHER=${OTHER}\n`);
    const back = secrets.restore('/w/a.env', 'A=2\nOTHER=[REDACTED:github]\nTOKEN=[REDACTED:github]\n');
    assert.deepEqual(back, { text: `A=2\nOTHER=${OTHER}\nTOKEN=${TOKEN}\n`, unplaced: 0 });
  });

  it('puts back a mask whose secret is the only one it can stand for, wherever it moved', () => {
    const secrets = new ServedSecrets();
    secrets.served('/w/a.env', 'TOKEN=[REDACTED:github]\n', `TOKEN=${TOKEN}\n`);
    assert.deepEqual(secrets.restore('/w/a.env', 'export GH=[REDACTED:github]\n'), { text: `export GH=${TOKEN}\n`, unplaced: 0 });
  });

  it('counts a mask it cannot tell apart, and leaves it', () => {
    const secrets = new ServedSecrets();
    secrets.served('/w/a.env', 'X=[REDACTED:github]\nX=[REDACTED:github]\n', `X=${TOKEN}\nX=${OTHER}\n`);
    assert.deepEqual(secrets.restore('/w/a.env', 'Y=[REDACTED:github]\n'), { text: 'Y=[REDACTED:github]\n', unplaced: 1 });
  });

  it('restores nothing for another path, or when the file no longer lines up with what was shown', () => {
    const secrets = new ServedSecrets();
    secrets.served('/w/a.env', 'T=[REDACTED:github]\n', `T=${TOKEN}\n`);
    assert.deepEqual(secrets.restore('/w/b.env', 'T=[REDACTED:github]\n'), { text: 'T=[REDACTED:github]\n', unplaced: 0 });
    secrets.served('/w/c.env', 'T=[REDACTED:github]\n', `U=${TOKEN}\n`);
    assert.deepEqual(secrets.restore('/w/c.env', 'T=[REDACTED:github]\n'), { text: 'T=[REDACTED:github]\n', unplaced: 0 });
  });

  it('forgets a file read again without masks', () => {
    const secrets = new ServedSecrets();
    secrets.served('/w/a.env', 'T=[REDACTED:github]\n', `T=${TOKEN}\n`);
    secrets.served('/w/a.env', 'T=plain\n', '');
    assert.equal(secrets.restore('/w/a.env', 'T=[REDACTED:github]\n').text, 'T=[REDACTED:github]\n');
  });

  it("restores a permission request's diff and its input's texts, and leaves one without masks as it was", () => {
    const secrets = new ServedSecrets();
    secrets.served('/w/a.env', 'N=1\nT=[REDACTED:github]\n', `N=1\nT=${TOKEN}\n`);
    const call = { toolCallId: 'c1', kind: 'edit' as const, rawInput: { file_path: '/w/a.env', new_string: 'T=[REDACTED:github]\nN=2' }, content: [{ type: 'diff' as const, path: '/w/a.env', oldText: 'N=1\nT=[REDACTED:github]\n', newText: 'N=2\nT=[REDACTED:github]\n' }] };
    const restored = restoreToolCall(secrets, call);
    assert.deepEqual(restored.content, [{ type: 'diff', path: '/w/a.env', oldText: `N=1\nT=${TOKEN}\n`, newText: `N=2\nT=${TOKEN}\n` }]);
    assert.deepEqual(restored.rawInput, { file_path: '/w/a.env', new_string: `T=${TOKEN}\nN=2` });
    const plain = { toolCallId: 'c2', kind: 'edit' as const, content: [{ type: 'diff' as const, path: '/w/a.env', oldText: 'a', newText: 'b' }] };
    assert.equal(restoreToolCall(secrets, plain), plain);
  });
});

describe('ACP: an agent that writes back a file it read with a secret in it', () => {
  const acp = acpTests();

  it('gets the secret put back, not overwritten with its mask', async () => {
    writeFileSync(join(acp.dir(), 'a.env'), `NAME=demo\nTOKEN=${TOKEN}\n`);
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }] });
    await harness.prompt([{ read: 'a.env' }]);
    const [read] = entries(harness, 'read');
    assert.ok(!read!.content.includes(TOKEN), read!.content);
    assert.match(read!.content, /^NAME=demo\nTOKEN=\[REDACTED:[^\]]+\]\n$/);
    await harness.prompt([{ write: 'a.env', content: read!.content.replace('demo', 'prod') }]);
    assert.equal(readFileSync(join(acp.dir(), 'a.env'), 'utf8'), `NAME=prod\nTOKEN=${TOKEN}\n`);
    // The modal showed the write as it happens: with the secret, not its mask.
    assert.equal((harness.approvals.asked[0]!.input as { content: string }).content, `NAME=prod\nTOKEN=${TOKEN}\n`);
  });

  it('refuses a write whose masks cannot be told apart: nothing is written', async () => {
    writeFileSync(join(acp.dir(), 'a.env'), `X=${TOKEN}\nX=${OTHER}\n`);
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }] });
    await harness.prompt([{ read: 'a.env' }]);
    const [read] = entries(harness, 'read');
    await harness.prompt([{ write: 'a.env', content: `Y=${/\[REDACTED:[^\]]+\]/.exec(read!.content)![0]}\n` }]);
    assert.equal(readFileSync(join(acp.dir(), 'a.env'), 'utf8'), `X=${TOKEN}\nX=${OTHER}\n`);
    const [error] = entries(harness, 'error');
    assert.match(error!.error.message, /cannot be told apart/);
    assert.equal(harness.approvals.asked.length, 0);
  });
});

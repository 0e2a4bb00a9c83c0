import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, isSecretEnvName } from '../../../../../src/executor/results/redaction/redactor';
import { redactionStreamOf } from '../../../../../src/executor/results/redaction/lineStream';
import { PLANTED, pemKey, plantedText } from '../secrets';

describe('createRedactor', () => {
  const redactor = createRedactor();

  for (const { rule, secret, text } of PLANTED) {
    it(`masks a ${rule} as [REDACTED:${rule}]`, () => {
      const line = text === 'https://deploy:' ? `${text}${secret}@example.com/x` : `before ${text}${secret} after`;
      const out = redactor.redact(line);
      assert.ok(!out.includes(secret), out);
      assert.ok(out.includes(`[REDACTED:${rule}]`), out);
    });
  }

  it('keeps the harmless prefix of assignments and URLs', () => {
    assert.equal(redactor.redact('password=hunter2hunter2'), 'password=[REDACTED:password]');
    assert.equal(redactor.redact('git clone https://bot:tok3n-value@example.com/r.git'), 'git clone https://bot:[REDACTED:url-credentials]@example.com/r.git');
  });

  it('masks a PEM private key whole, and the body of one cut off before its END line', () => {
    const key = pemKey();
    assert.equal(redactor.redact(`key:\n${key}\ndone`), 'key:\n[REDACTED:private-key]\ndone');
    const cut = key.slice(0, key.length / 2);
    const out = redactor.redact(cut);
    assert.equal(out, '[REDACTED:private-key]');
  });

  it('leaves ordinary text alone', () => {
    const text = 'npm test passed: 12 tests, 0 failures\nsk-ant is a prefix\nThe password field is required.';
    assert.equal(redactor.redact(text), text);
  });

  it('masks the exact values of secret-named environment variables of 8 chars or more', () => {
    const env = { MY_SERVICE_TOKEN: 'tok-aaaa-bbbb', DB_PASSWORD: 'p@ss w0rd!', SHORT_TOKEN: 'abc', HOME: '/root/home-dir', PWD: '/work/main/x' };
    const withEnv = createRedactor({ env });
    assert.equal(withEnv.redact('got tok-aaaa-bbbb and p@ss w0rd!'), 'got [REDACTED:env] and [REDACTED:env]');
    assert.equal(withEnv.redact('abc /root/home-dir /work/main/x'), 'abc /root/home-dir /work/main/x');
  });

  it('recognises secret-looking names and not location-looking ones', () => {
    for (const name of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'NPM_AUTH', 'SENTRY_DSN', 'SESSION_ID']) {
      assert.ok(isSecretEnvName(name), name);
    }
    for (const name of ['HOME', 'PATH', 'PWD', 'SSH_AUTH_SOCK', 'TOKEN_FILE', 'KEYBOARD', 'USER']) {
      assert.ok(!isSecretEnvName(name), name);
    }
  });

  it('masks user patterns, named or not', () => {
    const custom = createRedactor({ patterns: ['ACME-[0-9]{6}', { name: 'ticket', pattern: /INTERNAL-\d+/i } ] });
    assert.equal(custom.redact('ACME-123456 internal-42'), '[REDACTED:user-pattern] [REDACTED:ticket]');
  });

  it('does not mask twice', () => {
    const once = redactor.redact(plantedText());
    assert.equal(redactor.redact(once), once);
  });
});

describe('redaction streams', () => {
  const redactor = createRedactor({ env: { DEPLOY_TOKEN: 'deploy-token-value-0123456789' } });

  function streamed(chunks: readonly string[], stream = redactor.createStream!()): string {
    return chunks.map((chunk) => stream.push(chunk)).join('') + stream.end();
  }

  it('catches every planted secret split across two chunks at every offset', () => {
    const text = `${'x'.repeat(20_000)}\n${plantedText()}\n${pemKey()}\nDEPLOY deploy-token-value-0123456789\n${'y'.repeat(20_000)}`;
    const whole = redactor.redact(text);
    const start = 20_000;
    for (let cut = start; cut < text.length - 20_000; cut += 7) {
      assert.equal(streamed([text.slice(0, cut), text.slice(cut)]), whole, `cut at ${cut}`);
    }
  });

  it('gives the same text as whole-text redaction for many small chunks', () => {
    const text = `${plantedText()}\n`.repeat(300) + pemKey(80);
    const chunks: string[] = [];
    for (let index = 0; index < text.length; index += 97) chunks.push(text.slice(index, index + 97));
    assert.equal(streamed(chunks), redactor.redact(text));
  });

  it('keeps its memory bounded: emits as it goes', () => {
    const stream = redactor.createStream!();
    let emitted = 0;
    for (let index = 0; index < 200; index++) emitted += stream.push('z'.repeat(10_000)).length;
    assert.ok(emitted >= 200 * 10_000 - 20_000, `emitted ${emitted}`);
    emitted += stream.end().length;
    assert.equal(emitted, 2_000_000);
  });

  it('never splits a surrogate pair between two emitted pieces', () => {
    const stream = redactor.createStream!();
    const pieces: string[] = [];
    for (let index = 0; index < 50; index++) pieces.push(stream.push('😀'.repeat(1000) + 'a'));
    pieces.push(stream.end());
    for (const piece of pieces) {
      assert.equal(Buffer.from(piece, 'utf8').toString('utf8'), piece);
    }
  });

  it('falls back to whole lines for a redactor without a stream', () => {
    const plain = { redact: (text: string) => text.replace(/secret-[a-z]+/g, '[REDACTED:test]') };
    const stream = redactionStreamOf(plain);
    assert.equal(streamed(['a secret-', 'value here\nnext'], stream), 'a [REDACTED:test] here\nnext');
  });
});

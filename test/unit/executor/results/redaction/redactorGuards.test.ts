// What the redactor masks beyond the built-in formats (secret-named environment values, user patterns),
// each from both sides: the secret it must mask and the near miss it must leave alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, isSecretEnvName, MIN_ENV_SECRET_CHARS, STREAM_HOLDBACK_CHARS } from '../../../../../src/executor/results/redaction/patternRedactor';
import { MAX_PEM_CHARS } from '../../../../../src/executor/results/redaction/rules';

function streamed(redactor: ReturnType<typeof createRedactor>, chunks: readonly string[]): string {
  const stream = redactor.createStream!();
  return chunks.map((chunk) => stream.push(chunk)).join('') + stream.end();
}

function chunked(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += size) chunks.push(text.slice(index, index + size));
  return chunks;
}

describe('isSecretEnvName: every secret word, and the names that only look like one', () => {
  it('names that hold secrets, in any case', () => {
    for (const name of [
      'CLIENT_SECRET', 'secret', 'GH_TOKEN', 'token', 'MYSQL_PASSWD', 'DB_PASSWORD', 'PASS', 'DB_PASS', 'PASS_PHRASE', 'SMTP_PASS_2',
      'APIKEY', 'api_key', 'X_API_KEY', 'PRIVATEKEY', 'PRIVATE_KEY', 'ACCESSKEY', 'AWS_ACCESS_KEY', 'KEY', 'SSH_KEY', 'CREDENTIALS',
      'GOOGLE_CREDENTIAL', 'AUTH', 'NPM_AUTH', 'AUTH_HEADER', 'GH_AUTH_X', 'PAT', 'GITHUB_PAT', 'PAT_VALUE', 'DSN', 'SENTRY_DSN',
      'COOKIE', 'SESSION_COOKIE', 'SESSIONID', 'SESSION_ID', 'php_session_id',
    ]) {
      assert.equal(isSecretEnvName(name), true, name);
    }
  });

  it('names that only contain the letters of one, and names of locations', () => {
    for (const name of [
      'PATH', 'COMPASS', 'PASSTHROUGH', 'BYPASS_CACHE', 'KEYBOARD', 'MONKEY', 'KEY_ID', 'AUTHOR', 'OAUTH_ENABLED', 'GIT_AUTHOR_NAME',
      'PATTERN', 'SPATIAL', 'DSN_HOSTNAME', 'SESSION', 'HOME', 'PWD', 'APIK_EY',
      'SSH_AUTH_SOCK', 'TOKEN_PATH', 'KEY_FILE', 'SECRET_DIR', 'DB_PASSWORD_FILE', 'AUTH_HOST', 'AUTH_PORT', 'TOKEN_URL_PATH',
      'GOOGLE_APPLICATION_CREDENTIALS_FILE', 'secret_dir',
    ]) {
      assert.equal(isSecretEnvName(name), false, name);
    }
  });

  it('a location word counts only at the end of the name', () => {
    for (const name of ['TOKEN_FILE_CONTENT', 'SECRET_PATHS', 'SECRET_DIRECT', 'AUTH_HOSTED_TOKEN', 'SSH_AUTH_SOCKET', 'AUTH_PORTAL']) {
      assert.equal(isSecretEnvName(name), true, name);
    }
  });
});

describe('createRedactor: environment values', () => {
  it(`masks a secret-named value of ${MIN_ENV_SECRET_CHARS} chars or more, not a shorter one, nor a value under another name`, () => {
    const long = 'a1b2c3d4';
    const short = 'z9y8x7w';
    const redactor = createRedactor({ env: { MY_TOKEN: long, OTHER_TOKEN: short, PLAIN_VALUE: 'visible-value-1234', UNSET_TOKEN: undefined } });
    assert.equal(long.length, MIN_ENV_SECRET_CHARS);
    assert.equal(redactor.redact(`x ${long} ${short} visible-value-1234`), `x [REDACTED:env] ${short} visible-value-1234`);
  });

  it('masks a value that contains another whole, not the shorter one inside it', () => {
    const redactor = createRedactor({ env: { A_TOKEN: 'abcdefgh', B_TOKEN: 'abcdefghijklmnop' } });
    assert.equal(redactor.redact('abcdefghijklmnop abcdefgh'), '[REDACTED:env] [REDACTED:env]');
  });

  it('masks a value literally: its regex characters match only themselves', () => {
    const value = 'p.ss+w*rd?(1)[2]{3}|^$\\x';
    const redactor = createRedactor({ env: { DB_PASSWORD: value } });
    assert.equal(redactor.redact(`pw ${value} end`), 'pw [REDACTED:env] end');
    const nearMiss = 'pXss+w*rd?(1)[2]{3}|^$\\x';
    assert.equal(redactor.redact(nearMiss), nearMiss);
    assert.equal(redactor.redact('pssssw'), 'pssssw');
  });

  it('names the environment as the source when a value is also a built-in format', () => {
    const token = `ghp_${'A1b2C3d4'.repeat(5)}`;
    const redactor = createRedactor({ env: { GITHUB_TOKEN: token } });
    assert.equal(redactor.redact(`t=${token}`), 't=[REDACTED:env]');
  });

  it('in a stream, masks a value longer than the usual hold-back, however it is cut', () => {
    const value = Array.from({ length: 3 * STREAM_HOLDBACK_CHARS }, (_, index) => 'abcdefghijklmnopqrstuvwxyz'[(index * 7) % 26]).join('');
    const redactor = createRedactor({ env: { HUGE_TOKEN: value } });
    const before = 'x'.repeat(30_000);
    const text = `${before}${value} end`;
    for (const size of [1000, 4096, 10_000]) assert.equal(streamed(redactor, chunked(text, size)), `${before}[REDACTED:env] end`, `chunks of ${size}`);
  });
});

describe('createRedactor: user patterns and options', () => {
  it('takes a RegExp\'s own flags, finds every match, and drops flags that would stop it (sticky, global given twice)', () => {
    const redactor = createRedactor({
      patterns: [
        { name: 'case', pattern: /ticket-\d+/i },
        { name: 'sticky', pattern: /ORDER-\d+/y },
        { name: 'global', pattern: /REF-\d+/g },
        { name: 'indices', pattern: /BUG-\d+/d },
      ],
      builtinRules: false,
    });
    assert.equal(
      redactor.redact('see TICKET-1 and ticket-22; ORDER-3, ORDER-4; REF-5 REF-6; BUG-7 BUG-8'),
      'see [REDACTED:case] and [REDACTED:case]; [REDACTED:sticky], [REDACTED:sticky]; [REDACTED:global] [REDACTED:global]; [REDACTED:indices] [REDACTED:indices]',
    );
    assert.equal(redactor.redact('Order-3 ref-5'), 'Order-3 ref-5', 'no i flag, no match in another case');
  });

  it('reads a string as a case-sensitive pattern named user-pattern', () => {
    const redactor = createRedactor({ patterns: ['ACME-[0-9]{4}', { pattern: 'BETA-[0-9]{2}' }], builtinRules: false });
    assert.equal(redactor.redact('ACME-1234 acme-1234 BETA-12'), '[REDACTED:user-pattern] acme-1234 [REDACTED:user-pattern]');
  });

  it('without the built-in rules masks only what it was given', () => {
    const aws = 'AKIA' + 'ABCDEFGHIJKLMNOP';
    assert.equal(createRedactor({ builtinRules: false }).redact(`key ${aws}`), `key ${aws}`);
    assert.equal(createRedactor({ builtinRules: true }).redact(`key ${aws}`), 'key [REDACTED:aws-access-key]');
    assert.equal(createRedactor({ builtinRules: false, env: { AWS_KEY: 'value-1234' } }).redact('value-1234'), '[REDACTED:env]');
  });

  it('leaves empty text empty', () => {
    assert.equal(createRedactor().redact(''), '');
  });

  it('says its stream writes only ASCII masks unless a rule\'s name is not ASCII', () => {
    assert.equal(createRedactor().createStream!().keepsAscii, true);
    assert.equal(createRedactor({ patterns: [{ name: 'ticket', pattern: 'T-1' }] }).createStream!().keepsAscii, true);
    assert.equal(createRedactor({ patterns: [{ name: 'clé', pattern: 'T-1' }] }).createStream!().keepsAscii, false);
    assert.equal(createRedactor({ patterns: [{ name: 'a\x7f', pattern: 'T-1' }] }).createStream!().keepsAscii, true, 'DEL is ASCII');
    assert.equal(createRedactor({ patterns: [{ name: '\x80', pattern: 'T-1' }] }).createStream!().keepsAscii, false);
  });
});

describe('redaction streams: the edges of what is held back', () => {
  function pushedEach(redactor: ReturnType<typeof createRedactor>, chunks: readonly string[]): string {
    const stream = redactor.createStream!();
    const pieces: string[] = [];
    for (const chunk of chunks) stream.pushEach!(chunk, (piece) => pieces.push(piece));
    return pieces.join('') + stream.end();
  }

  it('a stream that was given nothing ends with nothing', () => {
    assert.equal(createRedactor().createStream!().end(), '');
  });

  it('a private key still open when a long chunk arrives is held back whole, and nothing of the chunk is lost', () => {
    const redactor = createRedactor();
    const body = `${'B'.repeat(63)}\n`.repeat(300);
    const rest = `${body}-----END RSA PRIVATE KEY-----\n${'z'.repeat(20_000)}`;
    assert.ok(rest.length >= 4 * STREAM_HOLDBACK_CHARS, 'a long chunk');
    for (let before = 9_700; before <= 10_300; before += 100) {
      const start = `${'x'.repeat(before)}-----BEGIN RSA PRIVATE KEY-----\n`;
      const out = pushedEach(redactor, [start, rest]);
      assert.equal(out, redactor.redact(start + rest), `header after ${before} chars`);
      assert.ok(out.endsWith('z'.repeat(20_000)));
    }
  });

  it('never splits a surrogate pair at either end of the high-surrogate range', () => {
    for (const char of ['\u{10000}', '\u{10FFFF}', '\u{F0000}']) {
      // Chunks of odd and even lengths, so the hold-back's edge falls inside a pair again and again.
      const chunks = Array.from({ length: 60 }, (_, index) => char.repeat(1000) + 'ab'.slice(0, 1 + (index % 2)));
      const stream = createRedactor().createStream!();
      const pieces = chunks.map((chunk) => stream.push(chunk));
      pieces.push(stream.end());
      for (const piece of pieces) assert.equal(Buffer.from(piece, 'utf8').toString('utf8'), piece, JSON.stringify(char));
      assert.equal(pieces.join(''), chunks.join(''));
    }
  });
});

describe('redaction streams: private keys and memory', () => {
  const header = '-----BEGIN RSA PRIVATE KEY-----\n';
  function emittedBeforeEnd(chunks: readonly string[]): { before: string; all: string } {
    const stream = createRedactor().createStream!();
    const before = chunks.map((chunk) => stream.push(chunk)).join('');
    return { before, all: before + stream.end() };
  }

  it('a closed private key does not hold the stream back: its mask goes out before the stream ends', () => {
    const key = `${header}${`${'K'.repeat(63)}\n`.repeat(20)}-----END RSA PRIVATE KEY-----\n`;
    // Just past what a stream holds back anyway (2 × hold-back), and near enough for the key to be looked at.
    const text = `${key}${'z'.repeat(2 * STREAM_HOLDBACK_CHARS + 100 - key.length)}`;
    const { before, all } = emittedBeforeEnd(chunked(text, 500));
    assert.ok(before.startsWith('[REDACTED:private-key]'), before.slice(0, 60));
    assert.equal(all, createRedactor().redact(text));
  });

  it('a private key never closed holds the stream back only as far as a key can reach', () => {
    const text = `${header}${'A'.repeat(MAX_PEM_CHARS + 8 * STREAM_HOLDBACK_CHARS)}`;
    const { before, all } = emittedBeforeEnd(chunked(text, 1000));
    assert.ok(before.length > 0 && before.startsWith('[REDACTED:private-key]'), `emitted ${before.length} chars before the end`);
    assert.equal(all, createRedactor().redact(text));
  });

  it('starts afresh after it ended', () => {
    const stream = createRedactor().createStream!();
    assert.equal(stream.push('first run'), '');
    assert.equal(stream.end(), 'first run');
    assert.equal(stream.push('second'), '');
    assert.equal(stream.end(), 'second');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, isSecretEnvName, STREAM_HOLDBACK_CHARS } from '../../../../../src/executor/results/redaction/patternRedactor';
import { redactionStreamOf } from '../../../../../src/executor/results/redaction/lineStream';
import { random } from '../../random';
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

describe('credentials in user:pass@ and proxyauth= forms, wherever they appear', () => {
  const redactor = createRedactor();
  const PASS = 'S3cret-Pa55word';
  const masked = [
    `GIT_SSH_COMMAND='ssh -o ProxyCommand="socat - PROXY:proxy.corp:%h:%p,proxyport=3128,proxyauth=alice:${PASS}"'`,
    `socat - PROXY:proxy:%h:%p,proxyauth=alice:${PASS},proxyport=3128`,
    `proxyAuth: "alice:${PASS}"`,
    `curl -x alice:${PASS}@proxy.corp:3128 https://example.com`,
    `HTTPS_PROXY=alice:${PASS}@10.0.0.1:3128`,
    `export http_proxy="alice:${PASS}@proxy.corp:8080"`,
    `all_proxy=socks5h://alice:${PASS}@proxy.corp:1080`,
    `ssh -o ProxyCommand='corkscrew alice:${PASS}@proxy 8080 %h %p'`,
    `proxy = (alice:${PASS}@[fe80::1]:3128)`,
    `user.name:${PASS}@host.example`,
    `alice:pa:${PASS}@proxy`,
  ];
  for (const line of masked) {
    it(`masks the password in ${line}`, () => {
      const out = redactor.redact(line);
      assert.ok(!out.includes(PASS), out);
      assert.match(out, /\[REDACTED:(url-credentials|password)\]/);
    });
  }

  const untouched = [
    'mail alice@example.com about it',
    'mailto:alice@example.com',
    'sip:alice@example.com',
    'git clone git@github.com:org/repo.git',
    'FROM node:20@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    '"lodash": "npm:lodash-es@4.17.21"',
    '"@scope/x": "npm:@scope/y@^1.0.0"',
    'at 12:30@home, and 10:00:01@worker-3',
    'pkg:npm/left-pad@1.3.0',
    'std::vector@x and a::b@c',
    'user:@host and :pw@host',
    'proxyport=3128,proxyhost=proxy.corp',
    'authorization_mode=basic',
  ];
  for (const line of untouched) {
    it(`leaves ${line} alone`, () => assert.equal(redactor.redact(line), line));
  }
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

  describe('pushEach (long chunks: the start joined to the held-back text, the rest sliced)', () => {
    /** `STREAM_HOLDBACK_CHARS` for this redactor; `pushEach` takes a chunk of `4 × HOLDBACK` chars or more in two steps, at `2 × HOLDBACK`. */
    const HOLDBACK = STREAM_HOLDBACK_CHARS;
    const SPLIT = 2 * HOLDBACK;

    function pushedEach(chunks: readonly string[]): { text: string; pieces: string[] } {
      const stream = redactor.createStream!();
      const pieces: string[] = [];
      for (const chunk of chunks) stream.pushEach!(chunk, (piece) => pieces.push(piece));
      pieces.push(stream.end());
      return { text: pieces.join(''), pieces };
    }

    /** `text` cut at `cuts` (offsets into it, ascending). */
    function cutAt(text: string, cuts: readonly number[]): string[] {
      const chunks: string[] = [];
      let from = 0;
      for (const cut of [...cuts, text.length]) {
        chunks.push(text.slice(from, cut));
        from = cut;
      }
      return chunks;
    }

    /**
     * Ascending cuts of a `length`-char text: short chunks (1 to `shortMax` chars, a `shortShare` of them) and
     * long ones, taken in two steps (`4 × HOLDBACK` plus up to `longSpan` chars).
     */
    function randomCuts(next: () => number, length: number, chunks: { shortShare: number; shortMax: number; longSpan: number }): number[] {
      const cuts: number[] = [];
      for (let at = 0; at < length; ) {
        at += next() < chunks.shortShare ? 1 + Math.floor(next() * chunks.shortMax) : 4 * HOLDBACK + Math.floor(next() * chunks.longSpan);
        if (at < length) cuts.push(at);
      }
      return cuts;
    }

    it('masks a secret across the seam inside a chunk, at every offset around it', () => {
      for (const { secret, text: prefix } of PLANTED) {
        const planted = `${prefix}${secret}`;
        // A first chunk leaves HOLDBACK chars or more held back; the second is long, with the secret around its SPLIT.
        const first = 'a'.repeat(5 * HOLDBACK) + '\n';
        for (let offset = -planted.length - 2; offset <= 2; offset += Math.max(1, Math.floor(planted.length / 9))) {
          const second = `${'b '.repeat((SPLIT + offset) / 2 + 1).slice(0, SPLIT + offset)}${planted} tail\n${'c'.repeat(3 * HOLDBACK)}`;
          const text = first + second;
          const { text: out } = pushedEach([first, second]);
          assert.equal(out, redactor.redact(text), `${prefix} at SPLIT${offset >= 0 ? '+' : ''}${offset}`);
        }
      }
    });

    it('masks secrets straddling one, two and many chunk boundaries, long chunks and short ones mixed', () => {
      const key = pemKey();
      const jwt = PLANTED.find((planted) => planted.rule === 'jwt')!.secret;
      const text = `${'x'.repeat(4 * HOLDBACK + 3)}\n${key}\n${'y '.repeat(HOLDBACK)}token=${jwt} Bearer ${jwt}\nDEPLOY deploy-token-value-0123456789\n${'z'.repeat(5 * HOLDBACK)}`;
      const whole = redactor.redact(text);
      const keyAt = text.indexOf(key);
      const jwtAt = text.indexOf(jwt);
      const layouts: number[][] = [
        [keyAt + 10], // one boundary, inside the key
        [keyAt + 10, keyAt + key.length - 20], // two, the key's start and end in different chunks
        Array.from({ length: 40 }, (_, index) => keyAt + 1 + index * Math.floor(key.length / 41)), // many: chunks shorter than the key
        Array.from({ length: 30 }, (_, index) => jwtAt - 5 + index * 7), // many short chunks over the JWT
        [keyAt - SPLIT - 5, jwtAt - SPLIT + 3], // a long chunk's SPLIT just before the key, another's inside the JWT
        [keyAt - SPLIT + 40, keyAt + key.length - 9, jwtAt + 11], // a seam inside the key, then boundaries at its end and in the JWT
      ];
      for (const cuts of layouts) {
        const { text: out } = pushedEach(cutAt(text, cuts.filter((cut) => cut > 0 && cut < text.length)));
        assert.equal(out, whole, JSON.stringify(cuts));
      }
    });

    it('keeps multi-byte chars whole at the seam and at chunk boundaries', () => {
      const filler = '😀é中'.repeat(2 * HOLDBACK);
      const text = `${filler}password=hunter2hunter2 😀 ${filler}`;
      const secretAt = text.indexOf('hunter2');
      // A long chunk's SPLIT inside a surrogate pair (the first filler's pairs start at multiples of 4), and next to the secret.
      for (const cuts of [[1], [3], [5, 5 + SPLIT + 1 + 4 * HOLDBACK], [secretAt - SPLIT - 1], [secretAt - SPLIT + 3]]) {
        const { text: out, pieces } = pushedEach(cutAt(text, cuts));
        assert.equal(out, redactor.redact(text), JSON.stringify(cuts));
        for (const piece of pieces) assert.equal(Buffer.from(piece, 'utf8').toString('utf8'), piece, 'no piece ends or starts inside a pair');
      }
    });

    it('holds back ASCII text (kept outside the JS heap) and other text alike, whichever the held-back text is', () => {
      // Held back between chunks is now ASCII only, now with latin1 (é) or wider chars (€, a surrogate pair) in it.
      const ghp = PLANTED.find((planted) => planted.rule === 'github-token')!.secret;
      const parts = ['a'.repeat(3 * HOLDBACK), 'b '.repeat(HOLDBACK / 2), 'café ', '€ 100\n', '😀', 'password=hunter2hunter2\n', ` ${ghp} `];
      const next = random(67);
      for (let trial = 0; trial < 20; trial++) {
        let text = '';
        while (text.length < 12 * HOLDBACK) text += parts[Math.floor(next() * parts.length)];
        const cuts = randomCuts(next, text.length, { shortShare: 0.3, shortMax: 3000, longSpan: 2 * HOLDBACK });
        assert.equal(pushedEach(cutAt(text, cuts)).text, redactor.redact(text), `trial ${trial}`);
      }
    });

    it('gives the text whole-text redaction gives, for random long and short chunks', () => {
      const next = random(61);
      const text = `${plantedText()}\n${pemKey()}\n`.repeat(60);
      for (let trial = 0; trial < 20; trial++) {
        const cuts = randomCuts(next, text.length, { shortShare: 0.5, shortMax: 200, longSpan: 4 * HOLDBACK });
        assert.equal(pushedEach(cutAt(text, cuts)).text, redactor.redact(text), `trial ${trial}`);
      }
    });
  });

  it('falls back to whole lines for a redactor without a stream', () => {
    const plain = { redact: (text: string) => text.replace(/secret-[a-z]+/g, '[REDACTED:test]') };
    const stream = redactionStreamOf(plain);
    assert.equal(streamed(['a secret-', 'value here\nnext'], stream), 'a [REDACTED:test] here\nnext');
  });
});

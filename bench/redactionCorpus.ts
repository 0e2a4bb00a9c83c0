// The redaction bench's text: ordinary code and logs (this repository's src/ plus log lines that
// look near secrets and are not), with 200 planted secrets of 10 formats, each in the surroundings
// it has in real life (.env, JSON config, YAML, shell history, log lines, a PEM file).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './lib';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A deterministic pseudo-random string (so runs compare). */
function chars(alphabet: string, length: number, seed: number): string {
  let state = seed * 2654435761 + 1;
  let out = '';
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return out;
}

export interface Planted {
  readonly format: string;
  readonly secret: string;
  readonly line: string;
}

/** Ten formats in their real surroundings; `n` varies the secret and the surroundings. */
const FORMATS: ReadonlyArray<(n: number) => Planted> = [
  (n) => {
    const secret = `AKIA${chars(UPPER, 16, n)}`;
    return { format: 'aws-access-key (.env)', secret, line: `AWS_ACCESS_KEY_ID=${secret}` };
  },
  (n) => {
    const secret = `ghp_${chars(ALNUM, 36, n + 1000)}`;
    const lines = [`  ${400 + n}  export GH_TOKEN=${secret}`, `curl -H "Authorization: token ${secret}" https://api.github.com/user`, `remote: key${secret}`];
    return { format: 'github-token (shell history, glued)', secret, line: lines[n % lines.length]! };
  },
  (n) => {
    const secret = `xoxb-${chars('0123456789', 12, n + 2000)}-${chars(ALNUM, 24, n + 2001)}`;
    return { format: 'slack-token (JSON config)', secret, line: `  "slack": { "channel": "#deploys", "token": "${secret}" },` };
  },
  (n) => {
    const secret = `sk_live_${chars(ALNUM, 24, n + 3000)}`;
    return { format: 'stripe-key (log line)', secret, line: `2026-11-30T12:00:${String(n % 60).padStart(2, '0')}Z INFO billing: client init key=${secret} region=eu` };
  },
  (n) => {
    const secret = `Pw${chars(ALNUM, 14, n + 4000)}`;
    return { format: 'url-credentials (log line with URL)', secret, line: `[worker ${n}] connecting to postgres://app_user:${secret}@db.internal:5432/orders?sslmode=require` };
  },
  (n) => {
    const secret = `${chars(ALNUM, 18, n + 5000)}!x`;
    const names = ['DB_PASSWORD', 'X_SECRET_TOKEN', 'SMTP_PASS', 'REDIS_PASSWORD', 'export MYSQL_ROOT_PASSWORD'];
    return { format: 'prefixed secret assignment (.env / export)', secret, line: `${names[n % names.length]}=${secret}` };
  },
  (n) => {
    const secret = chars(ALNUM, 20, n + 6000);
    const lines = [`  db_password: ${secret}`, `      API_SECRET_KEY: "${secret}"`, `    "db_password": "${secret}",`];
    return { format: 'prefixed secret (YAML / JSON / GitHub Actions)', secret, line: lines[n % lines.length]! };
  },
  (n) => {
    const secret = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI${chars(ALNUM, 30, n + 7000)}.${chars(ALNUM + '-_', 43, n + 7001)}`;
    return { format: 'jwt (Authorization header in a log)', secret, line: `DEBUG http: GET /api/v1/me headers={"Authorization":"Bearer ${secret}"}` };
  },
  (n) => {
    const body = Array.from({ length: 5 }, (_, index) => chars(ALNUM + '+/', 64, n * 10 + index + 8000)).join('\n');
    const secret = body;
    return { format: 'private-key (PEM in a file)', secret, line: `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----` };
  },
  (n) => {
    const secret = `sk-proj-${chars(ALNUM, 48, n + 9000)}`;
    return { format: 'openai-key (JSON config)', secret, line: `{"provider":"openai","apiKey":"${secret}","model":"gpt-x"}` };
  },
];

/** Log and config lines that sit near secrets and are not (every one must come back unchanged). */
const NEAR_MISSES = [
  'const password = await prompt("Password: ");',
  'if (!token) throw new Error("missing token");',
  'password: string;',
  'apiKey: process.env.OPENAI_API_KEY,',
  'DB_PASSWORD_FILE=/run/secrets/db_password',
  'GIT_ASKPASS=/usr/lib/git-core/git-gui--askpass',
  'commit 3f0303d8c1b3a8e2a5d4c4b4f7e9a1b2c3d4e5f6 (HEAD -> main)',
  'request id 9b2c1f3e-8a47-4d6b-9c1e-2f3a4b5c6d7e finished in 12 ms',
  'GET https://registry.npmjs.org/zod/-/zod-4.1.0.tgz 200 (cached)',
  'fetch https://user@example.com/path/to/repo.git',
  'sha512-Xj2vS3kP9q7mZ1nB4cD6eF8gH0iJ2kL4mN6oP8qR0sT2uV4wX6yZ8aB0cD2eF4gH==',
  'Bearer tokens are checked by the gateway (see docs/auth.md)',
  'secret_scanning: enabled',
  'passwordless login is on for this tenant',
  'export const MAX_TOKEN_CHARS = 2000;',
  'token_type: "bearer", expires_in: 3600',
  '  with:\n    password: ${{ secrets.REGISTRY_PASSWORD }}',
  'auth_token = os.environ["AUTH_TOKEN"]',
];

/** This repository's source files, read once. */
function sourceText(): string {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) visit(full);
      else if (name.endsWith('.ts')) out.push(readFileSync(full, 'utf8'));
    }
  };
  visit(path.join(REPO_ROOT, 'src'));
  return out.join('\n');
}

export interface Corpus {
  /** The text with the planted secrets. */
  readonly text: string;
  /** The same text without them: anything redacted there is a false positive. */
  readonly clean: string;
  readonly planted: readonly Planted[];
}

/** About `bytes` of text with `count` planted secrets (count / 10 of each format), spread evenly. */
export function buildCorpus(bytes = 10 * 1024 * 1024, count = 200): Corpus {
  const source = sourceText();
  const filler: string[] = [];
  let size = 0;
  let round = 0;
  while (size < bytes) {
    for (const line of source.split('\n')) {
      filler.push(line);
      size += line.length + 1;
      if (filler.length % 40 === 0) {
        const near = NEAR_MISSES[(filler.length / 40 + round) % NEAR_MISSES.length]!;
        filler.push(near);
        size += near.length + 1;
      }
      if (size >= bytes) break;
    }
    round++;
  }
  const planted = Array.from({ length: count }, (_, index) => FORMATS[index % FORMATS.length]!(Math.floor(index / FORMATS.length) * 7 + index));
  const step = Math.floor(filler.length / (count + 1));
  const withSecrets: string[] = [];
  for (let index = 0, next = 0; index < filler.length; index++) {
    withSecrets.push(filler[index]!);
    if (next < count && index === step * (next + 1)) withSecrets.push(planted[next++]!.line);
  }
  return { text: withSecrets.join('\n'), clean: filler.join('\n'), planted };
}

/** How many planted secrets no longer appear (in whole or in part) after redaction. */
export function countFound(redacted: string, planted: readonly Planted[]): number {
  return planted.filter((p) => !redacted.includes(p.secret.slice(0, 12)) && !redacted.includes(p.secret.slice(-12))).length;
}

/** Masks in text that had no secret. */
export function countMasks(redacted: string): number {
  return redacted.split('[REDACTED').length - 1;
}

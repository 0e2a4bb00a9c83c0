// Redaction against real formats in their real surroundings: a .env file, a JSON
// config, shell history, log lines with URLs, a PEM key in a file, a GitHub Actions workflow; and no
// false positive on ordinary code (this repository's own src/).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { createRedactor } from '../../../../../src/executor/results/redaction/patternRedactor';
import { pemKey } from '../secrets';

const redactor = createRedactor();

/** Random-looking values built at run time, so no scanner takes this file for a leak. */
const make = (prefix: string, length: number, seed: number): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = prefix;
  for (let index = 0; index < length; index++) out += alphabet[(index * seed + 5) % alphabet.length];
  return out;
};
const GITHUB = make('gh' + 'p_', 36, 7);
const SLACK = make('xo' + 'xb-1234567890-', 24, 11);
const OPENAI = make('sk' + '-proj-', 40, 13);
const STRIPE = make('sk' + '_live_', 24, 17);
const AWS = make('AK' + 'IA', 0, 1) + 'QWERTYUIOP234567';
const VALUE = make('v', 18, 19) + '!x';
const JWT = `ey${'J'}hbGciOiJIUzI1NiJ9.ey${'J'}zdWIiOiIxMjM0NTY3ODkwIn0.${make('', 43, 23)}`;

/** Every secret is gone and every line without one is unchanged. */
function assertMasked(text: string, secrets: readonly string[], unchanged: readonly string[]): string {
  const out = redactor.redact(text);
  for (const secret of secrets) assert.ok(!out.includes(secret), `${secret} survived in:\n${out}`);
  const lines = out.split('\n');
  for (const line of unchanged) assert.ok(lines.includes(line), `changed: ${line}\n${out}`);
  return out;
}

describe('redaction of real formats', () => {
  it('masks prefixed secret names in a .env file and keeps the rest', () => {
    const file = [
      '# database',
      `DB_PASSWORD=${VALUE}`,
      `X_SECRET_TOKEN=${VALUE}1`,
      `SMTP_PASS=${VALUE}2`,
      `export MYSQL_ROOT_PASSWORD=${VALUE}3`,
      `AWS_ACCESS_KEY_ID=${AWS}`,
      'DB_PASSWORD_FILE=/run/secrets/db_password',
      'PORT=3000',
      'NODE_ENV=production',
      'TOKEN_TYPE=bearer',
      'MAX_TOKENS=4096',
    ].join('\n');
    const out = assertMasked(file, [VALUE, AWS], ['# database', 'DB_PASSWORD_FILE=/run/secrets/db_password', 'PORT=3000', 'NODE_ENV=production', 'TOKEN_TYPE=bearer', 'MAX_TOKENS=4096']);
    assert.ok(out.includes('DB_PASSWORD=[REDACTED:password]'), out);
    assert.ok(out.includes('export MYSQL_ROOT_PASSWORD=[REDACTED:password]'), out);
  });

  it('masks secrets in a JSON config and keeps settings about them', () => {
    const config = JSON.stringify(
      { db: { host: 'db.internal', db_password: VALUE }, openai: { apiKey: OPENAI, max_tokens: 4096 }, slack: { token: SLACK }, auth: { token_type: 'bearer' } },
      null,
      2,
    );
    assertMasked(config, [VALUE, OPENAI, SLACK], ['    "host": "db.internal",', '    "max_tokens": 4096', '    "token_type": "bearer"']);
  });

  it('masks secrets in shell history, glued ones too', () => {
    const history = [
      `  501  export GH_TOKEN=${GITHUB}`,
      `  502  curl -H "Authorization: Bearer ${JWT}" https://api.example.com/me`,
      `  503  git clone https://deploy:${VALUE}@github.com/acme/app.git`,
      '  504  echo $GITHUB_TOKEN',
      `  505  stripe login --api-key ${STRIPE}`,
      `remote: key${GITHUB}`,
    ].join('\n');
    const out = assertMasked(history, [GITHUB, JWT, VALUE, STRIPE], ['  504  echo $GITHUB_TOKEN']);
    assert.ok(out.includes('remote: key[REDACTED:github-token]'), out);
  });

  it('masks credentials in URLs of log lines, not the URLs around them', () => {
    const log = [
      `2026-11-30T12:00:01Z INFO connecting to postgres://app_user:${VALUE}@db.internal:5432/orders?sslmode=require`,
      `2026-11-30T12:00:02Z DEBUG GET https://example.com:8443/path?q=1 200`,
      '2026-11-30T12:00:03Z DEBUG fetch https://user@example.com/repo.git',
      `+redis://:${VALUE}4@cache:6379/0`,
    ].join('\n');
    const out = assertMasked(log, [VALUE], ['2026-11-30T12:00:02Z DEBUG GET https://example.com:8443/path?q=1 200', '2026-11-30T12:00:03Z DEBUG fetch https://user@example.com/repo.git']);
    assert.ok(out.includes('postgres://app_user:[REDACTED:url-credentials]@db.internal'), out);
  });

  it('masks a PEM key inside a file, and only the key', () => {
    const key = pemKey(12);
    const body = key.split('\n')[3]!;
    const file = `# deploy key, do not commit\n${key}\n# end of file`;
    const out = assertMasked(file, [body], ['# deploy key, do not commit', '# end of file']);
    assert.equal(out, '# deploy key, do not commit\n[REDACTED:private-key]\n# end of file');
  });

  it('masks literal secrets in a GitHub Actions workflow, not the expressions that fetch them', () => {
    const workflow = [
      'jobs:',
      '  deploy:',
      '    runs-on: ubuntu-latest',
      '    env:',
      `      API_SECRET_KEY: "${VALUE}"`,
      '      GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
      '    steps:',
      '      - uses: docker/login-action@v3',
      '        with:',
      '          password: ${{ secrets.REGISTRY_PASSWORD }}',
      `          db_password: ${VALUE}5`,
    ].join('\n');
    assertMasked(workflow, [VALUE], [
      '    runs-on: ubuntu-latest',
      '      GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
      '          password: ${{ secrets.REGISTRY_PASSWORD }}',
    ]);
  });

  it('masks a token glued to Bearer only when it looks random', () => {
    const token = make('', 30, 29);
    assert.ok(!redactor.redact(`Authorization: Bearer${token}`).includes(token));
    for (const text of ['class BearerTokenProvider {}', 'new BearerAuthenticationHandlerFactory()', 'Bearer tokens are checked by the gateway']) {
      assert.equal(redactor.redact(text), text);
    }
  });

  it('leaves code that names secrets alone', () => {
    const code = [
      'password: string;',
      'apiKey: process.env.OPENAI_API_KEY,',
      'auth_token = os.environ["AUTH_TOKEN"]',
      'const secret = secretName;',
      'const token = match[2]!;',
      'token: CancellationToken,',
      'echo "${DB_PASSWORD:-none}"',
      'MY_API_TOKEN: ENV_SECRET,',
      'author: Jane Doe',
      'passthrough: true',
      'max_tokens: 4096',
      'secret_scanning: enabled',
      'GIT_ASKPASS=/usr/lib/git-core/git-gui--askpass',
      'if (a == b && c => d) x = y;',
    ].join('\n');
    assert.equal(redactor.redact(code), code);
  });

  it('finds no secret in this repository\'s own source code', () => {
    const root = path.resolve(__dirname, '..', '..', '..', '..', '..', '..', 'src');
    const files: string[] = [];
    const visit = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) visit(full);
        else if (name.endsWith('.ts')) files.push(full);
      }
    };
    visit(root);
    assert.ok(files.length > 50, `found ${files.length} source files under ${root}`);
    const flagged = files.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return redactor.redact(text) !== text;
    });
    assert.deepEqual(flagged, []);
  });
});

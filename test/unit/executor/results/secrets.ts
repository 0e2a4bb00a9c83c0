// Planted secrets for redaction tests: one of each built-in format, built at run time so no
// scanner mistakes this file for a leak.

const repeat = (alphabet: string, length: number, seed = 7): string => {
  let out = '';
  for (let index = 0; index < length; index++) out += alphabet[(index * seed + 3) % alphabet.length];
  return out;
};
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Secret value → the rule expected to mask it. `text` is how it appears in output. */
export const PLANTED: ReadonlyArray<{ rule: string; secret: string; text: string }> = [
  { rule: 'aws-access-key', secret: `AKIA${repeat(UPPER, 16)}`, text: '' },
  { rule: 'aws-secret-key', secret: repeat(ALNUM + '/+', 40, 11), text: 'aws_secret_access_key = ' },
  { rule: 'github-token', secret: `ghp_${repeat(ALNUM, 36)}`, text: '' },
  { rule: 'github-token', secret: `github_pat_${repeat(ALNUM, 40, 5)}`, text: '' },
  { rule: 'gitlab-token', secret: `glpat-${repeat(ALNUM, 20, 13)}`, text: '' },
  { rule: 'slack-token', secret: `xoxb-${repeat('0123456789', 12)}-${repeat(ALNUM, 24)}`, text: '' },
  { rule: 'stripe-key', secret: `sk_live_${repeat(ALNUM, 24, 3)}`, text: '' },
  { rule: 'npm-token', secret: `npm_${repeat(ALNUM, 36, 17)}`, text: '' },
  { rule: 'anthropic-key', secret: `sk-ant-api03-${repeat(ALNUM, 40, 19)}`, text: '' },
  { rule: 'openai-key', secret: `sk-proj-${repeat(ALNUM, 40, 23)}`, text: '' },
  { rule: 'google-api-key', secret: `AIza${repeat(ALNUM, 35, 29)}`, text: '' },
  {
    rule: 'jwt',
    secret: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${repeat(ALNUM, 43, 31)}`,
    text: '',
  },
  { rule: 'url-credentials', secret: `s3cr3t-${repeat(ALNUM, 10)}`, text: 'https://deploy:' },
  { rule: 'password', secret: `hunter2-${repeat(ALNUM, 12, 37)}`, text: 'password=' },
  { rule: 'bearer-token', secret: repeat(ALNUM, 32, 41), text: 'Authorization: Bearer ' },
];

/** A PEM private key (body is not a real key). */
export function pemKey(lines = 26): string {
  const body = Array.from({ length: lines }, (_, index) => repeat(ALNUM + '+/', 64, 7 + index)).join('\n');
  return `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
}

/** Every planted secret in context, one per line; the URL one needs its `@host`. */
export function plantedText(): string {
  return PLANTED.map(({ secret, text }) => (text === 'https://deploy:' ? `${text}${secret}@example.com/x` : `${text}${secret}`)).join('\n');
}

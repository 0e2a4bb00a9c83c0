// The built-in secret formats (spec §6). Each rule names the span it masks: the whole match, or
// one capture group when the match includes a harmless prefix (`password=`, `https://user:`).
// Every pattern is bounded in length, so a stream redactor can hold back a fixed window.

export interface RedactionRule {
  /** Shown as `[REDACTED:<name>]`. */
  readonly name: string;
  /** Global (`g`) and with indices (`d`) when `group` is set. */
  readonly pattern: RegExp;
  /** The capture group holding the secret; 0 or absent: the whole match. */
  readonly group?: number;
}

/** Longest PEM private key body we look for (an 8192-bit RSA key is about 6.5 KB). */
export const MAX_PEM_CHARS = 16_384;

const PEM_HEADER = String.raw`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`;

/** A PEM header whose body may still be arriving: a stream must not emit past its start. */
export const OPEN_SECRET_START = new RegExp(PEM_HEADER, 'g');

/** Order matters only between rules that match at the same place: the earlier wins. */
export const BUILTIN_RULES: readonly RedactionRule[] = [
  {
    name: 'private-key',
    pattern: new RegExp(`${PEM_HEADER}[\\s\\S]{1,${MAX_PEM_CHARS}}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`, 'g'),
  },
  // A key cut off before its END line still has its body masked.
  { name: 'private-key', pattern: new RegExp(`${PEM_HEADER}[A-Za-z0-9+/=\\s:,-]{0,${MAX_PEM_CHARS}}`, 'g') },
  { name: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  {
    name: 'aws-secret-key',
    pattern: /(aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 2,
  },
  { name: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { name: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,255}/g },
  { name: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,250}/g },
  { name: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9_/]{20,200}/g },
  { name: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,247}\b/g },
  { name: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,250}/g },
  { name: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,250}/g },
  { name: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{5,2000}\.eyJ[A-Za-z0-9_-]{5,4000}\.[A-Za-z0-9_-]{10,2000}/g },
  { name: 'url-credentials', pattern: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/'"]{1,200}:)([^\s@/'"]{1,200})(?=@)/dgi, group: 2 },
  { name: 'bearer-token', pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/-]{20,2000}=*)/dg, group: 2 },
  {
    name: 'password',
    pattern:
      /\b((?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?\s{0,5}[:=]\s{0,5})(["']?)(?!\[REDACTED)([^\s"'`,;{}()<>]{4,200})/dgi,
    group: 3,
  },
];

// Secret assignments: `password=…`, `DB_PASSWORD=…`, `export X_SECRET_TOKEN=…`,
// `db_password: …` (YAML), `"db_password": "…"` (JSON). The name must say "secret" and must not
// name a location or a setting about the secret (`TOKEN_FILE`, `token_type`); the value must not be
// code (`password: string`, `apiKey: process.env.KEY`, `secret = secretName`), a placeholder or a number.

/** Names whose values are secrets: one of these words inside the (possibly prefixed) name. */
const SECRET_WORD = /pass(?:wd|word|phrase)?|pwd|secret|token(?!i[sz])|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth/i;
/** A name part that only contains `pass` by accident (`passthrough`, `compass`, `bypass`, `passive`). */
const NOT_PASS_WORD = /(?:by|com|sur|tres|over|under|ask)pass|pass(?:thr(?:ough|u)|ive|ing|ed|es|age|enger|port)/i;
/** Names about a secret rather than holding one: `TOKEN_FILE`, `token_type`, `passwordField`, `MAX_TOKENS`. */
const NOT_SECRET_SUFFIX =
  /(?:^|[_.-])(?:file|path|dir|directory|host|port|name|type|types|length|len|count|chars|bytes|size|min|max|enabled|required|policy|prompt|hint|field|label|header|scheme|uri|regex|pattern|mode|format|expiry|expires|expires_at|ttl|timeout|version|id|url|endpoint|method|provider|usage|limit|limits|env|var|kind|rotation)$/i;
const NOT_SECRET_CAMEL_SUFFIX = /[a-z0-9](?:File|Path|Dir|Name|Type|Length|Count|Chars|Size|Field|Label|Header|Pattern|Mode|Url|Uri|Id|Endpoint|Provider|Limit|Prompt|Policy|Required|Enabled)$/;
const NOT_SECRET_PREFIX = /^(?:max|min|num|is|has|use|no|show|enable|disable|require|allow)(?:[_.-]|[A-Z])|^(?:MAX|MIN|NUM|IS|HAS|USE|NO|SHOW|ENABLE|DISABLE|REQUIRE|ALLOW)_/;
/** Values that are types, keywords or literals in some language, not secrets. */
const CODE_WORDS = new Set([
  'string', 'number', 'boolean', 'bool', 'any', 'unknown', 'never', 'object', 'null', 'undefined', 'none', 'nil', 'true', 'false',
  'await', 'async', 'new', 'this', 'self', 'str', 'int', 'bytes', 'optional', 'required', 'readonly', 'function', 'return', 'typeof',
  'void', 'enabled', 'disabled', 'secret', 'password', 'token', 'redacted', 'changeme', 'example', 'placeholder', 'xxxx', 'xxxxxx', 'xxxxxxxx', '****', '********',
]);
/** A property path or call: `process.env.X`, `os.environ`, `config.db.password`, `getToken`. */
const DOTTED_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\.?$/;
/** An index or call on a name: `match[2]!`, `os.environ[`, `getToken()`. */
const CODE_ACCESS = /^[A-Za-z_$][\w$.]*[[(]/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MIXED_CASE_WORD = /^[A-Za-z]+$/;

/** The regex of the rule: group 2 the name, 3 the separator, 4 the value (masked). */
export const ASSIGNMENT_PATTERN =
  /((?<![\w.-])([A-Za-z_][\w.-]{0,80})["']?[ \t]{0,5}([:=])[ \t]{0,5}(["']?))(?!\[REDACTED)([^\s"'`,;{}()<>]{4,200})/dg;

/** Whether the name (group 2) holds a secret. */
export function isSecretAssignmentName(name: string): boolean {
  const word = SECRET_WORD.exec(name);
  if (!word) return false;
  if (/^pass/i.test(word[0]) && !/^pass(?:wd|word|phrase)/i.test(word[0]) && NOT_PASS_WORD.test(name)) return false;
  // `auth` on its own word, or glued to `proxy` (socat's `proxyauth=` option, whose value is user, colon, password).
  if (/^auth$/i.test(word[0]) && !/(?:^|[_.-]|proxy)auth(?:[_.-]?token)?$/i.test(name) && !/auth[_-]?token/i.test(name)) return false;
  return !NOT_SECRET_SUFFIX.test(name) && !NOT_SECRET_CAMEL_SUFFIX.test(name) && !NOT_SECRET_PREFIX.test(name);
}

/**
 * Whether a matched assignment holds a secret. `match` is `ASSIGNMENT_PATTERN`'s; `text` the whole text
 * (the char after the value tells a call or index from a value).
 */
export function acceptAssignment(match: RegExpExecArray, text: string): boolean {
  const name = match[2]!;
  const separator = match[3]!;
  const quoted = match[4] !== '';
  const value = match[5]!;
  if (!isSecretAssignmentName(name)) return false;
  if (/^[\d.,_:-]+$/.test(value)) return false;
  if (CODE_WORDS.has(value.toLowerCase())) return false;
  if (/^[$%*]|^\[|^\\[nrt]|^(?:x{4,}|\.{3,}|\*+)$/i.test(value)) return false;
  // An absolute path (`/run/secrets/db`) names where a secret is, not the secret.
  if (/^\/[\w.-]+\//.test(value)) return false;
  // `${DB_PASSWORD:-none}`: a shell default, not a value.
  if (separator === ':' && /^[-=?+]/.test(value) && text.charCodeAt(match.index - 1) === 0x7b /* { */) return false;
  if (quoted) return true;
  // `TOKEN: ENV_SECRET`: a constant's name in code.
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) && !/\d/.test(value)) return false;
  const after = text.charCodeAt(match.index + match[0].length);
  // `getToken(`, `os.environ[`, `process.env.KEY`: code.
  if (after === 0x28 /* ( */ || DOTTED_PATH.test(value) || CODE_ACCESS.test(value)) return false;
  if (separator === '=') {
    // `secret = secretName;`: spaces around `=` are code style; .env and shell assignments have none.
    const prefix = match[1]!;
    const spaced = /\s/.test(prefix.charAt(prefix.indexOf('=', name.length) - 1));
    if (spaced && IDENTIFIER.test(value)) return false;
    return true;
  }
  // `password: string`, `token: CancellationToken`, `secret: secretValue`: a type or a name in code.
  if (MIXED_CASE_WORD.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value)) return false;
  if (IDENTIFIER.test(value) && value.includes('_') && value === value.toLowerCase() && /^[a-z]/.test(value) && !/\d/.test(value)) return false;
  return true;
}

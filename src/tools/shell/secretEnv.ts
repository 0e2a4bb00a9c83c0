// The environment a shell command gets: the host's, minus variables whose names look like secrets,
// unless the user allowed them by name in the settings.

/** Name parts that mark a variable as secret (`GITHUB_TOKEN`, `DB_PASSWORD`, `OPENAI_API_KEY`, ...). */
const SECRET_NAME_PARTS: ReadonlySet<string> = new Set([
  'TOKEN', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PASS', 'APIKEY', 'CREDENTIAL', 'CREDENTIALS', 'PAT', 'SESSIONKEY',
]);
/** Multi-part markers (`*_API_KEY`, `*_ACCESS_KEY`, `*_PRIVATE_KEY`, `*_AUTH_TOKEN`, `*_CLIENT_SECRET`). */
const SECRET_NAME_PAIRS: readonly (readonly [string, string])[] = [
  ['API', 'KEY'], ['ACCESS', 'KEY'], ['PRIVATE', 'KEY'], ['SECRET', 'KEY'], ['SIGNING', 'KEY'], ['ENCRYPTION', 'KEY'], ['CLIENT', 'SECRET'],
];

/** Names already classified: every Bash call filters the whole environment, whose names rarely change. */
const classified = new Map<string, boolean>();
/** The cache is dropped past this many names (an environment with ever new names stays bounded). */
const CLASSIFIED_MAX_NAMES = 4096;

/** True when a variable's name looks like it holds a secret. */
export function isSecretEnvName(name: string): boolean {
  let secret = classified.get(name);
  if (secret === undefined) {
    if (classified.size >= CLASSIFIED_MAX_NAMES) classified.clear();
    secret = classify(name);
    classified.set(name, secret);
  }
  return secret;
}

function classify(name: string): boolean {
  const parts = name.toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean);
  if (parts.some((part) => SECRET_NAME_PARTS.has(part))) return true;
  return parts.some((part, index) => SECRET_NAME_PAIRS.some(([first, second]) => part === first && parts[index + 1] === second));
}

/** A copy of `env` without secret-looking variables, except those named in `allowed`. */
export function filterSecretEnv(env: NodeJS.ProcessEnv, allowed: readonly string[] = []): { env: NodeJS.ProcessEnv; removed: string[] } {
  const out: NodeJS.ProcessEnv = {};
  const removed: string[] = [];
  // Names, then only the values kept: every read of `process.env` goes through the host's environment
  // (`Object.entries` reads every value, the secrets' too).
  for (const name of Object.keys(env)) {
    if (isSecretEnvName(name) && !allowed.includes(name)) {
      if (env[name] !== undefined) removed.push(name);
      continue;
    }
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return { env: out, removed };
}

// The artifact layout of spec §8, as pure functions every store shares (the Node store in the
// CLI, the store on VS Code's storageUri): `artifacts/<session>/<callId>-tool-result-<uuid>.<ext>`,
// public URI `executor-artifact://<session>/<artifactId>`.

/** The URI scheme of persisted results: the one definition the tools, the policy and VS Code share. */
export const ARTIFACT_SCHEME = 'executor-artifact';
/** A safe `<scheme>://<session>/<artifactId>`; anything else in the scheme names no artifact. */
const ARTIFACT_URI = new RegExp(`^${ARTIFACT_SCHEME}://([^/?#]+)/([^/?#]+)$`);
/** The folder under the store's root that holds one folder per session. */
export const ARTIFACTS_FOLDER = 'artifacts';

/** Per session folder: which retention each artifact was written with (`{fileName: retention}`). */
export const RETENTION_MANIFEST = 'retention.json';

/** Keeps session and call ids (model-chosen) from escaping their folder or upsetting a file system. */
const UNSAFE_NAME_CHARS = /[^A-Za-z0-9_.-]/g;
/** File systems cap a name at 255 bytes; the uuid and extension need about 60. */
const MAX_NAME_PART_CHARS = 120;

/** A name safe as one path segment: no separators, no leading dots, never empty. */
export function safeName(name: string): string {
  return name.replace(UNSAFE_NAME_CHARS, '_').replace(/^\.+/, '_').slice(0, MAX_NAME_PART_CHARS) || '_';
}

/** What every artifact file name contains (spec §8). */
export const ARTIFACT_NAME_MARK = '-tool-result-';

/**
 * What an artifact id is (`artifactFileName` with a random UUID): a URI naming any other file in the store's
 * folders (session records, retention manifests, a file someone put there) names no artifact.
 */
const ARTIFACT_ID = /^[A-Za-z0-9_.-]{1,120}-tool-result-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[A-Za-z0-9_-]{1,120}$/;

/** `<callId>-tool-result-<uuid>.<ext>`: the artifact id and the file name are the same. */
export function artifactFileName(callId: string, uuid: string, extension = 'txt'): string {
  return `${safeName(callId)}${ARTIFACT_NAME_MARK}${safeName(uuid)}.${safeName(extension)}`;
}

/** Path segments below the store root: `['artifacts', <session>, <artifactId>]`. */
export function artifactSegments(sessionId: string, artifactId: string): [string, string, string] {
  return [ARTIFACTS_FOLDER, safeName(sessionId), safeName(artifactId)];
}

/**
 * True when `text` (trimmed, as the tools read paths) is in the artifact scheme: the tools read it
 * through the artifact store, and the policy judges it as an artifact, never as a file name.
 */
export function isArtifactUri(text: string): boolean {
  return text.trim().startsWith(`${ARTIFACT_SCHEME}:`);
}

export function artifactUri(sessionId: string, artifactId: string): string {
  return `${ARTIFACT_SCHEME}://${safeName(sessionId)}/${safeName(artifactId)}`;
}

/** The session and artifact id of an `executor-artifact://` URI, or undefined when it is not a safe one naming an artifact. */
export function parseArtifactUri(uri: string): { sessionId: string; artifactId: string } | undefined {
  const match = ARTIFACT_URI.exec(uri.trim());
  if (!match) return undefined;
  const [, sessionId, artifactId] = match as unknown as [string, string, string];
  let session: string;
  let artifact: string;
  try {
    session = decodeURIComponent(sessionId);
    artifact = decodeURIComponent(artifactId);
  } catch {
    return undefined;
  }
  if (session !== safeName(session) || artifact !== safeName(artifact) || !ARTIFACT_ID.test(artifact)) return undefined;
  return { sessionId: session, artifactId: artifact };
}

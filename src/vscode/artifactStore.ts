// Adapter: the ArtifactStore port on the extension's storage folder (spec §8):
// `<storage>/artifacts/<session>/<callId>-tool-result-<uuid>.<ext>`, public URI
// `executor-artifact://<session>/<artifactId>`.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ArtifactRetention } from '../executor/contract';
import { CancellationError } from '../executor/errors';
import type { ArtifactStore, ArtifactWrite } from '../executor/ports/artifactStore';
import type { ArtifactRef } from '../executor/result';

export const ARTIFACT_SCHEME = 'executor-artifact';

/** Per session folder: which retention each artifact was written with. */
const RETENTION_MANIFEST = 'retention.json';

/** A session folder untouched this long belongs to a session that is over (a closed window). */
const STALE_SESSION_MS = 24 * 60 * 60 * 1000;

/** Keeps call ids (model-chosen) from escaping the session folder or upsetting a file system. */
const UNSAFE_NAME_CHARS = /[^A-Za-z0-9_.-]/g;

export class StorageArtifactStore implements ArtifactStore {
  private readonly artifactsRoot: vscode.Uri;
  private readonly retention = new Map<string, Map<string, ArtifactRetention>>();

  /** `storageRoot` is `context.storageUri`, or `context.globalStorageUri` when no folder is open. */
  constructor(storageRoot: vscode.Uri) {
    this.artifactsRoot = vscode.Uri.joinPath(storageRoot, 'artifacts');
  }

  async write(request: ArtifactWrite, signal?: AbortSignal): Promise<ArtifactRef> {
    throwIfAborted(signal);
    const session = safeName(request.sessionId);
    const fileName = `${safeName(request.callId)}-tool-result-${randomUUID()}.${safeName(request.extension ?? 'txt')}`;
    const folder = vscode.Uri.joinPath(this.artifactsRoot, session);
    await vscode.workspace.fs.createDirectory(folder);
    const file = vscode.Uri.joinPath(folder, fileName);
    const bytes = typeof request.content === 'string' ? new TextEncoder().encode(request.content) : request.content;
    await vscode.workspace.fs.writeFile(file, bytes);
    await this.recordRetention(session, fileName, request.retention);
    return { uri: artifactUri(session, fileName).toString(), path: file.fsPath };
  }

  resolve(uri: string): string | undefined {
    return this.resolveUri(uri)?.fsPath;
  }

  /** The storage file behind an `executor-artifact:` URI, or undefined when it is not one of ours. */
  resolveUri(uri: string | vscode.Uri): vscode.Uri | undefined {
    const parsed = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
    const fileName = parsed.path.replace(/^\//, '');
    if (parsed.scheme !== ARTIFACT_SCHEME || !parsed.authority || fileName !== safeName(fileName) || parsed.authority !== safeName(parsed.authority)) {
      return undefined;
    }
    return vscode.Uri.joinPath(this.artifactsRoot, parsed.authority, fileName);
  }

  /** Deletes the session's `temporary` artifacts. */
  async endSession(sessionId: string): Promise<void> {
    const session = safeName(sessionId);
    await this.deleteWhere(session, (retention) => retention === 'temporary');
    this.retention.delete(session);
  }

  /** Deletes what other, stale sessions left, except `project` artifacts. */
  async sweepStaleSessions(currentSessionId: string, now = Date.now()): Promise<void> {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.artifactsRoot);
    } catch {
      return;
    }
    for (const [name, type] of entries) {
      if (type !== vscode.FileType.Directory || name === safeName(currentSessionId)) continue;
      const stat = await vscode.workspace.fs.stat(vscode.Uri.joinPath(this.artifactsRoot, name));
      if (now - stat.mtime > STALE_SESSION_MS) {
        await this.deleteWhere(name, (retention) => retention !== 'project');
      }
    }
  }

  private async recordRetention(session: string, fileName: string, retention: ArtifactRetention): Promise<void> {
    const files = this.retention.get(session) ?? (await this.readManifest(session));
    files.set(fileName, retention);
    this.retention.set(session, files);
    await vscode.workspace.fs.writeFile(this.manifestUri(session), new TextEncoder().encode(JSON.stringify(Object.fromEntries(files))));
  }

  private async readManifest(session: string): Promise<Map<string, ArtifactRetention>> {
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(this.manifestUri(session)));
      return new Map(Object.entries(JSON.parse(text) as Record<string, ArtifactRetention>));
    } catch {
      return new Map();
    }
  }

  private async deleteWhere(session: string, matches: (retention: ArtifactRetention) => boolean): Promise<void> {
    const files = await this.readManifest(session);
    for (const [fileName, retention] of files) {
      if (matches(retention)) {
        await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.artifactsRoot, session, fileName)).then(undefined, () => undefined);
        files.delete(fileName);
      }
    }
    if (files.size === 0) {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.artifactsRoot, session), { recursive: true }).then(undefined, () => undefined);
    } else {
      await vscode.workspace.fs.writeFile(this.manifestUri(session), new TextEncoder().encode(JSON.stringify(Object.fromEntries(files))));
    }
  }

  private manifestUri(session: string): vscode.Uri {
    return vscode.Uri.joinPath(this.artifactsRoot, session, RETENTION_MANIFEST);
  }
}

export function artifactUri(session: string, artifactId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: ARTIFACT_SCHEME, authority: session, path: `/${artifactId}` });
}

function safeName(name: string): string {
  return name.replace(UNSAFE_NAME_CHARS, '_').replace(/^\.+/, '_') || '_';
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw signal.reason instanceof Error ? signal.reason : new CancellationError();
  }
}

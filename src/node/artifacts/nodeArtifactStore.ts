// Adapter: the ArtifactStore port on the local file system, for the CLI (spec §8). Layout and URIs
// come from `results/artifactLayout.ts` (shared with the VS Code store). Folders are 0700 and files
// 0600: a tool's output may hold what redaction missed. Retention: `temporary` goes when the
// session ends, `session` is pruned after an age, `project` is kept; a total size cap evicts the
// oldest artifacts first.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ArtifactRetention } from '../../executor/contract/contract';
import type { ArtifactStore, ArtifactWrite, ArtifactWriter } from '../../executor/ports/workspace/artifactStore';
import type { ArtifactRef } from '../../executor/contract/result';
import { ARTIFACTS_FOLDER, ARTIFACT_NAME_MARK, RETENTION_MANIFEST, artifactFileName, artifactUri, parseArtifactUri, safeName } from '../../executor/results/artifactLayout';

/** Owner only: artifacts may hold secrets redaction did not know. */
export const ARTIFACT_DIR_MODE = 0o700;
export const ARTIFACT_FILE_MODE = 0o600;
/** Default total size of all artifacts under the root (our choice: a few large outputs, not a disk). */
export const DEFAULT_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;
/** The smallest buffer a streamed artifact encodes its text into (it grows to the largest write). */
const WRITE_BUFFER_MIN_BYTES = 64 * 1024;
/** Default age after which `session` artifacts of past sessions are pruned (a week). */
export const DEFAULT_SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface NodeArtifactStoreOptions {
  /** The folder that holds `artifacts/` (a storage root, like VS Code's storageUri). */
  readonly root?: string;
  /** The folder that holds one folder per session (the CLI's --artifacts). @default `<root>/artifacts` */
  readonly artifactsDir?: string;
  /** @default 1 GiB */
  readonly maxTotalBytes?: number;
  /** @default 7 days */
  readonly sessionMaxAgeMs?: number;
}

interface Entry {
  readonly file: string;
  readonly session: string;
  size: number;
  readonly writtenAt: number;
}

export class NodeArtifactStore implements ArtifactStore {
  /** The folder that holds one folder per session. */
  readonly artifactsDir: string;
  private readonly maxTotalBytes: number;
  private readonly sessionMaxAgeMs: number;
  private index: Promise<Map<string, Entry>> | undefined;
  /** Manifest updates and evictions run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: NodeArtifactStoreOptions) {
    if (options.artifactsDir === undefined && options.root === undefined) throw new TypeError('NodeArtifactStore needs root or artifactsDir');
    this.artifactsDir = path.resolve(options.artifactsDir ?? path.join(options.root!, ARTIFACTS_FOLDER));
    this.maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
    this.sessionMaxAgeMs = options.sessionMaxAgeMs ?? DEFAULT_SESSION_MAX_AGE_MS;
  }

  async write(request: ArtifactWrite, signal?: AbortSignal): Promise<ArtifactRef> {
    signal?.throwIfAborted();
    const { folder, fileName, file } = await this.prepare(request);
    await writeFile(file, request.content, { mode: ARTIFACT_FILE_MODE, flag: 'wx' });
    return this.commit(request, folder, fileName, file);
  }

  async openWriter(request: Omit<ArtifactWrite, 'content'>, signal?: AbortSignal): Promise<ArtifactWriter> {
    signal?.throwIfAborted();
    const { folder, fileName, file } = await this.prepare(request);
    const handle = await open(file, 'wx', ARTIFACT_FILE_MODE);
    // Text is encoded into one buffer, reused write after write (writes run one at a time); bytes are
    // written as given, and released once written (the caller may reuse them).
    let scratch = Buffer.alloc(0);
    let failure: Error | undefined;
    let queue: Promise<void> = Promise.resolve();
    const writeText = async (text: string | Uint8Array): Promise<void> => {
      if (failure) throw failure;
      let bytes: Uint8Array;
      if (typeof text === 'string') {
        const needed = Buffer.byteLength(text);
        if (scratch.length < needed) scratch = Buffer.allocUnsafe(Math.max(needed, WRITE_BUFFER_MIN_BYTES));
        bytes = scratch.subarray(0, scratch.write(text, 0, needed, 'utf8'));
      } else {
        bytes = text;
      }
      for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
    };
    const settled = () => queue.catch(() => undefined);
    return {
      write: (text) => {
        const run = queue.then(() => writeText(text));
        queue = run.catch((error: Error) => {
          failure ??= error;
        });
        return run;
      },
      close: async () => {
        await settled();
        if (failure) {
          await handle.close().catch(() => undefined);
          throw failure;
        }
        await handle.close();
        return this.commit(request, folder, fileName, file);
      },
      abort: async () => {
        await settled();
        await handle.close().catch(() => undefined);
        await rm(file, { force: true }).catch(() => undefined);
      },
    };
  }

  resolve(uri: string): string | undefined {
    const parsed = parseArtifactUri(uri);
    if (!parsed) return undefined;
    const file = path.join(this.artifactsDir, parsed.sessionId, parsed.artifactId);
    return existsSync(file) ? file : undefined;
  }

  /** Deletes the session's `temporary` artifacts. */
  endSession(sessionId: string): Promise<void> {
    return this.serially(() => this.deleteWhere(safeName(sessionId), (retention) => retention === 'temporary'));
  }

  /** Deletes `session` and `temporary` artifacts of other sessions older than the configured age. */
  prune(currentSessionId: string, now = Date.now()): Promise<void> {
    return this.serially(async () => {
      for (const session of await listDir(this.artifactsRoot())) {
        // Only session folders: a host may keep other files here (the CLI's session records).
        if (session === safeName(currentSessionId) || !(await isDirectory(path.join(this.artifactsRoot(), session)))) continue;
        const manifest = await this.readManifest(session);
        for (const [fileName, retention] of manifest) {
          if (retention === 'project') continue;
          const info = await stat(path.join(this.artifactsRoot(), session, fileName)).catch(() => undefined);
          if (!info || now - info.mtimeMs > this.sessionMaxAgeMs) await this.deleteFile(session, fileName, manifest);
        }
        await this.saveManifest(session, manifest);
      }
    });
  }

  /** Bytes of all artifacts under the root, as the size cap counts them. */
  async totalBytes(): Promise<number> {
    let total = 0;
    for (const entry of (await this.loadIndex()).values()) total += entry.size;
    return total;
  }

  private artifactsRoot(): string {
    return this.artifactsDir;
  }

  private async prepare(request: Omit<ArtifactWrite, 'content'>): Promise<{ folder: string; fileName: string; file: string }> {
    const folder = path.join(this.artifactsRoot(), safeName(request.sessionId));
    await mkdir(folder, { recursive: true, mode: ARTIFACT_DIR_MODE });
    // mkdir's mode is masked by the umask and ignored for folders that exist: set it.
    await chmod(this.artifactsRoot(), ARTIFACT_DIR_MODE);
    await chmod(folder, ARTIFACT_DIR_MODE);
    const fileName = artifactFileName(request.callId, randomUUID(), request.extension ?? 'txt');
    return { folder, fileName, file: path.join(folder, fileName) };
  }

  private commit(request: Omit<ArtifactWrite, 'content'>, folder: string, fileName: string, file: string): Promise<ArtifactRef> {
    const session = path.basename(folder);
    return this.serially(async () => {
      const manifest = await this.readManifest(session);
      manifest.set(fileName, request.retention);
      await this.saveManifest(session, manifest);
      const index = await this.loadIndex();
      const size = (await stat(file)).size;
      index.set(file, { file, session, size, writtenAt: Date.now() });
      await this.evict(index, file);
      return { uri: artifactUri(session, fileName), path: file };
    });
  }

  /** Oldest first, until the total fits; never the artifact just written. */
  private async evict(index: Map<string, Entry>, keep: string): Promise<void> {
    let total = 0;
    for (const entry of index.values()) total += entry.size;
    if (total <= this.maxTotalBytes) return;
    const oldest = [...index.values()].filter((entry) => entry.file !== keep).sort((a, b) => a.writtenAt - b.writtenAt);
    for (const entry of oldest) {
      if (total <= this.maxTotalBytes) break;
      const manifest = await this.readManifest(entry.session);
      await this.deleteFile(entry.session, path.basename(entry.file), manifest);
      await this.saveManifest(entry.session, manifest);
      total -= entry.size;
    }
  }

  private loadIndex(): Promise<Map<string, Entry>> {
    this.index ??= (async () => {
      const index = new Map<string, Entry>();
      for (const session of await listDir(this.artifactsRoot())) {
        for (const fileName of await listDir(path.join(this.artifactsRoot(), session))) {
          // Only artifacts count toward the cap: a host may keep other files here (session records).
          if (!fileName.includes(ARTIFACT_NAME_MARK)) continue;
          const file = path.join(this.artifactsRoot(), session, fileName);
          const info = await stat(file).catch(() => undefined);
          if (info?.isFile()) index.set(file, { file, session, size: info.size, writtenAt: info.mtimeMs });
        }
      }
      return index;
    })();
    return this.index;
  }

  private async deleteWhere(session: string, matches: (retention: ArtifactRetention) => boolean): Promise<void> {
    const manifest = await this.readManifest(session);
    for (const [fileName, retention] of [...manifest]) {
      if (matches(retention)) await this.deleteFile(session, fileName, manifest);
    }
    await this.saveManifest(session, manifest);
  }

  private async deleteFile(session: string, fileName: string, manifest: Map<string, ArtifactRetention>): Promise<void> {
    const file = path.join(this.artifactsRoot(), session, fileName);
    await rm(file, { force: true });
    manifest.delete(fileName);
    (await this.loadIndex()).delete(file);
  }

  private async readManifest(session: string): Promise<Map<string, ArtifactRetention>> {
    try {
      const text = await readFile(path.join(this.artifactsRoot(), session, RETENTION_MANIFEST), 'utf8');
      return new Map(Object.entries(JSON.parse(text) as Record<string, ArtifactRetention>));
    } catch {
      return new Map();
    }
  }

  /** Written atomically; an emptied session folder is removed. */
  private async saveManifest(session: string, manifest: Map<string, ArtifactRetention>): Promise<void> {
    const folder = path.join(this.artifactsRoot(), session);
    if (manifest.size === 0) {
      const left = (await listDir(folder)).filter((name) => name !== RETENTION_MANIFEST);
      if (left.length === 0) await rm(folder, { recursive: true, force: true });
      else await rm(path.join(folder, RETENTION_MANIFEST), { force: true });
      return;
    }
    const target = path.join(folder, RETENTION_MANIFEST);
    const temporary = `${target}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(Object.fromEntries(manifest)), { mode: ARTIFACT_FILE_MODE });
    await rename(temporary, target);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** The CLI's artifact store under `root` (`<root>/artifacts/<session>/...`). */
export function createNodeArtifactStore(options: NodeArtifactStoreOptions): NodeArtifactStore {
  return new NodeArtifactStore(options);
}

async function isDirectory(folder: string): Promise<boolean> {
  return (await stat(folder).catch(() => undefined))?.isDirectory() === true;
}

async function listDir(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch {
    return [];
  }
}

// Read: a file's lines, numbered, paged by offset/limit; images as media; persisted results by their URI.
// Records what was read (mtime, size) for the read-before-write check of Write and Edit.
import { isAscii } from 'node:buffer';
import { close, fstat, fstatSync, read, readSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import type { MediaPart, ToolContext, ToolDefinition, ToolOutput } from '../../executor';
import { deferredSchema } from '../../executor';
import { ARTIFACT_SCHEME } from '../../executor';
import { processMountTable, type LocalFileSystems } from '../../node/runtime/localMounts';
import { realLocation } from '../../executor';
import { formatBytes, headWithinChars, utf8Bytes } from '../../executor';
import { BINARY_SNIFF_BYTES, decodeText, headIsUtf8, looksBinary } from '../fileAccess/fileText';
import { describeBinary, imageMimeType } from '../fileAccess/fileKinds';
import { withFsErrors } from '../fileAccess/fsErrors';
import { closeQuietly, judgedLocation, openForRead, openForReadSync } from '../fileAccess/judgedFile';
import { normalisePathField, pathOf, resolveToolPath } from '../fileAccess/toolPaths';
import { fileNotFoundMessage } from '../suggest';

/** Lines returned when the call gives no `limit` (the Read default of the TypeScript executor the spec distils). */
export const READ_DEFAULT_LIMIT_LINES = 2000;
/** A longer line is cut and marked (as that executor's Read does, at 2000 chars). */
export const READ_MAX_LINE_CHARS = 2000;
/** Text returned by one call; past it the output stops at a line boundary and says where to continue (≈25k tokens, that executor's Read token cap). */
export const READ_MAX_OUTPUT_BYTES = 100 * 1024;
/** Largest image returned as a media part (the Anthropic API's per-image limit is 5 MB). */
export const READ_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/**
 * Files up to this size are read in one go and split in memory: one read instead of a stat, an
 * open, a sniff and a line stream (most files an agent reads are small).
 */
export const READ_WHOLE_FILE_MAX_BYTES = 256 * 1024;
/** Bytes per read when a large file is streamed (a file stream's own default). */
const READ_STREAM_CHUNK_BYTES = 64 * 1024;
/** Past this size the lines after the requested range are not counted, only announced. */
export const READ_COUNT_LINES_MAX_BYTES = 64 * 1024 * 1024;

const inputSchema = deferredSchema(() =>
  z.object({
    path: z.string().optional().describe(`Absolute path, or relative to the workspace folder; also an ${ARTIFACT_SCHEME}:// URI of a persisted result.`),
    file_path: z.string().optional().describe('Alias of path.'),
    offset: z.number().int().min(0).optional().describe('1-based line to start at.'),
    limit: z.number().int().positive().optional().describe(`Lines to read (default ${READ_DEFAULT_LIMIT_LINES}).`),
  }),
);
export type ReadInput = z.infer<ReturnType<typeof inputSchema>>;

export interface ReadData {
  readonly path: string;
  readonly kind: 'text' | 'image' | 'binary' | 'empty';
  readonly startLine?: number;
  readonly endLine?: number;
  readonly totalLines?: number;
}

export interface ReadToolOptions {
  /** Which real paths are on local file systems, for small files read synchronously (default: the process's mount table). */
  readonly localFiles?: LocalFileSystems;
}

export function createReadTool(options: ReadToolOptions = {}): ToolDefinition<ReadInput, ReadData> {
  const localFiles = options.localFiles ?? processMountTable;
  return {
    name: 'Read',
    description:
      `Reads a file. Lines are numbered (cat -n style); by default the first ${READ_DEFAULT_LIMIT_LINES} lines, ` +
      `use offset/limit (in lines) to page. Lines over ${READ_MAX_LINE_CHARS} chars are cut. Images are returned as images. ` +
      `Also reads ${ARTIFACT_SCHEME}:// URIs and saved output paths of earlier, persisted results.`,
    get inputSchema() {
      return inputSchema();
    },
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'none',
    // Read bounds itself; a persisted Read result would only point back at a file to Read.
    resultBudget: { maxModelBytes: READ_MAX_OUTPUT_BYTES, strategy: 'truncate' },
    resolveInput: (input) => normalisePathField(input),
    permissionSubject: (input) => ({ kind: 'path', path: pathOf(input), access: 'read' }),
    handler: (input, ctx) => withFsErrors('read', () => pathOf(input), () => readFile(input, ctx, localFiles)),
  };
}

async function readFile(input: ReadInput, ctx: ToolContext, localFiles: LocalFileSystems): Promise<ToolOutput<ReadData>> {
  const resolved = resolveToolPath(pathOf(input), ctx);
  if (!resolved.ok) return failure(resolved.error);
  const file = resolved.absolute;
  // The file opened is the one judged: the policy's real location, or the artifact store's own file.
  const real = resolved.fromArtifact ? await realLocation(file) : await judgedLocation(pathOf(input), ctx);
  if (real === undefined) return failure(`cannot read ${file}: the permission check found no file at this path`);
  // Synchronously where both are on local file systems (src/node/runtime/localMounts.ts): a local disk answers
  // in microseconds, where each thread-pool round trip costs a 2-core machine tens of them.
  const sync = !imageMimeType(file) && localFiles.isLocal(file) && localFiles.isLocal(real);
  let fd: number;
  try {
    fd = sync ? openForReadSync(real) : await openForRead(real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return failure(await fileNotFoundMessage(file, ctx.workDir));
    // A socket cannot be opened; a FIFO is opened without waiting and refused below.
    if (code === 'ENXIO') return failure(`${file} is not a regular file.`);
    throw error;
  }
  try {
    return await readOpened(input, ctx, file, fd, sync);
  } finally {
    if (sync) closeQuietly(fd);
    else close(fd, ignoreCloseError);
  }
}

/** Reads the verified descriptor `fd` of `file`: every read goes through it, none through the name again. */
async function readOpened(input: ReadInput, ctx: ToolContext, file: string, fd: number, sync: boolean): Promise<ToolOutput<ReadData>> {
  const stats = sync ? fstatSync(fd) : await fstatOf(fd);
  ctx.throwIfAborted();
  if (stats.isDirectory()) return failure(`${file} is a directory, not a file. Use Glob to list its files.`);
  if (!stats.isFile()) return failure(`${file} is not a regular file.`);
  const stamp = { mtimeMs: stats.mtimeMs, size: stats.size };
  if (stats.size === 0) {
    ctx.files.record(file, stamp);
    return { content: `(${file} is empty: 0 lines)`, data: { path: file, kind: 'empty', totalLines: 0 } };
  }
  const mimeType = imageMimeType(file);
  if (mimeType) return readImage(file, fd, stats, mimeType, ctx);
  const small = stats.size <= READ_WHOLE_FILE_MAX_BYTES;
  const whole = small ? (sync ? readSmallSync(fd, stats.size) : await readSmall(fd, stats.size)) : undefined;
  ctx.throwIfAborted();
  const head = whole ? whole.subarray(0, BINARY_SNIFF_BYTES) : await readHead(fd, ctx.signal);
  if (looksBinary(head)) {
    return failure(`${file} is a binary file (${describeBinary(head, file)}, ${formatBytes(stats.size)}); Read shows text and images only.`);
  }
  const start = Math.max(1, input.offset ?? 1);
  const limit = input.limit ?? READ_DEFAULT_LIMIT_LINES;
  const page = whole ? pageOfWhole(whole, head, start, limit) : await readLines(fd, head, stats.size, start, limit, ctx.signal);
  ctx.files.record(file, stamp);
  if (page.lines.length === 0) {
    return failure(`${file} has ${page.totalLines} line${page.totalLines === 1 ? '' : 's'}; offset ${start} is past the end.`);
  }
  const endLine = start + page.lines.length - 1;
  let text = page.lines.join('\n');
  if (page.stoppedAtBytes) {
    text += `\n\n[Output stopped at ${formatBytes(READ_MAX_OUTPUT_BYTES)} after line ${endLine}${totalSuffix(page.totalLines)}; continue with offset=${endLine + 1}.]`;
  } else if (page.hasMore) {
    text += `\n\n[Showing lines ${start}-${endLine}${totalSuffix(page.totalLines)}; continue with offset=${endLine + 1}.]`;
  }
  return { content: text, data: { path: file, kind: 'text', startLine: start, endLine, totalLines: page.totalLines } };
}

interface Page {
  readonly lines: string[];
  /** Undefined when the file is too large to count past the range. */
  readonly totalLines: number | undefined;
  readonly hasMore: boolean;
  readonly stoppedAtBytes: boolean;
}

/** Streams the file line by line, so a large log or persisted output is paged in constant memory. */
async function readLines(fd: number, head: Uint8Array, size: number, start: number, limit: number, signal: AbortSignal): Promise<Page> {
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  const source = utf16 ? [decodeText(await readAll(fd, size)).text] : undefined;
  // Bytes that are not UTF-8 are shown as Latin-1 (as Edit reads them), not as replacement characters.
  // Read through the descriptor by position: a file stream would close it, which stays the caller's to do.
  const stream = source ? undefined : Readable.from(chunksOf(fd, headIsUtf8(head) ? 'utf8' : 'latin1'));
  const onAbort = () => stream?.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  signal.addEventListener('abort', onAbort, { once: true });
  const pager = new Pager(start, limit, size <= READ_COUNT_LINES_MAX_BYTES);
  try {
    const input = source ? splitLines(source[0]!) : createInterface({ input: stream!, crlfDelay: Infinity });
    for await (const raw of input) {
      if (!pager.add(raw)) break;
      if ((pager.lineNo & 0xffff) === 0) signal.throwIfAborted();
    }
    signal.throwIfAborted();
  } finally {
    signal.removeEventListener('abort', onAbort);
    stream?.destroy();
  }
  return pager.page();
}

/**
 * The page of a small file already in memory, decoded and split as `readLines` would: UTF-16 at
 * `\n` or `\r\n`, anything else where readline ends a line (`\n`, `\r\n` or `\r`).
 */
function pageOfWhole(whole: Buffer, head: Uint8Array, start: number, limit: number): Page {
  // Most source files are ASCII: one native check, then no UTF-8 validation or decoding, and a
  // line's bytes are its length.
  const ascii = isAscii(whole);
  const utf16 = !ascii && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
  const text = utf16 ? decodeText(whole).text : whole.toString(ascii || !headIsUtf8(head) ? 'latin1' : 'utf8');
  const pager = new Pager(start, limit, true, ascii);
  // Without a CR every line ends at LF: a plain split, not a regular expression's.
  const lines = text.split(!text.includes('\r') ? '\n' : utf16 ? /\r?\n/ : /\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  for (const raw of lines) if (!pager.add(raw)) break;
  return pager.page();
}

/** Collects the requested lines, numbered and capped, and counts the rest (when `countRest`). */
class Pager {
  lineNo = 0;
  private readonly lines: string[] = [];
  private bytes = 0;
  private stoppedAtBytes = false;
  private hasMore = false;

  constructor(
    private readonly start: number,
    private readonly limit: number,
    private readonly countRest: boolean,
    /** Every line is ASCII: its UTF-8 size is its length. */
    private readonly ascii = false,
  ) {}

  /** False once nothing more is needed from the input. */
  add(raw: string): boolean {
    const lineNo = ++this.lineNo;
    if (lineNo < this.start) return true;
    if (this.lines.length < this.limit && !this.stoppedAtBytes) {
      const line = formatLine(lineNo, lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw);
      // A cut line ends in a non-ASCII ellipsis.
      const lineBytes = (this.ascii && raw.length <= READ_MAX_LINE_CHARS ? line.length : utf8Bytes(line)) + 1;
      if (this.bytes + lineBytes > READ_MAX_OUTPUT_BYTES && this.lines.length > 0) {
        this.stoppedAtBytes = true;
      } else {
        this.lines.push(line);
        this.bytes += lineBytes;
        return true;
      }
    }
    this.hasMore = true;
    return this.countRest;
  }

  page(): Page {
    // At the end of the file the count is exact whatever its size.
    return { lines: this.lines, totalLines: this.countRest || !this.hasMore ? this.lineNo : undefined, hasMore: this.hasMore, stoppedAtBytes: this.stoppedAtBytes };
  }
}

function* splitLines(text: string): Generator<string> {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  yield* lines;
}

function formatLine(lineNo: number, line: string): string {
  const shown = line.length > READ_MAX_LINE_CHARS ? `${headWithinChars(line, READ_MAX_LINE_CHARS)}… [line cut: ${line.length} chars]` : line;
  return `${String(lineNo).padStart(6)}\t${shown}`;
}

function totalSuffix(total: number | undefined): string {
  return total === undefined ? ' (more lines follow)' : ` of ${total}`;
}

async function readImage(file: string, fd: number, stats: Stats, mimeType: string, ctx: ToolContext): Promise<ToolOutput<ReadData>> {
  if (stats.size > READ_IMAGE_MAX_BYTES) {
    return failure(`${file} is an image of ${formatBytes(stats.size)}; Read returns images up to ${formatBytes(READ_IMAGE_MAX_BYTES)}.`);
  }
  const data = new Uint8Array(await readAll(fd, stats.size));
  ctx.throwIfAborted();
  ctx.files.record(file, { mtimeMs: stats.mtimeMs, size: stats.size });
  const media: MediaPart = { kind: 'image', mimeType, data };
  return {
    content: `Image ${path.basename(file)} (${mimeType}, ${formatBytes(stats.size)}) is attached.`,
    media: [media],
    data: { path: file, kind: 'image' },
  };
}

/** A small file's bytes: one read of the size `fstat` gave (a file that grew is read to that size). */
function readSmallSync(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  return bytes.subarray(0, readSync(fd, bytes, 0, size, 0));
}

/** `readSmallSync` through the callback API, whose calls cost less than the promise API's. */
function readSmall(fd: number, size: number, position = 0): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const buffer = Buffer.allocUnsafe(size);
    read(fd, buffer, 0, size, position, (error, bytesRead) => (error ? reject(error) : resolve(buffer.subarray(0, bytesRead))));
  });
}

/** The descriptor's text from its start, in `READ_STREAM_CHUNK_BYTES` reads, a character cut between two kept whole. */
async function* chunksOf(fd: number, encoding: 'utf8' | 'latin1'): AsyncGenerator<string> {
  const decoder = new StringDecoder(encoding);
  for (let position = 0; ; ) {
    const chunk = await readSmall(fd, READ_STREAM_CHUNK_BYTES, position);
    if (chunk.length === 0) break;
    position += chunk.length;
    yield decoder.write(chunk);
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

/** Every byte of the descriptor from its start, to its end however its size changed since `fstat`. */
async function readAll(fd: number, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = await readSmall(fd, Math.max(size - position, BINARY_SNIFF_BYTES), position);
    if (chunk.length === 0) return Buffer.concat(chunks);
    chunks.push(chunk);
    position += chunk.length;
  }
}

function ignoreCloseError(): void {}

function fstatOf(fd: number): Promise<Stats> {
  return new Promise((resolve, reject) => fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))));
}

function readHead(fd: number, signal: AbortSignal): Promise<Uint8Array> {
  signal.throwIfAborted();
  return readSmall(fd, BINARY_SNIFF_BYTES);
}

function failure(message: string): ToolOutput<ReadData> {
  return { content: message, isError: true };
}

// fs/read_text_file → Read, fs/write_text_file → Write, through the executor (src/acp/calls.ts). A file that
// does not exist reads as empty text; a write gets back the secrets its file was shown without (src/acp/secrets.ts).
// Read answers numbered lines and a paging note for a model; an ACP agent wants the file's text, so the
// numbers and the note are taken off what Read returned (after redaction: a secret never leaves).
import { fstat, read, readFile } from 'node:fs';
import { promisify } from 'node:util';
import { realLocation } from '../executor';
import { closeQuietly, openForRead } from '../tools/fileAccess/judgedFile';
import { isAbsolute } from 'node:path';
import type { Acp } from './sdk';
import type { ToolCallResult } from '../executor';
import { runCall, type CallRunner } from './calls';
import { AcpErrorCodes, fail, ok, type Outcome } from './outcome';
import type { ServedSecrets } from './secrets';

/** Read's line prefix: the number right-aligned in 6 columns and a tab (src/tools/file/read.ts `formatLine`). */
const NUMBERED_LINE = /^ *\d+\t/;
/** Read's note after a page: `[Showing lines …]` or `[Output stopped at …]`. */
const PAGE_NOTE = /\n\n\[(?:Showing lines|Output stopped at) [^\n]*\]$/;
const EMPTY_FILE = /^\(.* is empty: 0 lines\)$/s;
const fstatAsync = promisify(fstat);
const readAsync = promisify(read);
const readFileAsync = promisify(readFile);

export async function readTextFile(runner: CallRunner, params: Acp.ReadTextFileRequest, signal: AbortSignal, secrets?: ServedSecrets): Promise<Outcome<Acp.ReadTextFileResponse>> {
  if (typeof params.path !== 'string' || params.path === '') return fail(AcpErrorCodes.invalidParams, 'path is required');
  const input: Record<string, unknown> = { file_path: params.path };
  if (params.line != null) input.offset = params.line;
  if (params.limit != null) input.limit = params.limit;
  const result = await runCall(runner, 'Read', input, { sessionId: params.sessionId, signal });
  if (result.isError) {
    const failure = failureOf(result);
    // A file that is not there reads as empty, as an editor opens a new file: an agent that reads before it creates
    // (Gemini CLI's write_file) cannot tell an ACP error from any other. Our rules have already judged the read.
    return !failure.ok && failure.code === AcpErrorCodes.resourceNotFound ? ok({ content: '' }) : failure;
  }
  const content = textOfRead(result.modelContent);
  // Read's lines do not say whether the file ends with a newline; an agent that edits the text needs to know.
  const whole = !PAGE_NOTE.test(result.modelContent) && content !== '' && isAbsolute(params.path) && (await endsWithNewline(params.path));
  const served = whole ? `${content}\n` : content;
  // A whole file shown with masks: what they hide is kept, for the agent's write of it (src/acp/secrets.ts).
  if (secrets && isAbsolute(params.path)) secrets.served(params.path, served, whole && served.includes('[REDACTED:') ? ((await rawText(params.path)) ?? '') : '');
  return ok({ content: served });
}

/** The file's text as it is on disk, opened as the tools open a path; undefined when it cannot be read. */
async function rawText(file: string): Promise<string | undefined> {
  try {
    const fd = await openForRead(await realLocation(file));
    try {
      return await readFileAsync(fd, 'utf8');
    } finally {
      closeQuietly(fd);
    }
  } catch {
    return undefined;
  }
}

/** Whether the file's last byte is a newline: opened as the tools open a path (no link followed at its end, the descriptor verified). */
async function endsWithNewline(file: string): Promise<boolean> {
  try {
    const fd = await openForRead(await realLocation(file));
    try {
      const { size } = await fstatAsync(fd);
      if (size === 0) return false;
      const last = Buffer.alloc(1);
      await readAsync(fd, last, 0, 1, size - 1);
      return last[0] === 0x0a;
    } finally {
      closeQuietly(fd);
    }
  } catch {
    return false;
  }
}

export async function writeTextFile(runner: CallRunner, params: Acp.WriteTextFileRequest, signal: AbortSignal, secrets?: ServedSecrets): Promise<Outcome<Acp.WriteTextFileResponse>> {
  if (typeof params.path !== 'string' || params.path === '') return fail(AcpErrorCodes.invalidParams, 'path is required');
  if (typeof params.content !== 'string') return fail(AcpErrorCodes.invalidParams, 'content must be a string');
  const { text, unplaced } = secrets ? secrets.restore(params.path, params.content) : { text: params.content, unplaced: 0 };
  if (unplaced > 0) {
    return fail(AcpErrorCodes.invalidParams, `nothing was written: the content holds ${unplaced} [REDACTED:…] mask(s) of secrets in ${params.path} that cannot be told apart, and writing them would replace the secrets; change the file with an edit of the lines around them instead`);
  }
  const result = await runCall(runner, 'Write', { file_path: params.path, content: text }, { sessionId: params.sessionId, signal });
  if (result.isError) return failureOf(result);
  return ok({});
}

/** The file's lines as Read returned them, without numbers or paging note. */
export function textOfRead(content: string): string {
  if (EMPTY_FILE.test(content)) return '';
  return content
    .replace(PAGE_NOTE, '')
    .split('\n')
    .map((line) => line.replace(NUMBERED_LINE, ''))
    .join('\n');
}

/** A failed call as the error the agent gets: the same (redacted) text a model would. */
export function failureOf(result: ToolCallResult): Outcome<never> {
  switch (result.errorKind) {
    case 'permission':
      return fail(AcpErrorCodes.permissionDenied, result.modelContent);
    case 'cancelled':
      return fail(AcpErrorCodes.cancelled, result.modelContent);
    case 'invocation':
      return fail(AcpErrorCodes.invalidParams, result.modelContent);
    default:
      return fail(/not found|No such file|does not exist/i.test(result.modelContent) ? AcpErrorCodes.resourceNotFound : AcpErrorCodes.internalError, result.modelContent);
  }
}

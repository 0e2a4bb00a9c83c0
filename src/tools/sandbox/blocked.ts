// What the sandbox blocked during one command, for the model: a write outside the writable
// folders ("Read-only file system"), a read of a hidden secret (the runtime mounts an empty folder or
// /dev/null over it, so tools report it missing), a connection the network namespace refused, and the
// hosts the runtime's proxy denied (its violation store). Output is scanned as it streams, line by line,
// in bounded memory; only lines that look like one of these errors are kept.
import * as path from 'node:path';

/** Lines kept per command; enough to name every distinct block of a typical failure. */
export const BLOCKED_MAX_LINES = 40;
/** A line longer than this is cut before it is looked at (paths and hosts come early). */
export const BLOCKED_MAX_LINE_CHARS = 1000;
/** Distinct blocks named in the result; the rest are counted. */
export const BLOCKED_MAX_SHOWN = 5;

const WRITE_ERROR = /read-only file system|\bEROFS\b/i;
const READ_ERROR = /no such file or directory|permission denied|operation not permitted|\bENOENT\b|\bEACCES\b|\bEPERM\b/i;
const CONNECT_ERROR =
  /failed to connect to (\S+) port (\d+)|connect (?:ECONNREFUSED|ENETUNREACH|EHOSTUNREACH) ([\w.:[\]-]+?):(\d+)|could not resolve host:? (\S+)|network is unreachable|connection refused/i;
const INTERESTING = new RegExp(`${WRITE_ERROR.source}|${READ_ERROR.source}|${CONNECT_ERROR.source}`, 'i');

/** Collects the error lines of a command's output (both streams), across chunk boundaries. */
export class BlockedOutputScanner {
  private readonly lines: string[] = [];
  private partial = '';

  feed(text: string): void {
    if (this.lines.length >= BLOCKED_MAX_LINES) return;
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop()!.slice(-BLOCKED_MAX_LINE_CHARS);
    for (const line of parts) this.consider(line);
  }

  /** The kept lines, the unterminated last one included. */
  finish(): string[] {
    if (this.partial) this.consider(this.partial);
    this.partial = '';
    return this.lines;
  }

  private consider(line: string): void {
    const cut = line.slice(0, BLOCKED_MAX_LINE_CHARS);
    if (this.lines.length < BLOCKED_MAX_LINES && INTERESTING.test(cut)) this.lines.push(cut);
  }
}

export interface BlockedContext {
  /** Where the command ran: relative paths in messages are resolved against it. */
  readonly cwd: string;
  readonly home: string;
  /** The folders the sandbox lets commands write. */
  readonly allowWrite: readonly string[];
  /** What it hides (absolute; a trailing name may be a `*` glob). */
  readonly denyRead: readonly string[];
  /** What it protects from writes inside the writable folders. */
  readonly denyWrite: readonly string[];
  readonly allowedDomains: readonly string[];
}

/** One line per distinct thing blocked, from the output's error lines and the runtime's violations. */
export function describeBlocked(lines: readonly string[], violations: readonly string[], context: BlockedContext): string[] {
  const found = new Set<string>();
  const hosts = context.allowedDomains.length > 0 ? `sandboxed commands reach only ${context.allowedDomains.join(', ')}, through its proxy` : 'sandboxed commands reach no host';
  for (const violation of violations) {
    const denied = /deny network-outbound (\S+)/.exec(violation);
    found.add(denied ? `network access to ${denied[1]} (${hosts})` : violation);
  }
  for (const line of lines) {
    if (WRITE_ERROR.test(line)) {
      const target = pathIn(line, context);
      if (target) found.add(`writing ${target} (${writeReason(target, context)})`);
      continue;
    }
    const connect = CONNECT_ERROR.exec(line);
    if (connect) {
      const host = connect[1] ?? connect[3] ?? connect[5];
      const port = connect[2] ?? connect[4];
      const where = host ? `${host}${port ? `:${port}` : ''}` : 'the network';
      found.add(`network access to ${where} (${hosts})`);
      continue;
    }
    if (READ_ERROR.test(line)) {
      const target = pathIn(line, context);
      const hidden = target ? context.denyRead.find((denied) => covers(denied, target)) : undefined;
      if (target && hidden) found.add(`reading ${target} (the sandbox hides ${hidden}: secrets)`);
    }
  }
  const all = [...found];
  return all.length > BLOCKED_MAX_SHOWN ? [...all.slice(0, BLOCKED_MAX_SHOWN), `and ${all.length - BLOCKED_MAX_SHOWN} more`] : all;
}

/** The text appended to the result: what was blocked, and how to get it done properly. */
export function blockedNote(blocked: readonly string[]): string {
  return (
    `[The OS sandbox blocked: ${blocked.join('; ')}. Do not retry the same way: if this is needed, ` +
    'run the command again with "dangerouslyDisableSandbox": true (the user is asked to approve it running outside the sandbox), ' +
    'or ask the user to allow the path or domain in the sandbox settings.]'
  );
}

function writeReason(target: string, context: BlockedContext): string {
  const protectedBy = context.denyWrite.find((denied) => covers(denied, target));
  if (protectedBy) return `the sandbox protects ${protectedBy}`;
  if (context.allowWrite.some((folder) => covers(folder, target))) return 'read-only in the sandbox';
  return `outside the folders the sandbox lets commands write: ${context.allowWrite.join(', ') || 'none'}`;
}

/** The error phrases a path is named next to, as tools print them. */
const PHRASE = /read-only file system|no such file or directory|permission denied|operation not permitted|\bE(?:ROFS|NOENT|ACCES|PERM)\b/i;

/**
 * The path an error line names: the one right before the error (`cat: /a: No such file…`,
 * `touch: cannot touch '/a': Read-only…`), else the first quoted one after it (`[Errno 30] Read-only
 * file system: '/a'`, `EROFS: …, open '/a'`).
 */
function pathIn(line: string, context: BlockedContext): string | undefined {
  const phrase = PHRASE.exec(line);
  if (!phrase) return undefined;
  const before = /(?:^|[\s'"\u2018`])([^\s'"\u2018\u2019`:]+)['"\u2019`]?\s*:\s*$/.exec(line.slice(0, phrase.index))?.[1];
  const after = /['"\u2018`]([^'"\u2019`]+)['"\u2019`]/.exec(line.slice(phrase.index))?.[1];
  const raw = [before, after].find((candidate) => candidate !== undefined && /[/.~\w]/.test(candidate) && !/^(line \d+|\d+)$/.test(candidate));
  if (!raw) return undefined;
  if (raw.startsWith('~/')) return path.join(context.home, raw.slice(2));
  return path.resolve(context.cwd, raw);
}

/** `entry` (a path, or a path whose last name is a `*` glob) is `target` or a folder above it. */
function covers(entry: string, target: string): boolean {
  if (entry.includes('*')) {
    const folder = path.dirname(entry);
    const name = new RegExp(`^${path.basename(entry).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
    const relative = path.relative(folder.replace(/[/\\]\*\*$/, ''), target);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return false;
    return relative.split(path.sep).some((segment) => name.test(segment));
  }
  const relative = path.relative(entry, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

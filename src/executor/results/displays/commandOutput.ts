// The `bash_output` display (spec §9): at most 150000 bytes, produced only when the output was
// truncated or persisted (otherwise the model text already shows it all).
import type { BashOutputDisplay, OutputStreamEnd } from '../../contract/contract';
import { formatBytes, headWithinBytes, tailWithinBytes, utf8Bytes } from '../../format/text';

/** Spec §9. */
export const BASH_OUTPUT_MAX_BYTES = 150_000;
/** Of a cut output, this much comes from its start; the rest of the room goes to its end (what failed is usually last). */
export const BASH_OUTPUT_HEAD_BYTES = 30_000;

export interface BashOutputSource {
  /** The whole (redacted) output, or its head and tail when only those were kept. */
  readonly head: string;
  readonly tail: string;
  readonly totalBytes: number;
  /** Whether the model content was truncated or persisted. */
  readonly truncatedOrPersisted: boolean;
  readonly end?: OutputStreamEnd;
}

/** The display, or undefined when the output was shown whole to the model. */
export function buildBashOutputDisplay(source: BashOutputSource): BashOutputDisplay | undefined {
  if (!source.truncatedOrPersisted) return undefined;
  const whole = source.head === source.tail && utf8Bytes(source.head) === source.totalBytes;
  const exit = { exitCode: source.end?.exitCode, signal: source.end?.signal };
  if (whole && source.totalBytes <= BASH_OUTPUT_MAX_BYTES) {
    return { kind: 'bash_output', output: source.head, truncated: false, ...exit };
  }
  const head = headWithinBytes(source.head, BASH_OUTPUT_HEAD_BYTES);
  const marker = `\n… [${formatBytes(source.totalBytes)} in all; the middle is not shown] …\n`;
  const room = BASH_OUTPUT_MAX_BYTES - utf8Bytes(head) - utf8Bytes(marker);
  const tailSource = whole ? source.tail.slice(head.length) : source.tail;
  const tail = tailWithinBytes(tailSource, room);
  return { kind: 'bash_output', output: head + marker + tail, truncated: true, ...exit };
}

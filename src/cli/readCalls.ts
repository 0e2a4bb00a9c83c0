// Reading and checking CALLS: a JSON array of {id, name, input}, or (--stream) one such object per line.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ToolCall } from '../executor/contract/contract';
import { UsageError } from './args';

export async function readCalls(source: string, stdin: NodeJS.ReadableStream): Promise<ToolCall[]> {
  const label = source === '-' ? 'stdin' : source;
  let text: string;
  try {
    text = source === '-' ? await readAll(stdin) : await readFile(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read CALLS ${label}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  let value: unknown;
  try {
    // A byte-order mark is accepted, as it is in settings files (editors on Windows write one).
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`CALLS ${label} is not valid JSON: ${(error as Error).message}`);
  }
  return checkCalls(value, label);
}

/** Checks the shape; every problem names the item and the field. */
export function checkCalls(value: unknown, label: string): ToolCall[] {
  if (!Array.isArray(value)) {
    throw new UsageError(`CALLS ${label} must be a JSON array of {"id", "name", "input"}, got ${describe(value)}`);
  }
  const seen = new Set<string>();
  return value.map((item: unknown, index) => checkCall(item, `CALLS ${label}: item ${index}`, seen));
}

/** One call object; `seen` holds the ids so far (ids are unique within a batch). */
export function checkCall(item: unknown, where: string, seen: Set<string>): ToolCall {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new UsageError(`${where} must be an object, got ${describe(item)}`);
  }
  const { id, name, input } = item as Record<string, unknown>;
  if (typeof id !== 'string' || id === '') throw new UsageError(`${where}: "id" must be a non-empty string, got ${describe(id)}`);
  if (seen.has(id)) throw new UsageError(`${where}: duplicate id "${id}"`);
  seen.add(id);
  if (typeof name !== 'string') throw new UsageError(`${where}: "name" must be a string, got ${describe(name)}`);
  if (input !== undefined && typeof input !== 'string' && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new UsageError(`${where}: "input" must be an object or the model's raw argument string, got ${describe(input)}`);
  }
  return { id, name, input: input ?? {} };
}

/**
 * `--stream`: yields each call as its line arrives (JSON Lines; blank lines skipped). A bad line throws
 * a `UsageError` naming the line; calls yielded before it are the caller's to finish.
 */
export async function* streamCalls(source: string, stdin: NodeJS.ReadableStream, signal: AbortSignal): AsyncGenerator<ToolCall> {
  const label = source === '-' ? 'stdin' : source;
  const input = source === '-' ? stdin : createReadStream(source);
  // Ctrl-C ends the input too: the calls offered so far still get their results.
  const stop = () => (input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  signal.addEventListener('abort', stop, { once: true });
  const opened = new Promise<void>((resolve, reject) => {
    if (source === '-') return resolve();
    const file = input as ReturnType<typeof createReadStream>;
    file.once('open', () => resolve());
    file.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    signal.removeEventListener('abort', stop);
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read CALLS ${label}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const lines = createInterface({ input, crlfDelay: Infinity });
  const seen = new Set<string>();
  let number = 0;
  try {
    for await (const raw of lines) {
      number++;
      const line = number === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new UsageError(`CALLS ${label}: line ${number} is not valid JSON: ${(error as Error).message}`);
      }
      yield checkCall(value, `CALLS ${label}: line ${number}`, seen);
    }
  } finally {
    signal.removeEventListener('abort', stop);
    lines.close();
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

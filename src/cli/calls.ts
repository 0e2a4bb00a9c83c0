// Reading and checking the CALLS file: a JSON array of {id, name, input}.
import { readFile } from 'node:fs/promises';
import type { ToolCall } from '../executor/contract';
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
    value = JSON.parse(text);
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
  return value.map((item: unknown, index) => {
    const where = `CALLS ${label}: item ${index}`;
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
  });
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

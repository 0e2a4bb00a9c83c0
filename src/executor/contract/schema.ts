// Input schemas: zod as declared, or JSON Schema (MCP and other extensions' tools) converted to zod,
// and validation messages a model can act on (spec §3.2).
import { z } from 'zod';
import type { JsonSchema, ToolDefinition } from './contract';

export interface CompiledSchema {
  /** Validates the model's input. */
  readonly validator: z.ZodType;
  /** The JSON Schema offered to the model: from the same zod schema, or the tool's own JSON Schema. */
  readonly jsonSchema: JsonSchema;
}

/**
 * A schema built on first use. The built-in tools declare theirs so, behind a getter
 * (`get inputSchema()`), and the registry compiles such a tool's schema when it is first needed: the
 * extension then loads zod (`dist/zod.js`) at the first tool call or tool list, not at startup.
 */
export function deferredSchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}

/** Builds the validator and the offered JSON Schema of a tool. Throws for a definition with neither. */
export function compileSchema(def: ToolDefinition): CompiledSchema {
  if (def.inputSchema && isZodSchema(def.inputSchema)) {
    const validator = def.inputSchema;
    // Converted when first offered to a model, not when registered: converting the built-in tools'
    // schemas was a fifth of the extension's activate(), and most calls never need it.
    let jsonSchema: JsonSchema | undefined;
    return {
      validator,
      get jsonSchema() {
        jsonSchema ??= zodToJsonSchema(validator);
        return jsonSchema;
      },
    };
  }
  // Tools loaded from plain modules may put a JSON Schema in `inputSchema`.
  const json = def.jsonSchema ?? (def.inputSchema as unknown as JsonSchema | undefined);
  if (json && typeof json === 'object') {
    return { validator: z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]), jsonSchema: json };
  }
  throw new TypeError(`tool ${def.name} declares neither inputSchema nor jsonSchema`);
}

/** A zod schema, possibly from another copy of zod (a tool module's own dependency). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return value !== null && typeof value === 'object' && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

function zodToJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _ignored, ...rest } = json;
  return rest;
}

export type ParseResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/**
 * Turns the model's input into a value: objects pass through, strings are parsed as JSON.
 * Broken JSON is reported, never repaired.
 */
export function parseRawInput(toolName: string, raw: unknown): ParseResult {
  if (typeof raw !== 'string') {
    return { ok: true, value: raw ?? {} };
  }
  if (raw.trim() === '') {
    return { ok: true, value: {} };
  }
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `tool ${toolName}: invalid input: arguments are not valid JSON (${detail})` };
  }
}

/** Validates with the tool's schema; the message names the tool and each failing field. */
export function validateInput(toolName: string, schema: z.ZodType, value: unknown): ParseResult {
  const result = schema.safeParse(value);
  if (result.success) {
    return { ok: true, value: result.data };
  }
  const parts = result.error.issues.map((issue) => describeIssue(issue, value));
  return { ok: false, message: `tool ${toolName}: invalid input: ${[...new Set(parts)].join('; ')}` };
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const path = formatPath(issue.path);
  if (issue.code === 'invalid_type' && path && valueAt(input, issue.path) === undefined) {
    return `missing required field ${path}`;
  }
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => (path ? `${path}.${key}` : key));
    return `unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
  }
  const message = issue.message.replace(/^Invalid input:\s*/, '').replace(/, received /, ', got ');
  return path ? `field ${path}: ${message}` : `input: ${message}`;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

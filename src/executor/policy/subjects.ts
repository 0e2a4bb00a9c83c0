// What a call touches, as the policy reads it: the tool's own `permissionSubject`, else the
// well-known input fields (`path`, `file_path`, `command`, `url`), so rules work for any tool.
import type { PermissionSubject, ToolDefinition } from '../contract/contract';
import { flagsOf } from '../contract/flags';
import picomatch from 'picomatch';

export type SubjectsResult = { readonly ok: true; readonly subjects: readonly PermissionSubject[] } | { readonly ok: false; readonly reason: string };

/** The subjects of one call. A tool whose `permissionSubject` throws is reported, and the policy asks. */
export function subjectsOf(tool: ToolDefinition, input: unknown): SubjectsResult {
  if (tool.permissionSubject) {
    try {
      const declared = tool.permissionSubject(input);
      if (declared === undefined) return { ok: true, subjects: [] };
      const subjects: readonly unknown[] = Array.isArray(declared) ? declared : [declared];
      const invalid = subjects.find((subject) => !isSubject(subject));
      if (invalid !== undefined) return { ok: false, reason: `${tool.name} described what it touches as ${JSON.stringify(invalid)}, which is not a path, command or url` };
      return { ok: true, subjects: subjects as PermissionSubject[] };
    } catch (error) {
      return { ok: false, reason: `${tool.name} could not say what it touches: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return { ok: true, subjects: wellKnownSubjects(tool, input) };
}

function wellKnownSubjects(tool: ToolDefinition, input: unknown): PermissionSubject[] {
  if (input === null || typeof input !== 'object') return [];
  const fields = input as Record<string, unknown>;
  const access = flagsOf(tool).readOnly ? 'read' : 'write';
  const subjects: PermissionSubject[] = [];
  for (const key of ['path', 'file_path', 'notebook_path']) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') subjects.push({ kind: 'path', path: value, access });
  }
  // A glob pattern reaches as far as its static base: `../../**` reads outside the folder.
  if (/glob/i.test(tool.name) && typeof fields.pattern === 'string') {
    subjects.push({ kind: 'path', path: globBase(fields.pattern, typeof fields.path === 'string' ? fields.path : undefined), access: 'read' });
  }
  if (typeof fields.command === 'string') subjects.push({ kind: 'command', command: fields.command });
  if (typeof fields.url === 'string') subjects.push({ kind: 'url', url: fields.url });
  return subjects;
}

/** The directory a glob pattern starts from (`src/**\/*.ts` → `src`), joined to its base path. */
export function globBase(pattern: string, basePath?: string): string {
  const base = picomatch.scan(pattern).base || '.';
  if (base.startsWith('/') || basePath === undefined) return base;
  return `${basePath.replace(/\/+$/, '')}/${base}`;
}

function isSubject(value: unknown): value is PermissionSubject {
  if (value === null || typeof value !== 'object') return false;
  const subject = value as Record<string, unknown>;
  switch (subject.kind) {
    case 'path':
      return typeof subject.path === 'string' && (subject.access === 'read' || subject.access === 'write');
    case 'command':
      return typeof subject.command === 'string';
    case 'url':
      return typeof subject.url === 'string';
    default:
      return false;
  }
}

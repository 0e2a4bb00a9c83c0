// What the chat reply says about tool calls, as plain strings: no `vscode` here, so it is unit-tested
// directly. Everything from the model or a tool is redacted by the caller and escaped here.
import { escapeForDisplay, resolveModelPath } from '../../executor';
import type { ToolCallResult, ToolPresentation } from '../../executor';

/** A call's target in one line (a path, a command, a pattern) is cut here. Ours. */
export const TARGET_MAX_CHARS = 80;
/** A failure's reason in an outcome line is cut here; the model still gets all of it. Ours. */
export const REASON_MAX_CHARS = 160;
/** A line of live output in a progress message is cut here. Ours. */
export const LIVE_LINE_MAX_CHARS = 120;

/** The input fields that name what a call works on, in the order they are looked for. */
const TARGET_FIELDS = ['path', 'file_path', 'command', 'url', 'pattern', 'task_id'] as const;

/** What a call works on, as one short line: `src/a.ts`, `npm test`, `TODO`. Empty when nothing names it. */
export function callTarget(input: unknown): string {
  if (input === null || typeof input !== 'object') return '';
  const fields = input as Record<string, unknown>;
  for (const field of TARGET_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value, TARGET_MAX_CHARS);
  }
  return '';
}

/** `**Read** \`src/a.ts\``: the tool, then its target as code. */
export function callLabel(name: string, target: string): string {
  return target ? `**${escapeMarkdown(name)}** ${inlineCode(target)}` : `**${escapeMarkdown(name)}**`;
}

/** Progress line texts (VS Code renders progress as plain text). */
export const progressText = {
  queued: (name: string, target: string) => `Queued: ${plainLabel(name, target)}`,
  approval: (name: string, target: string) => `Waiting for your approval: ${plainLabel(name, target)}`,
  running: (name: string, target: string) => `Running ${plainLabel(name, target)}`,
  output: (name: string, target: string, line: string) => `Running ${plainLabel(name, target)} — ${oneLine(line, LIVE_LINE_MAX_CHARS)}`,
};

/**
 * The one line a finished call leaves in the reply: `✓ **Read** \`a.ts\` · 12 ms`, or with what went
 * wrong: denied, cancelled, timed out, failed (and the first line of why).
 */
export function outcomeLine(result: ToolCallResult, target: string): string {
  const label = callLabel(result.name, target);
  const took = formatDuration(result.timing.totalMs);
  if (!result.isError) return `✓ ${label} · ${took}${result.artifact ? ' · output saved' : ''}`;
  switch (result.errorKind) {
    case 'permission':
      return `✗ ${label} · denied${reason(result)}`;
    case 'cancelled':
      return `⊘ ${label} · cancelled`;
    case 'timeout':
      return `✗ ${label} · timed out after ${took}`;
    case 'invocation':
      return `✗ ${label} · not run${reason(result)}`;
    default:
      return `✗ ${label} · failed after ${took}${reason(result)}`;
  }
}

/**
 * The file the reply links for a call of a tool that works on one file (its presentation's `linksFile`:
 * Read, Write, Edit): the first it created or changed, else the file its input names, when that is a path
 * (not a saved output).
 */
export function touchedFile(result: ToolCallResult, input: unknown, presentation: ToolPresentation | undefined, workspaceFolders: readonly string[]): string | undefined {
  if (!presentation?.linksFile || result.errorKind === 'invocation') return undefined;
  const changed = result.changes.find((change) => change.kind !== 'deleted');
  if (changed) return changed.absolutePath;
  const raw = input && typeof input === 'object' ? ((input as { path?: unknown; file_path?: unknown }).path ?? (input as { file_path?: unknown }).file_path) : undefined;
  if (typeof raw !== 'string') return undefined;
  // The same reading of the path as the policy's and the tool's.
  const named = resolveModelPath(raw, workspaceFolders);
  return named.ok && named.kind === 'file' ? named.absolute : undefined;
}

/** `12 ms`, `3.4 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The last non-empty line of some output, for a live progress message. */
export function lastLine(text: string): string {
  const lines = text.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!.trim();
    if (line) return line;
  }
  return '';
}

/** Text as inline code: a fence longer than any run of backticks inside, invisible characters escaped. */
export function inlineCode(text: string): string {
  const visible = escapeForDisplay(text);
  const longest = Math.max(0, ...(visible.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = visible.startsWith('`') || visible.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${visible}${pad}${fence}`;
}

/** Markdown's special characters escaped, so model or tool text renders as the text it is. */
export function escapeMarkdown(text: string): string {
  return escapeForDisplay(text).replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (char) => `\\${char}`);
}

/** One line, at most `max` chars, invisible characters escaped. */
export function oneLine(text: string, max: number): string {
  const flat = escapeForDisplay(text.replace(/\s+/g, ' ').trim());
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function plainLabel(name: string, target: string): string {
  return target ? `${name} ${target}` : name;
}

function reason(result: ToolCallResult): string {
  const message = result.failure?.message ?? '';
  const text = oneLine(message.replace(/<\/?tool_use_error>/g, '').split('\n')[0] ?? '', REASON_MAX_CHARS);
  return text ? `: ${escapeMarkdown(text)}` : '';
}

// ACP v1's requests as calls of our tools, in one place (a later protocol version maps here too):
//   fs/read_text_file → Read, fs/write_text_file → Write, terminal/create → Bash (run_in_background);
//   a permission request's tool call by its kind, with what the agent sent (`rawInput`, a `diff` content):
//     execute {command}          → Bash {command}
//     edit {file_path, content}  → Write; {file_path, old_string, new_string} → Edit;
//     edit with one diff         → Write of newText (a new file) or Edit of oldText to newText
//     read {path}                → Read; fetch {url} → WebFetch
//     delete, move, an edit that does not say what it writes, several diffs: judged as writes of their
//     paths, shown as what the agent asks, never a grant
//     anything else              → the rules of the kind's tool (a deny), and the user is asked
// and what the user attaches to a prompt as ACP content (promptContent):
//   a file or range → an embedded `resource` of its text as our Read gives it (redacted, ignore files obeyed)
//                     when the agent's promptCapabilities.embeddedContext allows, else a `resource_link`;
//   a folder        → a `resource_link`; an image → an `image` block when promptCapabilities.image allows;
//   a plain value   → `text` (redacted by the host)
import type { Acp } from './sdk';

/** Our tools an agent's own requests run. */
export const READ_TOOL = 'Read';
export const WRITE_TOOL = 'Write';
export const EDIT_TOOL = 'Edit';
export const BASH_TOOL = 'Bash';
export const FETCH_TOOL = 'WebFetch';

/** The tool whose rules an agent's tool call of each kind answers to, when it says nothing more. */
export const TOOL_OF_KIND: Readonly<Partial<Record<Acp.ToolKind, string>>> = {
  read: READ_TOOL,
  edit: WRITE_TOOL,
  delete: WRITE_TOOL,
  move: WRITE_TOOL,
  execute: BASH_TOOL,
  fetch: FETCH_TOOL,
  search: 'Grep',
};

/** A call of ours: what the rules judge and, when `exact`, what the user is shown and granted. */
export interface OurCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** What a permission request asks, as our calls. */
export interface MappedRequest {
  readonly kind: Acp.ToolKind | undefined;
  /** Our calls the rules judge; empty when the request names nothing we can judge. */
  readonly calls: readonly OurCall[];
  /** One call of ours does exactly what the agent asks: its tool's preview is shown and a grant may follow. */
  readonly exact: boolean;
  /** What the dialog says when no tool's preview does: the agent's request in plain words. */
  readonly title: string;
  readonly detail: string;
}

export function mapPermissionRequest(toolCall: Acp.ToolCallUpdate): MappedRequest {
  const raw = (toolCall.rawInput && typeof toolCall.rawInput === 'object' && !Array.isArray(toolCall.rawInput) ? toolCall.rawInput : {}) as Record<string, unknown>;
  const diffs = (toolCall.content ?? []).filter((part): part is Acp.ToolCallContent & { type: 'diff' } => part.type === 'diff');
  const path = stringField(raw, 'file_path', 'path', 'abs_path', 'filePath') ?? diffs[0]?.path ?? toolCall.locations?.[0]?.path;
  const kind = toolCall.kind ?? undefined;
  const said = toolCall.title ?? kind ?? 'a tool call';
  const detail = plainDetail(toolCall, raw, diffs);
  const exact = (call: OurCall): MappedRequest => ({ kind, calls: [call], exact: true, title: `The agent asks: ${said}`, detail });
  // A stand-in for the rules: the dialog says in words what the agent will do, and to which files.
  const judged = (calls: OurCall[], verb?: string): MappedRequest => {
    const targets = calls.map((call) => String(call.input.file_path)).join(' and ');
    const title = verb && targets ? `The agent asks to ${verb} ${targets}: ${said}` : `The agent asks: ${said}`;
    return { kind, calls, exact: false, title, detail };
  };
  switch (kind) {
    case 'execute': {
      const command = stringField(raw, 'command', 'cmd');
      return command ? exact({ name: BASH_TOOL, input: { command } }) : judged([]);
    }
    case 'edit': {
      const content = raw.content ?? raw.new_content;
      if (path && typeof content === 'string') return exact({ name: WRITE_TOOL, input: { file_path: path, content } });
      if (path && typeof raw.old_string === 'string' && typeof raw.new_string === 'string') {
        const replaceAll = raw.replace_all === true ? { replace_all: true } : {};
        return exact({ name: EDIT_TOOL, input: { file_path: path, old_string: raw.old_string, new_string: raw.new_string, ...replaceAll } });
      }
      if (diffs.length === 1) return exact(callOfDiff(diffs[0]!));
      if (diffs.length > 1) return judged(diffs.map(callOfDiff), 'change');
      return judged(path ? [writeOf(path)] : [], 'edit');
    }
    case 'delete':
      return judged(path ? [writeOf(path)] : [], 'delete');
    case 'move': {
      const from = stringField(raw, 'source', 'from', 'old_path', 'oldPath') ?? path;
      const to = stringField(raw, 'destination', 'to', 'new_path', 'newPath') ?? toolCall.locations?.[1]?.path;
      return judged([from, to].filter((target): target is string => target !== undefined).map(writeOf), 'move');
    }
    case 'read':
      return path ? exact({ name: READ_TOOL, input: { file_path: path } }) : judged([]);
    case 'fetch': {
      const url = stringField(raw, 'url');
      return url ? exact({ name: FETCH_TOOL, input: { url } }) : judged([]);
    }
    default:
      return judged([]);
  }
}

/** A diff as our call: no old text is a new file (Write), old text becomes an Edit (a whole file's text or a part of it). */
function callOfDiff(diff: Acp.Diff): OurCall {
  if (diff.oldText == null || diff.oldText === '') return { name: WRITE_TOOL, input: { file_path: diff.path, content: diff.newText } };
  return { name: EDIT_TOOL, input: { file_path: diff.path, old_string: diff.oldText, new_string: diff.newText } };
}

/** A path the agent will change some other way: judged as a write of it (an empty one, never shown as content). */
function writeOf(path: string): OurCall {
  return { name: WRITE_TOOL, input: { file_path: path, content: '' } };
}

/** The request as the agent sent it, for a dialog no tool of ours describes. */
function plainDetail(toolCall: Acp.ToolCallUpdate, raw: Record<string, unknown>, diffs: readonly Acp.Diff[]): string {
  const lines: string[] = [];
  if (toolCall.kind) lines.push(`Kind: ${toolCall.kind}`);
  for (const location of toolCall.locations ?? []) lines.push(`File: ${location.path}${location.line != null ? `:${location.line}` : ''}`);
  for (const diff of diffs) lines.push(`Change to ${diff.path}:`, ...(diff.oldText ? diff.oldText.split('\n').map((line) => `- ${line}`) : []), ...diff.newText.split('\n').map((line) => `+ ${line}`));
  for (const part of toolCall.content ?? []) if (part.type === 'content' && part.content.type === 'text') lines.push(part.content.text);
  if (Object.keys(raw).length > 0) lines.push(`Input: ${JSON.stringify(raw, null, 2)}`);
  if (toolCall.kind === 'edit' && diffs.length === 0 && raw.content === undefined && raw.old_string === undefined) {
    lines.push('The agent does not say what it will write: its write is asked for again, with its content.');
  }
  return lines.join('\n') || 'The agent sent nothing more about it.';
}

function stringField(raw: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof raw[name] === 'string' && raw[name] !== '') return raw[name] as string;
  return undefined;
}

/** Something the user attached to a prompt (a plain value already redacted). */
export type PromptAttachment =
  | { readonly kind: 'file'; readonly uri: string; readonly path: string; readonly name: string; readonly lines?: { readonly first: number; readonly last: number } }
  | { readonly kind: 'folder'; readonly uri: string; readonly name: string }
  | { readonly kind: 'image'; readonly mimeType: string; readonly name: string; readonly data: Uint8Array }
  | { readonly kind: 'text'; readonly text: string };

/** A file's text (its lines `first`..`last` when given) through our Read, or why it may not be sent. */
export type ReadForPrompt = (path: string, lines?: { readonly first: number; readonly last: number }) => Promise<{ readonly text: string } | { readonly refused: string }>;

/** The attachments as prompt content blocks, and a line for each that was not sent (and why). */
export async function promptContent(attachments: readonly PromptAttachment[], capabilities: Acp.PromptCapabilities | null | undefined, read: ReadForPrompt): Promise<{ blocks: Acp.ContentBlock[]; notSent: string[] }> {
  const blocks: Acp.ContentBlock[] = [];
  const notSent: string[] = [];
  for (const attachment of attachments) {
    switch (attachment.kind) {
      case 'file': {
        const range = attachment.lines ? `lines ${attachment.lines.first}-${attachment.lines.last}` : undefined;
        if (capabilities?.embeddedContext !== true) {
          blocks.push({ type: 'resource_link', uri: attachment.uri, name: attachment.name, ...(range ? { description: range } : {}) });
          break;
        }
        const answer = await read(attachment.path, attachment.lines);
        if ('refused' in answer) notSent.push(`${attachment.path}${range ? `, ${range}` : ''}: ${answer.refused}`);
        else blocks.push({ type: 'resource', resource: { uri: attachment.lines ? `${attachment.uri}#L${attachment.lines.first}-${attachment.lines.last}` : attachment.uri, text: answer.text } });
        break;
      }
      case 'folder':
        blocks.push({ type: 'resource_link', uri: attachment.uri, name: attachment.name });
        break;
      case 'image':
        if (capabilities?.image === true) blocks.push({ type: 'image', mimeType: attachment.mimeType, data: Buffer.from(attachment.data).toString('base64') });
        else notSent.push(`${attachment.name} (${attachment.mimeType}): the agent does not take images`);
        break;
      case 'text':
        blocks.push({ type: 'text', text: attachment.text });
        break;
    }
  }
  return { blocks, notSent };
}

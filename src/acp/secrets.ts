// The secrets an agent was shown as masks, put back when it writes the file back. An agent that edits by reading a
// file through fs/read_text_file (redacted: `API_TOKEN=[REDACTED:password]`), changing a line and writing the whole
// text back would otherwise overwrite each secret with its mask. Per session and path we keep what we served;
// a write of that path (or a permission request's diff of it) gets each mask replaced by the secret it stood for,
// found by the text before it on its line; a mask that cannot be told apart from another is left for the user to
// see in the modal, and a write that still holds one is refused, so no secret is lost unasked.
import type { Acp } from './sdk';

/** A mask as the redactor writes it (src/executor/results/redaction/matches.ts). */
const MASK = /\[REDACTED:[^\]\n]{1,100}\]/g;
/** Files remembered per session: an agent edits a few at a time; the oldest is forgotten first. Ours. */
export const MAX_REMEMBERED_FILES = 64;

/** One secret of a file: its mask, the secret, and the text before it on its line (as the agent saw it). */
interface Hidden {
  readonly mask: string;
  readonly secret: string;
  readonly before: string;
}

export class ServedSecrets {
  private readonly files = new Map<string, readonly Hidden[]>();

  /** Remembers what was served of `path`: `shown` is the redacted text, `raw` the file's text it came from. */
  served(path: string, shown: string, raw: string): void {
    this.files.delete(path);
    const hidden = shown.includes('[REDACTED:') ? align(shown, raw) : undefined;
    if (!hidden || hidden.length === 0) return;
    this.files.set(path, hidden);
    if (this.files.size > MAX_REMEMBERED_FILES) this.files.delete(this.files.keys().next().value!);
  }

  /** `text` for `path` with each mask it can place replaced by its secret, and how many masks of the file's secrets remain. */
  restore(path: string, text: string): { text: string; unplaced: number } {
    const hidden = this.files.get(path);
    if (!hidden || !text.includes('[REDACTED:')) return { text, unplaced: 0 };
    let unplaced = 0;
    const restored = text.replace(MASK, (mask, offset: number) => {
      const candidates = hidden.filter((entry) => entry.mask === mask);
      const secrets = new Set(candidates.map((entry) => entry.secret));
      if (secrets.size === 1) return candidates[0]!.secret;
      const before = lineBefore(text, offset);
      const matching = new Set(candidates.filter((entry) => entry.before === before).map((entry) => entry.secret));
      if (matching.size === 1) return [...matching][0]!;
      unplaced++;
      return mask;
    });
    return { text: restored, unplaced };
  }
}

/** The masks of `shown` paired with what they hide in `raw`; undefined when the two do not line up (the file changed). */
function align(shown: string, raw: string): Hidden[] | undefined {
  const masks = [...shown.matchAll(MASK)];
  const literals = shown.split(MASK);
  if (!raw.startsWith(literals[0]!)) return undefined;
  const hidden: Hidden[] = [];
  let at = literals[0]!.length;
  for (let index = 0; index < masks.length; index++) {
    const next = literals[index + 1]!;
    const last = index === masks.length - 1;
    // Two masks side by side cannot be told apart in the file's text.
    if (next === '' && !last) return undefined;
    const end = last ? raw.length - next.length : raw.indexOf(next, at + 1);
    if (end <= at || (last && !raw.endsWith(next))) return undefined;
    const mask = masks[index]!;
    hidden.push({ mask: mask[0], secret: raw.slice(at, end), before: lineBefore(shown, mask.index) });
    at = end + next.length;
  }
  // The pairing holds only if the secrets, put back in place, give the file's text exactly.
  const rebuilt = literals.map((literal, index) => literal + (hidden[index]?.secret ?? '')).join('');
  return rebuilt === raw ? hidden : undefined;
}

/** The text from the start of the line up to `offset`. */
function lineBefore(text: string, offset: number): string {
  return text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
}

/** The tool call of a permission request with its diffs' and input's texts restored, so the modal and the grant match the write that follows. */
export function restoreToolCall(secrets: ServedSecrets, toolCall: Acp.ToolCallUpdate): Acp.ToolCallUpdate {
  if (!JSON.stringify(toolCall).includes('[REDACTED:')) return toolCall;
  const content = toolCall.content?.map((part) =>
    part.type === 'diff' ? { ...part, newText: secrets.restore(part.path, part.newText).text, ...(part.oldText ? { oldText: secrets.restore(part.path, part.oldText).text } : {}) } : part,
  );
  const raw = toolCall.rawInput && typeof toolCall.rawInput === 'object' && !Array.isArray(toolCall.rawInput) ? (toolCall.rawInput as Record<string, unknown>) : undefined;
  const path = raw && typeof (raw.file_path ?? raw.path) === 'string' ? ((raw.file_path ?? raw.path) as string) : undefined;
  const rawInput = raw && path ? Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, typeof value === 'string' && TEXT_FIELDS.has(key) ? secrets.restore(path, value).text : value])) : toolCall.rawInput;
  return { ...toolCall, ...(content ? { content } : {}), rawInput };
}

/** The input fields of an edit that hold the file's text (src/acp/mapping.ts reads these). */
const TEXT_FIELDS = new Set(['content', 'new_content', 'old_string', 'new_string']);

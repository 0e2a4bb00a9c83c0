// What the user allowed through session/request_permission is not asked again when the agent then makes
// the request itself: an ACP agent asks "may I edit notes.txt?" and, told yes, sends fs/write_text_file.
// A grant answers one approval of the same kind of operation on the same target in the same session, once:
// a delete or a move the user allowed is no write (the agent does those itself; no request of ours does).
// Our rules still come first: a deny rule refuses the call before any approval is asked for.
import type { ApprovalAnswer, ApprovalClient, ApprovalRequest } from '../executor';
import type { Acp } from './sdk';

/** The agent's tool call as a call of ours, when it says enough. */
export interface OurCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** What the agent said it will do (ACP's tool kind): a grant covers only a request of the same kind. */
  readonly kind: Acp.ToolKind;
}

/** The operation each tool an agent's request runs performs, as ACP's tool kinds name it. */
const KIND_OF_TOOL: Readonly<Record<string, Acp.ToolKind>> = { Write: 'edit', Read: 'read', Bash: 'execute' };

/** True when a request of ours does exactly what `call` said it would (not a delete answered by a write). */
export function isOwnOperation(call: OurCall): boolean {
  return KIND_OF_TOOL[call.name] === call.kind;
}

/** A grant not used within this long is dropped: the agent did something else. Ours. */
export const GRANT_TTL_MS = 60_000;

export class Grants {
  private readonly grants = new Map<string, number>();

  add(call: OurCall): void {
    const key = keyOf(call.kind, call.input);
    if (key) this.grants.set(key, Date.now() + GRANT_TTL_MS);
  }

  /** True (and the grant is used up) when the user already allowed this call. */
  consume(toolName: string, input: unknown): boolean {
    const kind = KIND_OF_TOOL[toolName];
    const key = kind ? keyOf(kind, input) : undefined;
    const until = key ? this.grants.get(key) : undefined;
    if (until === undefined) return false;
    this.grants.delete(key!);
    return until >= Date.now();
  }

  clear(): void {
    this.grants.clear();
  }
}

/** Answers from the session's grants first, then asks `inner`. */
export class GrantedApprovals implements ApprovalClient {
  constructor(
    private readonly inner: ApprovalClient,
    private readonly grants: Grants,
  ) {}

  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.grants.consume(request.toolName, request.input)) return Promise.resolve({ kind: 'allowOnce' });
    return this.inner.requestApproval(request, signal);
  }
}

/** The kind of operation and what it acts on: a file's path or a command line. */
function keyOf(kind: Acp.ToolKind, input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const fields = input as Record<string, unknown>;
  const target = fields.path ?? fields.file_path ?? fields.command;
  return typeof target === 'string' ? `${kind}\u0000${target}` : undefined;
}

// What the user allowed through session/request_permission is not asked again when the agent then makes
// exactly that request itself: an ACP agent asks "may I write this to notes.txt?" and, told yes, sends
// fs/write_text_file. A grant is what the dialog showed, as the request of ours that carries it out — a
// write of that path with that text, that command line, a read of that path — and answers one approval of
// exactly that request in the same session, once. Any other content or command is asked for again.
// Our rules still come first: a deny rule refuses the call before any approval is asked for.
import { createHash } from 'node:crypto';
import type { ApprovalAnswer, ApprovalClient, ApprovalRequest } from '../executor';
import { BASH_TOOL, READ_TOOL, WRITE_TOOL } from './mapping';

/** What was shown and allowed: our tool, the path or command line, and for a write the file's new text. */
export interface Grant {
  readonly tool: string;
  readonly target: string;
  readonly content?: string;
}

/** A grant not used within this long is dropped: the agent did something else. Ours. */
export const GRANT_TTL_MS = 60_000;

export class Grants {
  private readonly grants = new Map<string, number>();

  add(grant: Grant): void {
    this.grants.set(keyOf(grant), Date.now() + GRANT_TTL_MS);
  }

  /** True (and the grant is used up) when the user already allowed exactly this call. */
  consume(toolName: string, input: unknown): boolean {
    const grant = grantOfRequest(toolName, input);
    const key = grant ? keyOf(grant) : undefined;
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

/** The grant a request of ours would use: only the requests an agent's own fs and terminal calls make. */
export function grantOfRequest(toolName: string, input: unknown): Grant | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const fields = input as Record<string, unknown>;
  const path = typeof fields.path === 'string' ? fields.path : typeof fields.file_path === 'string' ? fields.file_path : undefined;
  switch (toolName) {
    case WRITE_TOOL:
      return path !== undefined && typeof fields.content === 'string' ? { tool: WRITE_TOOL, target: path, content: fields.content } : undefined;
    case BASH_TOOL:
      return typeof fields.command === 'string' ? { tool: BASH_TOOL, target: fields.command } : undefined;
    case READ_TOOL:
      return path !== undefined ? { tool: READ_TOOL, target: path } : undefined;
    default:
      return undefined;
  }
}

/** The grant's identity; a write's text is kept as its digest, so a large file is not held twice. */
function keyOf(grant: Grant): string {
  const content = grant.content === undefined ? '' : createHash('sha256').update(grant.content).digest('hex');
  return `${grant.tool}\u0000${grant.target}\u0000${content}`;
}

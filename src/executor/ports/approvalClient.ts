// Port: whoever answers an approval — a modal dialog in VS Code, a flag or a TTY prompt in the CLI.
import type { ApprovalPreview } from '../contract/contract';

export interface ApprovalRequest {
  readonly callId: string;
  readonly toolName: string;
  /** The resolved input, exactly what will run. */
  readonly input: unknown;
  /** Why approval is needed (mode, rule, sensitive path, ...). */
  readonly reason: string;
  readonly preview?: ApprovalPreview;
  /** Whether "allow for this session" may be offered. */
  readonly sessionAllowed: boolean;
  /** Whether "allow once" may be offered: false when the asker can take only a lasting answer. @default true */
  readonly onceAllowed?: boolean;
  /** Whether "allow in this workspace" (a rule written to the workspace's settings) may be offered. */
  readonly workspaceAllowed?: boolean;
  /** Prefix rules that would allow what asked (`Bash(git push *)`): offered beside the exact rule, with "allow in this workspace". */
  readonly suggestedRules?: readonly string[];
}

export type ApprovalAnswer =
  | { readonly kind: 'allowOnce' }
  | { readonly kind: 'allowSession' }
  /** Allowed, and the exact rule is kept in the workspace's settings (`.claude/settings.local.json`). */
  /** With `rules`: the suggested prefix rules the user chose, kept instead of the exact ones. */
  | { readonly kind: 'allowWorkspace'; readonly rules?: readonly string[] }
  | { readonly kind: 'deny'; readonly reason?: string };

export interface ApprovalClient {
  /** Resolves with the user's answer; rejects with an abort error when `signal` aborts (the race was lost). */
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

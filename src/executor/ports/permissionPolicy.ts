// Port: the rules-and-mode decision of spec §3.5, before hooks and approval are laid over it.
import type { ToolDefinition } from '../contract/contract';
import type { PathJudge } from '../policy/path/judgePath';
import type { DecidedBy } from '../contract/result';

export type PermissionBehavior = 'allow' | 'ask' | 'deny';

export interface PermissionRequest {
  readonly tool: ToolDefinition;
  /** The resolved input: the same bytes the hooks, the approval preview and the handler see. */
  readonly input: unknown;
  readonly callId: string;
  readonly workspaceFolders: readonly string[];
  /**
   * How the permission stage reads the paths of this call (`sharedJudge`): a policy that resolves paths
   * uses it, so what it judges is what the stage's own rules judge, read once. Absent: `judgePath`.
   */
  readonly judgePath?: PathJudge;
}

export interface PermissionDecision {
  readonly behavior: PermissionBehavior;
  readonly by: DecidedBy;
  /** Shown to the model on deny, to the user on ask. */
  readonly reason: string;
  /** The rule that matched, if any (e.g. `Bash(npm test:*)`). */
  readonly rule?: string;
  /** This ask can never be removed by a hook, a rule or the tool (spec §3.5: `alwaysAsk`, agent-memory files). */
  readonly forced?: boolean;
  /** On an ask: prefix rules that would have allowed every part that asked (`Bash(git push *)`), to offer. */
  readonly suggestedRules?: readonly string[];
}

export interface PermissionPolicy {
  /** The current permission mode, when the policy has one (hooks are told it). */
  readonly mode?: string;
  evaluate(request: PermissionRequest, signal: AbortSignal): PermissionDecision | Promise<PermissionDecision>;
  /** An "allow for this session" answer: later calls of this tool with this input's pattern are allowed. */
  rememberSessionApproval?(request: PermissionRequest, signal?: AbortSignal): void | Promise<void>;
  /**
   * An "allow in this workspace" answer: the same exact rule, kept in the workspace's settings so it
   * outlives the session. Absent: the answer is not offered.
   */
  rememberWorkspaceApproval?(request: PermissionRequest, signal?: AbortSignal, rules?: readonly string[]): Promise<void>;
  /**
   * Whether "allow in this workspace" can keep exactly this call's rule (a rule text that reads back as
   * covering nothing more). False: the answer is not offered for this call. Absent: it can.
   */
  workspaceApprovalPossible?(request: PermissionRequest, signal?: AbortSignal): Promise<boolean>;
}

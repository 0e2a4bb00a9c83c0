// session/request_permission → our rules first, then our approval (VS Code: the modal):
//   1. the agent's tool call as calls of ours (src/acp/mapping.ts), so the same rules match it
//      (`Bash(rm:*)`, `Write(src/**)`, …); one that names nothing we can judge answers to the rules of its
//      kind's tool, where only a deny counts;
//   2. a deny rule wins over the agent's request: answered with its reject option; an allow rule (or the
//      mode) answers with its allow-once option without asking;
//   3. otherwise the user is asked, shown what will happen: our tool's own preview (a Write's content, an
//      Edit's lines, Review Diff) when one call of ours does exactly what the agent asks, else the agent's
//      request in plain words; offered only the answers the agent takes: allow once (if it offers
//      allow_once), allow always (= for this session, if it offers allow_always), reject; "for this session" on
//      a request our rules remember is answered allow_once where offered, our rule answering its repeats;
//   4. an answer is never widened: "once" to an agent offering only allow_always is a reject, since the agent
//      would not ask again and our rules would not know;
//   5. what the user allowed is granted exactly as shown (src/acp/grants.ts): the file's new text, the command;
//   6. a cancelled session or request answers `cancelled`, as ACP asks.
import type { Acp } from './sdk';
import type { ApprovalPreview, PermissionDecision, PermissionRequest, ToolExecutor } from '../executor';
import type { ApprovalAnswer, ApprovalClient } from '../executor';
import type { PermissionPolicy } from '../executor';
import { escapeForDisplay } from '../executor';
import { grantOfRequest, type Grant } from './grants';
import { EDIT_TOOL, mapPermissionRequest, TOOL_OF_KIND, WRITE_TOOL, type MappedRequest, type OurCall } from './mapping';

/** Who the dialog names when no tool of ours does what the agent asks. */
export const AGENT_REQUEST = 'Agent request';

export interface PermissionHost {
  readonly executor: ToolExecutor;
  readonly policy: PermissionPolicy;
  readonly approvals: ApprovalClient;
  workspaceFolders(): readonly string[];
}

/** The answer, and what the user allowed (so it is not asked again when the agent makes exactly that request). */
export interface PermissionAnswer {
  readonly response: Acp.RequestPermissionResponse;
  readonly granted?: Grant;
  /** Who refused it: `you`, or the rule or mode that did. */
  readonly deniedBy?: string;
}

export async function requestPermission(host: PermissionHost, params: Acp.RequestPermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
  const options = params.options ?? [];
  const offers = (kind: Acp.PermissionOptionKind) => options.some((option) => option.kind === kind);
  const pick = (...kinds: Acp.PermissionOptionKind[]): PermissionAnswer => {
    for (const kind of kinds) {
      const option = options.find((candidate) => candidate.kind === kind);
      if (option) return { response: { outcome: { outcome: 'selected', optionId: option.optionId } } };
    }
    return CANCELLED;
  };
  const reject = (deniedBy: string): PermissionAnswer => ({ ...pick('reject_once', 'reject_always'), deniedBy });
  if (signal.aborted) return CANCELLED;
  const toolCall = params.toolCall ?? { toolCallId: 'unknown' };
  const mapped = mapPermissionRequest(toolCall);
  const requests = mapped.calls.map((call) => policyRequest(host, call, toolCall.toolCallId));
  const judged = requests.length > 0 && requests.every((request) => request !== undefined) ? (requests as PermissionRequest[]) : undefined;
  const exact = mapped.exact && judged !== undefined ? judged[0]! : undefined;
  // 1–2. Our rules decide first.
  let reason = mapped.title;
  if (judged) {
    const decisions = await Promise.all(judged.map((request) => host.policy.evaluate(request, signal)));
    const denial = decisions.find((decision) => decision.behavior === 'deny');
    if (denial) return reject(deniedByPolicy(denial));
    const allowed = decisions.every((decision) => decision.behavior === 'allow');
    // An allow rule covers this call, not what the agent's "always" would cover: without allow_once, ask.
    if (allowed && offers('allow_once')) return pick('allow_once');
    reason = allowed ? `${reason} (${reasonsOf(decisions)}, but the agent offers only to allow it always)` : `${reason} (${reasonsOf(decisions)})`;
  } else {
    const decision = await kindDecision(host, mapped, toolCall.toolCallId, signal);
    if (decision?.behavior === 'deny') return reject(deniedByPolicy(decision));
  }
  // 3–4. The user, shown what will happen.
  const preview = exact ? await toolPreview(host, exact, mapped, signal) : { title: escapeForDisplay(mapped.title), detail: escapeForDisplay(mapped.detail) };
  let answer: ApprovalAnswer;
  try {
    answer = await host.approvals.requestApproval(
      {
        callId: toolCall.toolCallId,
        toolName: exact ? exact.tool.name : AGENT_REQUEST,
        input: exact ? exact.input : (toolCall.rawInput ?? {}),
        reason: escapeForDisplay(reason),
        preview,
        sessionAllowed: offers('allow_always'),
        onceAllowed: offers('allow_once'),
      },
      signal,
    );
  } catch {
    // 6. Aborted: the session was cancelled or the agent withdrew the request.
    return CANCELLED;
  }
  const granted = exact ? grantOf(exact, preview) : undefined;
  switch (answer.kind) {
    case 'allowOnce':
      // Never widened to allow_always: a client that offered "once" anyway gets the agent's reject.
      return offers('allow_once') ? { ...pick('allow_once'), ...(granted ? { granted } : {}) } : reject('us: the agent takes only "allow always"');
    case 'allowSession':
    case 'allowWorkspace':
      // As our own modal's "Allow for Session": our rules remember it too, so the agent's later calls of it run
      // unasked; a stand-in (a delete or a move judged as a write) is not remembered as the write it was checked as.
      // Our session rule then answers the same request, so the agent gets allow_once: its "always" may be wider
      // than what was shown (Claude's is every edit of the session).
      if (exact) await host.policy.rememberSessionApproval?.(exact, signal);
      return { ...(exact ? pick('allow_once', 'allow_always') : pick('allow_always', 'allow_once')), ...(granted ? { granted } : {}) };
    case 'deny':
      return reject('you');
  }
}

const CANCELLED: PermissionAnswer = { response: { outcome: { outcome: 'cancelled' } } };

/** The call as the call pipeline would hand it to the policy (src/executor/call/stages/admit/resolveInput.ts); undefined when it cannot. */
function policyRequest(host: PermissionHost, call: OurCall, callId: string): PermissionRequest | undefined {
  const tool = host.executor.registry.get(call.name)?.def;
  if (!tool) return undefined;
  try {
    return { tool, input: tool.resolveInput ? tool.resolveInput(call.input) : call.input, callId, workspaceFolders: host.workspaceFolders() };
  } catch {
    return undefined;
  }
}

/** The rules of the kind's tool, for a request that names nothing they could match: only tool-wide rules apply. */
async function kindDecision(host: PermissionHost, mapped: MappedRequest, callId: string, signal: AbortSignal): Promise<PermissionDecision | undefined> {
  const name = mapped.kind ? TOOL_OF_KIND[mapped.kind] : undefined;
  const tool = name ? host.executor.registry.get(name)?.def : undefined;
  if (!tool) return undefined;
  return host.policy.evaluate({ tool: { ...tool, permissionSubject: () => undefined }, input: {}, callId, workspaceFolders: host.workspaceFolders() }, signal);
}

/** Our tool's own preview of the call (Write's content, Edit's lines, the change for Review Diff); the agent's words if it fails. */
async function toolPreview(host: PermissionHost, request: PermissionRequest, mapped: MappedRequest, signal: AbortSignal): Promise<ApprovalPreview> {
  const fallback = { title: escapeForDisplay(mapped.title), detail: escapeForDisplay(mapped.detail) };
  if (!request.tool.prepareApproval) return { title: fallback.title, detail: escapeForDisplay(JSON.stringify(request.input, null, 2) ?? '') };
  try {
    const prepared = await request.tool.prepareApproval(request.input, signal, { workspaceFolders: host.workspaceFolders() });
    const preview = prepared.preview;
    if (!preview) return fallback;
    return { ...preview, title: preview.title === undefined ? undefined : escapeForDisplay(preview.title), detail: escapeForDisplay(preview.detail) };
  } catch {
    return fallback;
  }
}

/** What the user saw and allowed, as the request of ours that would carry it out: a write of the file's new text, the command. */
function grantOf(request: PermissionRequest, preview: ApprovalPreview): Grant | undefined {
  if (request.tool.name !== EDIT_TOOL) return grantOfRequest(request.tool.name, request.input);
  const input = request.input as Record<string, unknown>;
  const path = typeof input.path === 'string' ? input.path : typeof input.file_path === 'string' ? input.file_path : undefined;
  // The file as the edit leaves it, as shown for Review Diff; an edit whose result could not be shown grants nothing.
  return path !== undefined && preview.change ? { tool: WRITE_TOOL, target: path, content: preview.change.after } : undefined;
}

/** Who a policy's deny names: its rule, else the mode. */
function deniedByPolicy(decision: PermissionDecision): string {
  if (decision.rule) return `rule ${decision.rule}`;
  return decision.by === 'mode' ? 'the permission mode' : decision.by;
}

function reasonsOf(decisions: readonly PermissionDecision[]): string {
  return [...new Set(decisions.map((decision) => decision.reason))].join('; ');
}

// session/request_permission → our rules first, then our approval (VS Code: the modal):
//   1. the agent's tool call as one of ours where it says what it does (a command → Bash, an edit, delete or
//      move → Write, a read → Read), so the same rules match it (`Bash(rm:*)`, `Write(src/**)`, …);
//   2. a deny rule wins over the agent's request: answered with its reject option; an allow rule (or the
//      mode) answers with its allow-once option without asking;
//   3. otherwise the user is asked, offered only the answers the agent takes: allow once (if it offers
//      allow_once), allow always (= for this session, if it offers allow_always), reject;
//   4. an answer is never widened: "once" to an agent offering only allow_always is a reject, since the agent
//      would not ask again and our rules would not know;
//   5. a cancelled session or request answers `cancelled`, as ACP asks.
import type { Acp } from './sdk';
import type { ToolExecutor } from '../executor';
import type { ApprovalAnswer, ApprovalClient } from '../executor';
import type { PermissionPolicy } from '../executor';
import { isOwnOperation, type OurCall } from './grants';

export interface PermissionHost {
  readonly executor: ToolExecutor;
  readonly policy: PermissionPolicy;
  readonly approvals: ApprovalClient;
  workspaceFolders(): readonly string[];
}

export function ourCallOf(toolCall: Acp.ToolCallUpdate): OurCall | undefined {
  const raw = (toolCall.rawInput && typeof toolCall.rawInput === 'object' ? toolCall.rawInput : {}) as Record<string, unknown>;
  const path = toolCall.locations?.[0]?.path ?? stringField(raw, 'file_path', 'path', 'abs_path');
  switch (toolCall.kind) {
    case 'execute': {
      const command = stringField(raw, 'command', 'cmd');
      return command ? { name: 'Bash', input: { command }, kind: toolCall.kind } : undefined;
    }
    case 'edit':
    case 'delete':
    case 'move':
      return path ? { name: 'Write', input: { file_path: path, content: '' }, kind: toolCall.kind } : undefined;
    case 'read':
      return path ? { name: 'Read', input: { file_path: path }, kind: toolCall.kind } : undefined;
    default:
      return undefined;
  }
}

/** The answer, and the call the user allowed (so it is not asked again when the agent makes it). */
export interface PermissionAnswer {
  readonly response: Acp.RequestPermissionResponse;
  readonly granted?: OurCall;
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
  const reject = () => pick('reject_once', 'reject_always');
  if (signal.aborted) return CANCELLED;
  const toolCall = params.toolCall ?? { toolCallId: 'unknown' };
  const ours = ourCallOf(toolCall);
  const tool = ours ? host.executor.registry.get(ours.name)?.def : undefined;
  // 1–2. Our rules decide first.
  let reason = `The agent asks: ${toolCall.title ?? toolCall.kind ?? 'a tool call'}`;
  // The input as the call pipeline would hand it to the policy (src/executor/call/stages/admit/resolveInput.ts).
  const request = ours && tool ? { tool, input: tool.resolveInput ? tool.resolveInput(ours.input) : ours.input, callId: toolCall.toolCallId, workspaceFolders: host.workspaceFolders() } : undefined;
  if (request) {
    const decision = await host.policy.evaluate(request, signal);
    if (decision.behavior === 'deny') return reject();
    // An allow rule covers this call, not what the agent's "always" would cover: without allow_once, ask.
    if (decision.behavior === 'allow' && offers('allow_once')) return pick('allow_once');
    reason = decision.behavior === 'allow' ? `${reason} (${decision.reason}, but the agent offers only to allow it always)` : `${reason} (${decision.reason})`;
  }
  // 3–4. The user.
  let answer: ApprovalAnswer;
  try {
    answer = await host.approvals.requestApproval(
      {
        callId: toolCall.toolCallId,
        toolName: ours?.name ?? toolCall.title ?? 'Agent tool',
        input: ours?.input ?? toolCall.rawInput ?? {},
        reason,
        sessionAllowed: offers('allow_always'),
        onceAllowed: offers('allow_once'),
      },
      signal,
    );
  } catch {
    // 5. Aborted: the session was cancelled or the agent withdrew the request.
    return CANCELLED;
  }
  switch (answer.kind) {
    case 'allowOnce':
      // Never widened to allow_always: a client that offered "once" anyway gets the agent's reject.
      return offers('allow_once') ? { ...pick('allow_once'), granted: ours } : reject();
    case 'allowSession':
    case 'allowWorkspace':
      // As our own modal's "Allow for Session": our rules remember it too, so the agent's later calls of it run
      // unasked; a delete or a move is not remembered as the write it was checked as.
      if (request && isOwnOperation(ours!)) await host.policy.rememberSessionApproval?.(request, signal);
      return { ...pick('allow_always', 'allow_once'), granted: ours };
    case 'deny':
      return reject();
  }
}

const CANCELLED: PermissionAnswer = { response: { outcome: { outcome: 'cancelled' } } };

function stringField(raw: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof raw[name] === 'string' && raw[name] !== '') return raw[name] as string;
  return undefined;
}

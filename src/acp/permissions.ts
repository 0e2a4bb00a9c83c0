// session/request_permission → our rules first, then our approval (VS Code: the modal):
//   1. the agent's tool call as one of ours where it says what it does (a command → Bash, an edit → Write,
//      a read → Read), so the same rules match it (`Bash(rm:*)`, `Write(src/**)`, …);
//   2. a deny rule wins over the agent's request: answered with its reject option; an allow rule (or the
//      mode) answers with its allow option without asking;
//   3. otherwise the user is asked, with the agent's options as our answers: allow once, allow always
//      (= for this session), reject;
//   4. a cancelled session or request answers `cancelled`, as ACP asks.
import type { Acp } from './sdk';
import type { ToolExecutor } from '../executor/executor';
import type { ApprovalAnswer, ApprovalClient } from '../executor/ports/approvalClient';
import type { PermissionPolicy } from '../executor/ports/permissionPolicy';

export interface PermissionHost {
  readonly executor: ToolExecutor;
  readonly policy: PermissionPolicy;
  readonly approvals: ApprovalClient;
  workspaceFolders(): readonly string[];
}

/** The agent's tool call as a call of ours, when it says enough. */
export interface OurCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export function ourCallOf(toolCall: Acp.ToolCallUpdate): OurCall | undefined {
  const raw = (toolCall.rawInput && typeof toolCall.rawInput === 'object' ? toolCall.rawInput : {}) as Record<string, unknown>;
  const path = toolCall.locations?.[0]?.path ?? stringField(raw, 'file_path', 'path', 'abs_path');
  switch (toolCall.kind) {
    case 'execute': {
      const command = stringField(raw, 'command', 'cmd');
      return command ? { name: 'Bash', input: { command } } : undefined;
    }
    case 'edit':
    case 'delete':
    case 'move':
      return path ? { name: 'Write', input: { file_path: path, content: '' } } : undefined;
    case 'read':
      return path ? { name: 'Read', input: { file_path: path } } : undefined;
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
  const pick = (...kinds: Acp.PermissionOptionKind[]): PermissionAnswer => {
    for (const kind of kinds) {
      const option = options.find((candidate) => candidate.kind === kind);
      if (option) return { response: { outcome: { outcome: 'selected', optionId: option.optionId } } };
    }
    return CANCELLED;
  };
  if (signal.aborted) return CANCELLED;
  const toolCall = params.toolCall ?? { toolCallId: 'unknown' };
  const ours = ourCallOf(toolCall);
  const tool = ours ? host.executor.registry.get(ours.name)?.def : undefined;
  // 1–2. Our rules decide first.
  let reason = `The agent asks: ${toolCall.title ?? toolCall.kind ?? 'a tool call'}`;
  // The input as the call pipeline would hand it to the policy (src/executor/stages/resolveInput.ts).
  const request = ours && tool ? { tool, input: tool.resolveInput ? tool.resolveInput(ours.input) : ours.input, callId: toolCall.toolCallId, workspaceFolders: host.workspaceFolders() } : undefined;
  if (request) {
    const decision = await host.policy.evaluate(request, signal);
    if (decision.behavior === 'deny') return pick('reject_once', 'reject_always');
    if (decision.behavior === 'allow') return pick('allow_once', 'allow_always');
    reason = `${reason} (${decision.reason})`;
  }
  // 3. The user.
  let answer: ApprovalAnswer;
  try {
    answer = await host.approvals.requestApproval(
      {
        callId: toolCall.toolCallId,
        toolName: ours?.name ?? toolCall.title ?? 'Agent tool',
        input: ours?.input ?? toolCall.rawInput ?? {},
        reason,
        sessionAllowed: options.some((option) => option.kind === 'allow_always'),
      },
      signal,
    );
  } catch {
    // 4. Aborted: the session was cancelled or the agent withdrew the request.
    return CANCELLED;
  }
  switch (answer.kind) {
    case 'allowOnce':
      return { ...pick('allow_once', 'allow_always'), granted: ours };
    case 'allowSession':
    case 'allowWorkspace':
      // As our own modal's "Allow for Session": our rules remember it too, so the agent's later calls of it run unasked.
      if (request) await host.policy.rememberSessionApproval?.(request, signal);
      return { ...pick('allow_always', 'allow_once'), granted: ours };
    case 'deny':
      return pick('reject_once', 'reject_always');
  }
}

const CANCELLED: PermissionAnswer = { response: { outcome: { outcome: 'cancelled' } } };

function stringField(raw: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof raw[name] === 'string' && raw[name] !== '') return raw[name] as string;
  return undefined;
}

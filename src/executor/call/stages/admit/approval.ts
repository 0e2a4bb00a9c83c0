// Stage 6 (spec §3.6): on ask, the user's answer races the PermissionRequest hooks; the first answer wins.
import type { ApprovalPreview } from '../../../contract/contract';
import { decide, type CallState, type ExecutorDeps, type PermissionState, type StageFailure } from '../../callState';
import { escapeForDisplay } from '../../../format/displayEscape';
import { formatGoDuration } from '../../../format/duration';
import { projectErrorMessage } from '../../../contract/errors';
import { runHookChain } from '../../hookChain';
import type { ApprovalAnswer, ApprovalRequest } from '../../../ports/approvalClient';
import type { PermissionDecision } from '../../../ports/permissionPolicy';
import type { DecidedBy } from '../../../contract/result';
import { hookInput } from './hookInput';

export const NO_PERMISSION_CLIENT = 'No permission client configured';
const PERMISSION_REQUEST_DECISIONS: ReadonlySet<string> = new Set(['allow', 'deny']);

type Verdict =
  | { readonly by: DecidedBy; readonly answer: ApprovalAnswer; readonly detail?: string }
  | { readonly by: 'executor'; readonly cancelled: true };

/** Undefined at once when the permission stage did not ask: the runner awaits only an approval that is asked for. */
export function approval(state: CallState, deps: ExecutorDeps, own: Own): Promise<StageFailure | undefined> | undefined {
  const decision = state.permission.decision!;
  if (decision.behavior !== 'ask') return undefined;
  return ask(state, deps, own, decision);
}

/** What this stage writes. */
type Own = Pick<PermissionState, 'record' | 'waitMs' | 'hookContext'>;

async function ask(state: CallState, deps: ExecutorDeps, own: Own, decision: PermissionDecision): Promise<StageFailure | undefined> {
  const def = state.entry!.def;
  let preview: ApprovalPreview | undefined;
  if (def.prepareApproval) {
    try {
      const prepared = await def.prepareApproval(state.input, state.signal, {
        workspaceFolders: deps.workspaceFolders,
        judgePath: (raw) => state.judgePath(raw, deps.workspaceFolders),
      });
      if (prepared.decision === 'allow' && !decision.forced) {
        decide(own, 'none', 'tool');
        return undefined;
      }
      preview = prepared.preview;
    } catch (error) {
      state.signal.throwIfAborted();
      // A throw still asks, without the tool's preview; it never allows silently.
      deps.logger.warn('tool.approval.prepare_failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
    }
  }
  const policy = deps.permissionPolicy;
  const permissionRequest = { tool: def, input: state.input, callId: state.call.id, workspaceFolders: deps.workspaceFolders };
  const remembers = !decision.forced && policy.rememberWorkspaceApproval !== undefined;
  const suggestedRules = remembers && decision.suggestedRules?.length ? decision.suggestedRules : undefined;
  // The exact rule is kept only where its text reads back as exactly it; a suggested rule is shown as written.
  const exactPossible = remembers && (await workspaceRulePossible(state, deps, permissionRequest));
  const workspaceAllowed = exactPossible || suggestedRules !== undefined;
  const request: ApprovalRequest = {
    callId: state.call.id,
    toolName: state.toolName,
    input: state.input,
    // The reason quotes the command or path: shown escaped, like the preview.
    reason: escapeForDisplay(decision.reason),
    preview: escapePreview(preview ?? defaultPreview(state.input)),
    sessionAllowed: !decision.forced,
    workspaceAllowed,
    ...(suggestedRules ? { suggestedRules } : {}),
  };
  deps.emit({ type: 'permissionRequested', callId: request.callId, name: request.toolName, input: request.input, reason: request.reason, preview: request.preview });
  const waitStart = performance.now();
  const verdict = await race(state, deps, own, request);
  own.waitMs = Math.round(performance.now() - waitStart);
  if ('cancelled' in verdict) {
    decide(own, 'denied', 'executor', 'cancelled');
    deps.emit({ type: 'permissionResolved', callId: request.callId, outcome: 'denied', by: 'executor', waitMs: own.waitMs });
    state.signal.throwIfAborted();
    return undefined;
  }
  const approved = verdict.answer.kind !== 'deny';
  decide(own, approved ? 'approved' : 'denied', verdict.by, verdict.detail);
  state.span.setAttribute('permission.answer', verdict.answer.kind);
  deps.emit({ type: 'permissionResolved', callId: request.callId, outcome: own.record.outcome, by: verdict.by, waitMs: own.waitMs });
  const lasting = verdict.answer.kind === 'allowSession' || verdict.answer.kind === 'allowWorkspace';
  // A forced ask is never remembered, whatever a client answered; a workspace rule only where it was offered.
  if (lasting && !decision.forced) {
    try {
      // Only a rule the request offered may be kept: a grant covers nothing it did not show.
      const chosen = verdict.answer.kind === 'allowWorkspace' ? verdict.answer.rules?.filter((rule) => request.suggestedRules?.includes(rule)) : undefined;
      if (verdict.answer.kind === 'allowWorkspace' && deps.permissionPolicy.rememberWorkspaceApproval && (chosen?.length || exactPossible)) {
        await deps.permissionPolicy.rememberWorkspaceApproval(permissionRequest, state.signal, chosen?.length ? chosen : undefined);
      } else {
        await deps.permissionPolicy.rememberSessionApproval?.(permissionRequest, state.signal);
      }
    } catch (error) {
      // The call itself was approved; only the lasting rule is lost.
      deps.logger.warn('tool.approval.session_rule_failed', { tool: state.toolName, callId: state.call.id, answer: verdict.answer.kind, error: projectErrorMessage(error) });
    }
  }
  if (verdict.answer.kind === 'deny') {
    return { kind: 'permission', stage: 'permission', message: denialMessage(state.toolName, verdict), errorClass: 'PermissionDenied' };
  }
  return undefined;
}

/** Whether the policy can keep this call's rule in the workspace exactly; a failure to tell is a no. */
async function workspaceRulePossible(state: CallState, deps: ExecutorDeps, request: Parameters<NonNullable<ExecutorDeps['permissionPolicy']['workspaceApprovalPossible']>>[0]): Promise<boolean> {
  if (!deps.permissionPolicy.workspaceApprovalPossible) return true;
  try {
    return await deps.permissionPolicy.workspaceApprovalPossible(request, state.signal);
  } catch (error) {
    state.signal.throwIfAborted();
    deps.logger.warn('tool.approval.workspace_rule_failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
    return false;
  }
}

/** Runs the user's answer, the PermissionRequest hook chain and the optional approval timeout; the first answer wins. */
function race(state: CallState, deps: ExecutorDeps, own: Pick<PermissionState, 'hookContext'>, request: ApprovalRequest): Promise<Verdict> {
  const userAbort = new AbortController();
  const hookAbort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new Promise<Verdict>((resolve) => {
    let settled = false;
    const settle = (verdict: Verdict) => {
      if (settled) return;
      settled = true;
      state.signal.removeEventListener('abort', onTurnAbort);
      clearTimeout(timer);
      // The loser is cancelled cleanly: a dialog is closed, a hook process is killed.
      userAbort.abort(new Error('approval answered elsewhere'));
      hookAbort.abort(new Error('approval answered elsewhere'));
      resolve(verdict);
    };
    const onTurnAbort = () => settle({ by: 'executor', cancelled: true });
    if (state.signal.aborted) return onTurnAbort();
    state.signal.addEventListener('abort', onTurnAbort, { once: true });

    const client = deps.approvalClient;
    const hooks = runHookChain(
      deps.hooks,
      hookInput(state, deps, 'PermissionRequest'),
      { stopAtDecision: true, allowedDecisions: PERMISSION_REQUEST_DECISIONS, logger: deps.logger },
      hookAbort.signal,
    ).then((result) => {
      if (settled) return;
      own.hookContext = [...own.hookContext, ...result.additionalContext];
      const hookDecision = result.decision;
      if (hookDecision) {
        const answer: ApprovalAnswer = hookDecision.outcome.decision === 'allow' ? { kind: 'allowOnce' } : { kind: 'deny', reason: hookDecision.outcome.reason };
        settle({ by: 'hook', answer, detail: hookDecision.hook });
      } else if (!client) {
        settle({ by: 'executor', answer: { kind: 'deny', reason: NO_PERMISSION_CLIENT } });
      }
    }, () => {
      if (!client) settle({ by: 'executor', answer: { kind: 'deny', reason: NO_PERMISSION_CLIENT } });
    });
    void hooks;

    if (client) {
      Promise.resolve()
        .then(() => client.requestApproval(request, userAbort.signal))
        .then(
          (answer) => settle({ by: 'user', answer }),
          (error: unknown) => {
            if (settled) return;
            deps.logger.error('tool.approval.client_failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
            settle({ by: 'executor', answer: { kind: 'deny', reason: `the approval request failed: ${projectErrorMessage(error)}` } });
          },
        );
    }
    if (deps.approvalTimeoutMs !== undefined) {
      const ms = deps.approvalTimeoutMs;
      timer = setTimeout(() => settle({ by: 'executor', answer: { kind: 'deny', reason: `no answer within ${formatGoDuration(ms)}` } }), ms);
    }
  });
}

function denialMessage(toolName: string, verdict: Verdict & { answer: ApprovalAnswer }): string {
  const reason = verdict.answer.kind === 'deny' ? verdict.answer.reason?.trim() : undefined;
  switch (verdict.by) {
    case 'user':
      return `The user denied permission to use ${toolName}.${reason ? ` Reason: ${reason}` : ''} The call was not run.`;
    case 'hook':
      return `Permission to use ${toolName} was denied by PermissionRequest hook ${verdict.detail}${reason ? `: ${reason}` : '.'}`;
    default:
      return reason === NO_PERMISSION_CLIENT ? NO_PERMISSION_CLIENT : `Permission to use ${toolName} was denied: ${reason ?? 'no answer'}. The call was not run.`;
  }
}

/** Without a tool preview the user sees the input itself: a command as it is, anything else as JSON. */
function defaultPreview(input: unknown): ApprovalPreview {
  if (input !== null && typeof input === 'object' && typeof (input as { command?: unknown }).command === 'string') {
    return { detail: (input as { command: string }).command };
  }
  return { detail: JSON.stringify(input, null, 2) ?? String(input) };
}

function escapePreview(preview: ApprovalPreview): ApprovalPreview {
  return { ...preview, title: preview.title === undefined ? undefined : escapeForDisplay(preview.title), detail: escapeForDisplay(preview.detail) };
}

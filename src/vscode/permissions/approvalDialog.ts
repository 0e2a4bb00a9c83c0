// Adapter: the ApprovalClient port as VS Code's native modal dialog (spec §3.6).
import * as vscode from 'vscode';
import { escapeForDisplay } from '../../executor/format/displayEscape';
import { CancellationError } from '../../executor/contract/errors';
import type { ProposedChange } from '../../executor/contract/contract';
import type { ApprovalAnswer, ApprovalClient, ApprovalRequest } from '../../executor/ports/approvalClient';

/** The dialog's buttons; VS Code adds Cancel itself, which (like Escape) denies. */
export const ALLOW = 'Allow';
export const ALLOW_SESSION = 'Allow for Session';
/** Keeps the exact rule in the workspace's `.claude/settings.local.json`. */
export const ALLOW_WORKSPACE = 'Allow in this Workspace';
export const DENY = 'Deny';
/** For Write and Edit: opens the proposed change in a diff editor, then asks again. */
export const REVIEW_DIFF = 'Review Diff…';

/** A modal's detail is not scrollable; past this the input is cut (the full input is in the log). */
const MAX_DETAIL_CHARS = 1500;

/** Answers an approval request instead of the dialog; only the test seam installs one. */
export type ApprovalResponder = (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;

export class ModalApprovalClient implements ApprovalClient {
  private responder: ApprovalResponder | undefined;

  /** `reviewDiff` opens a proposed change (Write, Edit) in a diff editor; without it, no Review Diff button. */
  constructor(private readonly reviewDiff?: (change: ProposedChange) => Promise<void>) {}

  async requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    throwIfAborted(signal);
    const responder = this.responder;
    const answer = Promise.resolve(responder ? responder(request) : this.ask(request, signal));
    // A modal cannot be closed from code: when the race is lost the dialog stays, and its
    // late answer is ignored.
    return raceAbort(answer, signal);
  }

  /** The dialog; Review Diff opens the change and asks again, until the user answers or the call is over. */
  private async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const change = this.reviewDiff ? request.preview?.change : undefined;
    for (;;) {
      const choice = await vscode.window.showWarningMessage(approvalMessage(request), { modal: true, detail: approvalDetail(request) }, ...buttons(request, change !== undefined));
      if (choice !== REVIEW_DIFF || !change || signal.aborted) return toAnswer(choice, request);
      await this.reviewDiff!(change).catch(() => undefined);
    }
  }

  /** Test seam (extension tests only): answer requests without showing the dialog. */
  setResponder(responder: ApprovalResponder | undefined): void {
    this.responder = responder;
  }
}

/**
 * The question always names the tool, then the tool's own title for the call when it gives one:
 * `Allow Write src/a.ts?`, `Allow Bash: Run a shell command?`.
 */
export function approvalMessage(request: ApprovalRequest): string {
  const title = request.preview?.title;
  if (!title) return `Allow ${request.toolName} to run?`;
  return title.startsWith(request.toolName) ? `Allow ${title}?` : `Allow ${request.toolName}: ${title}?`;
}

export function approvalDetail(request: ApprovalRequest): string {
  const body = request.preview?.detail ?? escapeForDisplay(JSON.stringify(request.input, null, 2) ?? '');
  const text = `${request.reason}\n\n${body}`;
  return text.length <= MAX_DETAIL_CHARS ? text : `${text.slice(0, MAX_DETAIL_CHARS)}\n… (${text.length - MAX_DETAIL_CHARS} more characters)`;
}

/** The button that keeps the suggested prefix rules (`Bash(git push *)`) in the workspace, beside the exact rule's. */
export function prefixButton(request: ApprovalRequest): string | undefined {
  const rules = request.workspaceAllowed ? request.suggestedRules : undefined;
  return rules?.length ? `Allow ${rules.join(', ')} in this Workspace` : undefined;
}

function buttons(request: ApprovalRequest, reviewable: boolean): string[] {
  const prefix = prefixButton(request);
  return [...(request.onceAllowed === false ? [] : [ALLOW]), ...(request.sessionAllowed ? [ALLOW_SESSION] : []), ...(request.workspaceAllowed ? [ALLOW_WORKSPACE] : []), ...(prefix ? [prefix] : []), ...(reviewable ? [REVIEW_DIFF] : []), DENY];
}

function toAnswer(choice: string | undefined, request: ApprovalRequest): ApprovalAnswer {
  if (choice !== undefined && choice === prefixButton(request)) return { kind: 'allowWorkspace', rules: request.suggestedRules };
  switch (choice) {
    case ALLOW:
      return { kind: 'allowOnce' };
    case ALLOW_SESSION:
      return { kind: 'allowSession' };
    case ALLOW_WORKSPACE:
      return { kind: 'allowWorkspace' };
    case DENY:
      return { kind: 'deny', reason: 'The user denied this tool call.' };
    default:
      return { kind: 'deny', reason: 'The user dismissed the approval dialog, so the tool call was denied.' };
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) {
    throw signal.reason instanceof Error ? signal.reason : new CancellationError();
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new CancellationError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// Stage 9 (spec §3.9, §4): the handler, inside crash capture, under the pausable deadline, cancellable at once.
import type { OutputStreamOptions, ProgressReport, ToolContext, ToolOutput, ToolOutputStream } from '../../../contract/contract';
import type { CallState, ExecutorDeps, StageFailure } from '../../callState';
import { ToolDeadline } from '../../deadline';
import { formatGoDuration } from '../../../format/duration';
import { LiveCallEvents } from '../../../results/stream/liveEvents';
import { openOutputStream } from '../../../results/stream/openOutputStream';
import { CallAbort } from '../../callAbort';
import { NEVER_ABORTED } from '../../../contract/neverAborted';
import { CancellationError, errorClassOf, projectErrorMessage, quietCancellation, ToolTimeoutError } from '../../../contract/errors';
import type { JudgedPath } from '../../../policy/path/judgePath';

/** The result text of a cancelled call when the tool declares none. */
export const DEFAULT_CANCEL_MESSAGE = 'The user cancelled this tool call before it finished.';

type Settled = { readonly output: unknown } | { readonly error: unknown } | { readonly aborted: unknown };

export async function invokeHandler(state: CallState, deps: ExecutorDeps): Promise<StageFailure | undefined> {
  const def = state.entry!.def;
  const name = state.toolName;
  const controller = new CallAbort();
  const onTurnAbort = () => controller.abort(state.signal.reason ?? new CancellationError());
  const turnCancellable = state.signal !== NEVER_ABORTED;
  if (turnCancellable) state.signal.addEventListener('abort', onTurnAbort, { once: true });
  const graceMs = def.timeout?.kind === 'none' ? 0 : Math.max(0, def.timeout?.cleanupGraceMs ?? 0);
  const deadline = new ToolDeadline(state.timeoutMs, () => {
    const reportedMs = (state.timeoutMs ?? 0) - graceMs;
    controller.abort(new ToolTimeoutError(name, reportedMs, deadline.queuedMs, timeoutMessage(name, reportedMs)));
  });
  state.deadline = deadline;
  const ctx = makeContext(state, deps, controller, deadline);
  const aborted = new Promise<Settled>((resolve) => controller.onAbort((reason) => resolve({ aborted: reason })));
  try {
    if (state.signal.aborted) onTurnAbort();
    controller.throwIfAborted();
    deps.emit({ type: 'toolCallStarted', callId: state.call.id, name, input: state.input, flags: state.flags! });
    state.handlerStarted = true;
    state.handlerStartedAt = performance.now();
    deadline.start();
    // `.then(ok, fail)` never rejects: a handler that rejects after the call ended is no unhandled rejection.
    const settled = Promise.resolve()
      .then(() => def.handler(state.input, ctx))
      .then(
        (output): Settled => ({ output }),
        (error: unknown): Settled => ({ error }),
      );
    const outcome = await Promise.race([settled, aborted]);
    if (controller.aborted && !('aborted' in outcome)) {
      return abortFailure(state, controller.reason);
    }
    if ('aborted' in outcome) return abortFailure(state, outcome.aborted);
    // A handler that blocked the event loop past its deadline kept the timer from firing: it still timed out.
    if (overran(state, deadline)) {
      const reportedMs = (state.timeoutMs ?? 0) - graceMs;
      return abortFailure(state, new ToolTimeoutError(name, reportedMs, deadline.queuedMs, timeoutMessage(name, reportedMs)));
    }
    if ('error' in outcome) {
      return { kind: 'execution', stage: 'handler', message: `tool ${name} crashed: ${projectErrorMessage(outcome.error)}`, errorClass: errorClassOf(outcome.error) };
    }
    return acceptOutput(state, outcome.output);
  } catch (error) {
    if (controller.aborted || error instanceof CancellationError || error instanceof ToolTimeoutError) return abortFailure(state, controller.reason ?? error);
    // Not a cancel: reading the handler's result threw (a hostile getter). A bad result, not the user's doing.
    return { kind: 'execution', stage: 'handler', message: `tool ${name} returned a result that cannot be read: ${projectErrorMessage(error)}`, errorClass: 'InvalidResult' };
  } finally {
    if (state.handlerStarted) state.handlerEndedAt = performance.now();
    deadline.dispose();
    if (turnCancellable) state.signal.removeEventListener('abort', onTurnAbort);
    // Let a still-running handler know the call is over.
    controller.end(() => quietCancellation('tool call finished'));
  }
}

/** The timeout message of spec §4, duration in Go style. */
export function timeoutMessage(name: string, timeoutMs: number): string {
  return (
    `Tool '${name}' execution timed out after ${formatGoDuration(timeoutMs)}. The external service may be slow or unavailable. ` +
    'Consider: retry later, use alternative approach, or skip this step.'
  );
}

/** True when the handler ran longer than its deadline allows (time paused in the admission gate excluded). */
function overran(state: CallState, deadline: ToolDeadline): boolean {
  if (state.timeoutMs === undefined || state.handlerStartedAt === undefined) return false;
  return performance.now() - state.handlerStartedAt - deadline.queuedMs > state.timeoutMs;
}

function abortFailure(state: CallState, reason: unknown): StageFailure {
  if (reason instanceof ToolTimeoutError) {
    return { kind: 'timeout', stage: 'handler', message: reason.message, errorClass: 'ToolTimeoutError' };
  }
  const message = state.entry?.def.cancellation?.userVisibleMessage ?? DEFAULT_CANCEL_MESSAGE;
  return { kind: 'cancelled', stage: 'handler', message, errorClass: 'CancellationError' };
}

function acceptOutput(state: CallState, value: unknown): StageFailure | undefined {
  const name = state.toolName;
  if (value === null || typeof value !== 'object') {
    return { kind: 'execution', stage: 'handler', message: `tool ${name} returned no result`, errorClass: 'NoResult' };
  }
  const output = value as ToolOutput;
  const content: unknown = output.content;
  if (content !== undefined && content !== null && typeof content !== 'string') {
    return { kind: 'execution', stage: 'handler', message: `tool ${name} returned a result whose content is not text`, errorClass: 'InvalidResult' };
  }
  // Copied once, field by field: later stages never touch the handler's object (or its getters) again.
  state.output = {
    content: content ?? '',
    ...(output.isError === true ? { isError: true } : {}),
    ...(output.stopTurn === true ? { stopTurn: true } : {}),
    ...(output.timedOut === true ? { timedOut: true } : {}),
    ...(output.data !== undefined ? { data: output.data } : {}),
    ...(output.media !== undefined ? { media: output.media } : {}),
  };
  return undefined;
}

function makeContext(state: CallState, deps: ExecutorDeps, abort: CallAbort, deadline: ToolDeadline): ToolContext {
  return new CallContext(state, deps, abort, deadline);
}

/**
 * What a handler gets as `ctx`; its live events are made on the first report: most calls never
 * report, and none is allocated for them.
 */
class CallContext implements ToolContext {
  readonly callId: string;
  readonly toolName: string;
  readonly sessionId: string;
  readonly workDir: string;
  readonly workspaceFolders: readonly string[];
  readonly files: ToolContext['files'];
  readonly ignored: ToolContext['ignored'];
  readonly artifacts: ToolContext['artifacts'];
  readonly turn: ToolContext['turn'];

  constructor(
    private readonly state: CallState,
    private readonly deps: ExecutorDeps,
    private readonly abort: CallAbort,
    readonly deadline: ToolDeadline,
  ) {
    const turn = state.options.turn;
    this.callId = state.call.id;
    this.toolName = state.toolName;
    this.sessionId = deps.sessionId;
    this.workDir = deps.workspaceFolders[0] ?? process.cwd();
    this.workspaceFolders = deps.workspaceFolders;
    this.files = deps.files;
    this.ignored = deps.ignored;
    this.artifacts = deps.artifactStore;
    this.turn = { id: turn?.id ?? '', context: turn?.context };
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  // Arrow functions: a handler may take them off ctx (`const { progress } = ctx`).
  readonly throwIfAborted = (): void => {
    this.abort.throwIfAborted();
  };

  readonly onAbort = (listener: (reason: unknown) => void): (() => void) => this.abort.listen(listener);

  readonly judgePath = (raw: string): Promise<JudgedPath> => this.state.judgePath(raw, this.deps.workspaceFolders);

  readonly openOutputStream = (options?: OutputStreamOptions): ToolOutputStream => {
    liveEventsOf(this.state, this.deps);
    return openOutputStream(this.state, this.deps, options);
  };

  readonly progress = (report: ProgressReport | string): void => {
    const { message, percent } = typeof report === 'string' ? { message: report, percent: undefined } : report;
    liveEventsOf(this.state, this.deps).setProgress(this.deps.redactor.redact(String(message)), percent);
  };

  readonly admitModelRequest = async (own?: AbortSignal): Promise<() => void> => {
    this.deadline.pause();
    try {
      return await this.deps.admissionGate.acquire(own ? AbortSignal.any([own, this.abort.signal]) : this.abort.signal);
    } finally {
      this.deadline.resume();
    }
  };
}

/** Where reports go once the call's live events were disposed: nowhere. */
const ENDED_LIVE = new LiveCallEvents('', () => {});
ENDED_LIVE.dispose();

/** The call's live events, made on first use; after the runner disposed them, reports are dropped. */
function liveEventsOf(state: CallState, deps: ExecutorDeps): LiveCallEvents {
  if (state.liveEnded) return ENDED_LIVE;
  state.live ??= new LiveCallEvents(state.call.id, deps.emit);
  return state.live;
}

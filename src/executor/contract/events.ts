// Typed executor events (spec §10) and the small emitter that carries them.
import type { ApprovalPreview, SideEffectScope } from './contract';
import type { DecidedBy, PermissionOutcome, ToolCallResult } from './result';

/** Flags as the scheduler and permission layer saw them for this call. */
export interface CallFlags {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly concurrentSafe: boolean;
  readonly sideEffectScope: SideEffectScope;
  readonly alwaysAsk: boolean;
}

/** What the stages of a call emit; the turn adds its id (`TurnEvent`). */
export type CallEvent =
  /** A turn began (`label`: what the host calls it, e.g. the chat prompt). */
  | { readonly type: 'turnStarted'; readonly label?: string }
  /** Every call of the turn has its final result. */
  | { readonly type: 'turnEnded'; readonly calls: number; readonly errors: number }
  | {
      readonly type: 'batchGroupStarted';
      readonly group: number;
      /** For an early group (calls started while the model streamed): the calls known when it started. */
      readonly callIds: readonly string[];
      readonly parallel: boolean;
      readonly early?: boolean;
    }
  | { readonly type: 'batchGroupEnded'; readonly group: number; readonly callIds: readonly string[]; readonly errors: number }
  /** Emitted before the call waits for a concurrency slot, so the UI shows queued calls at once. */
  | { readonly type: 'toolCallQueued'; readonly callId: string; readonly name: string; readonly group?: number; readonly early?: boolean }
  /** Emitted after approval, right before the handler runs, with flags recomputed from the resolved input. */
  | { readonly type: 'toolCallStarted'; readonly callId: string; readonly name: string; readonly input: unknown; readonly flags: CallFlags }
  | {
      readonly type: 'permissionRequested';
      readonly callId: string;
      readonly name: string;
      readonly input: unknown;
      readonly reason: string;
      readonly preview?: ApprovalPreview;
    }
  | {
      readonly type: 'permissionResolved';
      readonly callId: string;
      readonly outcome: PermissionOutcome;
      readonly by: DecidedBy;
      readonly waitMs: number;
    }
  /** The latest progress report of a running call (redacted; at most one per `LIVE_EVENT_INTERVAL_MS`). */
  | { readonly type: 'toolCallProgress'; readonly callId: string; readonly message: string; readonly percent?: number }
  /**
   * Live output of a running call, redacted, coalesced to at most one event per `LIVE_EVENT_INTERVAL_MS`
   * and `LIVE_OUTPUT_MAX_CHARS`; `skippedChars` counts older output dropped to stay within that.
   */
  | { readonly type: 'toolCallOutput'; readonly callId: string; readonly text: string; readonly skippedChars: number }
  | { readonly type: 'toolCallResult'; readonly result: ToolCallResult }
  | { readonly type: 'toolCallFailed'; readonly result: ToolCallResult };

/** A call event as listeners see it: tagged with the turn it belongs to. */
export type TurnEvent = CallEvent & { readonly turnId: string };

/** Background tasks outlive the turn that started them. */
export type BackgroundTaskEvent =
  | { readonly type: 'backgroundTaskStarted'; readonly taskId: string; readonly name: string; readonly description?: string }
  | { readonly type: 'backgroundTaskEnded'; readonly taskId: string; readonly status: 'completed' | 'failed' | 'stopped' };

export type ExecutorEvent = TurnEvent | BackgroundTaskEvent;

export type ExecutorEventListener = (event: ExecutorEvent) => void;

/** A listener list; a throwing listener is reported to `onListenerError` and never breaks the executor. */
export class EventEmitter<E> {
  private readonly listeners = new Set<(event: E) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  /** Subscribes; call the returned function to unsubscribe. */
  on(listener: (event: E) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  emit(event: E): void {
    // The listeners as they are now (one added by a listener hears the next event); without a copy
    // when there are none or one, the common cases (not a copy per event per call).
    const count = this.listeners.size;
    if (count === 0) return;
    if (count === 1) {
      this.deliver(this.listeners.values().next().value!, event);
      return;
    }
    for (const listener of [...this.listeners]) this.deliver(listener, event);
  }

  private deliver(listener: (event: E) => void, event: E): void {
    try {
      listener(event);
    } catch (error) {
      this.onListenerError(error);
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.listeners.clear();
  }
}

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

export type ExecutorEvent =
  | { readonly type: 'batchGroupStarted'; readonly group: number; readonly callIds: readonly string[]; readonly parallel: boolean }
  | { readonly type: 'batchGroupEnded'; readonly group: number; readonly callIds: readonly string[]; readonly errors: number }
  /** Emitted before the call waits for a concurrency slot, so the UI shows queued calls at once. */
  | { readonly type: 'toolCallQueued'; readonly callId: string; readonly name: string; readonly group?: number }
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
  | { readonly type: 'toolCallProgress'; readonly callId: string; readonly message: string; readonly percent?: number }
  | { readonly type: 'toolCallResult'; readonly result: ToolCallResult }
  | { readonly type: 'toolCallFailed'; readonly result: ToolCallResult }
  | { readonly type: 'backgroundTaskStarted'; readonly taskId: string; readonly name: string; readonly description?: string }
  | { readonly type: 'backgroundTaskEnded'; readonly taskId: string; readonly status: 'completed' | 'failed' | 'stopped' };

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
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.listeners.clear();
  }
}

// Background tasks the turn did not start itself (resumed runs, `run_in_background` commands): tracked,
// listable, stoppable, and stopped when the executor is disposed. A task's output can be followed as it comes,
// redacted here as one stream (a secret split across two chunks is still caught).
import { projectErrorMessage } from '../contract/errors';
import type { Redactor } from '../ports/redactor';
import { noRedaction } from '../ports/redactor';
import { redactionStreamOf } from '../results/redaction/lineStream';

export type BackgroundTaskStatus = 'running' | 'completed' | 'failed' | 'stopped';

export interface ExternalBackgroundTask {
  readonly id?: string;
  readonly name: string;
  readonly description?: string;
  /** Settles when the task ends. */
  readonly done: Promise<unknown>;
  /** Asks the task to stop. */
  stop?(): void | Promise<void>;
  /** The output so far, for a tool that reads it. */
  readOutput?(): string;
  /** Gives `follower` the output kept so far, then each new piece, then the end; returns what stops it. */
  follow?(follower: OutputFollower): () => void;
}

/** How a task ended: its exit code, or the signal that killed it. */
export interface TaskExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** Who follows a task's output (an ACP terminal). */
export interface OutputFollower {
  /** The next piece of output, in order. */
  text(text: string): void;
  /** Output older than the first piece was dropped before following began: what follows is not the whole. */
  dropped(): void;
  /** The task ended and every piece of its output was given. */
  ended(exit: TaskExit): void;
}

/** A task's output being followed. */
export interface FollowedOutput {
  /** The output the redaction still holds back (a secret may go on in the next piece), redacted as it stands. */
  pending(): string;
  stop(): void;
}

export interface TrackedTask {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly startedAt: number;
  readonly status: BackgroundTaskStatus;
  readonly error?: string;
  readOutput(): string;
}

export class BackgroundTasks {
  private readonly tasks = new Map<string, { task: ExternalBackgroundTask; tracked: TrackedTask & { status: BackgroundTaskStatus; error?: string } }>();
  private nextId = 1;

  constructor(
    private readonly onChange: (task: TrackedTask) => void = () => {},
    private readonly redactor: Redactor = noRedaction,
  ) {}

  track(task: ExternalBackgroundTask): TrackedTask {
    const id = task.id ?? `task-${this.nextId++}`;
    if (this.tasks.has(id)) throw new Error(`background task ${id} is already tracked`);
    const tracked = {
      id,
      name: task.name,
      description: task.description,
      startedAt: Date.now(),
      status: 'running' as BackgroundTaskStatus,
      error: undefined as string | undefined,
      readOutput: () => task.readOutput?.() ?? '',
    };
    this.tasks.set(id, { task, tracked });
    this.onChange(tracked);
    task.done.then(
      () => this.settle(id, 'completed'),
      (error: unknown) => this.settle(id, 'failed', projectErrorMessage(error)),
    );
    return tracked;
  }

  get(id: string): TrackedTask | undefined {
    return this.tasks.get(id)?.tracked;
  }

  /** Follows task `id`'s output, redacted; undefined when there is no such task or its output cannot be followed. */
  follow(id: string, follower: OutputFollower): FollowedOutput | undefined {
    const task = this.tasks.get(id)?.task;
    if (!task?.follow) return undefined;
    const stream = redactionStreamOf(this.redactor);
    let stopped = false;
    const emit = (text: string) => {
      if (!stopped && text !== '') follower.text(text);
    };
    const stop = task.follow({
      text: (text) => (stream.pushEach ? stream.pushEach(text, emit) : emit(stream.push(text))),
      dropped: () => follower.dropped(),
      ended: (exit) => {
        emit(stream.end());
        if (!stopped) follower.ended(exit);
      },
    });
    return {
      pending: () => stream.peek?.() ?? '',
      stop: () => {
        stopped = true;
        stop();
      },
    };
  }

  list(): TrackedTask[] {
    return [...this.tasks.values()].map((entry) => entry.tracked);
  }

  /** Stops a running task; false when there is no such running task. */
  async stop(id: string): Promise<boolean> {
    const entry = this.tasks.get(id);
    if (!entry || entry.tracked.status !== 'running') return false;
    entry.tracked.status = 'stopped';
    await entry.task.stop?.();
    this.onChange(entry.tracked);
    return true;
  }

  async dispose(): Promise<void> {
    await Promise.allSettled(this.list().filter((task) => task.status === 'running').map((task) => this.stop(task.id)));
  }

  private settle(id: string, status: 'completed' | 'failed', error?: string): void {
    const entry = this.tasks.get(id);
    if (!entry || entry.tracked.status !== 'running') return;
    entry.tracked.status = status;
    entry.tracked.error = error;
    this.onChange(entry.tracked);
  }
}

// Background tasks the turn did not start itself (resumed runs, `run_in_background` commands): tracked,
// listable, stoppable, and stopped when the executor is disposed.
import { projectErrorMessage } from './errors';

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

  constructor(private readonly onChange: (task: TrackedTask) => void = () => {}) {}

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

// One owner for what a class must dispose: listeners, watchers, child objects, ended together and once.
// No `vscode` import: the glue, the bridge and the tools share it (scripts/build.mjs `SHARED`).

/** Anything that can be disposed: a VS Code `Disposable`, a store, a `{ dispose }` literal. */
export interface Disposable {
  dispose(): void;
}

/** A disposable that calls `dispose` once, however often it is disposed. */
export function toDisposable(dispose: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

/**
 * Disposables owned together: `dispose()` disposes each once, in the order they were added, and the store
 * stays disposed; one added after that is disposed at once, since nothing would ever dispose it. A dispose
 * that throws does not stop the others: once all ran, its error is thrown (several: an `AggregateError`).
 */
export class DisposableStore implements Disposable {
  private readonly owned = new Set<Disposable>();
  private disposed = false;

  /** Whether `dispose()` was called. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Owns `disposable` until the store is disposed (at once if it is already); returns it. */
  add<T extends Disposable>(disposable: T): T {
    if (this.disposed) {
      disposable.dispose();
      return disposable;
    }
    this.owned.add(disposable);
    return disposable;
  }

  /** `add` for each of `disposables`, in order. */
  addAll(...disposables: Disposable[]): void {
    for (const disposable of disposables) this.add(disposable);
  }

  /** Disposes everything added so far and keeps the store open for more (a reset, not an end). */
  clear(): void {
    const owned = [...this.owned];
    this.owned.clear();
    disposeAll(owned);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/** Disposes each of `disposables`, in order; then throws what any threw (several: an `AggregateError`). */
export function disposeAll(disposables: Iterable<Disposable>): void {
  const errors: unknown[] = [];
  for (const disposable of disposables) {
    try {
      disposable.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed to dispose`);
}

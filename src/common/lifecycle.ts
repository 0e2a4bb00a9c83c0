// One owner for what a class must dispose: listeners, watchers, child objects, ended together and once.
// No `vscode` import, no class and no module state: the glue and the core's bundle each hold a copy
// (scripts/build.mjs `SHARED`), and the bridge and tools may use it too.

/** Anything that can be disposed: a VS Code `Disposable`, a store, a `{ dispose }` literal. */
export interface Disposable {
  dispose(): void;
}

/**
 * Disposables owned together: `dispose()` disposes each once, in the order they were added, and the store
 * stays disposed; one added after that is disposed at once, since nothing would ever dispose it. A dispose
 * that throws does not stop the others: once all ran, its error is thrown (several: an `AggregateError`).
 */
export interface DisposableStore extends Disposable {
  /** Whether `dispose()` was called. */
  readonly isDisposed: boolean;
  /** Owns `disposable` until the store is disposed (at once if it is already); returns it. */
  add<T extends Disposable>(disposable: T): T;
  /** `add` for each of `disposables`, in order. */
  addAll(...disposables: Disposable[]): void;
  /** Disposes everything added so far and keeps the store open for more (a reset, not an end). */
  clear(): void;
}

/** A new, empty `DisposableStore`. */
export function disposableStore(): DisposableStore {
  const owned = new Set<Disposable>();
  let disposed = false;
  const store: DisposableStore = {
    get isDisposed() {
      return disposed;
    },
    add(disposable) {
      if (disposed) disposable.dispose();
      else owned.add(disposable);
      return disposable;
    },
    addAll(...disposables) {
      for (const disposable of disposables) store.add(disposable);
    },
    clear() {
      const all = [...owned];
      owned.clear();
      disposeAll(all);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      store.clear();
    },
  };
  return store;
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

// An object made on first use (the extension's core is loaded and started on first use, not at
// activation). What activation builds holds the stand-in; the first property read makes the real object,
// and every read after that goes to it: methods come bound to it, so `this` is the real object (its
// private fields work), and a write goes to it too.

/** A stand-in for `make()`'s object, which is made on the first read or write of a property. */
export function lazily<T extends object>(make: () => T): T {
  let made: T | undefined;
  const real = (): T => (made ??= make());
  return new Proxy({} as T, {
    get(_target, key) {
      const target = real();
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
  });
}

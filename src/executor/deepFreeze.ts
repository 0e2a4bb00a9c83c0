// Freezing a value and everything it holds, for what is shared and must not change once made.

/** Freezes `value` and every object it reaches; already-frozen parts are left as they are. Returns `value`. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}

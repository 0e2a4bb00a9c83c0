// The signal of calls and turns given none: it never aborts (its controller is dropped), so a stage
// need not listen to it (no abort listener added and removed on every call).
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

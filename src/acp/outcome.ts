// What a request answers: a value, or an expected failure turned into a JSON-RPC error at the connection's edge.

/** JSON-RPC error codes used in answers (the JSON-RPC 2.0 ranges, and ACP's "resource not found"). */
export const AcpErrorCodes = {
  invalidParams: -32602,
  internalError: -32603,
  /** ACP: the file, terminal or session is not there. */
  resourceNotFound: -32002,
  /** Server-defined range: our rules or the user said no. */
  permissionDenied: -32000,
  /** The request or its session was cancelled. */
  cancelled: -32800,
} as const;

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: number; readonly message: string };

export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const fail = (code: number, message: string): Outcome<never> => ({ ok: false, code, message });

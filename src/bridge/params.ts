// Checking what an agent sends before it reaches the executor: bad params are answered with
// InvalidParams and a sentence naming the field, never thrown into the executor.
import { z } from 'zod';
import type { BeginTurnParams, ExecuteBatchParams, InitializeParams, OfferParams, TurnParams, UndoTurnParams } from './protocol';

/** Longest turn id or call id accepted; ids are echoed in events and logs. Ours. */
export const MAX_ID_CHARS = 256;
/**
 * Most calls one turn takes: the executor holds every call and result until the turn's one answer, which
 * must stay inside the 32 MiB frame an agent reads (about 270 bytes a result). Ours: a model's turn makes tens.
 */
export const MAX_TURN_CALLS = 10_000;

/** Why a turn takes no more calls. */
export function tooManyCalls(count: number | string): string {
  return `a turn takes at most ${MAX_TURN_CALLS} calls (got ${count}): split them into several turns`;
}

const id = z.string().min(1).max(MAX_ID_CHARS);
const call = z.object({ id, name: z.string().min(1), input: z.unknown() });
const turn = z.object({ turnId: id });
const begin = turn.extend({ offeredTools: z.array(z.string()).optional(), label: z.string().optional() });

const schemas = {
  initialize: z.object({ protocolVersion: z.number().int(), clientInfo: z.object({ name: z.string(), version: z.string().optional() }).optional() }),
  beginTurn: begin,
  offer: turn.extend({ call }),
  turn,
  // The count is checked first (service.ts): a huge array is refused before any call in it is parsed.
  executeBatch: begin.extend({ calls: z.array(call) }),
  undoTurn: z.object({ undoId: id, force: z.boolean().optional() }),
};

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

function check<T>(schema: z.ZodType, params: unknown): Checked<T> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return { ok: true, value: parsed.data as T };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? issue.path.join('.') : 'params';
  return { ok: false, error: `${where}: ${issue.message}` };
}

export const checkParams = {
  initialize: (params: unknown) => check<InitializeParams>(schemas.initialize, params),
  beginTurn: (params: unknown) => check<BeginTurnParams>(schemas.beginTurn, params),
  offer: (params: unknown) => check<OfferParams>(schemas.offer, params),
  turn: (params: unknown) => check<TurnParams>(schemas.turn, params),
  executeBatch: (params: unknown) => check<ExecuteBatchParams>(schemas.executeBatch, params),
  undoTurn: (params: unknown) => check<UndoTurnParams>(schemas.undoTurn, params),
};

// A conversation (earlier turns and the current one, each a prompt and rounds of calls and results)
// as the units the context budget chooses from, each with its stubbed form: every long tool result
// replaced by one line naming the call and where its whole text can be read again.
import { ARTIFACT_SCHEME } from '../../../executor/results/artifactLayout';
import type { ChatRound, ChatRoundCall, ChatRoundResult, ConversationTurn } from '../chatMetadata';
import { callTarget } from '../replyText';
import type { PromptUnit } from './contextBudget';
import { fingerprint, type PromptMessage, type PromptPart } from './promptMessages';

/** A result shorter than this stays whole in a stub unit: the stub would save next to nothing. Ours. */
export const STUB_MIN_CHARS = 400;
/** A call argument longer than this (a Write's content) is shortened in an older round's call. Ours. */
export const STUB_INPUT_MAX_CHARS = 400;
/** Stands for a URI not yet known while planning; longer than the artifact store's URIs. */
export const PENDING_URI = `${ARTIFACT_SCHEME}://${'…'.repeat(90)}`;

/** Where a result's whole text can be read again: a URI, `null` when saving it failed, undefined when not saved yet. */
export type SavedUri = (callId: string) => string | null | undefined;

/**
 * The units of a conversation in order. The current prompt and the latest round are pinned: the
 * latest round is the current turn's last one, or the prompt itself before the first round.
 */
export function unitsOf(earlier: readonly ConversationTurn[], current: ConversationTurn, savedUri: SavedUri): PromptUnit[] {
  const units: PromptUnit[] = [];
  for (const turn of earlier) {
    units.push({ messages: [turn.prompt] });
    for (const round of turn.rounds) units.push(roundUnit(round, savedUri, false));
  }
  units.push({ messages: [current.prompt], pinned: true });
  current.rounds.forEach((round, index) => units.push(roundUnit(round, savedUri, index === current.rounds.length - 1)));
  return units;
}

/** The calls and results of the stubbed units of a plan that have no saved copy yet. */
export function unsavedStubbedResults(units: readonly PromptUnit[], stubbed: readonly number[], savedUri: SavedUri): Array<{ callId: string; text: string }> {
  const out: Array<{ callId: string; text: string }> = [];
  for (const index of stubbed) {
    for (const message of units[index]!.messages) {
      for (const part of message.parts) {
        if (part.kind === 'result' && part.text.length >= STUB_MIN_CHARS && savedUri(part.callId) === undefined) out.push({ callId: part.callId, text: part.text });
      }
    }
  }
  return out;
}

/** One round as messages: the model's text and calls, then the results it got. */
export function roundMessages(round: ChatRound): PromptMessage[] {
  const ids = round.calls.map((call) => call.id).join(',');
  const parts: PromptPart[] = [];
  if (round.text) parts.push({ kind: 'text', text: round.text });
  for (const call of round.calls) parts.push({ kind: 'call', id: call.id, name: call.name, input: call.input });
  const messages: PromptMessage[] = [];
  if (parts.length > 0) messages.push({ role: 'assistant', parts, key: `a:${ids}:${fingerprint(round.text)}` });
  if (round.results.length > 0) {
    messages.push({ role: 'user', parts: round.results.map((result) => ({ kind: 'result', callId: result.callId, text: result.content })), key: `r:${round.results.map((result) => result.callId).join(',')}` });
  }
  return messages;
}

/** Units made before, by round: a long conversation rebuilds only what changed (a new round, a newly saved result). */
const unitCache = new WeakMap<ChatRound, { readonly uris: string; readonly pinned: boolean; readonly unit: PromptUnit }>();

function roundUnit(round: ChatRound, savedUri: SavedUri, pinned: boolean): PromptUnit {
  let uris = '';
  for (const result of round.results) uris += `${result.artifactUri ?? savedUri(result.callId)} `;
  const known = unitCache.get(round);
  if (known && known.uris === uris && known.pinned === pinned) return known.unit;
  const unit = makeRoundUnit(round, savedUri, pinned);
  unitCache.set(round, { uris, pinned, unit });
  return unit;
}

function makeRoundUnit(round: ChatRound, savedUri: SavedUri, pinned: boolean): PromptUnit {
  const messages = roundMessages(round);
  if (pinned) return { messages, pinned };
  const longResults = round.results.some((result) => result.content.length >= STUB_MIN_CHARS);
  const longInputs = round.calls.some((call) => shortenedInput(call.input) !== call.input);
  if (!longResults && !longInputs) return { messages };
  const ids = round.calls.map((call) => call.id).join(',');
  const stubbed: PromptMessage[] = [];
  const parts: PromptPart[] = [];
  if (round.text) parts.push({ kind: 'text', text: round.text });
  for (const call of round.calls) parts.push({ kind: 'call', id: call.id, name: call.name, input: shortenedInput(call.input) });
  if (parts.length > 0) stubbed.push({ role: 'assistant', parts, key: longInputs ? `as:${ids}:${fingerprint(round.text)}` : messages[0]!.key });
  if (round.results.length > 0) {
    const uris: string[] = [];
    const resultParts: PromptPart[] = round.results.map((result) => {
      if (result.content.length < STUB_MIN_CHARS) return { kind: 'result', callId: result.callId, text: result.content };
      const uri = result.artifactUri ?? savedUri(result.callId);
      uris.push(String(uri));
      return { kind: 'result', callId: result.callId, text: stubLine(round.calls.find((call) => call.id === result.callId), result, uri) };
    });
    stubbed.push({ role: 'user', parts: resultParts, key: `s:${round.results.map((result) => result.callId).join(',')}:${fingerprint(uris.join(' '))}` });
  }
  return { messages, stubbed };
}

/** The one line that stands for a result left out of the request. */
export function stubLine(call: ChatRoundCall | undefined, result: ChatRoundResult, uri: string | null | undefined): string {
  const target = call ? callTarget(call.input) : '';
  const what = call ? `${call.name}${target ? ` ${target}` : ''}` : `call ${result.callId}`;
  const size = `${thousands(result.content.length)} chars${result.isError ? ', an error' : ''}`;
  const where = uri === null ? 'it could not be saved; make the call again if you need it' : `read it again with Read on ${uri ?? PENDING_URI}`;
  return `[The result of ${what} (${size}) was left out to fit the context window; ${where}.]`;
}

/** String arguments longer than the limit shortened, with what was left out; the same object when none is. */
function shortenedInput(input: object): object {
  const entries = Object.entries(input);
  if (!entries.some(([, value]) => typeof value === 'string' && value.length > STUB_INPUT_MAX_CHARS)) return input;
  return Object.fromEntries(
    entries.map(([key, value]) => (typeof value === 'string' && value.length > STUB_INPUT_MAX_CHARS ? [key, `${value.slice(0, STUB_INPUT_MAX_CHARS)}… [${value.length - STUB_INPUT_MAX_CHARS} more chars left out to fit the context window]`] : [key, value])),
  );
}

/** `12,345`: what `toLocaleString('en-US')` gives, without its cost per stub. */
function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

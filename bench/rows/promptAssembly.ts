// Prompt assembly of `@executor` for a 200-round conversation: each request after the first, with
// the provider's counting left out (its counts come from the cache the first request filled, and
// the few new messages' counting is timed apart and subtracted).
import type { ChatRound } from '../../src/vscode/chat/chatMetadata';
import { assemble } from '../../src/vscode/chat/prompt/assemble';
import type { ConversationTurn } from '../../src/vscode/chat/chatMetadata';
import { instructionsMessage } from '../../src/vscode/chat/prompt/instructions';
import { messageText, userText, type PromptMessage } from '../../src/vscode/chat/prompt/promptMessages';
import { budgetOf } from '../../src/vscode/chat/prompt/window';
import { fmt, REPEATS, stat, type Row } from '../lib';

/** Rounds in the conversation before the measured requests: the 200. */
const ROUNDS = 200;
/** Rounds per earlier prompt, as a working session goes. */
const ROUNDS_PER_PROMPT = 10;
/** Requests measured after the first, each adding one round. */
const MEASURED = 50;
/** A window of today's larger models. */
const WINDOW = 128_000;
const LINE = 'export function next(state: State): State { return { ...state, step: state.step + 1 }; }\n';

let ids = 0;
function round(chars: number): ChatRound {
  const id = `call-${++ids}`;
  return { text: 'Reading the next file.', calls: [{ id, name: 'Read', input: { path: `src/module${ids}.ts` } }], results: [{ callId: id, content: LINE.repeat(Math.ceil(chars / LINE.length)), isError: false }] };
}

/** Sizes from 200 bytes to 24 KB, in a fixed pattern: reads of small and large files. */
const size = (index: number) => 200 + ((index * 7919) % 24_000);

export async function promptAssemblyRow(): Promise<Row> {
  const perRequest: number[] = [];
  const baseline: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const earlier: ConversationTurn[] = [];
    for (let index = 0; index < ROUNDS; index++) {
      if (index % ROUNDS_PER_PROMPT === 0) earlier.push({ prompt: userText(`prompt ${index}: go on with the refactoring`, `p${index}`), rounds: [] });
      (earlier.at(-1)!.rounds as ChatRound[]).push(round(size(index)));
    }
    const instructions = instructionsMessage({
      environment: { workspaceFolders: ['/work/project'], os: 'linux', shell: '/bin/bash', date: '2026-12-05', permissionMode: 'default', sandbox: true, gitBranches: [{ folder: '/work/project', branch: 'main' }] },
      files: [{ absolutePath: '/work/project/AGENTS.md', label: 'AGENTS.md', text: 'Run npm test before you say you are done.\n'.repeat(40), truncated: false }],
      userInstructions: '',
    });
    // The provider's counter behind the cache; its time is measured apart.
    const counts = new Map<string, number>();
    let providerMs = 0;
    const count = (message: PromptMessage) => {
      const known = counts.get(message.key);
      if (known !== undefined) return known;
      const started = performance.now();
      const counted = Math.ceil(messageText(message).length / 4) + 4;
      providerMs += performance.now() - started;
      counts.set(message.key, counted);
      return counted;
    };
    const saved = new Map<string, string | null>();
    const save = async (callId: string) => `executor-artifact://bench/${callId}`;
    const prompt = userText('Now finish the refactoring.', 'p-now');
    const rounds: ChatRound[] = [];
    const times: number[] = [];
    const bare: number[] = [];
    for (let request = 0; request <= MEASURED; request++) {
      if (request > 0) rounds.push(round(size(ROUNDS + request)));
      providerMs = 0;
      const started = performance.now();
      const out = await assemble({ instructions, earlier, current: { prompt, rounds }, toolTokens: 2_300, budget: budgetOf(WINDOW), count, saved, save });
      const took = performance.now() - started - providerMs;
      if (!out.ok) throw new Error('the bench conversation did not fit');
      // The baseline: the whole conversation as one list, as the loop sent it before the budget.
      const bareStarted = performance.now();
      const all: PromptMessage[] = [instructions];
      for (const turn of [...earlier, { prompt, rounds }]) {
        all.push(turn.prompt);
        for (const item of turn.rounds) all.push({ role: 'assistant', parts: item.calls.map((call) => ({ kind: 'call', ...call })), key: '' }, { role: 'user', parts: item.results.map((result) => ({ kind: 'result', callId: result.callId, text: result.content })), key: '' });
      }
      const bareTook = performance.now() - bareStarted;
      if (request > 0) {
        times.push(took);
        bare.push(bareTook);
      }
    }
    perRequest.push(stat(times).median);
    baseline.push(stat(bare).median);
  }
  const now = stat(perRequest);
  return {
    measure: `\`@executor\` prompt assembly, ${ROUNDS}-round conversation, per request after the first (provider's counting excluded)`,
    baseline: `the same messages as one list, no budget: ${fmt(stat(baseline), 3, ' ms')}`,
    now: `${fmt(now, 3, ' ms')} per request (${MEASURED} requests, each one round more; ${WINDOW.toLocaleString('en-US')}-token window, results 0.2–24 KB)`,
    goal: '≤ 5 ms',
    met: now.median <= 5,
  };
}

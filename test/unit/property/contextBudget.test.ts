// The context budget as a property: for random conversations (tool results from 0 to 200 KB) and
// windows from 4,000 to 200,000 tokens, every request the loop would send fits the window by the
// same counter, and the latest round is in it whole (after its intake cut).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ChatRound } from '../../../src/vscode/chat/chatMetadata';
import { assemble } from '../../../src/vscode/chat/prompt/assemble';
import type { ConversationTurn } from '../../../src/vscode/chat/chatMetadata';
import { roundMessages } from '../../../src/vscode/chat/prompt/conversationUnits';
import { instructionsMessage } from '../../../src/vscode/chat/prompt/instructions';
import { messageText, userText, type PromptMessage } from '../../../src/vscode/chat/prompt/promptMessages';
import { cutToShare } from '../../../src/vscode/chat/prompt/resultCut';
import { budgetOf, resultShare } from '../../../src/vscode/chat/prompt/window';
import { countLikeProvider } from '../vscode/chat/promptFixtures';

/** The biggest tool result generated: the 200 KB. */
const MAX_RESULT_CHARS = 200 * 1024;

const LINE = 'const value = compute(input); // a line of code\n';
const texts = new Map<number, string>();
/** A result of about `chars` characters, made of lines (cached: the same sizes come back often). */
function resultText(chars: number): string {
  let text = texts.get(chars);
  if (text === undefined) texts.set(chars, (text = LINE.repeat(Math.ceil(chars / LINE.length)).slice(0, chars)));
  return text;
}

let ids = 0;
const roundArb = fc.record({
  text: fc.constantFrom('', 'Let me look.', 'Reading the next file now, then I will edit it.'),
  results: fc.array(fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: MAX_RESULT_CHARS })), { minLength: 0, maxLength: 3 }),
});
const conversationArb = fc.record({
  window: fc.integer({ min: 4_000, max: 200_000 }),
  earlier: fc.array(fc.record({ prompt: fc.string({ maxLength: 300 }), rounds: fc.array(roundArb, { maxLength: 6 }) }), { maxLength: 5 }),
  current: fc.array(roundArb, { minLength: 1, maxLength: 8 }),
});

function roundOf(spec: { text: string; results: number[] }): ChatRound {
  const calls = spec.results.map(() => ({ id: `call-${++ids}`, name: 'Read', input: { path: `src/file${ids}.ts` } }));
  return { text: spec.text, calls, results: spec.results.map((chars, index) => ({ callId: calls[index]!.id, content: resultText(chars), isError: false })) };
}

const count = (message: PromptMessage) => countLikeProvider(message);
const instructions = instructionsMessage({
  environment: { workspaceFolders: ['/work/project'], os: 'linux 6.1', shell: '/bin/bash', date: '2026-12-05', permissionMode: 'default', sandbox: false, gitBranches: [{ folder: '/work/project', branch: 'main' }] },
  files: [{ absolutePath: '/work/project/AGENTS.md', label: 'AGENTS.md', text: 'Run npm test before you say you are done.\n'.repeat(10), truncated: false }],
  userInstructions: '',
});

describe('the context budget (property)', () => {
  it('never sends more than the window, and the latest round goes whole', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb, async ({ window, earlier, current }) => {
        const budget = budgetOf(window);
        // Tools as ours take them, in proportion for small windows.
        const toolTokens = Math.min(2_300, Math.floor(window / 4));
        const saved = new Map<string, string | null>();
        const save = async (callId: string) => `executor-artifact://session/${callId}`;
        const turns: ConversationTurn[] = earlier.map((turn, index) => ({ prompt: userText(turn.prompt || 'go on', `p${index}`), rounds: turn.rounds.map(roundOf) }));
        const prompt = userText('Read the files one by one and tell me what they do.', 'p-now');
        const rounds: ChatRound[] = [];
        for (const spec of current) {
          // As the loop does: each incoming result cut to its share, then the next request assembled.
          const raw = roundOf(spec);
          let fixed = toolTokens + count(instructions) + count(prompt);
          for (const message of roundMessages({ ...raw, results: [] })) fixed += count(message);
          const share = resultShare(budget, fixed, raw.results.length);
          const results = [];
          for (const result of raw.results) {
            const cut = await cutToShare({ text: result.content, maxTokens: share, count: async (text) => count({ role: 'user', parts: [{ kind: 'result', callId: result.callId, text }], key: '' }), save: () => save(result.callId) });
            results.push({ ...result, content: cut.text, ...(cut.uri ? { artifactUri: cut.uri } : {}) });
          }
          const round = { ...raw, results };
          rounds.push(round);
          const out = await assemble({ instructions, earlier: turns, current: { prompt, rounds }, toolTokens, budget, count, saved, save });
          assert.ok(out.ok, `the request fits (window ${window}, needs ${out.tokens})`);
          const sent = toolTokens + out.messages.reduce((sum, message) => sum + count(message), 0);
          assert.equal(sent, out.tokens);
          assert.ok(sent <= window && sent <= budget, `sent ${sent} tokens to a window of ${window}`);
          const latest = roundMessages(round).map(messageText);
          if (latest.length > 0) assert.deepEqual(out.messages.slice(-latest.length).map(messageText), latest, 'the latest round is whole');
          assert.equal(messageText(out.messages[0]!), messageText(instructions));
        }
      }),
      { numRuns: 60 },
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatRound } from '../../../../src/vscode/chat/chatMetadata';
import { assemble } from '../../../../src/vscode/chat/prompt/assemble';
import type { ConversationTurn } from '../../../../src/vscode/chat/chatMetadata';
import { roundMessages, STUB_MIN_CHARS } from '../../../../src/vscode/chat/prompt/conversationUnits';
import { messageText, userText, type PromptMessage } from '../../../../src/vscode/chat/prompt/promptMessages';
import { cutToShare } from '../../../../src/vscode/chat/prompt/resultCut';
import { countLikeProvider } from './promptFixtures';

let next = 0;
function round(resultChars: number, name = 'Read'): ChatRound {
  const id = `call-${++next}`;
  return { text: '', calls: [{ id, name, input: { path: `src/file${next}.ts` } }], results: [{ callId: id, content: `${'y'.repeat(Math.max(0, resultChars - 1))}\n`, isError: false }] };
}

const instructions = userText('You are @executor.', 'i');

function input(earlier: ConversationTurn[], currentRounds: ChatRound[], budget: number) {
  const saves: string[] = [];
  return {
    saves,
    input: {
      instructions,
      earlier,
      current: { prompt: userText('do it', 'p'), rounds: currentRounds },
      toolTokens: 100,
      budget,
      count: countLikeProvider,
      saved: new Map<string, string | null>(),
      save: async (callId: string) => {
        saves.push(callId);
        return `executor-artifact://s/${callId}`;
      },
    },
  };
}

function total(messages: readonly PromptMessage[]): number {
  return 100 + messages.reduce((sum, message) => sum + countLikeProvider(message), 0);
}

describe('the context budget', () => {
  it('sends everything whole when it fits', async () => {
    const rounds = [round(1000), round(1000)];
    const { input: fit, saves } = input([], rounds, 10_000);
    const out = await assemble(fit);
    assert.ok(out.ok);
    assert.deepEqual(out.messages.map(messageText), [instructions, userText('do it'), ...rounds.flatMap(roundMessages)].map(messageText));
    assert.deepEqual([out.stubbed, out.dropped, saves], [[], 0, []]);
  });

  it('keeps the instructions, the prompt and the latest round whole, and stubs older results oldest first, saving each', async () => {
    const rounds = [round(6000), round(6000), round(6000), round(6000)];
    const { input: fit, saves } = input([], rounds, 5_000);
    const out = await assemble(fit);
    assert.ok(out.ok);
    assert.ok(out.tokens <= 5_000 && total(out.messages) === out.tokens);
    assert.equal(messageText(out.messages[0]!), 'You are @executor.');
    const texts = out.messages.map(messageText);
    assert.ok(texts.includes(rounds[3]!.results[0]!.content), 'the latest round is whole');
    assert.deepEqual(saves, [rounds[0]!.calls[0]!.id, rounds[1]!.calls[0]!.id], 'only as many as needed, oldest first');
    assert.ok(texts.includes(rounds[2]!.results[0]!.content), 'a newer round that fits stays whole');
    const stub = texts.find((text) => text.startsWith('[The result of Read'))!;
    assert.match(stub, /^\[The result of Read src\/file\d+\.ts \(6,000 chars\) was left out to fit the context window; read it again with Read on executor-artifact:\/\/s\/call-\d+\.\]$/);
  });

  it('stubs only as many as needed, and a result saved by the executor is not saved again', async () => {
    const saved = round(6000);
    const rounds = [{ ...saved, results: [{ ...saved.results[0]!, artifactUri: 'executor-artifact://s/old' }] }, round(6000), round(100)];
    const { input: fit, saves } = input([], rounds, 2_600);
    const out = await assemble(fit);
    assert.ok(out.ok);
    assert.deepEqual(out.stubbed.length, 1);
    assert.deepEqual(saves, []);
    assert.ok(out.messages.map(messageText).some((text) => text.includes('executor-artifact://s/old')));
  });

  it('drops the oldest rounds with a note when stubs are not enough', async () => {
    const earlier: ConversationTurn[] = Array.from({ length: 30 }, (_, index) => ({ prompt: userText(`prompt ${index} `.repeat(40), `p${index}`), rounds: [round(STUB_MIN_CHARS * 3)] }));
    const { input: fit } = input(earlier, [round(3000)], 2_000);
    const out = await assemble(fit);
    assert.ok(out.ok);
    assert.ok(out.dropped > 0 && out.tokens <= 2_000);
    assert.match(messageText(out.messages[1]!), new RegExp(`^\\[${out.dropped} older parts of this conversation .* were left out to fit the context window`));
    assert.equal(messageText(out.messages.at(-1)!), messageText(roundMessages(fit.current.rounds[0]!).at(-1)!));
  });

  it('says it cannot fit when the pinned part alone is over the budget', async () => {
    const { input: fit } = input([], [round(30_000)], 2_000);
    const out = await assemble(fit);
    assert.equal(out.ok, false);
    assert.ok(out.tokens > 2_000);
  });
});

describe('a result bigger than its share', () => {
  const count = async (text: string) => Math.ceil(text.length / 3) + 4;

  it('is kept whole when it fits', async () => {
    const out = await cutToShare({ text: 'small', maxTokens: 100, count, save: async () => assert.fail('nothing to save') });
    assert.deepEqual(out, { text: 'small', cut: false, uri: undefined });
  });

  it('is cut to head and tail through the executor budget path, within the share, with the whole saved', async () => {
    const text = Array.from({ length: 3000 }, (_, index) => `line ${index} of a long file`).join('\n');
    let saves = 0;
    const out = await cutToShare({ text, maxTokens: 2_000, count, save: async () => (saves++, 'executor-artifact://s/big') });
    assert.ok(out.cut && (await count(out.text)) <= 2_000);
    assert.match(out.text, /^line 0 of a long file\n/);
    assert.match(out.text, /\.\.\.\[truncated \d+ chars; showing lines 1-\d+ and \d+-3000 of 3000 total;/);
    assert.match(out.text, /line 2999 of a long file\n\[The whole result \(\d+ chars\) was saved: read any part of it with Read on executor-artifact:\/\/s\/big/);
    assert.equal(saves, 1);
  });

  it('names the copy the executor already saved instead of saving again', async () => {
    const out = await cutToShare({ text: 'z\n'.repeat(20_000), maxTokens: 500, count, savedUri: 'executor-artifact://s/kept', save: async () => assert.fail('saved again') });
    assert.match(out.text, /executor-artifact:\/\/s\/kept/);
  });
});

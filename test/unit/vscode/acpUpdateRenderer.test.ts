// How an ACP agent's session updates read in the chat reply: outcome lines end their block, a rejected call
// says who denied it, titles are the agent's, its slash commands are listed, its token usage is in the footer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Acp } from '../../../src/acp/sdk';
import { noRedaction } from '../../../src/executor';
import { commandsText, UpdateRenderer, usageFooter } from '../../../src/vscode/acp/updateRenderer';

/** The reply as read: markdown escapes taken off. */
const unescaped = (markdown: string) => markdown.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');

function renderer() {
  let text = '';
  const stream = { markdown: (part: string) => void (text += part), progress: () => undefined, button: () => undefined };
  const diffLinks = { button: () => ({ command: 'open', title: 'Open diff' }) };
  const updates = new UpdateRenderer(stream as never, { redactor: noRedaction, diffLinks: diffLinks as never, workDir: '/w' });
  return { updates, stream, text: () => unescaped(text) };
}

const started = (toolCallId: string, title: string): Acp.SessionUpdate => ({ sessionUpdate: 'tool_call', toolCallId, title, kind: 'edit', status: 'in_progress' });
const ended = (toolCallId: string, status: 'completed' | 'failed'): Acp.SessionUpdate => ({ sessionUpdate: 'tool_call_update', toolCallId, status });
const say = (text: string): Acp.SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

describe('UpdateRenderer', () => {
  it('an outcome line ends its block: the agent\'s next words are a paragraph of their own', () => {
    const { updates, text } = renderer();
    updates.render(started('c1', 'Write notes.txt'));
    updates.render(ended('c1', 'completed'));
    updates.render(say('Next I will run the tests.\n'));
    updates.flush();
    assert.match(text(), /- ✓ Write notes\.txt\n\nNext I will run the tests\./);
  });

  it('the agent\'s words after one of our own outcome lines start a new paragraph too', () => {
    const { updates, stream, text } = renderer();
    updates.render(say('Reading.\n'));
    updates.flush();
    // What ReplyRenderer writes for one of our calls: a line ending in a hard break.
    stream.markdown('\n\n✓ **Read** `notes.txt` · 3 ms  \n');
    updates.blockWritten();
    updates.render(say('It says hello.\n'));
    updates.flush();
    assert.match(text(), /· 3 ms  \n\nIt says hello\./);
  });

  it('a denied request for a call the agent never announced (Gemini CLI asks first, and reports nothing after a reject) gets its outcome line, once', () => {
    const { updates, text } = renderer();
    updates.render(say('I will write the notes.\n'));
    updates.denied('w1', 'you', 'Writing to notes.md');
    updates.render(ended('w1', 'failed'));
    updates.render(say('I could not write it.\n'));
    updates.flush();
    assert.match(text(), /I will write the notes\.\n+- ✗ Writing to notes\.md — denied by you\n\nI could not write it\./);
    assert.equal(text().match(/✗/g)?.length, 1);
  });

  it('a call the user rejected says "denied by you", one a rule rejected names the rule; a plain failure says failed', () => {
    const { updates, text } = renderer();
    updates.render(started('c1', 'Write notes.txt'));
    updates.denied(undefined, 'you');
    updates.render(ended('c1', 'failed'));
    updates.render(started('c2', 'Run rm -rf build'));
    updates.denied('c2', 'rule Bash(rm:*)');
    updates.render(ended('c2', 'failed'));
    updates.render(started('c3', 'Fetch example.com'));
    updates.render(ended('c3', 'failed'));
    assert.match(text(), /✗ Write notes\.txt — denied by you/);
    assert.match(text(), /✗ Run rm -rf build — denied by rule Bash\(rm:\*\)/);
    assert.match(text(), /✗ Fetch example\.com — failed/);
  });

  it('a denial with no call id goes to the one call in progress, never a guess among several', () => {
    const { updates, text } = renderer();
    updates.render(started('c1', 'Write a.txt'));
    updates.render(started('c2', 'Write b.txt'));
    updates.denied(undefined, 'you');
    updates.render(ended('c1', 'failed'));
    updates.render(ended('c2', 'failed'));
    assert.doesNotMatch(text(), /denied/);
  });

  it('titles are the agent\'s: from tool_call, renamed by tool_call_update, and kind and file when it sent none', () => {
    const { updates, text } = renderer();
    updates.render(started('c1', 'WriteFile'));
    updates.render({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'Writing to notes.txt' });
    updates.render(ended('c1', 'completed'));
    updates.render({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: '', kind: 'read', locations: [{ path: '/w/src/a.ts' }] });
    updates.render(ended('c2', 'completed'));
    assert.match(text(), /✓ Writing to notes\.txt/);
    assert.match(text(), /✓ read \/w\/src\/a\.ts/);
  });
});

describe('commandsText', () => {
  it('lists the agent\'s commands with their descriptions and input hints', () => {
    const text = unescaped(commandsText('gemini', [
      { name: 'init', description: 'Create a GEMINI.md' },
      { name: 'review', description: 'Review a change', input: { hint: 'branch or PR' } },
    ]));
    assert.match(text, /gemini/);
    assert.match(text, /`\/init` — Create a GEMINI\.md/);
    assert.match(text, /`\/review <branch or PR>` — Review a change/);
  });
  it('says so when the agent offered none', () => {
    assert.match(commandsText('gemini', []), /no commands/);
  });
});

describe('usageFooter', () => {
  it('shows the tokens the agent reports in _meta.usage', () => {
    assert.equal(usageFooter({ stopReason: 'end_turn', _meta: { usage: { inputTokens: 1200, outputTokens: 345, totalTokens: 1545 } } }), 'Tokens: 1,200 in · 345 out · 1,545 total');
    assert.equal(usageFooter({ stopReason: 'end_turn', _meta: { usage: { input_tokens: 10, output_tokens: 2 } } }), 'Tokens: 10 in · 2 out');
  });
  it('shows nothing when the agent sends no usage, or no numbers', () => {
    assert.equal(usageFooter({ stopReason: 'end_turn' }), undefined);
    assert.equal(usageFooter({ stopReason: 'end_turn', _meta: { usage: { inputTokens: 'many' } } }), undefined);
  });
});

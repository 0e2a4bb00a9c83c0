// The scripted demo model's decisions (src/vscode/demoModel/, the parts without vscode). The tour is
// played for real: its tool calls run through a real executor with the built-in tools on a fresh
// copy of examples/demo-workspace, and their results go back into the conversation, as a chat
// participant would send them.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { ApprovalAnswer } from '../../../src/executor/ports/approvalClient';
import { ToolExecutor } from '../../../src/executor/executor';
import { ModePolicy } from '../../../src/executor/policy/modePolicy';
import type { PermissionMode } from '../../../src/executor/policy/index';
import { compileSchema } from '../../../src/executor/contract/schema';
import { NodeArtifactStore } from '../../../src/node/artifacts/nodeArtifactStore';
import { FixedApprovalClient } from '../../../src/node/approval/fixedApprovalClient';
import { createBuiltinTools, ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';
import { chunkText, TEXT_CHUNKS } from '../../../src/vscode/demoModel/chunks';
import { estimateTokens, toDemoMessage, type DemoMessage, type DemoOutputPart, type DemoStep } from '../../../src/vscode/demoModel/conversation';
import { FAIL_MESSAGE, nextStep } from '../../../src/vscode/demoModel/script';
import { SLOW_COMMAND } from '../../../src/vscode/demoModel/slowCommand';
import { TOUR_EDIT_OLD, TOUR_FILE, TOUR_OUTPUT_FILE, TOUR_OUTPUT_LINES } from '../../../src/vscode/demoModel/tour';

const REPO = path.join(__dirname, '..', '..', '..', '..');
const SAMPLE_WORKSPACE = path.join(REPO, 'examples', 'demo-workspace');
const DEMO_MODEL_DIR = path.join(REPO, 'src', 'vscode', 'demoModel');
/** The tools a participant offers: the registry's names. */
const ALL_TOOLS = createBuiltinTools({ supervisor: new ProcessSupervisor() }).map((tool) => tool.name);
/** A session that has not ended after this many steps is looping. */
const MAX_STEPS = 10;

const user = (text: string): DemoMessage => ({ role: 'user', parts: [{ kind: 'text', text }] });
const results = (entries: readonly (readonly [string, string])[]): DemoMessage => ({
  role: 'user',
  parts: entries.map(([callId, text]) => ({ kind: 'toolResult', callId, text })),
});

function partsOf(step: DemoStep): readonly DemoOutputPart[] {
  assert.equal(step.kind, 'respond');
  return step.kind === 'respond' ? step.parts : [];
}
function callsOf(step: DemoStep) {
  return partsOf(step).flatMap((part) => (part.kind === 'toolCall' ? [part] : []));
}
function textOf(step: DemoStep): string {
  return partsOf(step).flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
}
/** The model's response as the assistant message a participant sends back next round. */
function assistant(step: DemoStep): DemoMessage {
  return { role: 'assistant', parts: partsOf(step).map((part) => (part.kind === 'text' ? part : { ...part })) };
}

/** Every call's input passes its tool's own schema, as the executor's validation stage would check. */
function assertValidInputs(step: DemoStep): void {
  const tools = createBuiltinTools({ supervisor: new ProcessSupervisor() });
  for (const call of callsOf(step)) {
    const tool = tools.find((candidate) => candidate.name === call.name);
    assert.ok(tool, `${call.name} is a built-in tool`);
    const parsed = compileSchema(tool).validator.safeParse(call.input);
    assert.ok(parsed.success, `${call.name} input ${JSON.stringify(call.input)} is valid: ${parsed.error?.message}`);
  }
}

interface Played {
  readonly messages: DemoMessage[];
  /** The tool names each step called, in order; the last step calls none. */
  readonly rounds: string[][];
  readonly summary: string;
}

/** A real executor on a fresh copy of the sample workspace. */
function sandbox(mode: PermissionMode, answer: ApprovalAnswer = { kind: 'allowOnce' }) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'demo-model-test-')));
  const dir = path.join(root, 'workspace');
  fs.cpSync(SAMPLE_WORKSPACE, dir, { recursive: true });
  const executor = new ToolExecutor({
    workspaceFolders: [dir],
    permissionPolicy: new ModePolicy(mode),
    approvalClient: new FixedApprovalClient(answer),
    artifactStore: new NodeArtifactStore({ root: path.join(root, 'storage') }),
  });
  const supervisor = new ProcessSupervisor();
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
  cleanups.push(async () => {
    await executor.dispose();
    await supervisor.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** Plays `prompt` after `history` until the model stops calling tools. */
  async function play(prompt: string, history: DemoMessage[] = []): Promise<Played> {
    const messages = [...history, user(prompt)];
    const rounds: string[][] = [];
    for (let round = 0; round < MAX_STEPS; round++) {
      const step = nextStep({ messages, tools: ALL_TOOLS });
      assertValidInputs(step);
      messages.push(assistant(step));
      const calls = callsOf(step);
      rounds.push(calls.map((call) => call.name));
      if (calls.length === 0) return { messages, rounds, summary: textOf(step) };
      const ran = await executor.executeBatch(calls.map((call) => ({ id: call.callId, name: call.name, input: call.input })));
      assert.deepEqual(ran.filter((result) => result.isError && result.errorKind !== 'permission').map((result) => result.modelContent), []);
      messages.push(results(ran.map((result) => [result.callId, result.modelContent] as const)));
    }
    throw new Error(`the session did not end within ${MAX_STEPS} steps`);
  }
  return { dir, play };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('the scripted demo model', () => {
  it('plays the tour: Read and Grep together, then the Edit, then a long command, then a summary', async () => {
    const { dir, play } = sandbox('bypass');
    const { rounds, summary } = await play('Give me the demo tour');

    assert.deepEqual(rounds, [['Read', 'Grep'], ['Edit'], ['Bash'], []]);
    const edited = require(path.join(dir, TOUR_FILE)) as { greet(name: string, greeting?: string): string };
    assert.equal(edited.greet('ada lovelace', 'Welcome'), 'Welcome, Ada Lovelace!');
    assert.equal(edited.greet('ada'), 'Hello, Ada!');
    assert.match(summary, /Grep found 1 line with TODO/);
    assert.match(summary, /I edited `src\/greet\.js`/);
    assert.match(summary, /saved it as an artifact \(\S+tool-result-\S+\.txt\)/);
    assert.equal(fs.readFileSync(path.join(dir, TOUR_OUTPUT_FILE), 'utf8').split('\n').length, TOUR_OUTPUT_LINES + 1, 'the command created its file');
  });

  it('says so in the summary when the user denies the edit and the command', async () => {
    const { dir, play } = sandbox('default', { kind: 'deny' });
    const { rounds, summary } = await play('tour');

    assert.deepEqual(rounds, [['Read', 'Grep'], ['Edit'], ['Bash'], []]);
    assert.ok(fs.readFileSync(path.join(dir, TOUR_FILE), 'utf8').includes(TOUR_EDIT_OLD), 'the file is unchanged');
    assert.match(summary, /The edit of `src\/greet\.js` was denied, so the file is unchanged\./);
    assert.match(summary, /`seq 1 \d+ \| tee numbers\.txt` was denied/);
    assert.equal(fs.existsSync(path.join(dir, TOUR_OUTPUT_FILE)), false, 'the denied command created no file');
  });

  it('starts over on a follow-up prompt in the same conversation, with new call ids, and skips an edit already made', async () => {
    const { play } = sandbox('bypass');
    const first = await play('demo');
    const again = nextStep({ messages: [...first.messages, user('demo again')], tools: ALL_TOOLS });
    assert.deepEqual(callsOf(again).map((call) => call.callId), ['demo-2-tour-read', 'demo-2-tour-grep']);

    const second = await play('demo again', first.messages);
    assert.deepEqual(second.rounds, [['Read', 'Grep'], ['Bash'], []]);
    assert.match(second.summary, /had no TODO left, so I did not edit it/);
  });

  it('answers the same conversation with the same step', () => {
    const messages = [user('tour'), results([['demo-1-tour-read', 'x'], ['demo-1-tour-grep', 'y']])];
    assert.deepEqual(nextStep({ messages, tools: ALL_TOOLS }), nextStep({ messages, tools: ALL_TOOLS }));
  });

  it('runs one slow command for "slow" and reports how it ended', () => {
    const first = nextStep({ messages: [user('run something slow')], tools: ALL_TOOLS });
    assertValidInputs(first);
    const [call] = callsOf(first);
    assert.deepEqual(call?.input, { command: SLOW_COMMAND, description: 'Wait 30 seconds, then print done' });
    const after = (text: string) => textOf(nextStep({ messages: [user('slow'), assistant(first), results([[call!.callId, text]])], tools: ALL_TOOLS }));
    assert.match(after('The user cancelled this tool call before it finished.'), /was cancelled before it finished/);
    assert.match(after('done\n'), /finished and printed `done`/);
    assert.match(after('The user denied permission to use Bash. The call was not run.'), /was denied/);
  });

  it('"recap" answers from the tool results of the earlier prompts, not from nothing', () => {
    const first = nextStep({ messages: [user('slow')], tools: ALL_TOOLS });
    const [call] = callsOf(first);
    const earlier = [user('slow'), assistant(first), results([[call!.callId, 'done\n']])];
    assert.match(textOf(nextStep({ messages: [...earlier, user('recap')], tools: ALL_TOOLS })), new RegExp(`got 1 tool result:\\n\\n- \`${call!.callId}\`: done`));
    assert.match(textOf(nextStep({ messages: [user('recap')], tools: ALL_TOOLS })), /no tool results from earlier/);
  });

  it('raises a model error for "fail" or "error" prompts, even when they mention the demo', () => {
    for (const prompt of ['fail please', 'show me an error in the demo']) {
      assert.deepEqual(nextStep({ messages: [user(prompt)], tools: ALL_TOOLS }), { kind: 'fail', reason: 'blocked', message: FAIL_MESSAGE });
    }
  });

  it('explains what it understands for any other prompt, without calling tools', () => {
    const step = nextStep({ messages: [user('hello')], tools: ALL_TOOLS });
    assert.deepEqual(callsOf(step), []);
    assert.match(textOf(step), /scripted demo model[\s\S]*tour[\s\S]*slow[\s\S]*fail/);
  });

  it('names the tools a request does not offer instead of calling them', () => {
    const step = nextStep({ messages: [user('tour')], tools: ['Read', 'Glob'] });
    assert.deepEqual(callsOf(step), []);
    assert.match(textOf(step), /needs the tools Grep, Edit, Bash, which this request does not offer \(offered: Read, Glob\)/);
  });

  it('reads VS Code request parts by shape: text, tool calls, and tool results with text content', () => {
    const message = toDemoMessage(false, [
      { value: 'hi' },
      { callId: 'c1', name: 'Read', input: { path: 'a' } },
      { callId: 'c1', content: [{ value: 'line 1\n' }, { mimeType: 'image/png', data: new Uint8Array() }, { value: 'line 2' }] },
      null,
      { unknown: true },
    ]);
    assert.deepEqual(message, {
      role: 'user',
      parts: [
        { kind: 'text', text: 'hi' },
        { kind: 'toolCall', callId: 'c1', name: 'Read', input: { path: 'a' } },
        { kind: 'toolResult', callId: 'c1', text: 'line 1\nline 2' },
      ],
    });
    assert.equal(toDemoMessage(true, []).role, 'assistant');
  });

  it('streams text in a few chunks cut at spaces that join back to the text', () => {
    const text = "I'll look around first: read the greeter and search the workspace for TODOs.";
    const chunks = chunkText(text);
    assert.ok(chunks.length > 1 && chunks.length <= TEXT_CHUNKS, `${chunks.length} chunks`);
    assert.equal(chunks.join(''), text);
    assert.deepEqual(chunkText(''), []);
    assert.deepEqual(chunkText('word'), ['word']);
  });

  it('estimates tokens as characters / 4', () => {
    assert.equal(estimateTokens('12345678'), 2);
    assert.equal(estimateTokens(user('123')), 1);
  });

  it('decides without importing vscode (only provider.ts and register.ts may)', () => {
    const pure = fs.readdirSync(DEMO_MODEL_DIR).filter((name) => !['provider.ts', 'register.ts'].includes(name));
    assert.ok(pure.includes('script.ts'));
    const offenders = pure.filter((name) => /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)/.test(fs.readFileSync(path.join(DEMO_MODEL_DIR, name), 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('"attached" quotes what each attachment in the prompt starts with', () => {
    const prompt = { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'what is attached?' }, { kind: 'text' as const, text: '\n\n<attachment file="/w/notes.md">\n     1\u2192# Notes\n     2\u2192more\n</attachment>' }] };
    assert.match(textOf(nextStep({ messages: [prompt], tools: ALL_TOOLS })), /You attached 1 item:\n\n- `\/w\/notes\.md` starts with: # Notes$/);
    assert.match(textOf(nextStep({ messages: [user('what is attached?')], tools: ALL_TOOLS })), /^Nothing is attached/);
  });

  it('"read F N times" reads in N rounds, then says so', () => {
    const messages: DemoMessage[] = [user('read notes.md 3 times')];
    for (let round = 1; round <= 3; round++) {
      const step = nextStep({ messages, tools: ALL_TOOLS });
      const [call] = callsOf(step);
      assert.deepEqual([call?.name, call?.input], ['Read', { path: 'notes.md' }]);
      messages.push(assistant(step), results([[call!.callId, `[The result of Read notes.md was left out to fit the context window]`]]));
    }
    assert.equal(textOf(nextStep({ messages, tools: ALL_TOOLS })), 'Read `notes.md` 3 times.');
  });
});

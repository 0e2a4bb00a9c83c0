/// <reference types="mocha" />
// `@executor` with a model of a small window (test/vscode/fixtures/window-model: 8,000 tokens, counts
// as a provider does, refuses an oversized request): long sessions and big results fit, the first
// request carries the environment and AGENTS.md, attachments arrive, and an ignored one does not.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatTurnMetadata } from '../../../src/vscode/chat/chatMetadata';
import { extensionApi, recordingStream, waitFor, workspaceRoot } from './helpers';

/** The fixture's declared window. */
const WINDOW = 8000;

interface SeenRequest {
  readonly tokens: number;
  readonly rejected: boolean;
  readonly tools: string[];
  readonly toolMode?: number;
  /** `mimeType:bytes` of each image part. */
  readonly images: string[];
  readonly messages: Array<{ role: string; text: string }>;
}

async function windowModel(id = 'window-8k'): Promise<vscode.LanguageModelChat> {
  return waitFor(`the window model ${id}`, async () => (await vscode.lm.selectChatModels({ vendor: 'window-model', id }))[0]);
}

async function prompt(text: string, references: vscode.ChatPromptReference[] = [], options: { history?: vscode.ChatContext['history']; command?: 'compact'; toolReferences?: vscode.ChatLanguageModelToolReference[]; model?: string } = {}) {
  const api = await extensionApi();
  await vscode.commands.executeCommand('windowModel.clear');
  const request = { prompt: text, command: options.command, references, toolReferences: options.toolReferences ?? [], toolInvocationToken: undefined, model: await windowModel(options.model) } as unknown as vscode.ChatRequest;
  const { stream, parts, text: reply } = recordingStream();
  const run = options.command === 'compact' ? api.testing.compactPrompt! : api.testing.modelPrompt!;
  const result = await run(request, { history: options.history ?? [] }, stream, new vscode.CancellationTokenSource().token);
  const requests = (await vscode.commands.executeCommand<SeenRequest[]>('windowModel.requests')).slice();
  // Markdown escapes dropped, so the reply reads as the user sees it.
  return { result, metadata: result.metadata as ChatTurnMetadata, reply: reply().replace(/\\(?=\S)/g, ''), parts, requests };
}

const file = (name: string) => vscode.Uri.joinPath(workspaceRoot(), name);
const write = (name: string, text: string) => vscode.workspace.fs.writeFile(file(name), new TextEncoder().encode(text));
const remove = (name: string) => vscode.workspace.fs.delete(file(name)).then(undefined, () => undefined);

/** Prose-like lines of code comments, `bytes` long. */
function textOf(bytes: number, word: string): string {
  const line = `// ${word} reads the value, checks it against the limit and returns the next state\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

function assertAllFit(requests: readonly SeenRequest[]): void {
  assert.ok(requests.length > 0, 'the model was asked');
  for (const [index, request] of requests.entries()) assert.ok(!request.rejected && request.tokens <= WINDOW, `request ${index + 1} took ${request.tokens} tokens of ${WINDOW}`);
}

suite('@executor within a model window', () => {
  teardown(async () => {
    for (const name of ['six.txt', 'big.txt', 'AGENTS.md', 'hidden.txt', '.aiignore']) await remove(name);
  });

  test('a 15-round session reading a 6 KB file each round finishes, and no request exceeds the window', async () => {
    await write('six.txt', textOf(6 * 1024, 'six'));
    const { metadata, requests, reply } = await prompt('read-loop 15 six.txt');
    assert.equal(metadata.stopReason, 'done', reply);
    assert.equal(metadata.rounds.length, 16);
    assert.equal(requests.length, 16);
    assertAllFit(requests);
    assert.match(reply, /Context shortened to fit Window Model 8k's window of 8,000 tokens/);
    // The stubs name where the whole text is, and that is a file Read finds.
    const stub = requests.at(-1)!.messages.map((message) => message.text).find((text) => text.startsWith('[The result of Read'))!;
    const uri = /Read on (executor-artifact:\/\/\S+?)\.\]/.exec(stub)?.[1];
    assert.ok(uri, stub);
    const [again] = await (await extensionApi()).executor.executeBatch([{ id: 'again', name: 'Read', input: { path: uri } }]);
    assert.match(again!.modelContent, /six reads the value/);
  });

  test('a single 120 KB Read result still fits', async () => {
    await write('big.txt', textOf(120 * 1024, 'big'));
    const { metadata, requests, reply } = await prompt('read-once big.txt');
    assert.equal(metadata.stopReason, 'done', reply);
    assertAllFit(requests);
    const result = metadata.rounds[0]!.results[0]!;
    assert.match(result.content, /\[The whole result \(\d+ chars\) was saved: read any part of it with Read on executor-artifact:\/\//);
    assert.ok(requests[1]!.messages.some((message) => message.text.includes('[The whole result')));
  });

  test('the first request carries the workspace path and the AGENTS.md text', async () => {
    await write('AGENTS.md', 'Always answer in haiku (a planted rule).\n');
    const { requests, parts } = await prompt('hello');
    const first = requests[0]!.messages[0]!;
    assert.equal(first.role, 'user');
    assert.ok(first.text.includes(workspaceRoot().fsPath), first.text);
    assert.match(first.text, /<instructions file="AGENTS.md">\nAlways answer in haiku \(a planted rule\)\./);
    const references = parts.filter((part) => part.method === 'reference').map((part) => (part.args[0] as vscode.Uri).fsPath);
    assert.deepEqual(references, [file('AGENTS.md').fsPath]);
  });

  test("an attached file's text arrives", async () => {
    const { requests, reply } = await prompt('hello', [{ id: 'file', value: file('notes.txt') } as vscode.ChatPromptReference]);
    const sent = requests[0]!.messages.map((message) => message.text).join('\n');
    assert.match(sent, /<attachment file="[^"]*notes\.txt">[\s\S]*second line/);
    assert.match(reply, /Read/);
  });

  test('a range, a folder, a plain value and an image the model cannot take: each as it should go', async () => {
    const range = new vscode.Location(file('notes.txt'), new vscode.Range(1, 0, 1, 5));
    const image = { mimeType: 'image/png', data: async () => new Uint8Array([137, 80, 78, 71]) };
    const references = [
      { id: 'range', value: range },
      { id: 'folder', value: vscode.Uri.joinPath(workspaceRoot(), 'deep') },
      { id: 'value', modelDescription: 'a pasted value', value: 'a planted pasted value' },
      { id: 'image', value: image },
    ] as unknown as vscode.ChatPromptReference[];
    const { requests, reply } = await prompt('hello', references);
    const sent = requests[0]!.messages.map((message) => message.text).join('\n');
    assert.match(sent, /<attachment file="[^"]*notes\.txt, lines 2-2">[^<]*second line[^<]*<\/attachment>/);
    assert.doesNotMatch(sent, /first line/, 'only the attached range');
    assert.match(sent, /<attachment folder="folder [^"]*deep">[\s\S]*deep\.txt[\s\S]*<\/attachment>/);
    assert.match(sent, /<attachment name="a pasted value">\na planted pasted value\n<\/attachment>/);
    assert.match(reply, /Not sent to the model: an image \(image\/png\): Window Model 8k does not take images here, so it was not sent/);
  });

  test('an .aiignore\'d attachment is not sent, and the reply says so', async () => {
    await write('hidden.txt', 'kept away from agents\n');
    await write('.aiignore', 'hidden.txt\n');
    const api = await extensionApi();
    await waitFor('the ignore file to be read', async () => ((await api.executor.executeBatch([{ id: 'probe', name: 'Read', input: { path: 'hidden.txt' } }]))[0]?.isError ? true : undefined));
    const { requests, reply } = await prompt('hello', [{ id: 'file', value: file('hidden.txt') } as vscode.ChatPromptReference]);
    assert.ok(requests.every((request) => request.messages.every((message) => !message.text.includes('kept away'))));
    assert.match(reply, /Not sent to the model: .*hidden\.txt.*excluded by \.aiignore/);
  });

  test('a #tool mention is required in the first round, alone, and offered with the rest after', async () => {
    await write('six.txt', textOf(1024, 'six'));
    const { requests, metadata } = await prompt('read-once six.txt', [], { toolReferences: [{ name: 'agentToolExecutor_read', range: undefined } as vscode.ChatLanguageModelToolReference] });
    assert.equal(metadata.stopReason, 'done');
    assert.deepEqual([requests[0]!.tools, requests[0]!.toolMode], [['Read'], vscode.LanguageModelChatToolMode.Required]);
    assert.ok(requests[1]!.tools.length > 1 && requests[1]!.toolMode !== vscode.LanguageModelChatToolMode.Required);
  });

  test('/compact summarises with the model, and later prompts start from the summary', async () => {
    await write('six.txt', textOf(1024, 'planted-earlier'));
    const first = await prompt('read-once six.txt');
    const participant = 'agentToolExecutor.executor';
    // History as VS Code hands it over (the turn classes' constructors are not in the typings).
    const Request = vscode.ChatRequestTurn as unknown as new (prompt: string, command: string | undefined, references: unknown[], participant: string, toolReferences: unknown[]) => vscode.ChatRequestTurn;
    const Response = vscode.ChatResponseTurn as unknown as new (response: unknown[], result: vscode.ChatResult, participant: string, command?: string) => vscode.ChatResponseTurn;
    const history = [new Request('read-once six.txt', undefined, [], participant, []), new Response([], first.result, participant)];
    const compact = await prompt('', [], { history, command: 'compact' });
    const summary = (compact.metadata as { summary?: string }).summary;
    assert.equal(summary, 'I got your prompt.');
    assert.ok(compact.requests[0]!.messages.some((message) => message.text.includes('planted-earlier')), 'the summary request carries the conversation');
    assert.match(compact.requests[0]!.messages.at(-1)!.text, /^Summarise this conversation so far/);
    const after = [...history, new Request('', 'compact', [], participant, []), new Response([], compact.result, participant, 'compact')];
    const next = await prompt('hello again', [], { history: after });
    const sent = next.requests[0]!.messages.map((message) => message.text);
    assert.ok(sent.some((text) => text.startsWith('Summary of the conversation so far (made by /compact):\n\nI got your prompt.')), sent.join('\n---\n'));
    assert.ok(!sent.some((text) => text.includes('planted-earlier')), 'what came before the summary is not sent again');
  });

  test('an image goes as an image to a model that takes images', async () => {
    // A real 1×1 PNG: the workbench decodes images on their way to the provider, and refuses what is not one.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const image = { mimeType: 'image/png', data: async () => new Uint8Array(png) };
    const { requests, reply, result } = await prompt('hello', [{ id: 'image', value: image } as unknown as vscode.ChatPromptReference], { model: 'window-vision' });
    assert.equal(result.errorDetails, undefined, reply);
    assert.equal(requests[0]!.images.length, 1, JSON.stringify(requests[0]!.images));
    assert.match(requests[0]!.images[0]!, /^image\/png:\d+$/);
    assert.doesNotMatch(reply, /Not sent/);
  });

  test('a model without tool calling gets one sentence naming the model picker, and no request', async () => {
    const { result, requests } = await prompt('hello', [], { model: 'window-notools' });
    assert.equal(result.errorDetails?.message, 'Window Model Without Tools cannot call tools, which @executor needs; pick a model with tool calling in the chat\'s model picker.');
    assert.equal(requests.length, 0);
  });
});

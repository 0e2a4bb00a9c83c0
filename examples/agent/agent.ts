// The reference agent (issue 15): a stand-in for an agent loop in its own process that runs its tool
// calls through the executor over the bridge protocol (docs/PROTOCOL.md). Instead of a model it replays a
// scripted session (examples/agent/sessions/*.json). It works both ways round:
//
//   started by VS Code (no `--`): it is the LSP *server* on its own stdin/stdout. The editor sends LSP
//     `initialize` with `initializationOptions.executor` (protocol version, capabilities, tools), then
//     `agent/prompt` for each chat prompt; the agent streams `agent/progress` and calls executor/* methods,
//     which the editor serves.
//   headless (`-- COMMAND ARGS...`): it starts the executor itself (`tool-exec serve --stdio`), sends it
//     `initialize`, plays one prompt (`--prompt`) and prints its text on stdout.
//
// Usage: node out/examples/agent/agent.js --script FILE [--transcript FILE] [--prompt TEXT] [-- COMMAND ARGS...]
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CancellationToken, CancellationTokenSource, createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  CancelTurnRequest,
  EndTurnRequest,
  EventNotification,
  ExecuteBatchRequest,
  InitializeRequest,
  ListCheckpointsRequest,
  ListToolsRequest,
  OfferRequest,
  BeginTurnRequest,
  PROTOCOL_VERSION,
  ProgressNotification,
  PromptRequest,
  UndoTurnRequest,
  type AgentInfo,
  type AgentInitializationOptions,
  type ExecutorInfo,
  type PromptResponse,
  type WireResult,
} from '../../src/bridge/protocol';
import type { AgentScript, ScriptStep } from './script';

/** How the agent names itself (LSP `serverInfo`, headless `clientInfo`). */
export const REFERENCE_AGENT_NAME = 'reference-agent';

interface Options {
  readonly script: AgentScript;
  readonly transcript?: string;
}

/** Writes one JSON line per thing the agent saw, for tests and for people reading along. */
function record(options: Options, entry: Record<string, unknown>): void {
  if (options.transcript) appendFileSync(options.transcript, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
}

/** Plays the script's steps for one prompt; `say` is where its text goes. */
async function play(connection: MessageConnection, options: Options, prompt: string, say: (text: string) => void, token: CancellationToken): Promise<PromptResponse> {
  const entry = options.script.prompts.find((candidate) => candidate.when === undefined || prompt.includes(candidate.when));
  if (!entry) {
    say(`I have no script for "${prompt}".`);
    return { stopReason: 'done' };
  }
  let turns = 0;
  for (const step of entry.steps) {
    if (token.isCancellationRequested) return { stopReason: 'cancelled' };
    await runStep(connection, options, step, `${process.pid}-${++turns}`, say, token);
  }
  return { stopReason: token.isCancellationRequested ? 'cancelled' : 'done' };
}

async function runStep(connection: MessageConnection, options: Options, step: ScriptStep, turnId: string, say: (text: string) => void, token: CancellationToken): Promise<void> {
  if ('say' in step) return say(step.say);
  if ('sleepMs' in step) return new Promise((resolve) => setTimeout(resolve, step.sleepMs));
  if ('listTools' in step) {
    const { tools } = await connection.sendRequest(ListToolsRequest);
    record(options, { kind: 'tools', names: tools.map((tool) => tool.name) });
    return say(`I can use ${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}.\n\n`);
  }
  if ('undoLast' in step) {
    const { turns } = await connection.sendRequest(ListCheckpointsRequest);
    const last = turns.filter((turn) => turn.kind === 'turn').at(-1);
    if (!last) return say('There is no turn to undo.\n\n');
    const undone = await connection.sendRequest(UndoTurnRequest, { undoId: last.undoId, force: step.undoLast.force === true });
    record(options, { kind: 'undo', undone });
    return say(`Undid "${last.title}": ${undone.restored.length} put back, ${undone.skipped.length} changed since and left as they are.\n\n`);
  }
  if ('batch' in step) {
    const { results } = await connection.sendRequest(ExecuteBatchRequest, { turnId, calls: step.batch }, token);
    return report(options, turnId, results, say);
  }
  await connection.sendRequest(BeginTurnRequest, { turnId });
  for (const call of step.turn) {
    await connection.sendRequest(OfferRequest, { turnId, call });
    if (step.offerDelayMs) await new Promise((resolve) => setTimeout(resolve, step.offerDelayMs));
  }
  if (step.crash === 'beforeEnd') {
    record(options, { kind: 'crash', turnId });
    // A crash in the middle of a turn: no endTurn, no goodbye.
    process.exit(3);
  }
  if (step.cancel) await connection.sendRequest(CancelTurnRequest, { turnId });
  const { results } = await connection.sendRequest(EndTurnRequest, { turnId }, token);
  report(options, turnId, results, say);
}

function report(options: Options, turnId: string, results: readonly WireResult[], say: (text: string) => void): void {
  record(options, { kind: 'results', turnId, results });
  const lines = results.map((result) => `- ${result.name} ${result.id}: ${result.isError ? `${result.errorKind}: ${firstLine(result.content)}` : 'ok'}`);
  say(`Results of turn ${turnId}:\n${lines.join('\n')}\n\n`);
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 200);
}

/** Started by an editor: the LSP server side of the connection, on our own stdin/stdout. */
function serveEditor(options: Options): void {
  const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
  connection.onRequest('initialize', (params: { initializationOptions?: AgentInitializationOptions }) => {
    const executor = params.initializationOptions?.executor;
    record(options, { kind: 'initialize', direction: 'editor→agent', protocolVersion: executor?.protocolVersion, tools: executor?.tools.map((tool) => tool.name) });
    const agent: AgentInfo = { protocolVersion: PROTOCOL_VERSION, prompts: true };
    return { capabilities: {}, serverInfo: { name: REFERENCE_AGENT_NAME }, agent };
  });
  connection.onRequest('shutdown', () => null);
  connection.onNotification('exit', () => process.exit(0));
  connection.onNotification(EventNotification, (params) => record(options, { kind: 'event', ...params }));
  connection.onRequest(PromptRequest, (params, token) =>
    play(connection, options, params.prompt, (text) => void connection.sendNotification(ProgressNotification, { promptId: params.promptId, text }), token),
  );
  connection.onClose(() => process.exit(0));
  connection.listen();
}

/** Headless: we start the executor and speak first. */
async function driveExecutor(options: Options, command: readonly string[], prompt: string): Promise<number> {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.onNotification(EventNotification, (params) => record(options, { kind: 'event', ...params }));
  connection.listen();
  const closed = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const info: ExecutorInfo = await connection.sendRequest(InitializeRequest, { protocolVersion: PROTOCOL_VERSION, clientInfo: { name: REFERENCE_AGENT_NAME } });
    record(options, { kind: 'initialize', direction: 'agent→executor', protocolVersion: info.protocolVersion, tools: info.tools.map((tool) => tool.name) });
    const outcome = await play(connection, options, prompt, (text) => process.stdout.write(text), new CancellationTokenSource().token);
    return outcome.stopReason === 'done' ? 0 : 1;
  } finally {
    // The executor ends when its input does.
    child.stdin!.end();
    await closed;
    connection.dispose();
  }
}

function main(): void {
  const separator = process.argv.indexOf('--');
  const own = separator < 0 ? process.argv.slice(2) : process.argv.slice(2, separator);
  const { values } = parseArgs({ args: own, options: { script: { type: 'string' }, transcript: { type: 'string' }, prompt: { type: 'string' }, stdio: { type: 'boolean' } } });
  if (!values.script) {
    process.stderr.write('reference agent: --script FILE is required\n');
    process.exit(2);
  }
  const options: Options = { script: JSON.parse(readFileSync(values.script, 'utf8')) as AgentScript, transcript: values.transcript };
  record(options, { kind: 'started', mode: separator < 0 ? 'editor' : 'headless' });
  if (separator < 0) return serveEditor(options);
  driveExecutor(options, process.argv.slice(separator + 1), values.prompt ?? '').then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`reference agent: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

// Imported by tests for its types only; run as a program otherwise.
if (require.main === module) main();

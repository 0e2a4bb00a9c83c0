// The ACP tests' harness: the scripted agent (test/acp/scriptedAgent.ts) in its own process, over real stdio
// pipes, served by a real executor with the built-in tools, our rules and a recording approval client.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { AcpAgentConnection, type AcpConnectionOptions } from '../../../src/acp/connection';
import type { Step } from '../../../test/acp/scriptedAgent';
import { ToolExecutor } from '../../../src/executor/executor';
import { RulesPolicy, type RuleLists } from '../../../src/executor/policy/rulesPolicy';
import type { ApprovalAnswer, ApprovalClient, ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { createRedactor } from '../../../src/executor/results/redaction/patternRedactor';
import { ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';

export const AGENT = join(__dirname, '..', '..', 'acp', 'scriptedAgent.js');

/** Answers approvals from a queue (deny when empty) and keeps what it was asked. */
export class RecordingApprovals implements ApprovalClient {
  readonly asked: ApprovalRequest[] = [];
  constructor(private readonly answers: ApprovalAnswer[] = []) {}
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    this.asked.push(request);
    const answer = this.answers.shift();
    if (answer) return Promise.resolve(answer);
    // No answer queued: wait like a modal nobody clicks, until the request is aborted.
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  }
}

export interface Harness {
  readonly dir: string;
  readonly approvals: RecordingApprovals;
  readonly connection: AcpAgentConnection;
  readonly sessionId: string;
  transcript(): Array<Record<string, any>>;
  prompt(steps: readonly Step[], signal?: AbortSignal): Promise<string>;
}

export interface HarnessOptions {
  answers?: ApprovalAnswer[];
  rules?: RuleLists;
  mode?: 'default' | 'acceptEdits' | 'bypass';
  env?: Record<string, string>;
  /** Extra arguments for the scripted agent (`--load`: it offers session/load). */
  agentArgs?: string[];
  /** Take up this session with session/load instead of opening one. */
  loadSession?: string;
  /** Answers the agent's forms (and offers elicitation). */
  elicit?: AcpConnectionOptions['elicit'];
  /** A shell command the agent's launcher starts in the background before it becomes the agent (what an agent starts of its own). */
  alongside?: string;
}

export interface AcpTestContext {
  /** The test's own folder (the workspace). */
  dir(): string;
  /** Runs after the test, last registered first. */
  cleanup(step: () => Promise<void> | void): void;
  start(options?: HarnessOptions): Promise<Harness>;
}

/** Starts the scripted agent on a real executor in `dir`; what it started is closed by the steps pushed on `cleanups`. */
export async function startAcp(dir: string, options: HarnessOptions, cleanups: Array<() => Promise<void> | void>): Promise<Harness> {
  const supervisor = new ProcessSupervisor();
  const policy = new RulesPolicy({ mode: options.mode ?? 'default', user: options.rules });
  const approvals = new RecordingApprovals(options.answers);
  const executor = new ToolExecutor({ workspaceFolders: [dir], permissionPolicy: policy, approvalClient: approvals, redactor: createRedactor({ env: options.env ?? {} }) });
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
  const transcriptFile = join(dir, '.transcript.jsonl');
  const connection = new AcpAgentConnection({
    launch: options.alongside
      ? { name: 'scripted', command: 'sh', args: ['-c', `${options.alongside} & exec "$0" "$@"`, process.execPath, AGENT, '--transcript', transcriptFile, ...(options.agentArgs ?? [])] }
      : { name: 'scripted', command: process.execPath, args: [AGENT, '--transcript', transcriptFile, ...(options.agentArgs ?? [])] },
    executor,
    policy,
    approvals,
    workspaceFolders: () => [dir],
    clientInfo: { name: 'test', version: '0' },
    ...(options.elicit ? { elicit: options.elicit } : {}),
  });
  cleanups.push(async () => {
    await connection.close();
    await executor.dispose();
    await supervisor.dispose();
  });
  await connection.start();
  const sessionId = options.loadSession ? await connection.loadSession(options.loadSession, dir) : await connection.newSession(dir);
  const transcript = () => readFileSync(transcriptFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  return {
    dir,
    approvals,
    connection,
    sessionId,
    transcript,
    async prompt(steps, signal) {
      const answer = await connection.prompt(sessionId, [{ type: 'text', text: JSON.stringify(steps) }], signal);
      return answer.stopReason;
    },
  };
}

/** Registers the hooks that give each test of the file a fresh folder and close what it started. */
export function acpTests(): AcpTestContext {
  let cleanups: Array<() => Promise<void> | void> = [];
  let dir = '';
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-test-')));
    cleanups = [() => rmSync(dir, { recursive: true, force: true })];
  });
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return {
    dir: () => dir,
    cleanup: (step) => void cleanups.push(step),
    start: (options = {}) => startAcp(dir, options, cleanups),
  };
}

export const entries = (harness: Harness, kind: string) => harness.transcript().filter((entry) => entry.kind === kind);

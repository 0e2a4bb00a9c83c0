// A scripted ACP agent, built with the SDK's agent side, for offline tests: each prompt is a
// scenario name (`demo`) or a JSON array of steps. Every step asks the client for something — read,
// write, a command in a terminal, a permission — reports it as tool_call / tool_call_update, and writes
// what it received (or the error) to the transcript file given as `--transcript FILE`, one JSON line each.
// Flags say what it offers: --load, --resume, --list, --close (session methods), --modes (modes and config
// options), --auth (sessions only after `authenticate`), --embed (embedded resources and images in prompts).
//   node out/test/acp/scriptedAgent.js [--transcript FILE] [--load] [--resume] [--list] [--close] [--modes] [--auth] [--embed]
import { appendFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Acp } from '../../src/acp/sdk';
import { loadAcp } from '../../src/acp/sdk';

export type Step =
  | { readonly say: string }
  | { readonly think: string }
  | { readonly plan: readonly string[] }
  | { readonly read: string; readonly line?: number; readonly limit?: number }
  | { readonly write: string; readonly content: string }
  | {
      readonly run: string;
      readonly args?: readonly string[];
      readonly outputByteLimit?: number;
      readonly cwd?: string;
      readonly env?: Record<string, string>;
      /** Asks terminal/output until it reports an exit, before wait_for_exit. */
      readonly poll?: boolean;
      /** Creates the terminal under this session id instead of the prompt's. */
      readonly sessionId?: string;
    }
  | {
      readonly permission: { readonly kind: Acp.ToolKind; readonly title: string; readonly rawInput?: unknown; readonly path?: string; readonly content?: Acp.ToolCallContent[] };
      /** The option kinds offered (default: allow once, allow always, reject once). */
      readonly options?: readonly Acp.PermissionOptionKind[];
    }
  /** available_commands_update with these commands. */
  | { readonly commands: readonly Acp.AvailableCommand[] }
  /** One agent_message_chunk of this many characters, written as one line. */
  | { readonly huge: number }
  /** current_mode_update to this mode (with --modes). */
  | { readonly mode: string }
  /** elicitation/create (form mode) with this message and schema; the answer goes to the transcript. */
  | { readonly elicit: string; readonly schema: Acp.ElicitationSchema };

/** The modes and config options it offers with --modes. */
export const SCRIPTED_MODES: Acp.SessionModeState = {
  currentModeId: 'ask',
  availableModes: [
    { id: 'ask', name: 'Ask', description: 'Asks before it changes files' },
    { id: 'code', name: 'Code', description: 'Writes code' },
    { id: 'architect', name: 'Architect', description: 'Plans without writing' },
  ],
};
export const SCRIPTED_CONFIG_OPTIONS: readonly Acp.SessionConfigOption[] = [
  { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'small', options: [{ value: 'small', name: 'Small model' }, { value: 'large', name: 'Large model' }] },
  { id: 'thinking', name: 'Think first', type: 'boolean', currentValue: false },
];
/** The sessions it lists with --list besides those it opened: one from an earlier window. */
export const EARLIER_SESSION: Acp.SessionInfo = { sessionId: 'session-earlier', cwd: '', title: 'Fix the flaky test', updatedAt: '2026-01-02T03:04:05Z' };
/** Its sign-in methods with --auth. */
export const SCRIPTED_AUTH_METHODS: readonly Acp.AuthMethod[] = [
  { id: 'api-key', name: 'API key', description: 'The key in the environment' },
  { id: 'browser', name: 'Sign in with a browser' },
];

/** What `demo` does: the e2e and extension-host tests' script. */
export const DEMO_SCRIPT: readonly Step[] = [
  { plan: ['Read the notes', 'Update them', 'Check with a command'] },
  { think: 'The notes need a new line.' },
  { read: 'notes.txt' },
  { write: 'notes.txt', content: 'hello\nupdated by the ACP agent\n' },
  { run: 'cat notes.txt' },
  { say: 'Done: I read, updated and checked notes.txt.' },
];

/** The permission options the agent offers, by kind. */
const OPTIONS: Record<Acp.PermissionOptionKind, Acp.PermissionOption> = {
  allow_once: { optionId: 'yes', name: 'Allow once', kind: 'allow_once' },
  allow_always: { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  reject_once: { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  reject_always: { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
};

const argv = process.argv.slice(2);
const transcriptIndex = argv.indexOf('--transcript');
const transcript = transcriptIndex >= 0 ? argv[transcriptIndex + 1] : process.env.ACP_SCRIPTED_TRANSCRIPT;

function record(entry: Record<string, unknown>): void {
  if (transcript) appendFileSync(transcript, `${JSON.stringify(entry)}\n`);
}

function errorOf(error: unknown): { code?: number; message: string } {
  const value = error as { code?: number; message?: string };
  return { code: value?.code, message: value?.message ?? String(error) };
}

async function main(): Promise<void> {
  const acp = await loadAcp();
  const cwds = new Map<string, string>();
  const cancels = new Map<string, AbortController>();
  let toolCalls = 0;
  let sessionsOpened = 0;
  const offers = (flag: string) => argv.includes(flag);
  let authenticated = !offers('--auth');
  const modes = new Map<string, string>();
  const options = new Map<string, Acp.SessionConfigOption[]>();
  const settingsOf = (sessionId: string) => {
    if (!offers('--modes')) return {};
    if (!modes.has(sessionId)) modes.set(sessionId, SCRIPTED_MODES.currentModeId);
    if (!options.has(sessionId)) options.set(sessionId, SCRIPTED_CONFIG_OPTIONS.map((option) => ({ ...option })));
    return { modes: { ...SCRIPTED_MODES, currentModeId: modes.get(sessionId)! }, configOptions: options.get(sessionId)! };
  };
  const signedIn = () => {
    if (!authenticated) throw acp.RequestError.authRequired(undefined, 'sign in first');
  };

  const steps = (prompt: Acp.ContentBlock[]): readonly Step[] => {
    const first = prompt[0];
    const text = first?.type === 'text' ? first.text.trim() : '';
    if (text === 'demo' || text.endsWith(' demo')) return DEMO_SCRIPT;
    try {
      return JSON.parse(text) as Step[];
    } catch {
      return [{ say: `I only follow scripts: say "demo" or give a JSON array of steps (got ${JSON.stringify(text)}).` }];
    }
  };

  const app = acp
    .agent({ name: 'scripted-acp-agent' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      record({ kind: 'initialize', params, pid: process.pid });
      const sessionCapabilities: Acp.SessionCapabilities = {
        ...(offers('--list') ? { list: {} } : {}),
        ...(offers('--resume') ? { resume: {} } : {}),
        ...(offers('--close') ? { close: {} } : {}),
      };
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: { loadSession: offers('--load'), sessionCapabilities, promptCapabilities: { embeddedContext: offers('--embed'), image: offers('--embed') } },
        agentInfo: { name: 'scripted-acp-agent', version: '1.0.0' },
        authMethods: offers('--auth') ? [...SCRIPTED_AUTH_METHODS] : [],
      };
    })
    .onRequest(acp.methods.agent.authenticate, ({ params }) => {
      record({ kind: 'authenticate', params });
      if (!SCRIPTED_AUTH_METHODS.some((method) => method.id === params.methodId)) throw acp.RequestError.invalidParams(undefined, `no method ${params.methodId}`);
      authenticated = true;
      return {};
    })
    .onRequest(acp.methods.agent.session.list, ({ params }) => {
      record({ kind: 'session/list', params });
      if (!offers('--list')) throw acp.RequestError.methodNotFound('session/list');
      const opened = [...cwds].map(([sessionId, cwd]) => ({ sessionId, cwd, title: `Session ${sessionId}` }));
      return { sessions: [...opened, { ...EARLIER_SESSION, cwd: params.cwd ?? process.cwd() }] };
    })
    .onRequest(acp.methods.agent.session.resume, ({ params }) => {
      record({ kind: 'session/resume', params });
      if (!offers('--resume')) throw acp.RequestError.methodNotFound('session/resume');
      signedIn();
      cwds.set(params.sessionId, params.cwd);
      return settingsOf(params.sessionId);
    })
    .onRequest(acp.methods.agent.session.close, ({ params }) => {
      record({ kind: 'session/close', params });
      if (!offers('--close')) throw acp.RequestError.methodNotFound('session/close');
      cancels.get(params.sessionId)?.abort();
      cwds.delete(params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      record({ kind: 'session/set_mode', params });
      if (!SCRIPTED_MODES.availableModes.some((mode) => mode.id === params.modeId)) throw acp.RequestError.invalidParams(undefined, `no mode ${params.modeId}`);
      modes.set(params.sessionId, params.modeId);
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
      record({ kind: 'session/set_config_option', params });
      const current = settingsOf(params.sessionId).configOptions ?? [];
      const option = current.find((candidate) => candidate.id === params.configId);
      if (!option) throw acp.RequestError.invalidParams(undefined, `no option ${params.configId}`);
      options.set(params.sessionId, current.map((candidate) => (candidate === option ? ({ ...candidate, currentValue: params.value } as Acp.SessionConfigOption) : candidate)));
      return { configOptions: options.get(params.sessionId)! };
    })
    // With --load: any session id is taken up again (the history replayed as one message), so a reload continues it.
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      record({ kind: 'session/load', params });
      if (!argv.includes('--load')) throw acp.RequestError.methodNotFound('session/load');
      signedIn();
      cwds.set(params.sessionId, params.cwd);
      await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'earlier prompt' } } });
      return settingsOf(params.sessionId);
    })
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
      record({ kind: 'session/new', params, authenticated });
      signedIn();
      const sessionId = `session-${++sessionsOpened}`;
      cwds.set(sessionId, params.cwd);
      return { sessionId, ...settingsOf(sessionId) };
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      record({ kind: 'session/cancel', params });
      cancels.get(params.sessionId)?.abort();
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const { sessionId } = params;
      // What came with the prompt's words (the first block): attachments.
      record({ kind: 'session/prompt', sessionId, attached: params.prompt.slice(1), mode: modes.get(sessionId), configOptions: options.get(sessionId)?.map((option) => [option.id, option.currentValue]) });
      const cancel = new AbortController();
      cancels.set(sessionId, cancel);
      const cwd = cwds.get(sessionId) ?? process.cwd();
      const abs = (path: string) => (isAbsolute(path) ? path : join(cwd, path));
      const update = (update: Acp.SessionUpdate) => client.notify(acp.methods.client.session.update, { sessionId, update });
      const say = (text: string) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
      for (const step of steps(params.prompt)) {
        if (cancel.signal.aborted) break;
        const toolCallId = `call-${++toolCalls}`;
        const started = (title: string, kind: Acp.ToolKind, extra: Partial<Acp.ToolCall> = {}) =>
          update({ sessionUpdate: 'tool_call', toolCallId, title, kind, status: 'in_progress', ...extra });
        const finished = (status: 'completed' | 'failed', extra: Partial<Acp.ToolCallUpdate> = {}) => update({ sessionUpdate: 'tool_call_update', toolCallId, status, ...extra });
        try {
          if ('say' in step) await say(step.say);
          else if ('think' in step) await update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: step.think } });
          else if ('huge' in step) await say('x'.repeat(step.huge));
          else if ('mode' in step) {
            modes.set(sessionId, step.mode);
            await update({ sessionUpdate: 'current_mode_update', currentModeId: step.mode });
          } else if ('elicit' in step) {
            const answer = await client.request(acp.methods.client.elicitation.create, { sessionId, mode: 'form', message: step.elicit, requestedSchema: step.schema });
            record({ kind: 'elicitation', answer });
            await say(`Elicited: ${JSON.stringify(answer)}\n\n`);
          } else if ('commands' in step) await update({ sessionUpdate: 'available_commands_update', availableCommands: [...step.commands] });
          else if ('plan' in step) await update({ sessionUpdate: 'plan', entries: step.plan.map((content, index) => ({ content, priority: 'medium', status: index === 0 ? 'in_progress' : 'pending' })) });
          else if ('read' in step) {
            await started(`Read ${step.read}`, 'read', { locations: [{ path: abs(step.read) }] });
            const answer = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path: abs(step.read), line: step.line ?? null, limit: step.limit ?? null });
            record({ kind: 'read', path: step.read, content: answer.content });
            await finished('completed');
            await say(`Read ${step.read}: ${JSON.stringify(answer.content)}\n\n`);
          } else if ('write' in step) {
            await started(`Write ${step.write}`, 'edit', { locations: [{ path: abs(step.write) }] });
            await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: abs(step.write), content: step.content });
            record({ kind: 'write', path: step.write });
            await finished('completed', { content: [{ type: 'diff', path: abs(step.write), oldText: null, newText: step.content }] });
          } else if ('run' in step) {
            await started(`Run ${step.run}`, 'execute', { rawInput: { command: step.run } });
            const terminal = await client.request<Acp.CreateTerminalResponse>(acp.methods.client.terminal.create, {
              sessionId: step.sessionId ?? sessionId,
              command: step.run,
              args: step.args ? [...step.args] : [],
              env: Object.entries(step.env ?? {}).map(([name, value]) => ({ name, value })),
              cwd: step.cwd ?? null,
              outputByteLimit: step.outputByteLimit ?? null,
            });
            record({ kind: 'terminal/create', terminalId: terminal.terminalId });
            await update({ sessionUpdate: 'tool_call_update', toolCallId, content: [{ type: 'terminal', terminalId: terminal.terminalId }] });
            let polls = 0;
            while (step.poll && !cancel.signal.aborted) {
              polls++;
              const seen = await client.request<Acp.TerminalOutputResponse>(acp.methods.client.terminal.output, { sessionId, terminalId: terminal.terminalId });
              if (seen.exitStatus) break;
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
            const exit = await client.request<Acp.WaitForTerminalExitResponse>(acp.methods.client.terminal.waitForExit, { sessionId, terminalId: terminal.terminalId });
            const output = await client.request<Acp.TerminalOutputResponse>(acp.methods.client.terminal.output, { sessionId, terminalId: terminal.terminalId });
            await client.request(acp.methods.client.terminal.release, { sessionId, terminalId: terminal.terminalId });
            record({ kind: 'terminal', exit, output, polls });
            await finished(exit.exitCode === 0 ? 'completed' : 'failed');
            await say(`\`${step.run}\` exited with ${exit.exitCode ?? exit.signal}:\n\n\`\`\`\n${output.output}\`\`\`\n\n`);
          } else if ('permission' in step) {
            const { kind, title, rawInput, path, content } = step.permission;
            const answer = await client.request(acp.methods.client.session.requestPermission, {
              sessionId,
              toolCall: { toolCallId, title, kind, rawInput, locations: path ? [{ path: abs(path) }] : null, content: content ?? null },
              options: (step.options ?? ['allow_once', 'allow_always', 'reject_once']).map((kind) => OPTIONS[kind]),
            });
            record({ kind: 'permission', title, outcome: answer.outcome });
            // ACP: the client answers `cancelled` only when the turn was cancelled.
            if (answer.outcome.outcome === 'cancelled') cancel.abort();
          }
        } catch (error) {
          record({ kind: 'error', step, error: errorOf(error) });
          if (!('say' in step)) await finished('failed').catch(() => undefined);
          if (!cancel.signal.aborted) await say(`That failed: ${errorOf(error).message}\n\n`).catch(() => undefined);
        }
      }
      const stopReason = cancel.signal.aborted ? 'cancelled' : 'end_turn';
      record({ kind: 'stop', stopReason });
      return { stopReason };
    });

  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>));
  await connection.closed;
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`scripted ACP agent: ${String(error)}\n`);
    process.exit(1);
  });
}

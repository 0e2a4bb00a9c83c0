// `@executor /tools`, `/run` and `/mode`: what the tools are and what this window's mode
// does with them; a JSON array of calls run like a model's turn (for agent authors); the mode.
import * as vscode from 'vscode';
import { flagsOf } from '../../executor';
import { PERMISSION_MODES, parsePermissionMode, type PermissionMode, type PermissionRule } from '../../executor';
import type { PermissionPolicy } from '../../executor';
import { parseCalls } from '../runToolCallsCommand';
import type { ChatHost } from './modelLoop';
import { ReplyRenderer } from './replyRenderer';
import { escapeMarkdown, inlineCode } from './replyText';

/** What the commands need besides the loop's host. */
export interface CommandHost extends ChatHost {
  readonly policy: PermissionPolicy & { readonly mode: PermissionMode; readonly rules: readonly PermissionRule[]; setWindowMode(mode: PermissionMode | undefined): Promise<void> };
}

const VERDICT: Readonly<Record<string, string>> = { allow: 'runs', ask: 'asks', deny: 'denied' };

/** `/tools`: every tool, its flags, and what the current mode does with a call to it. */
export async function listTools(host: CommandHost, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const registry = host.executor.registry;
  const signal = abortSignalOf(token);
  const rows: string[] = [];
  for (const name of registry.names()) {
    const def = registry.get(name)!.def;
    const flags = flagsOf(def);
    const labels = [flags.readOnly ? 'read-only' : `changes: ${flags.sideEffectScope}`, flags.concurrentSafe ? 'parallel' : 'serial', ...(flags.destructive ? ['destructive'] : []), ...(flags.alwaysAsk ? ['always asks'] : [])];
    // The verdict for the tool as such (its flags, the mode, rules on the whole tool): without its
    // subject, since no path, command or URL is named here.
    const asSuch = { ...def, permissionSubject: undefined };
    const decision = await Promise.resolve(host.policy.evaluate({ tool: asSuch, input: {}, callId: `tools-${name}`, workspaceFolders: host.workspaceFolders() }, signal)).catch(() => undefined);
    const rules = host.policy.rules.filter((rule) => rule.tool === name);
    const ruleNote = rules.length > 0 ? ` (${rules.length} rule${rules.length === 1 ? '' : 's'}: ${rules.map((rule) => inlineCode(`${rule.behavior} ${rule.text}`)).join(', ')})` : '';
    rows.push(`| ${inlineCode(name)} | ${labels.join(', ')} | ${decision ? VERDICT[decision.behavior] : 'asks (the policy failed)'}${ruleNote} |`);
  }
  stream.markdown(
    [
      `Tools offered to the model, and what **${host.policy.mode}** mode does with a typical call (rules for particular paths, commands or sites may decide otherwise):`,
      '',
      '| tool | flags | in this mode |',
      '|---|---|---|',
      ...rows,
      '',
      'Switch the mode for this window with `/mode default`, `/mode acceptEdits`, `/mode plan` or `/mode bypass`.',
    ].join('\n'),
  );
  return {};
}

/** `/run [...]`: the JSON array of calls in the prompt, run like a model's turn and shown the same way. */
export async function runPastedCalls(host: CommandHost, prompt: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const parsed = parseCalls(prompt);
  if (!parsed.ok) {
    stream.markdown(`Nothing to run: ${escapeMarkdown(parsed.error)}. Paste a JSON array such as \`[{"name": "Read", "input": {"path": "README.md"}}]\` after \`/run\`.`);
    return {};
  }
  const turn = host.executor.beginTurn({ signal: abortSignalOf(token), label: '@executor /run' });
  const renderer = new ReplyRenderer(stream, turn, { redactor: host.redactor, diffLinks: host.diffLinks, workspaceFolders: () => host.workspaceFolders() });
  try {
    for (const call of parsed.calls) {
      renderer.expect(call.id, call.name, call.input);
      turn.offer(call);
    }
    turn.end();
    const results = await turn.results();
    const errors = results.filter((result) => result.isError).length;
    stream.markdown(`\n\nRan ${results.length} call${results.length === 1 ? '' : 's'}${errors ? `, ${errors} with an error` : ''}.`);
    return {};
  } finally {
    renderer.dispose();
  }
}

/** `/mode`: shows the mode; `/mode NAME` switches this window to it; `/mode reset` goes back to the settings. */
export async function switchMode(host: CommandHost, prompt: string, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  const wanted = prompt.trim();
  if (wanted === '') {
    stream.markdown(`Permission mode: **${host.policy.mode}**. Switch it for this window with ${PERMISSION_MODES.map((mode) => `\`/mode ${mode}\``).join(', ')}, or \`/mode reset\` to follow the settings again.`);
    return {};
  }
  if (wanted === 'reset') {
    await host.policy.setWindowMode(undefined);
    stream.markdown(`Permission mode follows the settings again: **${host.policy.mode}**.`);
    return {};
  }
  const mode = parsePermissionMode(wanted);
  if (!mode) {
    stream.markdown(`${inlineCode(wanted)} is not a permission mode; use one of ${PERMISSION_MODES.map((name) => inlineCode(name)).join(', ')} (or \`reset\`).`);
    return {};
  }
  await host.policy.setWindowMode(mode);
  stream.markdown(`Permission mode for this window: **${host.policy.mode}** (until the window closes, or \`/mode reset\`).`);
  return {};
}

/** An AbortSignal that follows `token`; the listener goes with the request's token. */
function abortSignalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else {
    const listener = token.onCancellationRequested(() => {
      listener.dispose();
      controller.abort();
    });
  }
  return controller.signal;
}

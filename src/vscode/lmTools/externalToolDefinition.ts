// Another extension's or an MCP server's tool as a JSON-Schema tool of our registry: the executor
// validates its input against the schema the tool declared, decides and asks (see externalSafety.ts),
// times it, and redacts, budgets and saves its output like any tool's. The handler only forwards the
// call with `vscode.lm.invokeTool`, with the call's signal as its token and never a chat request's
// `toolInvocationToken`: with one, VS Code draws the call in that chat with its raw input and output
// and saves them with the chat session, past our redaction. The reply shows our own (redacted) line.
import * as vscode from 'vscode';
import type { JsonSchema, ToolContext, ToolDefinition, ToolOutput } from '../../executor/contract/contract';
import { externalSafetyOf } from './externalSafety';
import { toolOutputOf } from './toolResultOutput';

/** A tool that declares no input schema takes an object of anything. */
const ANY_OBJECT: JsonSchema = { type: 'object' };

export type InvokeTool = typeof vscode.lm.invokeTool;

export function externalToolDefinition(info: vscode.LanguageModelToolInformation, invoke: InvokeTool = vscode.lm.invokeTool): ToolDefinition<object> {
  const safety = externalSafetyOf(info.tags);
  return {
    name: info.name,
    description: info.description,
    jsonSchema: (info.inputSchema as JsonSchema | undefined) ?? ANY_OBJECT,
    readOnly: safety.readOnly,
    concurrentSafe: safety.concurrentSafe,
    sideEffectScope: safety.sideEffectScope,
    // A tool we know nothing about is judged as a whole: its input's `path` or `command` fields mean
    // what it decides, so they must not let acceptEdits allow it as a workspace edit. A read-only one
    // keeps the well-known fields, so a `path` of a secret file or outside the workspace still asks.
    ...(safety.readOnly ? {} : { permissionSubject: () => undefined }),
    handler: (input, ctx) => forward(info.name, input, ctx, invoke),
  };
}

async function forward(name: string, input: object, ctx: ToolContext, invoke: InvokeTool): Promise<ToolOutput> {
  const cancellation = new vscode.CancellationTokenSource();
  const onAbort = () => cancellation.cancel();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    ctx.throwIfAborted();
    const result = await invoke(name, { input, toolInvocationToken: undefined }, cancellation.token);
    return toolOutputOf(result);
  } catch (error) {
    // Cancelled or timed out: the executor reports it from the signal's reason.
    if (ctx.signal.aborted) throw ctx.signal.reason ?? error;
    return { content: `${name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    cancellation.dispose();
  }
}

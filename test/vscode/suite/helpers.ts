// Shared by the tests that run inside the extension host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToolDefinition } from '../../../src/executor/contract/contract';
import type { UndoOutcome } from '../../../src/node/checkpoints/undo';
import type { AgentToolExecutorApi, AgentToolExecutorTesting } from '../../../src/vscode/api';

export const EXTENSION_ID = 'agent-tool-executor.agent-tool-executor';

/** A workbench change (an editor opening) normally lands within milliseconds; this bounds a broken one. */
const WAIT_LIMIT_MS = 10_000;
const WAIT_STEP_MS = 25;

export async function extensionApi(): Promise<AgentToolExecutorApi & { testing: AgentToolExecutorTesting }> {
  const extension = vscode.extensions.getExtension<AgentToolExecutorApi>(EXTENSION_ID);
  if (!extension) {
    throw new Error(`${EXTENSION_ID} is not installed`);
  }
  const api = await extension.activate();
  if (!api.testing) {
    throw new Error('the test seam is missing: is the extension running in ExtensionMode.Test?');
  }
  return api as AgentToolExecutorApi & { testing: AgentToolExecutorTesting };
}

/** The workspace folder the runner opened (test/vscode/harness/workspace.ts wrote its files). */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    throw new Error('no workspace folder is open');
  }
  return folder.uri;
}

/** Registers a tool for one test; the returned function removes it. */
export async function registerTool(definition: ToolDefinition): Promise<() => void> {
  return (await extensionApi()).registry.register(definition);
}

/** Waits until `probe` returns a value, up to a generous limit; the value is what the test asserts on. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() - started > WAIT_LIMIT_MS) {
      throw new Error(`gave up waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

export async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

interface StreamPart {
  readonly method: string;
  readonly args: unknown[];
}

/** A chat response stream that keeps every call. */
export function recordingStream(): { stream: vscode.ChatResponseStream; parts: StreamPart[]; text(): string } {
  const parts: StreamPart[] = [];
  const stream = new Proxy({}, { get: (_, method) => (...args: unknown[]) => void parts.push({ method: String(method), args }) }) as vscode.ChatResponseStream;
  const text = () =>
    parts
      .map((part) => {
        const [first] = part.args as [unknown];
        if (typeof first === 'string') return first;
        if (first instanceof vscode.MarkdownString) return first.value;
        if (first && typeof first === 'object' && 'title' in first) return `[${String((first as vscode.Command).title)}]`;
        return '';
      })
      .join('');
  return { stream, parts, text };
}

/** The reply's undo buttons (a reply also has Open diff buttons for its edits). */
export function undoButtonsOf(parts: readonly StreamPart[]): vscode.Command[] {
  return parts.filter((part) => part.method === 'button').map((part) => part.args[0] as vscode.Command).filter((button) => button.command.startsWith('agentToolExecutor.undo'));
}

/** Checks that the reply ends with the two undo buttons every front end offers, and presses "Undo this turn": its outcome. */
export async function pressUndoThisTurn(parts: readonly StreamPart[]): Promise<UndoOutcome> {
  const buttons = undoButtonsOf(parts);
  assert.deepEqual(buttons.map((button) => [button.title, button.command]), [
    ['Undo this turn', 'agentToolExecutor.undoTurn'],
    ['Undo back to here', 'agentToolExecutor.undoBackTo'],
  ]);
  return vscode.commands.executeCommand<UndoOutcome>(buttons[0]!.command, ...(buttons[0]!.arguments ?? []));
}

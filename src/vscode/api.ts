// The API `activate` returns: other extensions (and the integration suite) reach the executor here.
import type * as vscode from 'vscode';
import type { ToolExecutor } from '../executor';
import type { PermissionRule } from '../executor';
import type { ToolRegistry } from '../executor';
import type { ToolCallResult } from '../executor';
import type { ApprovalResponder } from './permissions/approvalDialog';
import type { RunToolCallsOptions } from './runToolCallsCommand';
import type { AskResponder } from './acp/acpAsk';

export interface AgentToolExecutorApi {
  /** Reading it starts the executor (the extension starts it on first use, not when it activates). */
  readonly executor: ToolExecutor;
  /** `registry.register(def)` adds a tool; call the returned function to remove it. */
  readonly registry: ToolRegistry;
  /** What the "Run Tool Calls" command does, with the calls as values. */
  runToolCalls(calls: unknown, options?: RunToolCallsOptions): Promise<ToolCallResult[] | undefined>;
  /** Opens an `executor-artifact://` link in an editor. */
  openArtifact(uri: string | vscode.Uri): Promise<vscode.TextEditor | undefined>;
  /** Present only in `ExtensionMode.Test`. */
  readonly testing?: AgentToolExecutorTesting;
}

/** Seams for the extension's own tests; never present for users. */
export interface AgentToolExecutorTesting {
  /** Answers approvals instead of the modal dialog (which a test inside the host cannot click). */
  setApprovalResponder(responder: ApprovalResponder | undefined): void;
  /** The folder artifacts are written under (`context.storageUri` or global storage). */
  readonly storageRoot: vscode.Uri;
  /** Reloads permission rules and hooks from the settings now, instead of on the file watcher's next event. */
  reloadPermissions(): Promise<void>;
  /** The rules in force (what the Permission Rules list shows). */
  permissionRules(): readonly PermissionRule[];
  /** What the Permission Rules list's Remove does. */
  removePermissionRule(rule: PermissionRule): Promise<boolean>;
  /** Runs a prompt through `@executor`'s ACP path with the named agent (src/vscode/acp/), into `stream`. */
  acpPrompt?(agent: string, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
  /** Runs a prompt through `@executor`'s bridge agent (agentToolExecutor.agent.*, src/vscode/bridge/), into `stream`. */
  bridgePrompt?(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
  /** Ends every ACP agent as a window reload does (their session ids stay in workspace state). */
  acpCloseAll?(): Promise<void>;
  /** Answers the ACP agents' quick picks and input boxes (sign-in, forms, modes, sessions) instead of the user. */
  setAcpAskResponder?(responder: AskResponder | undefined): void;
  /** `/mode WORDS` while the chosen ACP agent takes prompts (words naming none of its modes fail here). */
  acpMode?(words: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
  /** Runs a prompt through `@executor`'s own model loop with `request.model`, into `stream`. */
  modelPrompt?(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
  /** Runs `@executor /compact` with `request.model`, into `stream`. */
  compactPrompt?(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
  /** Whether the executor and its tools have started (they start on first use). */
  coreStarted?(): boolean;
}

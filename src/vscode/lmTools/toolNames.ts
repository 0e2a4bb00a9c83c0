// How our registry's tools are named to VS Code's language model tools (`vscode.lm.registerTool`,
// `contributes.languageModelTools`). VS Code accepts names matching /^[\w-]+$/ that do not start with
// `copilot_` or `vscode_`; the prefix keeps ours apart from every other extension's.

/** Prefix of every tool name we declare: `agentToolExecutor_read`. */
export const LM_TOOL_PREFIX = 'agentToolExecutor_';

/** A tag on every tool we declare, so our own tools are never wrapped back into our registry. */
export const OWN_TOOL_TAG = 'agentToolExecutor';

/** What VS Code accepts as a tool name or a `toolReferenceName`. */
export const VSCODE_TOOL_NAME = /^[\w-]+$/;

/** `Read` → `agentToolExecutor_read`, `WebFetch` → `agentToolExecutor_webFetch`. */
export function lmToolNameOf(registryName: string): string {
  return `${LM_TOOL_PREFIX}${lowerFirst(registryName)}`;
}

/** The name after `#` in a chat prompt: `Read` → `executorRead` (short, and clear of VS Code's own `#read`). */
export function referenceNameOf(registryName: string): string {
  return `executor${registryName}`;
}

/** Whether a tool listed in `vscode.lm.tools` is one of ours (by name or by tag). */
export function isOwnTool(tool: { readonly name: string; readonly tags?: readonly string[] }): boolean {
  return tool.name.startsWith(LM_TOOL_PREFIX) || (tool.tags ?? []).includes(OWN_TOOL_TAG);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

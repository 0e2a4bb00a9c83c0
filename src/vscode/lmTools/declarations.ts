// The `contributes.languageModelTools` entries of our built-in tools, generated from the registry's
// descriptors (the same zod schemas the executor validates with). package.json is static, so these are
// written into it by `node scripts/gen-lm-tools.mjs` (after `npx tsc -p .`), and a unit test fails
// when the two differ. No `vscode` here: the script and the unit test run in plain Node.
import type { ToolDescriptor } from '../../executor';
import { ToolRegistry } from '../../executor';
import { createBuiltinTools, ProcessSupervisor } from '../../tools/index';
import { lmToolNameOf, OWN_TOOL_TAG, referenceNameOf, VSCODE_TOOL_NAME } from './toolNames';

/** One entry of `contributes.languageModelTools`, in the shape VS Code validates. */
export interface LanguageModelToolDeclaration {
  readonly name: string;
  readonly displayName: string;
  readonly toolReferenceName: string;
  readonly canBeReferencedInPrompt: boolean;
  readonly userDescription: string;
  readonly modelDescription: string;
  readonly tags: readonly string[];
  readonly inputSchema: Record<string, unknown>;
}

/** The command that rewrites package.json's declarations; printed by the test that compares them. */
export const GENERATE_COMMAND = 'npx tsc -p . && node scripts/gen-lm-tools.mjs';

/** A user description is the first sentence of the model description, cut here. Ours. */
const USER_DESCRIPTION_MAX_CHARS = 120;

export function declarationOf(descriptor: ToolDescriptor): LanguageModelToolDeclaration {
  const name = lmToolNameOf(descriptor.name);
  const toolReferenceName = referenceNameOf(descriptor.name);
  if (!VSCODE_TOOL_NAME.test(name) || !VSCODE_TOOL_NAME.test(toolReferenceName)) {
    throw new TypeError(`tool ${descriptor.name} has no name VS Code accepts (${name}, #${toolReferenceName})`);
  }
  return {
    name,
    displayName: `${descriptor.name} (Agent Tool Executor)`,
    toolReferenceName,
    canBeReferencedInPrompt: true,
    userDescription: firstSentence(descriptor.description),
    modelDescription: descriptor.description,
    tags: [OWN_TOOL_TAG],
    inputSchema: descriptor.inputSchema,
  };
}

/** The declarations of every built-in tool, in the order the model is offered them. */
export function builtinToolDeclarations(): LanguageModelToolDeclaration[] {
  const registry = new ToolRegistry();
  // Only the definitions are read: the supervisor never starts a process.
  const tools = createBuiltinTools({ supervisor: new ProcessSupervisor() });
  for (const tool of tools) registry.register(tool);
  return registry.describe(tools.map((tool) => tool.name)).map(declarationOf);
}

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  const sentence = end < 0 ? text : text.slice(0, end + 1);
  return sentence.length <= USER_DESCRIPTION_MAX_CHARS ? sentence : `${sentence.slice(0, USER_DESCRIPTION_MAX_CHARS - 1)}…`;
}

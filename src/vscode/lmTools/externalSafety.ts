// The safety flags a wrapped tool gets from what VS Code tells about it. No `vscode` here.
//
// Without safety information a tool is serial, not read-only, reaches outside the workspace, and asks
// (plan mode denies it; bypass runs it; rules on its name and "Allow for Session" work as for any tool).
// What may relax that, per source, as VS Code 1.139 exposes it through the stable `vscode.lm.tools`
// (name, description, inputSchema, tags):
// - another extension's tool: a tag `read-only` (also `readonly`, `read_only`, `readOnly`) declared in
//   its `contributes.languageModelTools` makes it read-only: it runs in parallel with other reads and
//   without asking, like our Read. Nothing else is trusted.
// - an MCP server's tool (tagged `mcp`): VS Code keeps the MCP annotations (`readOnlyHint`,
//   `destructiveHint`, `openWorldHint`) to itself: `lm.tools` shows only the tag `mcp`. So MCP tools stay
//   at the strictest. (VS Code may also show its own confirmation for such a tool when we invoke it.)
import type { SideEffectScope } from '../../executor/contract/contract';

export type ExternalSource = 'mcp' | 'extension';

export interface ExternalSafety {
  readonly source: ExternalSource;
  readonly readOnly: boolean;
  readonly concurrentSafe: boolean;
  readonly sideEffectScope: SideEffectScope;
  /** Why the flags are what they are, for logs and `/tools`. */
  readonly basis: string;
}

/** Tags that declare a tool read-only, compared without case and separators. */
const READ_ONLY_TAG = 'readonly';
/** VS Code tags every MCP server's tool with this. */
export const MCP_TAG = 'mcp';

export function externalSafetyOf(tags: readonly string[]): ExternalSafety {
  const source: ExternalSource = tags.includes(MCP_TAG) ? 'mcp' : 'extension';
  const readOnlyTag = tags.find((tag) => tag.toLowerCase().replace(/[-_\s]/g, '') === READ_ONLY_TAG);
  if (source === 'extension' && readOnlyTag !== undefined) {
    return { source, readOnly: true, concurrentSafe: true, sideEffectScope: 'none', basis: `tagged ${readOnlyTag} by its extension` };
  }
  return {
    source,
    readOnly: false,
    concurrentSafe: false,
    sideEffectScope: 'external',
    basis: source === 'mcp' ? 'an MCP tool (VS Code does not expose its annotations)' : 'no safety information',
  };
}

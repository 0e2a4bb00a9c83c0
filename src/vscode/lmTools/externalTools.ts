// Keeps the registry's wrapped external tools in step with `vscode.lm.tools` and the setting
// `agentToolExecutor.externalTools.include`: selected tools are registered (see
// externalToolDefinition.ts), tools that went away or were deselected are removed, changed ones are
// registered again. `sync()` is cheap (lm.tools is a local list): it runs when the setting or the
// installed extensions change, and before each `@executor` request (MCP servers add tools late; the
// stable API has no event for that).
import * as vscode from 'vscode';
import type { Logger } from '../../executor';
import type { ToolRegistry } from '../../executor';
import { externalSafetyOf } from './externalSafety';
import { externalToolDefinition } from './externalToolDefinition';
import { selectExternalTools } from './externalSelection';
import { disposableStore } from '../../common/lifecycle';

export const EXTERNAL_TOOLS_SETTING = 'agentToolExecutor.externalTools.include';

interface Wrapped {
  /** What the tool declared when it was wrapped; a change registers it again. */
  readonly signature: string;
  readonly unregister: () => void;
}

export class ExternalTools implements vscode.Disposable {
  private readonly wrapped = new Map<string, Wrapped>();
  private readonly disposables = disposableStore();
  /** Problems already reported: each is told once, not on every sync. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly logger: Logger,
  ) {
    this.disposables.addAll(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(EXTERNAL_TOOLS_SETTING)) this.sync();
      }),
      vscode.extensions.onDidChange(() => this.sync()),
    );
    this.sync();
  }

  /** Names of the wrapped tools, sorted. */
  get names(): string[] {
    return [...this.wrapped.keys()].sort();
  }

  sync(): void {
    const problems: string[] = [];
    const include = vscode.workspace.getConfiguration().get<unknown[]>(EXTERNAL_TOOLS_SETTING) ?? [];
    const { tools, badPatterns } = selectExternalTools(vscode.lm.tools, Array.isArray(include) ? include : []);
    for (const pattern of badPatterns) problems.push(`${EXTERNAL_TOOLS_SETTING}: ${JSON.stringify(pattern)} is not a glob pattern; ignored`);
    const wanted = new Map(tools.map((tool) => [tool.name, tool]));
    for (const [name, entry] of this.wrapped) {
      const tool = wanted.get(name);
      if (!tool || signatureOf(tool) !== entry.signature) {
        entry.unregister();
        this.wrapped.delete(name);
        this.logger.info('externalTools.removed', { name });
      }
    }
    for (const tool of tools) {
      if (this.wrapped.has(tool.name)) continue;
      if (this.registry.has(tool.name)) {
        problems.push(`the tool ${tool.name} of another extension has the name of one of ours; not offered`);
        continue;
      }
      try {
        const unregister = this.registry.register(externalToolDefinition(tool));
        this.wrapped.set(tool.name, { signature: signatureOf(tool), unregister });
        this.logger.info('externalTools.wrapped', { name: tool.name, safety: externalSafetyOf(tool.tags).basis });
      } catch (error) {
        // A schema zod cannot read, a name our registry refuses: that tool is left out, the rest work.
        problems.push(`the tool ${tool.name} cannot be offered: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.report(problems);
  }

  dispose(): void {
    this.disposables.dispose();
    for (const entry of this.wrapped.values()) entry.unregister();
    this.wrapped.clear();
  }

  /** Logs each new problem, and shows them in one message (a broad pattern may catch many tools). */
  private report(problems: readonly string[]): void {
    const fresh = problems.filter((problem) => !this.reported.has(problem));
    if (fresh.length === 0) return;
    for (const problem of fresh) {
      this.reported.add(problem);
      this.logger.warn('externalTools.problem', { problem });
    }
    const more = fresh.length > 1 ? ` (and ${fresh.length - 1} more in the log)` : '';
    void vscode.window.showWarningMessage(`Agent Tool Executor: ${fresh[0]}${more}`);
  }
}

function signatureOf(tool: vscode.LanguageModelToolInformation): string {
  return JSON.stringify([tool.description, tool.inputSchema ?? null, [...tool.tags].sort()]);
}

// Which tools of `vscode.lm.tools` (other extensions', MCP servers') are wrapped into our registry:
// those whose name matches a pattern of `agentToolExecutor.externalTools.include` (globs on names,
// none by default), never our own. No `vscode` here.
import picomatch from 'picomatch';
import { isOwnTool } from './toolNames';

export interface ToolInfo {
  readonly name: string;
  readonly tags: readonly string[];
}

export interface Selection<T> {
  readonly tools: T[];
  /** Patterns picomatch could not read; reported to the user, never a reason to wrap everything. */
  readonly badPatterns: string[];
}

export function selectExternalTools<T extends ToolInfo>(tools: readonly T[], include: readonly unknown[]): Selection<T> {
  const matchers: Array<(name: string) => boolean> = [];
  const badPatterns: string[] = [];
  for (const pattern of include) {
    if (typeof pattern !== 'string' || pattern.trim() === '') {
      badPatterns.push(String(pattern));
      continue;
    }
    try {
      matchers.push(picomatch(pattern.trim(), { dot: true }));
    } catch {
      badPatterns.push(pattern);
    }
  }
  const selected = tools.filter((tool) => !isOwnTool(tool) && matchers.some((matches) => matches(tool.name)));
  return { tools: selected, badPatterns };
}

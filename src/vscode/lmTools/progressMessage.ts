// The progress message VS Code shows while one of our tools runs for another agent
// (`prepareInvocation`'s `invocationMessage`): "Reading src/a.ts". No `vscode` here.
import type { ToolPresentation } from '../../executor';
import { callTarget } from '../chat/replyText';

/**
 * `Reading src/a.ts`, `Running npm test`: the tool's own verb (its `presentation`), then the target as one
 * bounded line (see `callTarget`). The caller redacts it: a command line may carry a secret.
 */
export function progressMessage(toolName: string, input: unknown, presentation?: ToolPresentation): string {
  const target = callTarget(presentation?.target === 'pattern' ? patternFirst(input) : input);
  if (!presentation) return target ? `Running ${toolName} on ${target}` : `Running ${toolName}`;
  if (presentation.target === 'none') return presentation.verb;
  return target ? `${presentation.verb} ${target}` : presentation.verb;
}

function patternFirst(input: unknown): unknown {
  if (input === null || typeof input !== 'object') return input;
  const { pattern } = input as { pattern?: unknown };
  return typeof pattern === 'string' && pattern.trim() !== '' ? { pattern } : input;
}

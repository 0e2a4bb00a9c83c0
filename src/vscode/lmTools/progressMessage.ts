// The progress message VS Code shows while one of our tools runs for another agent
// (`prepareInvocation`'s `invocationMessage`): "Reading src/a.ts". No `vscode` here.
import { callTarget } from '../chat/replyText';

/** What each built-in tool is doing, before its target. */
const VERBS: Readonly<Record<string, string>> = {
  Read: 'Reading',
  Write: 'Writing',
  Edit: 'Editing',
  Glob: 'Finding files matching',
  Grep: 'Searching for',
  Bash: 'Running',
  WebFetch: 'Fetching',
  TodoWrite: 'Updating the todo list',
  BashOutput: 'Reading the output of',
  KillBash: 'Stopping',
};

/** Tools whose target is their pattern, even when they also name a folder. */
const SEARCHES: ReadonlySet<string> = new Set(['Glob', 'Grep']);

/**
 * `Reading src/a.ts`, `Running npm test`; the target is one bounded line (see `callTarget`). The caller
 * redacts it: a command line may carry a secret.
 */
export function progressMessage(toolName: string, input: unknown): string {
  const target = callTarget(SEARCHES.has(toolName) ? patternFirst(input) : input);
  const verb = VERBS[toolName];
  if (!verb) return target ? `Running ${toolName} on ${target}` : `Running ${toolName}`;
  if (toolName === 'TodoWrite') return verb;
  return target ? `${verb} ${target}` : verb;
}

function patternFirst(input: unknown): unknown {
  if (input === null || typeof input !== 'object') return input;
  const { pattern } = input as { pattern?: unknown };
  return typeof pattern === 'string' && pattern.trim() !== '' ? { pattern } : input;
}

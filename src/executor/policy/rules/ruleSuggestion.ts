// The prefix rule a prompt offers for a command no rule allowed: `git push origin main` → `Bash(git
// push *)`, `cat notes.md` → `Bash(cat *)`. Shown to the user, who may keep it instead of the exact rule.
import type { SimpleCommandPart } from '../shell/shellSplit';

/** Programs that run whatever their arguments say: a prefix on them alone would allow anything. */
const RUNS_ANYTHING: ReadonlySet<string> = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'env', 'sudo', 'doas', 'eval', 'exec', 'xargs', 'nohup', 'nice', 'timeout', 'command',
  'builtin', 'time', 'stdbuf', 'python', 'python3', 'node', 'perl', 'ruby', 'deno', 'bun', 'npx', 'pnpx', 'bunx', 'source', '.', 'ssh',
]);
/** A subcommand as tools name them (`push`, `run`, `compose`): a plain lowercase word. */
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;

/** The prefix rule for this command, or undefined when none would be safe to offer. */
export function prefixRuleFor(tool: string, part: SimpleCommandPart): string | undefined {
  const [program, second] = part.words;
  if (!program || !program.literal || !/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(program.value)) return undefined;
  if (part.words.some((word) => !word.literal)) return undefined;
  const sub = second?.literal && SUBCOMMAND.test(second.value) && part.words.length > 2 ? second.value : undefined;
  if (RUNS_ANYTHING.has(program.value) && sub === undefined) return undefined;
  return `${tool}(${sub ? `${program.value} ${sub}` : program.value} *)`;
}

// What the arguments of an allowed command may read. An allow
// rule such as `Bash(cat:*)` allows the program, not every file: an argument that names a secret file,
// the home folder (`~`, `$HOME`) or a path outside the workspace is checked like a Read of that path, and
// an argument only known at run time (a variable, a glob, a substitution) may name any file, so it asks.
// echo and printf open no argument.
import * as os from 'node:os';
import * as path from 'node:path';
import type { IgnoredPaths } from '../../ports/workspace/ignoredPaths';
import { judgeShellPath } from '../path/judgePath';
import type { Check } from '../rules/ruleMatch';
import { classifySensitive } from '../path/sensitiveFiles';
import type { CommandWord, SimpleCommandPart } from './shellSplit';

/** Arguments that name devices, not files. */
const NOT_FILES: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/tty', '-']);
/** Builtins whose argument-less or `-` form goes to a folder we cannot see (home, the previous one, the stack). */
const CHANGES_DIRECTORY: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd']);
/** `~`, `~/x`, `$HOME`, `${HOME}/x`, `"$HOME"/x`: the home folder, then the rest of the word. */
const HOME_REFERENCE = /^(?:~(?=\/|$)|"?\$(?:HOME\b|\{HOME\}))(.*)$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Builtins that print their arguments and open none; a command reading their output as a name checks it itself. */
const OPENS_NO_ARGUMENT: ReadonlySet<string> = new Set(['echo', 'printf']);

/**
 * The checks the arguments of one simple command add. `cwd` is where the shell starts; `movesAround`
 * says the command line changes directory, so a relative argument with `..` may be anywhere. `home`:
 * the home folder, looked up only when an argument names it (reading `process.env` goes through the
 * host's environment, a cost on every command otherwise).
 */
export async function argumentChecks(part: SimpleCommandPart, cwd: string, movesAround: boolean, home: string | undefined = undefined, ignored?: IgnoredPaths): Promise<Check[]> {
  if (part.denyOnly) return [];
  const words = part.words;
  let start = 0;
  while (start < words.length && ASSIGNMENT.test(words[start]!.text)) start += 1;
  const name = words[start];
  if (!name) return [];
  if (name.literal && OPENS_NO_ARGUMENT.has(name.value)) return [];
  const args = words.slice(start + 1);
  const checks: Check[] = [];
  if (name.literal && CHANGES_DIRECTORY.has(name.value) && (args.length === 0 || args.every((arg) => arg.value === '-' || arg.value.startsWith('-') || arg.value.startsWith('+')))) {
    checks.push({ kind: 'argument', reason: `${part.text} changes to a folder outside the workspace (home, previous or stacked)` });
  }
  for (const arg of args) checks.push(...(await checksOfArgument(arg, part.text, cwd, movesAround, home, ignored)));
  return checks.map((check) => (check.kind === 'argument' ? { ...check, command: part } : check));
}

async function checksOfArgument(arg: CommandWord, command: string, cwd: string, movesAround: boolean, givenHome: string | undefined, ignored: IgnoredPaths | undefined): Promise<Check[]> {
  const homeReference = HOME_REFERENCE.exec(arg.text);
  if (homeReference) {
    const home = givenHome ?? homeFolder();
    const rest = homeReference[1]!.replace(/["']/g, '');
    const target = /[$`*?[]/.test(rest) ? home : path.join(home, rest);
    return [{ kind: 'path', path: await judgeShellPath(target, cwd), access: 'read', fromCommand: true }];
  }
  if (!arg.literal) {
    if (!arg.alternatives) return [{ kind: 'argument', reason: `the argument ${arg.text} of ${command} is only known at run time, so it may name any file` }];
    // Its values are known (`{a,b}`, a loop over plain words, `$((…))`): each is checked as written.
    const checks: Check[] = [];
    for (const value of arg.alternatives) checks.push(...(await checksOfValue(value, arg.text, command, cwd, movesAround, ignored)));
    return checks;
  }
  return checksOfValue(arg.value, arg.text, command, cwd, movesAround, ignored);
}

async function checksOfValue(argValue: string, argText: string, command: string, cwd: string, movesAround: boolean, ignored: IgnoredPaths | undefined): Promise<Check[]> {
  // `--file=/etc/passwd`: the value is the path; other options name no file.
  const value = argValue.startsWith('-') ? (argValue.includes('=') ? argValue.slice(argValue.indexOf('=') + 1) : '') : argValue;
  if (value === '' || NOT_FILES.has(value)) return [];
  // A file an agent ignore file excludes is kept away like a secret one.
  const absolute = path.resolve(cwd, value);
  const sensitive = classifySensitive(absolute, 'read') !== undefined || ignored?.excludedBy(absolute) !== undefined;
  const mayLeave = value.includes('/') || value === '..';
  if (!sensitive && !mayLeave) return [];
  if (movesAround && !value.startsWith('/') && (sensitive || value.split('/').includes('..'))) {
    return [{ kind: 'argument', reason: `${command} runs after a change of directory, so ${argText} may be anywhere` }];
  }
  return [{ kind: 'path', path: await judgeShellPath(value, cwd), access: 'read', fromCommand: true }];
}

function homeFolder(): string {
  return process.env.HOME || os.homedir();
}

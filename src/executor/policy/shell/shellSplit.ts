// Splits a shell command into the parts that must each be allowed on their own:
// every simple command, wherever it sits (`&&`, `;`, `|`, newlines, `$(...)`, backticks, `<(...)`,
// if/for/while/case bodies, functions), the commands hidden behind `sh -c`, `eval` and wrappers
// such as `env` or `sudo`, and every file redirection. Parsing is done by `unbash`, a real bash
// parser; whatever it cannot parse is reported as a value, and the policy asks.
import type * as Unbash from 'unbash' with { 'resolution-mode': 'import' };

// unbash ships as an ES module; Node ≥ 20.19 loads it through require. It is required on the first
// split, not with this file: the extension's bundle keeps it in `dist/unbash.js`, loaded on first use.
let unbash: typeof Unbash | undefined;
function parser(): typeof Unbash {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  unbash ??= require('unbash') as typeof Unbash;
  return unbash;
}

/** Brace expansions and loops giving more values than this leave the word unknown (it asks). */
export const MAX_WORD_ALTERNATIVES = 64;
/** Longer commands are not parsed (they ask): a rule check must stay cheap. */
export const MAX_COMMAND_CHARS = 100_000;
/** More parts than this ask instead of being matched one by one. */
export const MAX_COMMAND_PARTS = 500;
/** `sh -c "sh -c '...'"` nesting we follow before giving up (and asking). */
export const MAX_NESTED_SHELL_DEPTH = 5;

/** Shells whose `-c` argument is itself a command line. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash']);
/**
 * Commands that run their arguments as another command. The wrapped command is a part of its own, so a
 * deny rule on `rm` also catches `sudo rm` and `env X=1 rm`. Options (`-x`), `NAME=value` (env) and a
 * leading duration (timeout) are skipped.
 */
const WRAPPERS: ReadonlySet<string> = new Set(['command', 'builtin', 'exec', 'nohup', 'env', 'sudo', 'doas', 'nice', 'xargs', 'timeout', 'stdbuf', 'time']);
/** Options of the wrappers above that take a value (`sudo -u root rm` runs `rm`). */
const OPTIONS_WITH_VALUES: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '--user', '--group']),
  doas: new Set(['-u', '-C']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  nice: new Set(['-n', '--adjustment']),
  env: new Set(['-u', '-C', '--unset', '--chdir']),
  stdbuf: new Set(['-i', '-o', '-e']),
  xargs: new Set(['-n', '-I', '-L', '-P', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file']),
};
/** `${var@P}`: bash expands the value as a prompt, command substitutions in it included. */
const PROMPT_EXPANSION = /\$\{[^}]*@P\}/;
/** Each `$((…))` in a word's source, to be read as plain arithmetic or not judged. */
const ARITHMETIC_EXPANSION = /\$\(\(.*?\)\)/gs;
/** Redirection targets that are not files. */
const NOT_FILES: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** One word of a command. `literal` is false when its value depends on expansion (`$x`, globs, `$(...)`). */
export interface CommandWord {
  readonly value: string;
  readonly literal: boolean;
  /** The source text, quotes included. */
  readonly text: string;
  /**
   * For a word not `literal`: every value it can take when they are known before it runs (brace
   * expansion, a loop variable over plain words), with what cannot name a file (`$((…))`, `$?`,
   * `<(…)`) and the output of a substitution (its commands are parts of their own) left out.
   */
  readonly alternatives?: readonly string[];
}

/** A simple command: its assignments, name and arguments, in order. */
export interface SimpleCommandPart {
  readonly kind: 'command';
  readonly words: readonly CommandWord[];
  /** The words' source text joined by single spaces: what a preview or a session rule shows. */
  readonly text: string;
  /**
   * A guess at the command behind a wrapper whose options we may have misread: only deny rules are
   * checked against it; it needs no allow of its own.
   */
  readonly denyOnly?: boolean;
}

/** A redirection to or from a file: a read or a write of that path. */
export interface RedirectPart {
  readonly kind: 'redirect';
  readonly access: 'read' | 'write';
  readonly operator: string;
  readonly target: CommandWord;
}

export type CommandPart = SimpleCommandPart | RedirectPart;

export type SplitResult =
  | {
      readonly ok: true;
      readonly parts: readonly CommandPart[];
      /** Why the line cannot be judged from its parts alone (a function defined in it): it asks. */
      readonly unjudgeable?: string;
    }
  | { readonly ok: false; readonly reason: string };

type SyntaxNode = Parameters<typeof Unbash.forEachChild>[0];

class Unsplittable extends Error {}

/**
 * Commands whose split is kept, most recently used last: an agent runs the same commands again and
 * again (tests, builds, `git status`), and each split is a full bash parse, the larger part of the
 * policy's time for a short command. A split is a pure function of the text; kept ones are frozen.
 */
export const SPLIT_CACHE_COMMANDS = 256;
/** Longer commands are split each time, so the cache holds at most 256 × 4096 chars. */
export const SPLIT_CACHE_MAX_CHARS = 4096;

const splitCache = new Map<string, SplitResult>();

/** Splits `command` into parts; never throws. */
export function splitCommand(command: string): SplitResult {
  const cached = splitCache.get(command);
  if (cached) {
    splitCache.delete(command);
    splitCache.set(command, cached);
    return cached;
  }
  const split = splitUncached(command);
  if (command.length <= SPLIT_CACHE_MAX_CHARS) {
    if (splitCache.size >= SPLIT_CACHE_COMMANDS) splitCache.delete(splitCache.keys().next().value!);
    splitCache.set(command, deepFreeze(split));
  }
  return split;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}

function splitUncached(command: string): SplitResult {
  if (command.length > MAX_COMMAND_CHARS) return { ok: false, reason: `the command is longer than ${MAX_COMMAND_CHARS} characters` };
  const parts: CommandPart[] = [];
  const state: SplitState = { unjudgeable: undefined };
  try {
    collectScript(command, 0, parts, state);
  } catch (error) {
    if (error instanceof Unsplittable) return { ok: false, reason: error.message };
    return { ok: false, reason: `the parser failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (parts.length === 0) return { ok: false, reason: 'the command is empty' };
  return state.unjudgeable ? { ok: true, parts, unjudgeable: state.unjudgeable } : { ok: true, parts };
}

interface SplitState {
  unjudgeable: string | undefined;
}

/** Loop variables whose values are known: `for f in a b` binds f to a and b in its body. */
type Bindings = ReadonlyMap<string, readonly string[]>;
const NO_BINDINGS: Bindings = new Map();

function collectScript(source: string, depth: number, parts: CommandPart[], state: SplitState, bindings: Bindings = NO_BINDINGS): void {
  if (depth > MAX_NESTED_SHELL_DEPTH) throw new Unsplittable(`shells are nested more than ${MAX_NESTED_SHELL_DEPTH} deep`);
  const script = parser().parse(source);
  checkErrors(script);
  visit(script, depth, parts, state, bindings);
}

function checkErrors(script: Unbash.ParsedScript): void {
  const error = script.errors?.[0];
  if (error) throw new Unsplittable(`it does not parse: ${error.message} at offset ${error.pos}`);
}

function visit(node: SyntaxNode, depth: number, parts: CommandPart[], state: SplitState, bindings: Bindings): void {
  switch (node.type) {
    case 'Script':
      checkErrors(node as Unbash.ParsedScript);
      break;
    case 'Command':
      addCommand(node, depth, parts, state, bindings);
      break;
    case 'Redirect':
      addRedirect(node, parts, bindings);
      break;
    case 'Function':
      // The name may shadow an allowed command: what a later word runs is no longer what it says.
      state.unjudgeable ??= `it defines a function (${node.name.text}), so a command's name may not be what runs`;
      break;
    case 'For': {
      for (const word of node.wordlist ?? []) visit(word, depth, parts, state, bindings);
      const values = node.wordlist === undefined ? undefined : node.wordlist.flatMap((word) => wordValues(word, bindings) ?? [UNKNOWN]);
      const known = values !== undefined && !values.includes(UNKNOWN) && values.length <= MAX_WORD_ALTERNATIVES;
      const inner = new Map(bindings);
      if (known) inner.set(node.name.value, values);
      else inner.delete(node.name.value);
      visit(node.body, depth, parts, state, inner);
      return;
    }
    case 'CommandExpansion':
    case 'ProcessSubstitution':
    case 'ArithmeticCommandExpansion':
      if (!node.script) throw new Unsplittable(`a substitution does not parse: ${node.text}`);
      break;
    case 'Coproc':
      throw new Unsplittable('coproc is not supported');
    default:
      break;
  }
  if (parts.length > MAX_COMMAND_PARTS) throw new Unsplittable(`it has more than ${MAX_COMMAND_PARTS} parts`);
  parser().forEachChild(node, (child) => visit(child, depth, parts, state, bindings));
}

function addCommand(node: Unbash.Command, depth: number, parts: CommandPart[], state: SplitState, bindings: Bindings): void {
  const words: CommandWord[] = [];
  for (const prefix of node.prefix) {
    if (prefix.type === 'Assignment') words.push({ value: prefix.text, literal: isLiteralAssignment(prefix), text: prefix.text });
  }
  if (node.name) words.push(toWord(node.name, bindings));
  for (const suffix of node.suffix) {
    if (suffix.type === 'Word') words.push(toWord(suffix, bindings));
    else if (suffix.type === 'Assignment') words.push({ value: suffix.text, literal: isLiteralAssignment(suffix), text: suffix.text });
  }
  if (words.length === 0) return;
  const prompt = words.find((word) => PROMPT_EXPANSION.test(word.text));
  if (prompt) state.unjudgeable ??= `${prompt.text} expands a prompt string, which runs the commands the variable holds`;
  const arithmetic = words.find((word) => [...word.text.matchAll(ARITHMETIC_EXPANSION)].some((match) => !PLAIN_ARITHMETIC.test(match[0])));
  if (arithmetic) state.unjudgeable ??= `${arithmetic.text} is not plain arithmetic, and bash may run it as a command`;
  parts.push({ kind: 'command', words, text: words.map((word) => word.text).join(' ') });
  addWrapped(words, depth, parts, state);
}

/** `sh -c '...'` and `eval ...` run a command line; `env rm`, `sudo rm` run a command. */
function addWrapped(words: readonly CommandWord[], depth: number, parts: CommandPart[], state: SplitState): void {
  let start = 0;
  while (start < words.length && words[start]!.literal && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!.value)) start += 1;
  const name = words[start];
  if (!name) return;
  if (!name.literal) return;
  const program = basename(name.value);
  const args = words.slice(start + 1);
  if (SHELLS.has(program)) {
    const flagIndex = args.findIndex((word) => /^-[A-Za-z]*c[A-Za-z]*$/.test(word.value));
    if (flagIndex < 0) return;
    const script = args[flagIndex + 1];
    if (!script) return;
    if (!script.literal) throw new Unsplittable(`the script given to ${program} -c is built at run time: ${script.text}`);
    collectScript(script.value, depth + 1, parts, state);
    return;
  }
  if (program === 'eval') {
    if (args.some((word) => !word.literal)) throw new Unsplittable('eval runs text built at run time');
    if (args.length > 0) collectScript(args.map((word) => word.value).join(' '), depth + 1, parts, state);
    return;
  }
  if (program === 'env') {
    const split = envSplitString(args);
    if (split) {
      if (!split.script.literal) throw new Unsplittable(`the command line given to env -S is built at run time: ${split.script.text}`);
      // env runs the string's words, then the words after it; read as a shell line, which is stricter.
      collectScript([split.value, ...args.slice(split.rest).map((word) => word.text)].join(' '), depth + 1, parts, state);
      return;
    }
  }
  if (!WRAPPERS.has(program)) return;
  const takesValue = OPTIONS_WITH_VALUES[program] ?? new Set<string>();
  let index = 0;
  while (index < args.length) {
    const value = args[index]!.value;
    if (takesValue.has(value)) index += 2;
    else if (value.startsWith('-') || (program === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value))) index += 1;
    else if (program === 'timeout' && /^\d+(\.\d+)?[smhd]?$/.test(value)) index += 1;
    else break;
  }
  const wrapped = args.slice(index);
  if (wrapped.length > 0) {
    parts.push({ kind: 'command', words: wrapped, text: wrapped.map((word) => word.text).join(' ') });
    addWrapped(wrapped, depth, parts, state);
  }
  // An option this list does not know may take a value: every later start is checked against deny rules.
  for (let start = 0; start < args.length; start += 1) {
    if (start === index || args[start]!.value.startsWith('-')) continue;
    const words = args.slice(start);
    parts.push({ kind: 'command', words, text: words.map((word) => word.text).join(' '), denyOnly: true });
  }
}

/** `env -S LINE`, `-SLINE`, `-iS LINE`, `--split-string[=]LINE`: the command line env splits and runs, and where its arguments start. */
function envSplitString(args: readonly CommandWord[]): { script: CommandWord; value: string; rest: number } | undefined {
  const takesValue = OPTIONS_WITH_VALUES.env!;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index]!;
    const value = word.value;
    if (value === '--split-string' || /^-[A-Za-z]*S$/.test(value)) {
      const script = args[index + 1];
      return script ? { script, value: script.value, rest: index + 2 } : undefined;
    }
    const glued = /^(?:--split-string=|-[A-Za-z]*S)(.+)$/s.exec(value);
    if (glued) return { script: word, value: glued[1]!, rest: index + 1 };
    if (takesValue.has(value)) index += 1;
    else if (!value.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) return undefined;
  }
  return undefined;
}

function addRedirect(node: Unbash.Redirect, parts: CommandPart[], bindings: Bindings): void {
  const target = node.target ? toWord(node.target, bindings) : undefined;
  if (!target) throw new Unsplittable(`a ${node.operator} redirection has no target`);
  // `2>&1`, `>&-`, `<&3`: descriptors, not files.
  if ((node.operator === '>&' || node.operator === '<&') && /^(\d+-?|-)$/.test(target.value)) return;
  if (target.literal && NOT_FILES.has(target.value)) return;
  // `> >(cat)`: a pipe into a command, which is a part of its own.
  if (node.target?.parts?.length === 1 && node.target.parts[0]!.type === 'ProcessSubstitution') return;
  const access = node.operator === '<' || node.operator === '<&' ? 'read' : 'write';
  parts.push({ kind: 'redirect', access, operator: node.operator, target });
}

function toWord(word: Unbash.Word, bindings: Bindings): CommandWord {
  const literal = isLiteralWord(word);
  if (literal) return { value: word.value, literal, text: word.text };
  const alternatives = wordValues(word, bindings);
  return alternatives && !alternatives.includes(UNKNOWN) ? { value: word.value, literal, text: word.text, alternatives } : { value: word.value, literal, text: word.text };
}

/** Stands for a value only known at run time among a word's values. */
const UNKNOWN = '\u0000unknown';
/** `$((1 + 2 * 3))`: digits and operators, no names (a name may make bash read it as `$( (cmd) )`). */
const PLAIN_ARITHMETIC = /^\$\(\([\d\s+\-*/%()<>=!&|^~?:,]*\)\)$/;
/** Special parameters that expand to numbers (`$?`, `$#`, `$$`, `$!`): never a file outside. */
const NUMERIC_PARAMETER = /^\$(?:[?#$!]|\{[?#$!]\})$/;

/** The values a word can take, when they are known before it runs; undefined when they are not. */
function wordValues(word: Unbash.Word, bindings: Bindings): string[] | undefined {
  if (!word.parts) return word.text.startsWith('~') || /[*?[]/.test(word.text) ? undefined : [word.value];
  let values = [''];
  for (const [index, part] of word.parts.entries()) {
    const choices = partValues(part, index, bindings);
    if (!choices) return undefined;
    values = values.flatMap((value) => choices.map((choice) => value + choice));
    if (values.length > MAX_WORD_ALTERNATIVES) return undefined;
  }
  return values;
}

function partValues(part: Unbash.WordPart | Unbash.DoubleQuotedChild, index: number, bindings: Bindings): string[] | undefined {
  switch (part.type) {
    case 'Literal':
      return index === 0 && part.text.startsWith('~') ? undefined : [part.value];
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      return [part.value];
    case 'DoubleQuoted': {
      let values = [''];
      for (const child of part.parts) {
        const choices = partValues(child, 1, bindings);
        if (!choices) return undefined;
        values = values.flatMap((value) => choices.map((choice) => value + choice));
      }
      return values;
    }
    case 'ArithmeticExpansion':
      // Only numbers and operators: bash runs `$(( cmd ))` that is not arithmetic as a command.
      return PLAIN_ARITHMETIC.test(part.text) ? ['0'] : undefined;
    case 'CommandExpansion':
      // Its commands are parts of their own, but what they print may name any file (`cat $(ls -a)`).
      return undefined;
    case 'ProcessSubstitution':
      // Its commands are parts of their own; the word is a pipe's path, no file of the workspace.
      return [''];
    case 'SimpleExpansion':
    case 'ParameterExpansion': {
      if (NUMERIC_PARAMETER.test(part.text)) return ['0'];
      const name = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(part.text)?.[1];
      return name === undefined ? undefined : bindings.get(name)?.slice();
    }
    case 'BraceExpansion':
      return braceValues(part.text);
    default:
      return undefined;
  }
}

/** `{a,b}` with plain items, `{1..9}`, `{a..e}`, every value spelled out; undefined otherwise. */
function braceValues(text: string): string[] | undefined {
  const range = /^\{(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])\}$/.exec(text);
  if (range) return rangeValues(range[1]!, range[2]!);
  const list = /^\{([A-Za-z0-9_.,\/@%+=:-]*)\}$/.exec(text);
  if (!list || !list[1]!.includes(',')) return undefined;
  return list[1]!.split(',');
}

/** The values of a brace range as bash makes them (zero-padded numbers, letters by char code); undefined past the word limit. */
function rangeValues(from: string, to: string): string[] | undefined {
  const numeric = /\d/.test(from);
  if (numeric !== /\d/.test(to)) return undefined;
  const first = numeric ? Number(from) : from.charCodeAt(0);
  const last = numeric ? Number(to) : to.charCodeAt(0);
  if (Math.abs(last - first) + 1 > MAX_WORD_ALTERNATIVES) return undefined;
  const padded = numeric && [from, to].some((end) => /^-?0\d/.test(end));
  const width = Math.max(from.replace('-', '').length, to.replace('-', '').length);
  const values: string[] = [];
  for (let value = first; ; value += last >= first ? 1 : -1) {
    if (!numeric) values.push(String.fromCharCode(value));
    else values.push(padded ? `${value < 0 ? '-' : ''}${String(Math.abs(value)).padStart(width, '0')}` : String(value));
    if (value === last) break;
  }
  return values;
}

/** A word whose value is fixed before the shell runs: no expansion, no glob, no unquoted leading `~`. */
function isLiteralWord(word: Unbash.Word): boolean {
  if (!word.parts) return !word.text.startsWith('~') && !/[*?[]/.test(word.text);
  return word.parts.every((part, index) => {
    switch (part.type) {
      case 'Literal':
        return !(index === 0 && part.text.startsWith('~'));
      case 'SingleQuoted':
      case 'AnsiCQuoted':
        return true;
      case 'DoubleQuoted':
        return part.parts.every((child) => child.type === 'Literal');
      default:
        return false;
    }
  });
}

function isLiteralAssignment(assignment: Unbash.Assignment): boolean {
  return assignment.value.type === 'Word' && isLiteralWord(assignment.value) && assignment.index === undefined;
}

function basename(value: string): string {
  const slash = value.lastIndexOf('/');
  return slash >= 0 ? value.slice(slash + 1) : value;
}

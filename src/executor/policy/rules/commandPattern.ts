// The pattern inside a Bash rule, as Claude Code users write it: `*` anywhere (`ls*`, `git * main`,
// `* --version`), a trailing `:*` or ` *` (any further words), quotes, a pattern cut inside an open
// quote (`python3 -c ' *`), and whole command lines (`cd api && npm test`). A pattern is compared
// with one simple command at a time: its words joined by a word boundary, so a `*` may span words
// but never the operators between commands, and a quoted space is never a boundary.

/** Between two words of a command, as the matcher sees it. */
export const WORD_BOUNDARY = '\u0000';
/** Starts a word whose value is only known at run time: only a `*` or the same source text matches it. */
export const RUN_TIME_WORD = '\u0001';

/** One token of a compiled pattern: a character, a word boundary, or `*` (anything, boundaries included). */
export type PatternToken = string;
const ANY = '\u0002';

/** A pattern for one simple command. */
export interface WordPattern {
  readonly tokens: readonly PatternToken[];
  /** `:*` or a trailing ` *`: the command may go on with more words (or stop here). */
  readonly rest: boolean;
  /** Cut inside an open quote: the next word must be written with this quote (then anything follows). */
  readonly openQuote?: '"' | "'";
  /** How many words precede the open quote. */
  readonly wordsBeforeQuote?: number;
  /** Whether the pattern holds a `*` of its own (not only the trailing one). */
  readonly wildcard: boolean;
  /** A quote was left open with no `*` after it: read as a cut, which only a deny or ask may use. */
  readonly unterminated?: boolean;
}

/** The words of one command as the matcher reads them. */
export interface MatchWord {
  readonly value: string;
  readonly literal: boolean;
  readonly text: string;
}

/** Characters that make a shell line more than one plain command. */
const SHELL_OPERATOR = /[;&|<>()`\n]|\$\(/;

/**
 * Splits a rule body into the pattern's tokens. Quotes are removed, a backslash keeps the next
 * character, unquoted white space is one boundary and an unquoted `*` matches anything. Never throws.
 */
export function compileWordPattern(body: string, rest: boolean): WordPattern {
  const tokens: PatternToken[] = [];
  let quote: '"' | "'" | undefined;
  let words = 0;
  let wordStart = true;
  let wildcard = false;
  let wordText = '';
  const startWord = () => {
    if (!wordStart) return;
    wordStart = false;
    wordText = '';
  };
  const endWord = () => {
    if (wordStart) return;
    // A word holding `$` or a backquote outside single quotes is compared by its source text.
    if (/[$`]/.test(stripSingleQuoted(wordText)) && !wordText.includes('*')) {
      let index = tokens.length - 1;
      while (index >= 0 && tokens[index] !== WORD_BOUNDARY) index -= 1;
      tokens.splice(index + 1, tokens.length - index - 1, RUN_TIME_WORD, ...wordText);
    }
    words += 1;
    wordStart = true;
  };
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (quote === "'") {
      wordText += char;
      if (char === "'") quote = undefined;
      else tokens.push(char);
      continue;
    }
    if (quote === '"') {
      wordText += char;
      if (char === '"') quote = undefined;
      else if (char === '\\' && index + 1 < body.length && '"\\$`'.includes(body[index + 1]!)) {
        wordText += body[index + 1]!;
        tokens.push(body[(index += 1)]!);
      } else tokens.push(char);
      continue;
    }
    if (/\s/.test(char)) {
      if (!wordStart) {
        endWord();
        tokens.push(WORD_BOUNDARY);
      }
      continue;
    }
    startWord();
    wordText += char;
    if (char === "'" || char === '"') quote = char;
    else if (char === '\\' && index + 1 < body.length) {
      wordText += body[index + 1]!;
      tokens.push(body[(index += 1)]!);
    } else if (char === '*') {
      wildcard = true;
      tokens.push(ANY);
    } else tokens.push(char);
  }
  if (quote) {
    // Cut inside a quote: what was read of the quoted word is not part of the pattern.
    let index = tokens.length - 1;
    while (index >= 0 && tokens[index] !== WORD_BOUNDARY) index -= 1;
    const quotedAt = wordText.indexOf(quote);
    const beforeQuote = tokens.slice(index + 1, index + 1 + quotedAt);
    tokens.splice(index + 1);
    const unterminated = !rest;
    if (beforeQuote.length > 0) return { tokens: [...tokens, ...beforeQuote, ANY], rest: false, wildcard: true, unterminated };
    while (tokens[tokens.length - 1] === WORD_BOUNDARY) tokens.pop();
    return { tokens, rest: true, openQuote: quote, wordsBeforeQuote: words, wildcard, unterminated };
  }
  endWord();
  while (tokens[tokens.length - 1] === WORD_BOUNDARY) tokens.pop();
  return { tokens, rest, wildcard };
}

function stripSingleQuoted(text: string): string {
  return text.replace(/'[^']*'/g, '');
}

/** Whether the rule body holds shell syntax beyond one command of words (outside quotes). */
export function hasShellOperator(body: string): boolean {
  return SHELL_OPERATOR.test(body.replace(/'[^']*'|"(?:[^"\\]|\\.)*"|\\./g, ''));
}

/** `:*` or a trailing ` *`: the body before it and true; otherwise the content as it is. */
export function splitRest(content: string): { body: string; rest: boolean } {
  if (content.endsWith(':*')) return { body: content.slice(0, -2), rest: true };
  const trailing = /\s+\*$/.exec(content);
  if (trailing) return { body: content.slice(0, trailing.index), rest: true };
  return { body: content, rest: false };
}

/** The command as the matcher reads it: words joined by boundaries; run-time words marked. */
export function commandInput(words: readonly MatchWord[]): string {
  return words.map(inputWord).join(WORD_BOUNDARY);
}

function inputWord(word: MatchWord): string {
  if (word.literal || isTildeWord(word)) return word.value;
  return RUN_TIME_WORD + word.text;
}

/** `~/bin/tool`: fixed once the home folder is, and compared as written. */
export function isTildeWord(word: MatchWord): boolean {
  return word.text === word.value && /^~[^$`*?[\\'"{]*$/.test(word.text);
}

/**
 * Matches the input against the tokens. `full`: the whole input matches; `viable`: the input could
 * be the start of a matching one (for a command whose later words are only known at run time).
 */
export function matchTokens(pattern: WordPattern, input: string): { full: boolean; viable: boolean } {
  const tokens = pattern.tokens;
  const closure = (states: Set<number>) => {
    for (const state of [...states]) {
      let next = state;
      while (tokens[next] === ANY) states.add((next += 1));
    }
    return states;
  };
  let states = closure(new Set([0]));
  let full = false;
  const accepts = (position: number, set: Set<number>) => set.has(tokens.length) && (position === input.length || (pattern.rest && input[position] === WORD_BOUNDARY));
  for (let position = 0; position <= input.length; position += 1) {
    if (accepts(position, states)) {
      full = position === input.length || pattern.rest;
      if (full) break;
    }
    if (position === input.length) break;
    const char = input[position]!;
    const next = new Set<number>();
    for (const state of states) {
      const token = tokens[state];
      if (token === ANY) next.add(state);
      else if (token !== undefined && token === char) next.add(state + 1);
    }
    states = closure(next);
    if (states.size === 0) return { full: false, viable: false };
  }
  return { full, viable: full || states.size > 0 };
}

/** The open-quote condition: the word after the pattern's words is written with that quote. */
export function openQuoteHolds(pattern: WordPattern, words: readonly MatchWord[]): boolean {
  if (!pattern.openQuote) return true;
  const word = words[pattern.wordsBeforeQuote ?? 0];
  return word !== undefined && word.text.startsWith(pattern.openQuote);
}

/** The pattern as text, for messages: boundaries as spaces, `*` as written. */
export function patternText(pattern: WordPattern): string {
  const text = pattern.tokens.map((token) => (token === WORD_BOUNDARY ? ' ' : token === ANY ? '*' : token === RUN_TIME_WORD ? '' : token)).join('');
  return pattern.openQuote ? `${text} ${pattern.openQuote}…` : pattern.rest ? `${text} *` : text;
}

// Where a value sits in a JSON text, as a line and column, so a refusal names the place to fix.

export interface JsonLocation {
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** The line and column of a character offset. */
export function locationOf(text: string, offset: number): JsonLocation {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** The location of a JSON.parse error in `text`, from the position V8 names in its message. */
export function parseErrorLocation(text: string, error: unknown): JsonLocation | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  if (position) return locationOf(text, Number(position[1]));
  const offset = firstErrorOffset(text);
  return offset === undefined ? undefined : locationOf(text, offset);
}

/** The location of the value at `path` (`['permissions', 'allow', 3]`) in a JSON text; undefined when it is not there. */
export function valueLocation(text: string, path: readonly (string | number)[]): JsonLocation | undefined {
  const found = scanJson(text, path).found;
  return found === undefined ? undefined : locationOf(text, found);
}

/** Where a strict JSON reading of `text` first fails; undefined when it reads to the end. */
export function firstErrorOffset(text: string): number | undefined {
  return scanJson(text).errorAt;
}

/** One strict pass over a JSON text: where it first fails, and where the value at `target` starts. */
function scanJson(text: string, target?: readonly (string | number)[]): { errorAt?: number; found?: number } {
  let index = 0;
  let found: number | undefined;
  const fail = (): never => {
    throw index;
  };
  const space = () => {
    while (index < text.length && /[ \t\r\n]/.test(text[index]!)) index += 1;
  };
  const expect = (char: string) => (text[index] === char ? (index += 1) : fail());
  const string = (): string => {
    const start = index;
    expect('"');
    while (index < text.length && text[index] !== '"') {
      if (text.charCodeAt(index) < 0x20) fail();
      index += text[index] === '\\' ? 2 : 1;
    }
    expect('"');
    return JSON.parse(text.slice(start, index)) as string;
  };
  /** The members of an object or the items of an array, each read by `member`, up to `close`. */
  const members = (close: string, member: (position: number) => void) => {
    index += 1;
    space();
    if (text[index] === close) return void (index += 1);
    for (let position = 0; ; position += 1) {
      member(position);
      space();
      if (text[index] === ',') index += 1;
      else return void expect(close);
    }
  };
  const value = (at: readonly (string | number)[]): void => {
    space();
    if (target && found === undefined && at.length === target.length && at.every((key, position) => key === target[position])) found = index;
    const char = text[index];
    if (char === '{') {
      return members('}', () => {
        space();
        const key = string();
        space();
        expect(':');
        value([...at, key]);
      });
    }
    if (char === '[') return members(']', (position) => value([...at, position]));
    if (char === '"') return void string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(index, index + 400));
    if (!literal) fail();
    index += literal![0].length;
  };
  try {
    value([]);
    space();
    return index < text.length ? { errorAt: index, found } : { found };
  } catch (offset) {
    if (typeof offset === 'number') return { errorAt: offset, found };
    throw offset;
  }
}

/** `permissions.allow[3]` → ['permissions', 'allow', 3]. */
export function keyPath(key: string): (string | number)[] {
  return [...key.matchAll(/([A-Za-z_$][\w$]*)|\[(\d+)\]/g)].map((match) => (match[2] !== undefined ? Number(match[2]) : match[1]!));
}

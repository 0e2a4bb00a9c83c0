import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/** The repository root, from out/test/unit/repo. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/**
 * What a comment in `src` may not hold (house rule: comments say why; measurements, dates and histories go to
 * docs/MEASUREMENTS.md or the commit message). Each finds a shape the comments had, not a word list.
 */
const FORBIDDEN: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'an issue reference', pattern: /\bissues? (?:\d+|§)|\(#\d+\)|(?<![\w&/-])#\d{2,}\b/i },
  { what: 'a date', pattern: /\b20\d\d-[01]\d-[0-3]\d\b/ },
  // The spec's names for the executors it distils: "W's walk", "(W)", "Z's Read", "W names none".
  { what: "the spec's codename W or Z", pattern: /(?<![\w\-[\\'"`])[WZ](?:'s\b|(?=[):,;])|(?= (?:names|caps|uses|changed|passes|grouping)\b))|\([WZ] /u },
  { what: 'a machine', pattern: /\b(?:AMD|EPYC|Intel|Xeon|Ryzen|Firecracker|KVM)\b/ },
  { what: 'a measurement', pattern: /\bmedians?\b|\d\s?µs\b|\d\s?ms (?:against|vs\.?|instead of) [\d+]|\btook \d|\d+ runs\b/ },
];

/** Every comment of a TypeScript source, with its line. */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const seen = new Set<number>();
  const comments: { line: number; text: string }[] = [];
  const take = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      comments.push({ line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.forEachChild(visit);
  };
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return comments.sort((a, b) => a.line - b.line);
}

/** `file:line: what: the comment's line`, for each forbidden shape in a comment of `text`. */
export function findings(file: string, text: string): string[] {
  const found: string[] = [];
  for (const comment of commentsOf(file, text)) {
    comment.text.split('\n').forEach((line, offset) => {
      for (const { what, pattern } of FORBIDDEN) {
        if (pattern.test(line)) found.push(`${file}:${comment.line + offset}: ${what}: ${line.trim()}`);
      }
    });
  }
  return found;
}

function sources(folder: string): string[] {
  return (fs.readdirSync(folder, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(folder, name))
    .sort();
}

describe('comments in src say why', () => {
  it('no comment in src (or the build script that bundles it) holds an issue number, a date, a machine, a measurement or the codenames W/Z', () => {
    const found = [...sources(path.join(ROOT, 'src')), path.join(ROOT, 'scripts', 'build.mjs')].flatMap((file) => findings(path.relative(ROOT, file), fs.readFileSync(file, 'utf8')));
    assert.deepEqual(found, [], 'move measurements to docs/MEASUREMENTS.md and keep the one-line reason; name the spec section, not W or Z');
  });

  it('finds each shape the comments had', () => {
    // Lines as they were in src before the comments were cleaned (one of each kind).
    const bad = [
      '// Starting a bundle with a V8 code cache (issue 13: start-up).',
      '/** ACP agents (issue 16, src/vscode/acp/): which one takes prompts. */',
      '// The executor\'s permission policy (policy issue §1–§3): modes',
      '// Fixed in (#123).',
      '// 1 GiB (medians of 4, alternating, AMD EPYC, 2 cores, 2026-12-02).',
      '/** W: at most 5 handlers run at once. */',
      "// W's workspace walk (spec §5): at most 4 levels deep",
      "/** Z's Bash default timeout (2 minutes). */",
      '/** A line longer than this is replaced (our choice; W names none). */',
      '/** Spec §2 (Z `scheduler.ts`): a parallel group holds at most 10 calls. */',
      '// Firecracker guest: the fork took longer',
      '/** A reading costs 30-40 µs (20 mounts). */',
      '// took 19.4 ms direct against 5.6 ms through the helper',
    ];
    for (const line of bad) {
      assert.equal(findings('x.ts', `${line}\nexport const x = 1;\n`).length > 0, true, `not found: ${line}`);
    }
  });

  it('leaves code and ordinary comments alone', () => {
    const good = [
      "if (stat.state === 'Z' || stat.state === 'X') return false; // a zombie or a dead process",
      "const issue = parsed.error.issues[0]!; // zod's first issue",
      '// A-Z, [A-Z] and `Z` in a regex are not codenames; neither is the #3794ff of a colour.',
      '/** Spec §5: the walk records at most this many files. */',
      '// A fetch times out after 30 s; 500 ms is half a second.',
      'const re = /^E[A-Z]+$/; // an errno code',
    ];
    for (const line of good) {
      assert.deepEqual(findings('x.ts', `${line}\n`), [], line);
    }
  });

  it('reads comments only, not strings or code', () => {
    const text = "const message = 'see issue 13 of 2026-12-02, AMD EPYC';\n// a comment\n";
    assert.deepEqual(findings('x.ts', text), []);
    assert.deepEqual(commentsOf('x.ts', text).map((comment) => comment.text), ['// a comment']);
  });
});

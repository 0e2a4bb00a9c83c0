// Building blocks of the fault catalogue: the entry type, `cli` and `core` (which add an entry), and the
// calls, secrets and checks the class files share.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { PLANTED } from '../unit/executor/results/secrets';
import { checkInvariants, commandLine, HOSTILE_TOOLS, runCli, type Run, type RunOptions } from './harness';

export type { Run } from './harness';

export type DefectClass = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 9 | 12;

export interface FaultEntry {
  readonly id: string;
  /** 1–7, 9 and 11: the defect classes of RELIABILITY.md's list (8 and 10 have no entries); 0: malformed input in general. */
  readonly defectClass: DefectClass;
  readonly fault: string;
  readonly expected: string;
  readonly via: 'cli' | 'core';
  run(): Promise<void>;
}

export const CLASS_NAMES: Readonly<Record<DefectClass, string>> = {
  0: 'Malformed input',
  1: 'Settings that fail open',
  2: 'Results lost on termination',
  3: 'A custom tool takes the batch down',
  4: 'Secrets around the Read rule',
  5: 'Processes that escape',
  6: 'Errors misreported',
  7: 'Unbounded sizes',
  9: 'A path changes between its check and its open',
  12: 'Guards got around (git files, ignore files, lasting rules, artifact URIs, credential forms)',
};

export const GITHUB = PLANTED.find((planted) => planted.secret.startsWith('ghp_'))!.secret;
export const AWS = PLANTED.find((planted) => planted.rule === 'aws-access-key')!.secret;
export const STRIPE = PLANTED.find((planted) => planted.rule === 'stripe-key')!.secret;
/** A value no redaction format knows: only not reading the file keeps it out. */
export const PLAIN_SECRET = 'plain-unformatted-value-7f3a9c';
export const ENV_FILE = `DB_PASSWORD_PLAIN=${PLAIN_SECRET}\nGITHUB_TOKEN=${GITHUB}\n`;

export type CallSpec = { id: string; name: string; input?: unknown };
export const call = (id: string, name: string, input: unknown = {}): CallSpec => ({ id, name, input });
export const ids = (calls: readonly CallSpec[]) => calls.map((item) => item.id);

export interface CliSpec extends Omit<RunOptions, 'id' | 'args'> {
  readonly calls?: unknown;
  readonly extra?: readonly string[];
  readonly exit?: number;
  /** Expected result ids; default: the ids of `calls` when it is an array of calls. */
  readonly ids?: readonly string[];
  readonly secrets?: readonly string[];
  readonly check?: (run: Run) => void | Promise<void>;
  /** Without `--json` (the listing for people). */
  readonly human?: boolean;
  /** The results printed may be any prefix of the calls (the CLI ended before it could print them all). */
  readonly prefix?: boolean;
}

/** Filled by the class files as they are imported (in catalogue order). */
export const entries: FaultEntry[] = [];

export function cli(id: string, defectClass: DefectClass, fault: string, expected: string, spec: CliSpec): void {
  entries.push({
    id,
    defectClass,
    fault,
    expected,
    via: 'cli',
    run: async () => {
      const settings = spec.settings === undefined ? [] : settingsArgs;
      const args = ['run', '--workspace', '{workspace}', '--artifacts', '{artifacts}', ...(spec.human ? [] : ['--json']), ...settings, ...(spec.extra ?? []), spec.stdin !== undefined && spec.calls === undefined ? '-' : '{calls}'];
      const run = await runCli({ ...spec, id, args });
      let expectedIds = spec.ids ?? (Array.isArray(spec.calls) && (spec.exit ?? 0) !== 2 ? ids(spec.calls as CallSpec[]) : []);
      if (spec.prefix) expectedIds = ids(spec.calls as CallSpec[]).slice(0, run.results.length);
      await checkInvariants(id, run, { ids: spec.human ? [] : expectedIds, exit: spec.exit ?? 0, secrets: spec.secrets });
      if (!spec.human && !spec.prefix && (spec.exit ?? 0) !== 2) assert.ok(run.summary, 'the summary line is printed');
      await spec.check?.(run);
    },
  });
}

export function core(id: string, defectClass: DefectClass, fault: string, expected: string, run: () => void | Promise<void>): void {
  entries.push({ id, defectClass, fault, expected, via: 'core', run: async () => run() });
}

export const settingsArgs = ['--settings', '{base}/settings.json'];
/** Live processes whose command line is exactly `command` (for those that shed the entry's marker). */
export function processesRunning(command: string): number {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && commandLine(Number(entry)) === command).length;
}
export const result = (run: Run, id: string) => run.results.find((line) => line.id === id)!;
export const hostile = ['--tools', HOSTILE_TOOLS];
export const allow = ['--approve', 'allow'];

export const withNeighbours = (name: string, input: unknown = {}) => [call('before', 'ok', { ms: 150 }), call('bad', name, input), call('after', 'ok', { ms: 1 })];
export const neighboursFine = (pattern: RegExp) => (run: Run) => {
  assert.equal(result(run, 'before').content, 'ok before');
  assert.equal(result(run, 'after').content, 'ok after');
  assert.equal(result(run, 'bad').isError, true);
  assert.match(result(run, 'bad').content, pattern);
};

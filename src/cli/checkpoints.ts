// `tool-exec undo` and `tool-exec checkpoints`: the turns `tool-exec run` checkpointed, kept beside the
// artifacts (one store per workspace folder), and their undo. A path changed since the turn is never
// overwritten unless `--force` says so; without it, it is skipped and named.
import { createHash } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { AGENT_IGNORE_FILES } from '../executor';
import { CheckpointStore, type TurnRecord } from '../node/checkpoints/checkpointStore';
import { undoTurn, type UndoOutcome } from '../node/checkpoints/undo';
import { DEFAULT_ARTIFACTS_DIR } from './adapters';
import { parseOptions, UsageError } from './args';
import type { CliWriter } from './cliOutput';

/** One store per workspace folder, beside the artifacts. */
export function checkpointStoreFor(workspace: string, artifactsDir: string | undefined, cwd: string): CheckpointStore {
  const root = resolve(cwd, artifactsDir ?? DEFAULT_ARTIFACTS_DIR);
  const key = createHash('sha256').update(resolve(workspace)).digest('hex').slice(0, 16);
  return new CheckpointStore(join(root, 'checkpoints', key), { ignoreFiles: AGENT_IGNORE_FILES });
}

export async function runCheckpointCommand(argv: readonly string[], cwd: string, out: CliWriter): Promise<number> {
  const { values, positionals } = parseOptions(argv, { workspace: { type: 'string' }, artifacts: { type: 'string' }, turn: { type: 'string' }, force: { type: 'boolean' }, json: { type: 'boolean' } });
  const [command, ...rest] = positionals;
  const workspace = resolve(cwd, values.workspace ?? cwd);
  const store = checkpointStoreFor(workspace, values.artifacts, cwd);
  if (command === 'checkpoints') {
    const [action, ...extra] = rest;
    if (extra.length > 0 || (action !== 'list' && action !== 'clear')) throw new UsageError('checkpoints takes list or clear');
    if (values.turn || values.force) throw new UsageError('--turn and --force are for undo');
    if (action === 'clear') {
      const count = store.turns().length;
      store.clear();
      out.write(values.json ? `${JSON.stringify({ cleared: count })}\n` : `Removed the checkpoints of ${count} turn${count === 1 ? '' : 's'}.\n`);
      return 0;
    }
    const turns = store.turns();
    if (values.json) for (const turn of turns) out.write(`${JSON.stringify(listed(turn))}\n`);
    else out.write(turns.length === 0 ? 'No turns are checkpointed for this workspace.\n' : `${turns.map((turn) => `${turn.turnId}  ${new Date(turn.endedAt).toISOString()}  ${turn.kind}  ${turn.title}`).join('\n')}\n`);
    return 0;
  }
  if (rest.length > 0) throw new UsageError(`undo takes no positional argument: ${rest.join(' ')}`);
  const turns = store.turns();
  const turnId = values.turn ?? turns.at(-1)?.turnId;
  if (!turnId) throw new UsageError('nothing to undo: no turn of this workspace is checkpointed');
  const outcome = await undoTurn(store, turnId, () => (values.force ? 'overwrite' : 'skip'));
  out.write(values.json ? `${JSON.stringify(summaryOf(turnId, outcome, workspace))}\n` : describe(turnId, outcome, workspace));
  return outcome.failed.length > 0 ? 1 : 0;
}

function listed(turn: TurnRecord): Record<string, unknown> {
  return { turn: turn.turnId, kind: turn.kind, title: turn.title, endedAt: new Date(turn.endedAt).toISOString(), ...(turn.reverses ? { reverses: turn.reverses } : {}) };
}

function summaryOf(turnId: string, outcome: UndoOutcome, workspace: string): Record<string, unknown> {
  const shown = (file: string) => relative(workspace, file);
  return {
    undone: turnId,
    redoWith: outcome.record?.turnId,
    restored: outcome.restored.map((entry) => ({ path: shown(entry.path), was: entry.kind })),
    skipped: outcome.skipped.map((entry) => ({ path: shown(entry.path), laterTurns: entry.laterTurns })),
    notRestorable: outcome.notRestorable.map((entry) => ({ path: shown(entry.path), reason: entry.reason })),
    failed: outcome.failed.map((entry) => ({ path: shown(entry.path), error: entry.error })),
  };
}

const RESTORE_VERB = { created: 'removed', modified: 'restored', deleted: 'brought back' } as const;
const LEFT_OUT = { 'too-large': 'too large for a checkpoint', 'over-total': 'past the checkpoint size limit', unreadable: 'unreadable when checkpointed', ignored: 'ignored, so never checkpointed' } as const;

function describe(turnId: string, outcome: UndoOutcome, workspace: string): string {
  const shown = (file: string) => relative(workspace, file);
  const lines = [`Undid turn ${turnId}: ${outcome.restored.length} path${outcome.restored.length === 1 ? '' : 's'} put back.`];
  for (const entry of outcome.restored) lines.push(`  ${RESTORE_VERB[entry.kind]}: ${shown(entry.path)}`);
  for (const entry of outcome.skipped) {
    lines.push(`  skipped, changed since${entry.laterTurns.length > 0 ? ` by turn ${entry.laterTurns.join(', ')}` : ''} (--force overwrites): ${shown(entry.path)}`);
  }
  for (const entry of outcome.notRestorable) lines.push(`  not restorable, ${LEFT_OUT[entry.reason]}: ${shown(entry.path)}`);
  for (const entry of outcome.failed) lines.push(`  failed: ${shown(entry.path)}: ${entry.error}`);
  if (outcome.record) lines.push(`Redo with: tool-exec undo --turn ${outcome.record.turnId}`);
  return `${lines.join('\n')}\n`;
}

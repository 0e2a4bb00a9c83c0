// A process in the workspace swaps a symlink between a workspace file and one the policy would ask for,
// as fast as it can, while the real tools run through the real executor pipeline (acceptEdits mode, no
// one to approve: every ask is a denial). The file a tool opens must be the file the policy judged.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ToolExecutor } from '../../../src/executor/executor';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import type { ToolCallResult } from '../../../src/executor/contract/result';
import { ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';

/** Calls of each tool raced against the swapper (the acceptance bar). */
const RACED_CALLS = 1000;
/** Grep starts ripgrep for each call, some milliseconds each: fewer calls keep the suite's time reasonable. */
const RACED_GREPS = 200;
/** A value no redaction format knows: only not reading the file keeps it out of a result. */
const SECRET = 'plain-unformatted-race-secret-51c2e8';

/** Replaces `link` with a symlink to each target in turn, forever: unlink then symlink, so the name is sometimes missing too. */
const SWAPPER = `
const fs = require('node:fs');
const [link, ...targets] = process.argv.slice(1);
process.stdout.write('ready\\n');
for (;;) for (const target of targets) {
  try { fs.unlinkSync(link); } catch {}
  try { fs.symlinkSync(target, link); } catch {}
}`;

interface Race {
  readonly ws: string;
  readonly outside: string;
  readonly executor: ToolExecutor;
  run(name: string, input: unknown): Promise<ToolCallResult>;
}

let counter = 0;

function makeRace(): Race & { dispose(): Promise<void> } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'symlink-race-')));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  const executor = new ToolExecutor({ workspaceFolders: [ws], permissionPolicy: new RulesPolicy({ mode: 'acceptEdits' }) });
  const supervisor = new ProcessSupervisor();
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
  return {
    ws,
    outside,
    executor,
    run: (name, input) => executor.execute({ id: `race_${++counter}`, name, input }),
    async dispose() {
      await executor.dispose();
      await supervisor.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Starts the swapper and waits until it runs. */
async function startSwapper(link: string, targets: readonly string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', SWAPPER, link, ...targets], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', () => resolve());
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('a symlink swapped between the permission check and the open', () => {
  let race: Race & { dispose(): Promise<void> };
  before(() => {
    race = makeRace();
  });
  after(() => race.dispose());

  it(`never lets ${RACED_CALLS} Reads return a secret file the policy would have asked for`, async (t) => {
    fs.writeFileSync(path.join(race.ws, 'inside.txt'), 'harmless\n');
    fs.writeFileSync(path.join(race.ws, '.env'), `DB_PASSWORD=${SECRET}\n`);
    // Without the swapper, the policy asks for the secret: with no one to approve, it is refused.
    fs.symlinkSync(path.join(race.ws, '.env'), path.join(race.ws, 'r'));
    assert.equal((await race.run('Read', { path: 'r' })).errorKind, 'permission');
    fs.unlinkSync(path.join(race.ws, 'r'));
    const swapper = await startSwapper(path.join(race.ws, 'r'), [path.join(race.ws, 'inside.txt'), path.join(race.ws, '.env')]);
    const leaked: string[] = [];
    const outcomes = { read: 0, refused: 0, otherErrors: 0 };
    try {
      for (let index = 0; index < RACED_CALLS; index++) {
        const result = await race.run('Read', { path: 'r' });
        if (result.modelContent.includes(SECRET)) leaked.push(result.modelContent);
        else if (!result.isError) outcomes.read++;
        else if (/changed between its permission check and its open/.test(result.modelContent)) outcomes.refused++;
        else outcomes.otherErrors++;
      }
    } finally {
      await stop(swapper);
    }
    t.diagnostic(`Reads: ${JSON.stringify(outcomes)}`);
    assert.deepEqual(leaked, [], `${leaked.length} of ${RACED_CALLS} Reads returned the secret (${JSON.stringify(outcomes)})`);
  });

  it(`never lets ${RACED_CALLS} Writes create a file outside the workspace`, async (t) => {
    const inside = path.join(race.ws, 'new.txt');
    const escaped = path.join(race.outside, 'RACED');
    // Without the swapper, the policy asks for a write through a link out of the workspace: refused.
    fs.symlinkSync(escaped, path.join(race.ws, 'w'));
    assert.equal((await race.run('Write', { path: 'w', content: 'x' })).errorKind, 'permission');
    assert.equal(fs.existsSync(escaped), false);
    fs.unlinkSync(path.join(race.ws, 'w'));
    const swapper = await startSwapper(path.join(race.ws, 'w'), [inside, escaped]);
    const escapes: string[] = [];
    let written = 0;
    let refused = 0;
    try {
      for (let index = 0; index < RACED_CALLS; index++) {
        const result = await race.run('Write', { path: 'w', content: `call ${index}\n` });
        if (fs.existsSync(escaped)) {
          escapes.push(result.modelContent);
          fs.rmSync(escaped);
        }
        if (!result.isError) written++;
        else if (/changed between its permission check and its open/.test(result.modelContent)) refused++;
        // A new file each time: a file that exists would need a Read first.
        fs.rmSync(inside, { force: true });
      }
    } finally {
      await stop(swapper);
    }
    t.diagnostic(`Writes: ${written} written, ${refused} refused as changed`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${RACED_CALLS} Writes created ${escaped} (${written} reported success)`);
    assert.deepEqual(fs.readdirSync(race.outside), []);
  });

  it(`never lets ${RACED_GREPS} Greps of one file search a secret file the policy would have asked for`, async (t) => {
    fs.writeFileSync(path.join(race.ws, 'inside.txt'), 'harmless\n');
    fs.writeFileSync(path.join(race.ws, '.env'), `DB_PASSWORD=${SECRET}\n`);
    const swapper = await startSwapper(path.join(race.ws, 'g'), [path.join(race.ws, 'inside.txt'), path.join(race.ws, '.env')]);
    const leaked: string[] = [];
    let found = 0;
    try {
      for (let index = 0; index < RACED_GREPS; index++) {
        const result = await race.run('Grep', { pattern: 'DB_PASSWORD|harmless', path: 'g', output_mode: 'content' });
        if (result.modelContent.includes(SECRET)) leaked.push(result.modelContent);
        else if (!result.isError && result.modelContent.includes('harmless')) found++;
      }
    } finally {
      await stop(swapper);
    }
    t.diagnostic(`Greps: ${found} found the workspace file`);
    assert.deepEqual(leaked, [], `${leaked.length} of ${RACED_GREPS} Greps returned the secret`);
  });
});

// KillBash answers only once the task has ended as BashOutput and the task list see it: a tree that has
// exited while its pipes are still being read is not "stopped" yet.
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { ProcessTree } from '../../../src/tools/process/supervisor';
import { BackgroundShells } from '../../../src/tools/shell/backgroundShells';
import { createKillBashTool } from '../../../src/tools/shell/killBash';
import type { BackgroundTaskHost } from '../../../src/tools/options';

function fakeTree(): { tree: ProcessTree; stdout: PassThrough; stderr: PassThrough } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let exit!: (value: { code: number | null; signal: NodeJS.Signals | null }) => void;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => (exit = resolve));
  const tree = {
    child: { stdout, stderr },
    exited,
    // The tree is gone at once; its pipes end a moment later, as when the kernel still holds their last bytes.
    kill: async () => {
      exit({ code: null, signal: 'SIGTERM' });
      setTimeout(() => {
        stdout.end('last words\n');
        stderr.end();
      }, 50);
    },
  } as unknown as ProcessTree;
  return { tree, stdout, stderr };
}

describe('KillBash', () => {
  it('says stopped only once the shell has finished reading its output', async () => {
    let stop: (() => Promise<void>) | undefined;
    const host = {
      backgroundTasks: {
        stop: async () => {
          await stop?.();
          return true;
        },
      },
      trackExternalBackgroundTask: (task: { stop: () => Promise<void>; done: Promise<void> }) => {
        stop = task.stop;
        task.done.catch(() => undefined);
        return { id: 't1' };
      },
    } as unknown as BackgroundTaskHost;
    const shells = new BackgroundShells(host);
    const { tree } = fakeTree();
    const shell = shells.add('sleep 1000', undefined, tree);
    const tool = createKillBashTool(shells);
    const output = await tool.handler({ task_id: 't1' }, {} as never);
    assert.equal(shell.running, false);
    assert.deepEqual(output.data, { id: 't1', command: 'sleep 1000', running: false, exitCode: null, signal: 'SIGTERM' });
    assert.match(shell.output(), /last words/);
  });
});

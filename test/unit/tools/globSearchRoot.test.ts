// Glob searches from the folder its permission subject names, read by the same resolver: with two
// workspace folders, resolving `path` first and joining the pattern's base after used to land elsewhere.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { PermissionSubject } from '../../../src/executor/contract/contract';
import { ToolExecutor } from '../../../src/executor/executor';
import { judgePath } from '../../../src/executor/policy/path/judgePath';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import { createGlobTool } from '../../../src/tools/search/glob';
import { ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';

describe('Glob and the permission policy', () => {
  let root: string;
  let folders: string[];
  let executor: ToolExecutor;
  let supervisor: ProcessSupervisor;
  const at = (relative: string) => path.join(root, relative);

  beforeEach(() => {
    // Two folders, home/a and srv/b; only srv/b has `p`; srv/a/sub is outside both.
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'glob-root-')));
    for (const file of ['home/a/sub/ok.txt', 'srv/b/p/.keep', 'srv/a/sub/secret.txt']) {
      mkdirSync(path.dirname(at(file)), { recursive: true });
      writeFileSync(at(file), '');
    }
    folders = [at('home/a'), at('srv/b')];
    executor = new ToolExecutor({ workspaceFolders: folders, permissionPolicy: new RulesPolicy() });
    supervisor = new ProcessSupervisor();
    registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
  });
  afterEach(async () => {
    await executor.dispose();
    await supervisor.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const run = (input: unknown) => executor.execute({ id: 'call_glob', name: 'Glob', input }, {});

  it('lists the folder the policy judged, not one outside the workspace', async () => {
    const input = { pattern: '../../a/sub/*', path: 'p' };
    const subject = createGlobTool().permissionSubject!(input) as PermissionSubject;
    const judged = await judgePath(subject.kind === 'path' ? subject.path : '', folders);
    assert.deepEqual(judged.kind === 'file' && judged.path.real, [at('home/a/sub')]);
    const result = await run(input);
    assert.equal(result.modelContent, at('home/a/sub/ok.txt'));
  });

  it('searches the workspace folder for a blank path, as for none', async () => {
    const input = { pattern: 'sub/*', path: '  ' };
    assert.deepEqual(createGlobTool().permissionSubject!(input), { kind: 'path', path: 'sub', access: 'read' });
    assert.equal((await run(input)).modelContent, at('home/a/sub/ok.txt'));
  });

  it('lists the one file a pattern without wildcards names', async () => {
    assert.equal((await run({ pattern: 'sub/ok.txt' })).modelContent, at('home/a/sub/ok.txt'));
    assert.match((await run({ pattern: 'sub/none.txt' })).modelContent, /^No files match sub\/none\.txt in /);
  });
});

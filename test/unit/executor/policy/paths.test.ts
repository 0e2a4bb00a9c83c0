import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
// The module itself, whose methods the resolver calls through (`import *` gives a copy of it).
import nodeFs = require('node:fs');
import { processMountTable } from '../../../../src/node/runtime/localMounts';
import { isInside, realLocation, resolvePath, sharedJudge } from '../../../../src/executor/policy/path/judgePath';
import { makeSandbox, type Sandbox } from './policyFixtures';

// Both ways the mount table may decide (src/node/runtime/localMounts.ts): the same readings either way.
for (const synchronous of [true, false]) describe(`resolvePath: .. and symlinks are resolved before any rule (${synchronous ? 'synchronous realpath' : 'through the thread pool'})`, () => {
  let box: Sandbox;
  let syncCalls: { mock: { callCount(): number } };
  before(() => {
    box = makeSandbox();
    mock.method(processMountTable(), 'noRemoteMounts', () => synchronous);
    syncCalls = mock.method(nodeFs.realpathSync, 'native');
  });
  after(() => {
    mock.restoreAll();
    assert.equal(syncCalls.mock.callCount() > 0, synchronous, 'the way asked for was taken');
    return box.dispose();
  });

  it('removes .. and resolves relative paths in the workspace', async () => {
    const resolved = await resolvePath('src/../../outside/secret.txt', [box.ws]);
    assert.deepEqual(resolved.real, [path.join(box.outside, 'secret.txt')]);
    assert.equal(resolved.lexical, path.join(box.outside, 'secret.txt'));
  });

  it('follows a file link and a folder link out of the workspace', async () => {
    assert.deepEqual((await resolvePath('src/link.txt', [box.ws])).real, [path.join(box.outside, 'secret.txt')]);
    assert.deepEqual((await resolvePath('src/out/new-file.txt', [box.ws])).real, [path.join(box.outside, 'new-file.txt')]);
  });

  it('follows a dangling link to where a write would create the file', async () => {
    assert.deepEqual((await resolvePath('dangling', [box.ws])).real, [path.join(box.outside, 'new.txt')]);
  });

  it('checks both readings when the kernel and a lexical resolver disagree (link/..)', async () => {
    // The kernel resolves src/out/.. to the parent of `outside`; a lexical resolver to ws/src.
    const resolved = await resolvePath('src/out/../x.txt', [box.ws]);
    assert.deepEqual([...resolved.real].sort(), [path.join(box.ws, 'src', 'x.txt'), path.join(path.dirname(box.outside), 'x.txt')].sort());
  });

  it('keeps missing components as written', async () => {
    assert.equal(await realLocation(path.join(box.ws, 'new', 'deeper', 'f.txt')), path.join(box.ws, 'new', 'deeper', 'f.txt'));
  });

  it('isInside compares whole path components', () => {
    assert.ok(isInside('/a/b/c', '/a/b'));
    assert.ok(isInside('/a/b', '/a/b'));
    assert.ok(!isInside('/a/bc', '/a/b'));
  });
});

describe('sharedJudge: a call reads each of its paths once', () => {
  let box: Sandbox;
  before(() => {
    box = makeSandbox();
  });
  after(() => box.dispose());

  it('gives the same reading for the same path and folders, and reads again for other folders', async () => {
    const judge = sharedJudge();
    const first = judge('src/link.txt', [box.ws]);
    assert.equal(judge('src/link.txt', [box.ws]), first);
    assert.notEqual(judge('src/link.txt', [path.join(box.ws, 'src')]), first);
    assert.notEqual(judge('src/other.txt', [box.ws]), first);
    const judged = await first;
    assert.equal(judged.kind, 'file');
    assert.deepEqual(judged.kind === 'file' && judged.path.real, [path.join(box.outside, 'secret.txt')]);
    // What resolvePath gives through it is what it gives alone.
    assert.deepEqual(await resolvePath('src/link.txt', [box.ws], judge), await resolvePath('src/link.txt', [box.ws]));
  });
});

// The one reading of a model-given path that the policy judges and the tools open: each form it accepts,
// and the near misses it must read otherwise or refuse.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveModelPath, workDirOf, type ModelPath } from '../../../src/executor/policy/path/modelPath';

function file(result: ModelPath): { absolute: string; unnormalised: string } {
  assert.ok(result.ok && result.kind === 'file', JSON.stringify(result));
  return { absolute: result.absolute, unnormalised: result.unnormalised };
}

describe('resolveModelPath', () => {
  let root: string;
  let one: string;
  let two: string;
  before(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'model-path-')));
    one = path.join(root, 'one');
    two = path.join(root, 'two');
    mkdirSync(path.join(one, 'src'), { recursive: true });
    mkdirSync(path.join(two, 'lib'), { recursive: true });
    writeFileSync(path.join(two, 'lib', 'only-here.ts'), '');
    writeFileSync(path.join(one, 'both.ts'), '');
    writeFileSync(path.join(two, 'both.ts'), '');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('refuses an empty or blank path with an error that says what to give', () => {
    for (const raw of ['', '   ', '\n\t']) {
      const result = resolveModelPath(raw, [one]);
      assert.equal(result.ok, false, JSON.stringify(raw));
      assert.match(!result.ok ? result.error : '', /^path is empty: give an absolute path or one relative to the workspace folder$/);
    }
  });

  it('reads an artifact URI as a persisted result, trimmed, never as a file name', () => {
    assert.deepEqual(resolveModelPath('  executor-artifact://s1/c1-tool-result-u.txt \n', [one]), { ok: true, kind: 'artifact', uri: 'executor-artifact://s1/c1-tool-result-u.txt' });
    assert.equal(file(resolveModelPath('executor-artifact/s1', [one])).absolute, path.join(one, 'executor-artifact/s1'), 'a folder of that name');
  });

  it('keeps an absolute path, trimmed, with .. removed for the tools and kept for the policy', () => {
    assert.deepEqual(file(resolveModelPath(' /etc/passwd ', [one])), { absolute: '/etc/passwd', unnormalised: '/etc/passwd' });
    assert.deepEqual(file(resolveModelPath('/a/b/../../etc/passwd', [one])), { absolute: '/etc/passwd', unnormalised: '/a/b/../../etc/passwd' });
  });

  it('reads a file:// URL of this machine, decoded', () => {
    assert.deepEqual(file(resolveModelPath('file:///tmp/a%20b.txt', [one])), { absolute: '/tmp/a b.txt', unnormalised: '/tmp/a b.txt' });
    assert.deepEqual(file(resolveModelPath('file://localhost/tmp/x', [one])), { absolute: '/tmp/x', unnormalised: '/tmp/x' });
  });

  it('refuses a file:// URL of another host, or with an encoded slash, with the reason and what to give instead', () => {
    for (const raw of ['file://otherhost/etc/passwd', 'file:///etc%2Fpasswd']) {
      const result = resolveModelPath(raw, [one]);
      assert.equal(result.ok, false, raw);
      assert.match(!result.ok ? result.error : '', new RegExp(`^${raw.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a file URL of this machine \\(.+\\): give the path itself$`));
    }
  });

  it('reads ~ and ~/ as the home folder, and ~name or a ~ inside a path as written', () => {
    const home = os.homedir();
    assert.deepEqual(file(resolveModelPath('~', [one])), { absolute: home, unnormalised: home });
    assert.deepEqual(file(resolveModelPath('~/.ssh/id_rsa', [one])), { absolute: path.join(home, '.ssh/id_rsa'), unnormalised: `${home}/.ssh/id_rsa` });
    assert.equal(file(resolveModelPath('~root/x', [one])).absolute, path.join(one, '~root/x'));
    assert.equal(file(resolveModelPath('src/~/x', [one])).absolute, path.join(one, 'src/~/x'));
  });

  it('puts a relative path in the first folder that has it, else the first folder', () => {
    assert.equal(file(resolveModelPath('lib/only-here.ts', [one, two])).absolute, path.join(two, 'lib', 'only-here.ts'));
    assert.equal(file(resolveModelPath('both.ts', [one, two])).absolute, path.join(one, 'both.ts'));
    assert.equal(file(resolveModelPath('both.ts', [two, one])).absolute, path.join(two, 'both.ts'));
    assert.equal(file(resolveModelPath('new.ts', [one, two])).absolute, path.join(one, 'new.ts'));
    assert.deepEqual(file(resolveModelPath('src/../../two/both.ts', [one, two])), { absolute: path.join(two, 'both.ts'), unnormalised: `${one}/src/../../two/both.ts` });
  });

  it('with no workspace folder, reads a relative path in the process\'s working folder', () => {
    assert.equal(file(resolveModelPath('x.txt', [])).absolute, path.join(process.cwd(), 'x.txt'));
  });
});

describe('workDirOf', () => {
  it('is the first workspace folder, else the process\'s working folder', () => {
    assert.equal(workDirOf(['/w/a', '/w/b']), '/w/a');
    assert.equal(workDirOf([]), process.cwd());
  });
});

// How a path rule is anchored (absolute, home, workspace, any depth) and what each anchor covers, each
// from both sides: the paths it names and the near misses it must not cover.
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { isAbsolutePattern, parsePathPattern, pathPatternMatches } from '../../../../src/executor/policy/path/pathMatch';

const home = os.homedir();
const first = '/w/one';
const second = '/w/two';
const folders = [first, second];
const covers = (rule: string, candidate: string, within: readonly string[] = folders) => pathPatternMatches(parsePathPattern(rule), candidate, within);

describe('parsePathPattern: where a rule is anchored', () => {
  it('reads //, ~ and ~/ as absolute; /, ./ and a slash inside as the workspace; a bare name as any depth', () => {
    assert.deepEqual(parsePathPattern('//etc/**'), { anchor: 'absolute', glob: '/etc/**' });
    assert.deepEqual(parsePathPattern('~'), { anchor: 'absolute', glob: home });
    assert.deepEqual(parsePathPattern('~/notes/**'), { anchor: 'absolute', glob: path.posix.join(home, 'notes/**') });
    assert.deepEqual(parsePathPattern('/docs/**'), { anchor: 'workspace', glob: 'docs/**' });
    assert.deepEqual(parsePathPattern('./docs/**'), { anchor: 'workspace', glob: 'docs/**' });
    assert.deepEqual(parsePathPattern('./.env'), { anchor: 'workspace', glob: '.env' });
    assert.deepEqual(parsePathPattern('src/**'), { anchor: 'workspace', glob: 'src/**' });
    assert.deepEqual(parsePathPattern('src/gen/'), { anchor: 'workspace', glob: 'src/gen' });
    assert.deepEqual(parsePathPattern('docs/'), { anchor: 'anywhere', glob: 'docs' });
    assert.deepEqual(parsePathPattern('*.pem'), { anchor: 'anywhere', glob: '*.pem' });
    assert.deepEqual(parsePathPattern('~user/x'), { anchor: 'workspace', glob: '~user/x' }, 'another user\'s home is not expanded');
  });

  it('only absolute and home rules reach outside the workspace folders', () => {
    for (const rule of ['//etc/**', '~', '~/x']) assert.equal(isAbsolutePattern(parsePathPattern(rule)), true, rule);
    for (const rule of ['/etc/**', './x', 'src/**', '.env', '~user/x']) assert.equal(isAbsolutePattern(parsePathPattern(rule)), false, rule);
  });
});

describe('pathPatternMatches: what each anchor covers', () => {
  it('an absolute rule covers its path and what is below it, and nothing beside it', () => {
    assert.equal(covers('//etc', '/etc/ssh/sshd_config'), true);
    assert.equal(covers('//etc/passwd', '/etc/passwd'), true);
    assert.equal(covers('//etc', '/etcetera/x'), false);
    assert.equal(covers('//etc/passwd', '/etc/passwd.bak'), false);
  });

  it('~ covers the whole home folder and only it; ~/x covers x', () => {
    assert.equal(covers('~', path.join(home, '.bashrc')), true);
    assert.equal(covers('~', path.join(home, 'a/b/c')), true);
    assert.equal(covers('~', `${home}x/a`), false);
    assert.equal(covers('~', '/etc/passwd'), false);
    assert.equal(covers('~/.ssh', path.join(home, '.ssh/id_ed25519')), true);
    assert.equal(covers('~/.ssh', path.join(home, 'x/.ssh/id_ed25519')), false);
  });

  it('a workspace rule covers its path in any workspace folder, and not outside them or deeper', () => {
    assert.equal(covers('/docs/**', '/w/two/docs/a.md'), true, 'the second folder');
    assert.equal(covers('/docs/**', '/w/one/docs/a.md'), true);
    assert.equal(covers('/docs/**', '/w/three/docs/a.md'), false, 'not a workspace folder');
    assert.equal(covers('/docs/**', '/w/one/x/docs/a.md'), false);
    assert.equal(covers('./.env', '/w/one/.env'), true);
    assert.equal(covers('./.env', '/w/one/sub/.env'), false, './ anchors a bare name');
    assert.equal(covers('src/gen/', '/w/one/src/gen/a.ts'), true);
    assert.equal(covers('src/gen/', '/w/one/src/generated/a.ts'), false);
  });

  it('a workspace rule that names everything still covers nothing outside the folders', () => {
    for (const rule of ['/**', './**', '**/*']) {
      assert.equal(covers(rule, '/w/one/a/b'), true, rule);
      assert.equal(covers(rule, '/w/three/a/b'), false, rule);
      assert.equal(covers(rule, '/elsewhere'), false, rule);
    }
  });

  it('a class glob covers only the names it matches, at the level it names', () => {
    assert.equal(covers('./[A-Z]*', '/w/one/Upper/x'), true);
    assert.equal(covers('./[A-Z]*', '/w/one/lower/x'), false);
    assert.equal(covers('./[A-Z]*', '/w/one/lower/Upper'), false);
  });

  it('a workspace rule never covers a workspace folder itself', () => {
    for (const rule of ['/**', './**', '**/*']) assert.equal(covers(rule, first), false, rule);
  });

  it('globs cover dotfiles: a deny on docs/** covers docs/.secret', () => {
    assert.equal(covers('docs/**', '/w/one/docs/.secret'), true);
    assert.equal(covers('//etc/**', '/etc/.pwd.lock'), true);
    assert.equal(covers('*', '/w/one/.env'), true);
    assert.equal(covers('*.key', '/w/one/a/.hidden.key'), true);
    assert.equal(covers('docs/*.md', '/w/one/docs/.draft.md'), true);
  });

  it('a bare name covers a file or folder of that name at any depth, not a name that contains it', () => {
    assert.equal(covers('docs/', '/w/one/a/docs/x.md'), true);
    assert.equal(covers('.env', '/elsewhere/.env'), true, 'any depth, also outside the workspace');
    assert.equal(covers('.env', '/w/one/.envrc'), false);
    assert.equal(covers('.env', '/w/one/a.env/x'), false);
  });

  it('answers the same for a pattern asked again (the compiled matcher is kept)', () => {
    for (let round = 0; round < 3; round++) {
      assert.equal(covers('/docs/**', '/w/one/docs/a.md'), true);
      assert.equal(covers('/docs/**', '/w/one/src/a.md'), false);
    }
  });
});

// The permission policy judges the very path the tools open (one resolver), and the
// artifact scheme is defined once.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { ToolDefinition } from '../../../../src/executor/contract/contract';
import { ModePolicy } from '../../../../src/executor/policy/modePolicy';
import type { PermissionPolicy } from '../../../../src/executor/ports/permissionPolicy';
import { judgePath, judgeShellPath, realLocation, type JudgedPath } from '../../../../src/executor/policy/path/judgePath';
import { RulesPolicy } from '../../../../src/executor/policy/rulesPolicy';
import { createReadTool } from '../../../../src/tools/file/read';
import { resolveToolPath } from '../../../../src/tools/fileAccess/toolPaths';
import { createWriteTool } from '../../../../src/tools/file/write';
import { makeExecutor, tool } from '../fixtures';

const STORED_ARTIFACT = '/store/artifacts/s/a1';
const ARTIFACT = 'executor-artifact://s/a1';

describe('the policy judges the path the tool opens', () => {
  let root: string;
  let ws1: string;
  let ws2: string;
  let outside: string;
  let folders: string[];
  const artifacts = { resolve: (uri: string) => (uri === ARTIFACT ? STORED_ARTIFACT : undefined) };

  before(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'paths-shared-')));
    [ws1, ws2, outside] = ['ws1', 'ws2', 'outside'].map((name) => path.join(root, name)) as [string, string, string];
    folders = [ws1, ws2];
    mkdirSync(path.join(ws1, 'sub'), { recursive: true });
    mkdirSync(ws2);
    mkdirSync(outside);
    writeFileSync(path.join(ws2, 'only2.txt'), 'from ws2\n');
    writeFileSync(path.join(ws1, 'both.txt'), 'from ws1\n');
    writeFileSync(path.join(ws2, 'both.txt'), 'from ws2\n');
    writeFileSync(path.join(ws2, 'with space.txt'), 'spaced\n');
    writeFileSync(path.join(outside, 'secret.txt'), 'outside\n');
    symlinkSync(outside, path.join(ws1, 'link'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const toolContext = () => ({ workDir: ws1, workspaceFolders: folders, artifacts });

  /** What the policy judged for a call of `tool`: the exact paths "allow for this session" would allow. */
  async function policyJudged(tool: ToolDefinition, raw: string): Promise<(string | undefined)[]> {
    const policy = new RulesPolicy();
    const input = tool.resolveInput!({ path: raw, content: '' });
    await policy.rememberSessionApproval({ tool, input, callId: 'c1', workspaceFolders: folders });
    return policy.allRules.map((rule) => rule.exactPath);
  }

  const files: { name: string; raw: () => string; opens: () => string }[] = [
    { name: 'a relative path only the 2nd folder has', raw: () => 'only2.txt', opens: () => path.join(ws2, 'only2.txt') },
    { name: 'a relative path both folders have (the first wins)', raw: () => 'both.txt', opens: () => path.join(ws1, 'both.txt') },
    { name: 'a relative path no folder has (the first)', raw: () => 'missing/new.txt', opens: () => path.join(ws1, 'missing', 'new.txt') },
    { name: 'a relative path with ..', raw: () => 'sub/../../ws2/only2.txt', opens: () => path.join(ws2, 'only2.txt') },
    { name: '~/x', raw: () => '~/x', opens: () => path.join(os.homedir(), 'x') },
    { name: '~', raw: () => '~', opens: () => os.homedir() },
    { name: 'a percent-encoded file:// URL', raw: () => pathToFileURL(path.join(ws2, 'with space.txt')).href, opens: () => path.join(ws2, 'with space.txt') },
    { name: 'an absolute path with ..', raw: () => `${ws1}/sub/../../ws2/only2.txt`, opens: () => path.join(ws2, 'only2.txt') },
    { name: 'a path through a symlink', raw: () => 'link/secret.txt', opens: () => path.join(ws1, 'link', 'secret.txt') },
    { name: 'a whitespace-padded path', raw: () => '  only2.txt \n', opens: () => path.join(ws2, 'only2.txt') },
  ];

  for (const { name, raw, opens } of files) {
    it(`${name}: the tool opens it, and the policy judged it`, async () => {
      const tool = resolveToolPath(raw(), toolContext());
      assert.deepEqual(tool, { ok: true, absolute: opens(), fromArtifact: false });
      const real = await realLocation(opens());
      const judged = await judgePath(raw(), folders);
      assert.equal(judged.kind, 'file');
      assert.equal(judged.kind === 'file' && judged.path.lexical, opens(), 'the name rules see');
      assert.deepEqual(judged.kind === 'file' && judged.path.real, [real], 'the location rules see, links followed');
      for (const builtin of [createReadTool(), createWriteTool()] as ToolDefinition[]) {
        assert.deepEqual(await policyJudged(builtin, raw()), [real], `${builtin.name}'s permission subject`);
      }
    });
  }

  it('a symlink is judged where it leads', async () => {
    const judged = await judgePath('link/secret.txt', folders);
    assert.deepEqual(judged.kind === 'file' && judged.path.real, [path.join(outside, 'secret.txt')]);
  });

  it('a whitespace-padded artifact URI is an artifact to both', async () => {
    assert.deepEqual(resolveToolPath(`  ${ARTIFACT}\n`, toolContext()), { ok: true, absolute: STORED_ARTIFACT, fromArtifact: true });
    assert.deepEqual(await judgePath(`  ${ARTIFACT}\n`, folders), { kind: 'artifact', uri: ARTIFACT });
  });

  for (const raw of ['', '   ', 'file://elsewhere/etc/passwd', 'file://%zz']) {
    it(`${JSON.stringify(raw)}: the tool refuses it with the error the policy judged`, async () => {
      const tool = resolveToolPath(raw, toolContext());
      assert.equal(tool.ok, false);
      assert.deepEqual(await judgePath(raw, folders), { kind: 'refused', error: !tool.ok && tool.error });
    });
  }

  it('a redirection target is judged as the shell opens it: literal, in its working directory', async () => {
    for (const target of ['~/x', 'file:///etc/passwd', ' padded']) {
      const judged = await judgeShellPath(target, ws1);
      assert.equal(judged.lexical, path.join(ws1, target), target);
    }
    assert.equal((await judgeShellPath('/etc/passwd', ws1)).lexical, '/etc/passwd');
  });
});

describe("the handler's reading of a path is the permission stage's", () => {
  it('ctx.judgePath gives what the policy judged, not a second reading; with a policy that judged nothing, one made then', async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'judged-')));
    try {
      writeFileSync(path.join(root, 'a.txt'), 'a\n');
      symlinkSync(path.join(root, 'a.txt'), path.join(root, 'link'));
      const judgedByPolicy: JudgedPath[] = [];
      const judging: PermissionPolicy = {
        evaluate: async (request) => {
          judgedByPolicy.push(await request.judgePath!('link', request.workspaceFolders));
          return { behavior: 'allow', by: 'mode', reason: 'the test allows it' };
        },
      };
      const judgedByHandler: JudgedPath[] = [];
      const reader = tool('Reader', {
        permissionSubject: () => ({ kind: 'path', path: 'link', access: 'read' }),
        handler: async (_input, ctx) => {
          judgedByHandler.push(await ctx.judgePath('link'));
          return { content: 'read' };
        },
      });
      for (const policy of [judging, new ModePolicy('bypass')]) {
        const { executor } = makeExecutor([reader], { workspaceFolders: [root], permissionPolicy: policy });
        assert.equal((await executor.execute({ id: 'c1', name: 'Reader', input: {} })).isError, false);
      }
      assert.equal(judgedByPolicy.length, 1);
      assert.equal(judgedByHandler[0], judgedByPolicy[0], 'the same reading');
      for (const judged of judgedByHandler) {
        assert.deepEqual(judged, { kind: 'file', path: { raw: 'link', lexical: path.join(root, 'link'), real: [path.join(root, 'a.txt')] } });
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the artifact scheme', () => {
  const SRC = path.join(__dirname, '..', '..', '..', '..', '..', 'src');
  const OWNER = path.join(SRC, 'executor', 'results', 'artifactLayout.ts');

  function sources(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? sources(file) : name.endsWith('.ts') ? [file] : [];
    });
  }

  /** Code without comments: documentation may name the scheme, code must use `ARTIFACT_SCHEME`. */
  function code(file: string): string {
    return readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
  }

  it('is spelled out only in artifactLayout.ts, and defined once', () => {
    const files = sources(SRC);
    assert.ok(files.includes(OWNER), `expected the sources under ${SRC}`);
    assert.deepEqual(files.filter((file) => file !== OWNER && code(file).includes('executor-artifact')), []);
    assert.deepEqual(files.filter((file) => /\bARTIFACT_SCHEME\s*=/.test(code(file))), [OWNER]);
  });
});

// Through `tool-exec run` and the real Bash tool: secrets split across output
// chunks never reach stdout, artifacts, the session record or the log; a command writing 7 levels
// deep is reported as a change; a large output streams into an artifact.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');

const half = (text: string) => [text.slice(0, text.length >> 1), text.slice(text.length >> 1)] as const;
const GITHUB = `ghp_${'Zq7'.repeat(12)}`;
const AWS = `AKIA${'QX2'.repeat(5)}Q`;
const ENV_VALUE = 'svc-token-value-5d1e9a';
const PEM_LINE = 'MIIEowIBAAKCAQEA7vJ2'.repeat(3);

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const full = join(root, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('tool-exec run: results end to end (real Bash)', () => {
  let dir: string;
  let ws: string;
  let artifacts: string;
  let stdout: string;
  let stderr: string;
  let results: Array<{ id: string; isError: boolean; content: string; artifactPath: string | null; display: { kind: string; output?: string } | null }>;

  before(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'tool-exec-results-')));
    ws = join(dir, 'ws');
    artifacts = join(dir, 'artifacts');
    spawnSync('mkdir', ['-p', ws]);
    const [g1, g2] = half(GITHUB);
    const [a1, a2] = half(AWS);
    const [e1, e2] = half(ENV_VALUE);
    const leak =
      `printf 'token ${g1}'; sleep 0.2; printf '${g2} and ${a1}'; sleep 0.2; printf '${a2}\\n'; ` +
      `printf 'env ${e1}'; sleep 0.2; printf '${e2}\\n'; ` +
      `printf -- '-----BEGIN RSA PRIVATE KEY-----\\n${PEM_LINE}\\n'; sleep 0.2; printf '${PEM_LINE}\\n-----END RSA PRIVATE KEY-----\\n'`;
    const calls = [
      { id: 'leak', name: 'Bash', input: { command: leak } },
      { id: 'deep', name: 'Bash', input: { command: 'mkdir -p a/b/c/d/e/f && echo x > a/b/c/d/e/f/g.txt' } },
      { id: 'big', name: 'Bash', input: { command: `seq 1 300000; sleep 0.2; printf 'tail ${g1}'; sleep 0.2; printf '${g2}\\n'` } },
    ];
    const callsFile = join(dir, 'calls.json');
    writeFileSync(callsFile, JSON.stringify(calls));
    const run = spawnSync(process.execPath, [CLI, 'run', '--workspace', ws, '--artifacts', artifacts, '--approve', 'allow', '--json', callsFile], {
      encoding: 'utf8',
      env: { ...process.env, MY_SERVICE_TOKEN: ENV_VALUE, TOOL_EXEC_LOG: 'debug' },
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(run.status, 0, run.stderr);
    stdout = run.stdout;
    stderr = run.stderr;
    results = stdout.trim().split('\n').map((line) => JSON.parse(line)).filter((line) => !('summary' in line));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('masks secrets split across output chunks, in the model content', () => {
    const leak = results.find((result) => result.id === 'leak')!;
    assert.equal(leak.isError, false, leak.content);
    assert.match(leak.content, /token \[REDACTED:github-token\] and \[REDACTED:aws-access-key\]/);
    assert.match(leak.content, /env \[REDACTED:env\]/);
    assert.match(leak.content, /\[REDACTED:private-key\]/);
  });

  it('lets no planted secret reach stdout, any artifact or session record file, or the log', () => {
    const surfaces: Record<string, string> = { stdout, stderr };
    for (const file of filesUnder(artifacts)) surfaces[file] = readFileSync(file, 'utf8');
    assert.ok(Object.keys(surfaces).some((name) => name.endsWith('.jsonl')), 'a session record was written');
    assert.ok(Object.keys(surfaces).some((name) => name.includes('big-tool-result-')), 'the large output was saved');
    assert.ok(stderr.length > 0, 'the debug log was written');
    for (const [surface, text] of Object.entries(surfaces)) {
      for (const secret of [GITHUB, AWS, ENV_VALUE, PEM_LINE]) assert.ok(!text.includes(secret), `${surface} leaks ${secret}`);
    }
  });

  it('reports a command writing 7 levels deep as a change', () => {
    const deep = results.find((result) => result.id === 'deep')!;
    assert.match(deep.content, /\[Workspace Changes\]\n\+ a\/b\/c\/d\/e\/f\/g\.txt \(created, 2 B\)/);
  });

  it('streams a large output into an artifact, with a bash_output display', () => {
    const big = results.find((result) => result.id === 'big')!;
    assert.ok(big.artifactPath, big.content.slice(0, 300));
    const saved = readFileSync(big.artifactPath, 'utf8');
    assert.ok(saved.startsWith('1\n2\n3\n'));
    assert.ok(saved.includes('299999\n300000\ntail [REDACTED:github-token]\n'));
    assert.match(big.content, /Result too large \(\d+ chars, [\d.]+ MB\)\. Full output was saved to: /);
    assert.equal(big.display?.kind, 'bash_output');
    assert.ok(Buffer.byteLength(big.display!.output!) <= 150_000);
  });
});

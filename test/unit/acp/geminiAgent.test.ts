// The real Gemini CLI (`gemini --acp`, pinned in test/agents/gemini) as an ACP agent of ours, offline: its model is
// a FakeGeminiService on 127.0.0.1 that scripts its turns (a write_file call, a replace or read, then text) and
// records what reached it. Our connection serves it as the host does: a real executor with the built-in
// tools, our rules, the redactor, and a recording approval port in place of the modal.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AcpAgentConnection } from '../../../src/acp/connection';
import { ToolExecutor } from '../../../src/executor/executor';
import type { ApprovalAnswer } from '../../../src/executor/ports/approvalClient';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import { createRedactor } from '../../../src/executor/results/redaction/patternRedactor';
import { ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';
import { FakeGeminiService, functionResponses, type ScriptedTurn } from '../../acp/gemini/fakeGemini';
import { GEMINI_API_KEY, GEMINI_MODEL, geminiHome, geminiLaunch, installedGeminiCli, skipWithoutGemini } from '../../acp/gemini/geminiAgent';
import { acpTests, RecordingApprovals } from './harness';

const CONTENT = '# Notes\n\nWritten by Gemini through the ACP client.\n';
/** A token the redactor knows by its shape (a GitHub personal access token). */
const SECRET = `ghp_${'Zx9Yw8Vu7T'.repeat(4).slice(0, 36)}`;

const cli = installedGeminiCli();

interface Run {
  readonly dir: string;
  readonly fake: FakeGeminiService;
  readonly approvals: RecordingApprovals;
  readonly connection: AcpAgentConnection;
  readonly sessionId: string;
  readonly log: string[];
}

/** Each test's folder (the workspace is its `work/`, the CLI's home beside it) and what it started, closed after it. */
const acp = acpTests();

async function startGemini(turns: readonly ScriptedTurn[], answers: ApprovalAnswer[]): Promise<Run> {
  const dir = join(acp.dir(), 'work');
  mkdirSync(dir, { recursive: true });
  const fake = await FakeGeminiService.start(turns);
  acp.cleanup(() => fake.close());
  const supervisor = new ProcessSupervisor();
  const policy = new RulesPolicy({ mode: 'default' });
  const approvals = new RecordingApprovals(answers);
  const executor = new ToolExecutor({ workspaceFolders: [dir], permissionPolicy: policy, approvalClient: approvals, redactor: createRedactor({ env: {} }) });
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
  const log: string[] = [];
  const connection = new AcpAgentConnection({
    launch: geminiLaunch(cli!, fake.baseUrl, geminiHome(acp.dir())),
    executor,
    policy,
    approvals,
    workspaceFolders: () => [dir],
    clientInfo: { name: 'agent-tool-executor-test', version: '0' },
    log: (text) => void log.push(text),
  });
  acp.cleanup(async () => {
    await connection.close();
    await executor.dispose();
    await supervisor.dispose();
  });
  await connection.start();
  const sessionId = await connection.newSession(dir);
  return { dir, fake, approvals, connection, sessionId, log };
}

const WRITE_PROMPT = 'Write the project notes to notes.md.';

describe('the real Gemini CLI over ACP, against a fake Gemini API', { skip: skipWithoutGemini(cli) }, () => {
  const notes = () => join(acp.dir(), 'work', 'notes.md');
  const writeTurns = (): ScriptedTurn[] => [[{ functionCall: { name: 'write_file', args: { file_path: notes(), content: CONTENT } } }], [{ text: 'I wrote notes.md.' }]];

  it('Allow: its write_file asks through our approval, shown with its content, and the file is written with it', async () => {
    const run = await startGemini(writeTurns(), [{ kind: 'allowOnce' }]);
    const answer = await run.connection.prompt(run.sessionId, [{ type: 'text', text: WRITE_PROMPT }]);
    assert.equal(answer.stopReason, 'end_turn');
    // One modal: its permission request, mapped to our Write with the agent's content; the fs/write_text_file that
    // follows with that content is covered by the grant.
    assert.equal(run.approvals.asked.length, 1);
    const [asked] = run.approvals.asked;
    assert.equal(asked!.toolName, 'Write');
    assert.equal((asked!.input as { content: string }).content, CONTENT);
    assert.equal(asked!.preview?.change?.after, CONTENT);
    assert.match(asked!.preview?.detail ?? '', /Written by Gemini through the ACP client\./);
    assert.equal(readFileSync(notes(), 'utf8'), CONTENT);
    // The prompt reached the model, with the key and the model it was started with; the write's result went back.
    const [first, second] = run.fake.generations;
    assert.match(first!.url, new RegExp(`/v1beta/models/${GEMINI_MODEL}:streamGenerateContent\\?alt=sse$`));
    assert.equal(first!.apiKey, GEMINI_API_KEY);
    assert.ok(first!.text.includes(WRITE_PROMPT));
    assert.match(JSON.stringify(functionResponses(second!.body)), /Successfully .*notes\.md/);
    // Its usage is the fake service's: the token counts it sent, summed over both turns.
    const usage = (answer._meta as { quota?: { token_count?: { input_tokens: number; output_tokens: number } } }).quota?.token_count;
    assert.ok(usage && usage.input_tokens > 1000 && usage.output_tokens > 0, JSON.stringify(answer._meta));
  });

  it('Deny: nothing is written, and the agent tells the model the user refused', async () => {
    const run = await startGemini(writeTurns(), [{ kind: 'deny' }]);
    const answer = await run.connection.prompt(run.sessionId, [{ type: 'text', text: WRITE_PROMPT }]);
    assert.equal(answer.stopReason, 'end_turn');
    assert.equal(run.approvals.asked.length, 1);
    assert.equal(existsSync(notes()), false);
    const responses = functionResponses(run.fake.generations.at(-1)!.body);
    assert.equal(responses[0]?.name, 'write_file');
    assert.doesNotMatch(JSON.stringify(responses), /Successfully/);
  });

  it('its replace reads the file through fs/read_text_file: the secret is redacted in what reaches the model, and kept in the file', async () => {
    const config = join(acp.dir(), 'work', 'config.env');
    mkdirSync(join(acp.dir(), 'work'));
    writeFileSync(config, `NAME=demo\nAPI_TOKEN=${SECRET}\n`);
    const turns: ScriptedTurn[] = [[{ functionCall: { name: 'replace', args: { file_path: config, instruction: 'Rename the deployment.', old_string: 'NAME=demo', new_string: 'NAME=prod' } } }], [{ text: 'Renamed.' }]];
    // A second modal, if one came, is denied: the test fails on it rather than waiting.
    const run = await startGemini(turns, [{ kind: 'allowOnce' }, { kind: 'deny' }]);
    await run.connection.prompt(run.sessionId, [{ type: 'text', text: 'Rename the deployment to prod in config.env.' }]);
    const sent = run.fake.generations.at(-1)!;
    assert.ok(!sent.text.includes(SECRET), 'the secret never reaches the model');
    assert.match(JSON.stringify(functionResponses(sent.body)), /NAME=prod\\nAPI_TOKEN=\[REDACTED:[a-z-]+\]/);
    // The agent wrote back the text it was shown, masks and all: the secret is put back, and one modal showed it.
    assert.equal(readFileSync(config, 'utf8'), `NAME=prod\nAPI_TOKEN=${SECRET}\n`);
    assert.equal(run.approvals.asked.length, 1);
    assert.equal(run.approvals.asked[0]!.toolName, 'Edit');
    assert.equal(run.approvals.asked[0]!.preview?.change?.after, `NAME=prod\nAPI_TOKEN=${SECRET}\n`);
  });
});

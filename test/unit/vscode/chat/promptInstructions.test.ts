import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadInstructionFiles, MAX_INSTRUCTION_FILE_CHARS, MAX_INSTRUCTION_FILES_CHARS, parseScoped } from '../../../../src/vscode/chat/prompt/instructionFiles';
import { instructionsMessage, instructionsText, type PromptEnvironment } from '../../../../src/vscode/chat/prompt/instructions';
import { diskIo } from './promptFixtures';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-instructions-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function workspace(files: Record<string, string>): string {
  const folder = fs.mkdtempSync(path.join(root, 'ws-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    fs.writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

const ENV: PromptEnvironment = {
  workspaceFolders: ['/home/me/project', '/home/me/lib'],
  os: 'linux 6.1',
  shell: '/bin/bash',
  date: '2026-12-05',
  permissionMode: 'acceptEdits',
  sandbox: true,
  gitBranches: [{ folder: '/home/me/project', branch: 'feature/x' }],
};

const none = { excludedBy: () => undefined, redact: (text: string) => text };

describe('the instructions message', () => {
  it('says who the assistant is and the working rules for our tools', () => {
    const text = instructionsText({ environment: ENV, files: [], userInstructions: '' });
    assert.match(text, /^You are @executor, a coding agent in Visual Studio Code/);
    assert.match(text, /Read a file before you edit it, and prefer Edit to rewriting/);
    assert.match(text, /Make calls that only read .* together .* parallel/);
    assert.match(text, /A denied call means the user said no: stop/);
    assert.match(text, /read the whole output with Read on that URI/);
  });

  it('carries the environment: folders, OS, shell, date, permission mode, sandbox, git branch', () => {
    const text = instructionsText({ environment: ENV, files: [], userInstructions: '' });
    assert.match(text, /Workspace folders: \/home\/me\/project, \/home\/me\/lib/);
    assert.match(text, /OS: linux 6\.1; shell: \/bin\/bash/);
    assert.match(text, /Date: 2026-12-05/);
    assert.match(text, /Permission mode: acceptEdits/);
    assert.match(text, /Bash sandbox: on/);
    assert.match(text, /Git branch of \/home\/me\/project: feature\/x/);
    assert.doesNotMatch(instructionsText({ environment: { ...ENV, sandbox: undefined, gitBranches: [] }, files: [], userInstructions: '' }), /sandbox|Git branch/);
  });

  it('adds the project files and the user instructions, and is keyed by its text', () => {
    const files = [{ absolutePath: '/p/AGENTS.md', label: 'AGENTS.md', text: 'Use tabs.', truncated: false }];
    const a = instructionsMessage({ environment: ENV, files, userInstructions: 'Answer in French.' });
    const text = a.parts[0]!.kind === 'text' ? a.parts[0]!.text : '';
    assert.match(text, /<instructions file="AGENTS.md">\nUse tabs\.\n<\/instructions>/);
    assert.match(text, /The user's own instructions \(follow them\):\nAnswer in French\./);
    assert.equal(a.role, 'user');
    assert.equal(instructionsMessage({ environment: ENV, files, userInstructions: 'Answer in French.' }).key, a.key);
    assert.notEqual(instructionsMessage({ environment: ENV, files, userInstructions: 'Answer in German.' }).key, a.key);
  });
});

describe('instruction files', () => {
  it('loads AGENTS.md, CLAUDE.md and .github/copilot-instructions.md at the root', async () => {
    const folder = workspace({ 'AGENTS.md': 'agents', 'CLAUDE.md': 'claude', '.github/copilot-instructions.md': 'copilot', 'README.md': 'no' });
    const { loaded } = await loadInstructionFiles({ workspaceFolders: [folder], filesInPlay: [], ...none }, diskIo);
    assert.deepEqual(loaded.map((file) => [file.label, file.text]), [['AGENTS.md', 'agents'], ['CLAUDE.md', 'claude'], ['.github/copilot-instructions.md', 'copilot']]);
  });

  it('loads the nearest AGENTS.md above each file in play, not farther ones', async () => {
    const folder = workspace({ 'AGENTS.md': 'root', 'pkg/AGENTS.md': 'pkg', 'pkg/sub/AGENTS.md': 'sub', 'pkg/sub/deep/a.ts': '', 'other/b.ts': '' });
    const { loaded } = await loadInstructionFiles({ workspaceFolders: [folder], filesInPlay: [path.join(folder, 'pkg/sub/deep/a.ts'), path.join(folder, 'other/b.ts')], ...none }, diskIo);
    assert.deepEqual(loaded.map((file) => file.label), ['AGENTS.md', 'pkg/sub/AGENTS.md']);
  });

  it('loads .github/instructions files whose applyTo matches a file in play, without their front matter', async () => {
    const folder = workspace({
      '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nTypeScript rules',
      '.github/instructions/py.instructions.md': '---\napplyTo: "**/*.py, scripts/**"\n---\nPython rules',
      '.github/instructions/all.instructions.md': "---\napplyTo: '**'\n---\nEverywhere",
      '.github/instructions/none.instructions.md': 'No front matter: applies to nothing',
    });
    const { loaded } = await loadInstructionFiles({ workspaceFolders: [folder], filesInPlay: [path.join(folder, 'src/a.ts')], ...none }, diskIo);
    assert.deepEqual(loaded.map((file) => [file.label, file.text]), [['.github/instructions/all.instructions.md', 'Everywhere'], ['.github/instructions/ts.instructions.md', 'TypeScript rules']]);
    assert.deepEqual(parseScoped('---\napplyTo: "a/**, b/*.md"\n---\nbody').applyTo, ['a/**', 'b/*.md']);
  });

  it('redacts each file and skips what an ignore file excludes, saying why', async () => {
    const folder = workspace({ 'AGENTS.md': 'token ghp_secret here', 'CLAUDE.md': 'private' });
    const { loaded, skipped } = await loadInstructionFiles(
      { workspaceFolders: [folder], filesInPlay: [], excludedBy: (file) => (file.endsWith('CLAUDE.md') ? '.aiignore' : undefined), redact: (text) => text.replace(/ghp_\w+/g, '[REDACTED]') },
      diskIo,
    );
    assert.deepEqual(loaded.map((file) => file.text), ['token [REDACTED] here']);
    assert.deepEqual(skipped, [{ absolutePath: path.join(folder, 'CLAUDE.md'), reason: 'excluded by .aiignore' }]);
  });

  it('caps each file and all of them at named limits', async () => {
    const big = 'x'.repeat(MAX_INSTRUCTION_FILE_CHARS + 500);
    const folder = workspace({ 'AGENTS.md': big, 'CLAUDE.md': big, '.github/copilot-instructions.md': big, 'pkg/AGENTS.md': big });
    const { loaded, skipped } = await loadInstructionFiles({ workspaceFolders: [folder], filesInPlay: [path.join(folder, 'pkg/a.ts')], ...none }, diskIo);
    assert.ok(loaded.every((file) => file.text.length <= MAX_INSTRUCTION_FILE_CHARS && file.truncated));
    assert.equal(loaded.reduce((sum, file) => sum + file.text.length, 0), MAX_INSTRUCTION_FILES_CHARS);
    assert.equal(skipped.length, 4 - loaded.length);
    assert.match(skipped[0]!.reason, /limit of all instruction files/);
  });
});

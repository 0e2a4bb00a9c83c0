// The first message of every request: who the assistant is, short working rules for our tools, the
// environment, the project's instruction files and the user's own instructions. Inputs in, text out.
// The stable chat API has no system role: like VS Code's chat samples, this goes as the first User message.
import { ARTIFACT_SCHEME } from '../../../executor/results/artifactLayout';
import type { InstructionFile } from './instructionFiles';
import { fingerprint, userText, type PromptMessage } from './promptMessages';

/** The user's own instructions (a setting) are cut here. Ours. */
export const MAX_USER_INSTRUCTIONS_CHARS = 8_000;

export interface PromptEnvironment {
  /** Absolute paths; the first is where relative paths start. */
  readonly workspaceFolders: readonly string[];
  /** `process.platform` and the OS release. */
  readonly os: string;
  readonly shell: string;
  /** Today, `YYYY-MM-DD`. */
  readonly date: string;
  readonly permissionMode: string;
  /** Whether Bash runs in the OS sandbox; undefined when not known. */
  readonly sandbox?: boolean;
  /** The checked-out branch of each folder that is a git repository. */
  readonly gitBranches: ReadonlyArray<{ readonly folder: string; readonly branch: string }>;
}

export interface InstructionsInput {
  readonly environment: PromptEnvironment;
  readonly files: readonly InstructionFile[];
  /** From `agentToolExecutor.chat.instructions`; empty for none. */
  readonly userInstructions: string;
}

const ROLE =
  'You are @executor, a coding agent in Visual Studio Code. You work in the user\'s workspace with the tools offered in this request. ' +
  'Each call runs through Agent Tool Executor, which applies the user\'s permission rules and may ask the user to approve it first.';

const RULES = [
  'Read a file before you edit it, and prefer Edit to rewriting a whole file with Write.',
  'Make calls that only read (Read, Glob, Grep) together in one response: they run in parallel.',
  'A denied call means the user said no: stop, say what you wanted to do, and ask how to go on. Do not try the same thing another way.',
  `A result that says its output was saved names an ${ARTIFACT_SCHEME}:// URI: read the whole output with Read on that URI (with offset and limit for a part).`,
  'Older results may be left out to fit your context window; the line that stands for one says where to read it again.',
  'Relative paths start at the first workspace folder.',
];

/** The instructions message; its key changes only when its text does. */
export function instructionsMessage(input: InstructionsInput): PromptMessage {
  const text = instructionsText(input);
  return userText(text, `i:${fingerprint(text)}`);
}

export function instructionsText(input: InstructionsInput): string {
  const env = input.environment;
  const lines = [ROLE, '', 'Working rules:', ...RULES.map((rule) => `- ${rule}`), '', 'Environment:'];
  lines.push(`- Workspace folders: ${env.workspaceFolders.length > 0 ? env.workspaceFolders.join(', ') : 'none (no folder is open)'}`);
  lines.push(`- OS: ${env.os}; shell: ${env.shell || 'unknown'}`);
  lines.push(`- Date: ${env.date}`);
  lines.push(`- Permission mode: ${env.permissionMode}`);
  if (env.sandbox !== undefined) lines.push(`- Bash sandbox: ${env.sandbox ? 'on (commands run in the OS sandbox)' : 'off'}`);
  for (const { folder, branch } of env.gitBranches) lines.push(`- Git branch${env.workspaceFolders.length > 1 ? ` of ${folder}` : ''}: ${branch}`);
  if (input.files.length > 0) {
    lines.push('', 'Project instructions, from files in the workspace (follow them):');
    for (const file of input.files) {
      lines.push('', `<instructions file="${file.label}">`, file.text, ...(file.truncated ? ['[… cut here: the file is longer]'] : []), '</instructions>');
    }
  }
  const own = input.userInstructions.trim();
  if (own) {
    lines.push('', "The user's own instructions (follow them):", own.length > MAX_USER_INSTRUCTIONS_CHARS ? `${own.slice(0, MAX_USER_INSTRUCTIONS_CHARS)}\n[… cut here]` : own);
  }
  return lines.join('\n');
}

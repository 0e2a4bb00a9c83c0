// What the first message of a request is made of, gathered from VS Code and the workspace: the
// environment, the project's instruction files, the user's instructions and attachments. The reply
// lists the instruction files as references and says which attachments were not sent.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatRound, ConversationTurn } from './chatMetadata';
import { attachedPaths, readAttachments } from './attachments';
import type { ChatHost } from './chatHost';
import { loadInstructionFiles, type InstructionFilesIo } from './prompt/instructionFiles';
import { instructionsMessage, type PromptEnvironment } from './prompt/instructions';
import { fingerprint, type PromptMessage, type PromptPart } from './prompt/promptMessages';
import { escapeMarkdown, inlineCode } from './replyText';

export interface PreparedPrompt {
  readonly instructions: PromptMessage;
  /** The user's words and what they attached (each attachment cut to its share of the window later, contextFit.ts). */
  readonly prompt: PromptMessage;
}

/** Reads instruction files from the disk. */
export const diskInstructionIo: InstructionFilesIo = {
  readText: (file) => fs.readFile(file, 'utf8').catch(() => undefined),
  list: (folder) => fs.readdir(folder).catch(() => undefined),
};

export async function preparePrompt(host: ChatHost, request: vscode.ChatRequest, earlier: readonly ConversationTurn[], stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<PreparedPrompt> {
  const settings = host.promptSettings?.() ?? { instructions: '', instructionFiles: true };
  const folders = host.workspaceFolders();
  const ignored = host.ignoredPaths?.();
  const files = settings.instructionFiles
    ? await loadInstructionFiles(
        { workspaceFolders: folders, filesInPlay: [...attachedPaths(request), ...pathsOfCalls(earlier.flatMap((turn) => turn.rounds), folders)], excludedBy: (file) => ignored?.excludedBy(file), redact: (text) => host.redactor.redact(text) },
        diskInstructionIo,
      )
    : { loaded: [], skipped: [] };
  for (const file of files.loaded) stream.reference(vscode.Uri.file(file.absolutePath));
  for (const file of files.skipped) stream.markdown(`\n\nInstruction file not sent: ${inlineCode(file.absolutePath)} (${escapeMarkdown(file.reason)})\n`);
  const attachments = await readAttachments(host, request, stream, signal, new Set(files.loaded.map((file) => file.absolutePath)));
  for (const line of attachments.notSent) stream.markdown(`\n\nNot sent to the model: ${escapeMarkdown(line)}\n`);
  const environment = await environmentOf(host);
  const instructions = instructionsMessage({ environment, files: files.loaded, userInstructions: settings.instructions });
  const parts: PromptPart[] = [{ kind: 'text', text: request.prompt }, ...attachments.parts];
  const key = `q:${fingerprint(parts.map((part) => (part.kind === 'text' ? part.text : part.kind)).join(''))}:${Date.now()}`;
  return { instructions, prompt: { role: 'user', parts, key } };
}

/** Files the conversation's calls named (their nearest AGENTS.md and scoped instructions apply). */
export function pathsOfCalls(rounds: readonly ChatRound[], folders: readonly string[]): string[] {
  const out: string[] = [];
  for (const round of rounds) {
    for (const call of round.calls) {
      const named = (call.input as { path?: unknown; file_path?: unknown }).path ?? (call.input as { file_path?: unknown }).file_path;
      if (typeof named !== 'string' || named.includes('://')) continue;
      out.push(path.isAbsolute(named) ? named : path.join(folders[0] ?? '', named));
    }
  }
  return out;
}

async function environmentOf(host: ChatHost): Promise<PromptEnvironment> {
  const folders = host.workspaceFolders();
  const branches = await Promise.all(folders.map(async (folder) => ({ folder, branch: await gitBranch(folder) })));
  const sandbox = host.sandboxState?.();
  return {
    workspaceFolders: folders,
    os: `${process.platform} ${os.release()}`,
    shell: vscode.env.shell,
    date: new Date().toISOString().slice(0, 10),
    permissionMode: host.permissionMode?.() ?? 'default',
    sandbox: sandbox === undefined ? undefined : sandbox === 'ready' || sandbox === 'starting',
    gitBranches: branches.filter((entry): entry is { folder: string; branch: string } => entry.branch !== undefined),
  };
}

/** The checked-out branch from `.git/HEAD` (a worktree's `.git` file points to its own); undefined outside git. */
export async function gitBranch(folder: string): Promise<string | undefined> {
  let gitDir = path.join(folder, '.git');
  const pointer = await fs.readFile(gitDir, 'utf8').catch(() => undefined);
  const linked = pointer ? /^gitdir:\s*(.+)$/m.exec(pointer)?.[1]?.trim() : undefined;
  if (linked) gitDir = path.resolve(folder, linked);
  const head = await fs.readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => undefined);
  if (!head) return undefined;
  const ref = /^ref:\s*refs\/heads\/(.+)$/m.exec(head)?.[1]?.trim();
  return ref ?? `(detached at ${head.trim().slice(0, 12)})`;
}

// Shared by the prompt tests: the disk as the instruction loader reads it, and a counter that counts
// like a provider (characters per token, plus each message's framing).
import * as fs from 'node:fs';
import type { InstructionFilesIo } from '../../../../src/vscode/chat/prompt/instructionFiles';
import { messageText, type PromptMessage } from '../../../../src/vscode/chat/prompt/promptMessages';

export const diskIo: InstructionFilesIo = {
  readText: async (file) => (fs.existsSync(file) && fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined),
  list: async (folder) => (fs.existsSync(folder) ? fs.readdirSync(folder) : undefined),
};

/** Three characters a token, four for each message's framing: roughly a BPE tokenizer on code. */
export function countLikeProvider(message: PromptMessage): number {
  return Math.ceil(messageText(message).length / 3) + 4;
}

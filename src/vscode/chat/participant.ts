// `@executor` in the chat panel (issue 11): the model loop for prompts, slash commands for the rest.
import * as vscode from 'vscode';
import { runModelLoop } from './modelLoop';
import { listTools, runPastedCalls, switchMode, type CommandHost } from './slashCommands';

/** As declared in `contributes.chatParticipants`. */
export const PARTICIPANT_ID = 'agentToolExecutor.executor';

export function registerChatParticipant(host: CommandHost, extensionUri: vscode.Uri): vscode.Disposable {
  const handler: vscode.ChatRequestHandler = (request, context, stream, token) => {
    switch (request.command) {
      case 'tools':
        return listTools(host, stream, token);
      case 'run':
        return runPastedCalls(host, request.prompt, stream, token);
      case 'mode':
        return switchMode(host, request.prompt, stream);
      default:
        return runModelLoop(host, request, context, stream, token);
    }
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  return participant;
}

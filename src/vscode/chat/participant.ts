// `@executor` in the chat panel: the model loop for prompts, slash commands for the rest.
import * as vscode from 'vscode';
import { compactConversation } from './compact';
import { runModelLoop } from './modelLoop';
import { listTools, runPastedCalls, switchMode, type CommandHost } from './slashCommands';

/** As declared in `contributes.chatParticipants`. */
export const PARTICIPANT_ID = 'agentToolExecutor.executor';

/** An agent in its own process that takes prompts instead of the built-in loop (src/vscode/bridge/). */
export interface PromptForwarder {
  enabled(): boolean;
  handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
}

/** ACP agents (src/vscode/acp/): which one takes prompts, and `/agent` to choose. */
export interface AgentRouter {
  route(): { readonly kind: 'builtin' } | { readonly kind: 'default' } | { readonly kind: 'acp'; readonly name: string };
  chooseAgent(argument: string, stream: vscode.ChatResponseStream): vscode.ChatResult;
  listCommands(stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
  /** `/mode` while an ACP agent takes prompts: its modes and options; words naming none of them go to `otherwise`. */
  chooseMode(words: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, otherwise: () => Promise<vscode.ChatResult>): Promise<vscode.ChatResult>;
  handle(request: vscode.ChatRequest, name: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
}

/** `onRequest`: called as each request comes, before it is handled. */
export function registerChatParticipant(host: CommandHost, extensionUri: vscode.Uri, agent?: PromptForwarder, router?: AgentRouter, onRequest?: () => void): vscode.Disposable {
  const handler: vscode.ChatRequestHandler = (request, context, stream, token) => {
    onRequest?.();
    switch (request.command) {
      case 'tools':
        return listTools(host, stream, token);
      case 'run':
        return runPastedCalls(host, request.prompt, stream, token);
      case 'mode':
        if (router?.route().kind === 'acp') return router.chooseMode(request.prompt, stream, token, () => switchMode(host, request.prompt, stream));
        return switchMode(host, request.prompt, stream);
      case 'compact':
        return compactConversation(host, request, context, stream, token);
      case 'agent':
        if (router) return router.chooseAgent(request.prompt, stream);
        return { errorDetails: { message: 'Choosing an agent is not available here.' } };
      case 'commands':
        if (router) return router.listCommands(stream, token);
        return { errorDetails: { message: 'ACP agents are not available here.' } };
      default: {
        const route = router?.route() ?? { kind: 'default' };
        if (route.kind === 'acp') return router!.handle(request, route.name, stream, token);
        if (route.kind === 'default' && agent?.enabled()) return agent.handle(request, context, stream, token);
        return runModelLoop(host, request, context, stream, token);
      }
    }
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  return participant;
}

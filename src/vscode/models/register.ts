// Registers the user's own models (`agentToolExecutor.models`) with VS Code's model picker, and their
// two commands. Activation registers and reads the setting only: the code that talks to endpoints
// (endpointRequests.ts, with the wire formats) loads, and an endpoint hears from us, when a chat
// request or a command needs them.
import * as vscode from 'vscode';
import type { Logger } from '../../executor';
import type { EndpointModel } from '../../models';
import { lazily } from '../lazily';
import type { AddModelArgs, ModelCommands } from './commands';
import { ADD_MODEL_COMMAND, ENDPOINT_VENDOR, MODELS_SETTING, parseModelEntries, SET_KEY_COMMAND } from './modelSettings';
import { EndpointModelProvider, loadEndpointRequests } from './provider';

export function registerEndpointModels(secrets: vscode.SecretStorage, logger: Logger): vscode.Disposable {
  let cached: readonly EndpointModel[] | undefined;
  const models = (): readonly EndpointModel[] => {
    if (cached) return cached;
    // User settings only: the setting's scope keeps workspaces out, and this reads nothing else either.
    const parsed = parseModelEntries(vscode.workspace.getConfiguration().inspect(MODELS_SETTING)?.globalValue);
    for (const problem of parsed.problems) logger.warn('models.entry_invalid', { problem });
    return (cached = parsed.models);
  };
  const provider = new EndpointModelProvider(models, secrets, logger);
  const commands = lazily((): ModelCommands => new (loadEndpointRequests().ModelCommands)(models, secrets, logger));
  // Without a Copilot sign-in, VS Code asks a provider for its models only once an extension selects some.
  const select = () => {
    if (models().length === 0) return;
    vscode.lm.selectChatModels({ vendor: ENDPOINT_VENDOR }).then(
      (found) => logger.info('models.offered', { models: found.map((model) => model.id) }),
      (error: unknown) => logger.warn('models.select_failed', { error: String(error) }),
    );
  };
  const disposables = [
    provider,
    vscode.lm.registerLanguageModelChatProvider(ENDPOINT_VENDOR, provider),
    vscode.commands.registerCommand(SET_KEY_COMMAND, (args?: { name?: string }) => commands.setApiKey(args)),
    vscode.commands.registerCommand(ADD_MODEL_COMMAND, (args?: AddModelArgs) => commands.addFromEndpoint(args)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(MODELS_SETTING)) return;
      cached = undefined;
      provider.refresh();
      select();
    }),
  ];
  select();
  return vscode.Disposable.from(...disposables);
}

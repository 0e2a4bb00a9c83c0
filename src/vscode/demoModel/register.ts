// Registers the scripted demo model while `agentToolExecutor.demoModel.enabled` is on, and
// unregisters it when the setting goes off: a scripted model must never show up unasked.
import * as vscode from 'vscode';
import { nullLogger, type Logger } from '../../executor';
import { DEMO_VENDOR, DEMO_WINDOW_TOKENS, DemoModelProvider } from './provider';

export const DEMO_MODEL_SETTING = 'agentToolExecutor.demoModel.enabled';
export const DEMO_WINDOW_SETTING = 'agentToolExecutor.demoModel.windowTokens';

/** Follows the setting from now on; dispose to unregister and stop following it. */
export function registerDemoModel(logger: Logger = nullLogger): vscode.Disposable {
  let registration: vscode.Disposable | undefined;
  const update = (windowChanged = false) => {
    const enabled = vscode.workspace.getConfiguration().get<boolean>(DEMO_MODEL_SETTING, false);
    if (windowChanged && registration) {
      registration.dispose();
      registration = undefined;
    }
    if (enabled === (registration !== undefined)) return;
    if (!enabled) {
      registration?.dispose();
      registration = undefined;
      logger.info('demoModel.unregistered', { vendor: DEMO_VENDOR });
      return;
    }
    const window = vscode.workspace.getConfiguration().get<number>(DEMO_WINDOW_SETTING, DEMO_WINDOW_TOKENS);
    registration = vscode.lm.registerLanguageModelChatProvider(DEMO_VENDOR, new DemoModelProvider(Number.isFinite(window) && window > 0 ? window : DEMO_WINDOW_TOKENS));
    logger.info('demoModel.registered', { vendor: DEMO_VENDOR });
    // Without a Copilot sign-in, VS Code asks providers for their models only once some extension
    // selects models (measured on VS Code 1.139); selecting ours also makes it the picker's default.
    vscode.lm.selectChatModels({ vendor: DEMO_VENDOR }).then(
      (models) => logger.info('demoModel.selected', { models: models.map((model) => model.id) }),
      (error: unknown) => logger.warn('demoModel.select_failed', { error: String(error) }),
    );
  };
  update();
  const listener = vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(DEMO_MODEL_SETTING) || event.affectsConfiguration(DEMO_WINDOW_SETTING)) update(event.affectsConfiguration(DEMO_WINDOW_SETTING));
  });
  return new vscode.Disposable(() => {
    listener.dispose();
    registration?.dispose();
    registration = undefined;
  });
}

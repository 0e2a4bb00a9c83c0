// A model error as the one sentence the reply shows: never a stack trace, never silence.
// No `vscode` here: the caller passes the error's `code` (LanguageModelError) and message.
import { oneLine } from './replyText';

/** A provider's own message is cut here. Ours. */
export const MODEL_ERROR_MAX_CHARS = 300;

/** The codes `vscode.LanguageModelError` uses (its static factories' names). */
const KNOWN: Readonly<Record<string, (model: string) => string>> = {
  NoPermissions: (model) => `${model} refused this request: Agent Tool Executor has not been allowed to use it; allow it when VS Code asks for your consent (or under Manage Language Model Access in the Accounts menu), or pick another model.`,
  Blocked: (model) => `${model} blocked this request (a quota or content limit of its provider); try again later or pick another model.`,
  NotFound: (model) => `${model} is not available any more; pick another model in the chat's model picker.`,
};

/** One sentence for a failed model request. `code` is `LanguageModelError.code` when there is one. */
export function modelErrorSentence(model: string, error: { code?: unknown; message?: unknown } | undefined): string {
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const known = code ? KNOWN[code] : undefined;
  if (known) return known(model);
  const message = typeof error?.message === 'string' ? oneLine(error.message, MODEL_ERROR_MAX_CHARS) : '';
  if (/tool/i.test(message) && /support|not allowed|unsupported|invalid/i.test(message)) {
    return `${model} cannot call tools (${message}); pick a model with tool calling in the model picker.`;
  }
  return message ? `${model} could not answer: ${message}` : `${model} could not answer, and gave no reason.`;
}

/** The one sentence for a model that cannot call tools: every request of `@executor` offers tools. */
export function noToolCallingSentence(model: string): string {
  return `${model} cannot call tools, which @executor needs; pick a model with tool calling in the chat's model picker.`;
}

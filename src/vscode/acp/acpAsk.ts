// What an ACP agent's session asks of the user outside the approval modal: a quick pick (a mode, a session
// to continue, a way to sign in, a form's choice) or an input box (a form's text or number). One port, so
// the extension's tests answer it as they answer approvals (a test inside the host cannot click).
import * as vscode from 'vscode';

export interface PickItem<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  /** Marked as what is chosen now (many-choice picks start with these). */
  readonly picked?: boolean;
  /** Starts a group: a separator with this name comes before it. */
  readonly group?: string;
  readonly value: T;
}

export interface InputOptions {
  readonly prompt?: string;
  readonly value?: string;
  /** What is wrong with the text typed so far; undefined when it will do. */
  validate?(text: string): string | undefined;
}

/** A question as a test's responder sees it: the title, and the items' labels of a pick. */
export type AskQuestion = { readonly kind: 'pick' | 'pickMany'; readonly title: string; readonly labels: readonly string[] } | { readonly kind: 'input'; readonly title: string; readonly prompt?: string; readonly value?: string };
/** A test's answer: the label(s) picked or the text typed; undefined as Escape. */
export type AskResponder = (question: AskQuestion) => string | readonly string[] | undefined;

export interface AcpAsk {
  pick<T>(title: string, items: readonly PickItem<T>[], signal?: AbortSignal): Promise<T | undefined>;
  pickMany<T>(title: string, items: readonly PickItem<T>[], signal?: AbortSignal): Promise<T[] | undefined>;
  input(title: string, options: InputOptions, signal?: AbortSignal): Promise<string | undefined>;
}

type QuickItem<T> = vscode.QuickPickItem & { value?: T };

export class VsCodeAsk implements AcpAsk {
  private responder: AskResponder | undefined;

  /** Tests only: answers instead of the quick pick and input box. */
  setResponder(responder: AskResponder | undefined): void {
    this.responder = responder;
  }

  async pick<T>(title: string, items: readonly PickItem<T>[], signal?: AbortSignal): Promise<T | undefined> {
    if (this.responder) {
      const answer = this.responder({ kind: 'pick', title, labels: items.map((item) => item.label) });
      return items.find((item) => item.label === answer)?.value;
    }
    const picked = await withToken(signal, (token) => vscode.window.showQuickPick(quickItems(items), { title, placeHolder: title, ignoreFocusOut: true }, token));
    return picked?.value;
  }

  async pickMany<T>(title: string, items: readonly PickItem<T>[], signal?: AbortSignal): Promise<T[] | undefined> {
    if (this.responder) {
      const answer = this.responder({ kind: 'pickMany', title, labels: items.map((item) => item.label) });
      if (answer === undefined) return undefined;
      const labels = typeof answer === 'string' ? [answer] : answer;
      return items.filter((item) => labels.includes(item.label)).map((item) => item.value);
    }
    const picked = await withToken(signal, (token) => vscode.window.showQuickPick(quickItems(items), { title, placeHolder: title, canPickMany: true, ignoreFocusOut: true }, token));
    return picked?.flatMap((item) => (item.value === undefined ? [] : [item.value]));
  }

  async input(title: string, options: InputOptions, signal?: AbortSignal): Promise<string | undefined> {
    if (this.responder) {
      const answer = this.responder({ kind: 'input', title, ...(options.prompt ? { prompt: options.prompt } : {}), ...(options.value !== undefined ? { value: options.value } : {}) });
      if (typeof answer !== 'string') return undefined;
      const wrong = options.validate?.(answer);
      if (wrong) throw new Error(`the answer to ${JSON.stringify(title)} will not do: ${wrong}`);
      return answer;
    }
    return withToken(signal, (token) =>
      vscode.window.showInputBox({ title, prompt: options.prompt, value: options.value, ignoreFocusOut: true, validateInput: (text) => options.validate?.(text) }, token),
    );
  }
}

function quickItems<T>(items: readonly PickItem<T>[]): QuickItem<T>[] {
  const shown: QuickItem<T>[] = [];
  for (const item of items) {
    if (item.group) shown.push({ label: item.group, kind: vscode.QuickPickItemKind.Separator });
    shown.push({ label: item.label, description: item.description, detail: item.detail, picked: item.picked, value: item.value });
  }
  return shown;
}

/** Runs `show` with a token that is cancelled when `signal` aborts (the request was stopped). */
async function withToken<R>(signal: AbortSignal | undefined, show: (token: vscode.CancellationToken) => Thenable<R>): Promise<R | undefined> {
  if (signal?.aborted) return undefined;
  const source = new vscode.CancellationTokenSource();
  const onAbort = () => source.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await show(source.token);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    source.dispose();
  }
}

// An agent's questions put to the user through AcpAsk: which way to sign in (an `auth_required` answer),
// and an `elicitation/create` form, a field at a time (an input box for text and numbers, a quick pick for
// a choice, yes/no, or several choices). Escape on any field cancels the form.
import type { ChooseAuthMethod } from '../../acp/session/auth';
import { checkChosen, parseTyped, questionsOf, type Question } from '../../acp/session/elicitation';
import type { Acp } from '../../acp/sdk';
import type { AcpAsk } from './acpAsk';

/** The quick pick of the agent's sign-in methods. */
export function authMethodChooser(ask: AcpAsk, agent: string): ChooseAuthMethod {
  return (methods, signal) =>
    ask.pick(
      `The ACP agent ${agent} asks you to sign in: choose how`,
      methods.map((method) => ({ label: method.name, ...(method.description ? { detail: method.description } : {}), value: method.id })),
      signal,
    );
}

/** Asks the agent's form; declined when it cannot be asked, cancelled on Escape. */
export async function askForm(ask: AcpAsk, agent: string, request: Acp.CreateElicitationRequest, signal: AbortSignal): Promise<Acp.CreateElicitationResponse> {
  if (request.mode !== 'form' || !('requestedSchema' in request)) return { action: 'decline' };
  const form = questionsOf(request.requestedSchema as Acp.ElicitationSchema);
  if ('error' in form) return { action: 'decline' };
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const question of form.questions) {
    const title = `${agent}: ${request.message} — ${question.title}${question.required ? '' : ' (optional)'}`;
    const answer = await askOne(ask, title, question, signal);
    if (answer === CANCELLED) return { action: 'cancel' };
    if (answer !== SKIPPED) content[question.key] = answer;
  }
  return { action: 'accept', content };
}

const CANCELLED = Symbol('cancelled');
const SKIPPED = Symbol('skipped');

async function askOne(ask: AcpAsk, title: string, question: Question, signal: AbortSignal): Promise<string | number | boolean | string[] | typeof CANCELLED | typeof SKIPPED> {
  const skip = question.required ? [] : [{ label: '(leave empty)', value: SKIPPED as typeof SKIPPED }];
  switch (question.kind) {
    case 'text':
    case 'number':
    case 'integer': {
      const typed = await ask.input(title, {
        prompt: question.description,
        value: question.initial,
        validate: (text) => {
          if (text === '' && !question.required) return undefined;
          const parsed = parseTyped(question, text);
          return 'error' in parsed ? parsed.error : undefined;
        },
      }, signal);
      if (typed === undefined) return CANCELLED;
      if (typed === '' && !question.required) return SKIPPED;
      const parsed = parseTyped(question, typed);
      return 'error' in parsed ? CANCELLED : parsed.value;
    }
    case 'boolean': {
      const items = [
        { label: 'Yes', value: true as boolean | typeof SKIPPED, picked: question.initial === true },
        { label: 'No', value: false as boolean | typeof SKIPPED, picked: question.initial === false },
        ...skip,
      ];
      return (await ask.pick(title, items, signal)) ?? CANCELLED;
    }
    case 'choice': {
      const items = [...question.choices.map((choice) => ({ label: choice.label, ...(choice.description ? { description: choice.description } : {}), picked: choice.value === question.initial, value: choice.value as string | typeof SKIPPED })), ...skip];
      return (await ask.pick(title, items, signal)) ?? CANCELLED;
    }
    case 'choices': {
      const chosen = await ask.pickMany(title, question.choices.map((choice) => ({ label: choice.label, picked: question.initial.includes(choice.value), value: choice.value })), signal);
      if (chosen === undefined) return CANCELLED;
      if (checkChosen(question, chosen)) return CANCELLED;
      return chosen;
    }
  }
}

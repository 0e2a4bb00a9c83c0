// An agent's `elicitation/create` form as questions a host asks one at a time (VS Code: input boxes and quick
// picks), and the answers as the form's content. URL mode is not offered (clientCapabilities.elicitation
// says form only). No vscode import.
import type { Acp } from '../sdk';

/** Fields one form may ask: an agent asking more is declined, not put to the user field by field. Ours. */
export const MAX_ELICITATION_FIELDS = 20;

export interface Choice {
  readonly value: string;
  readonly label: string;
  readonly description?: string;
}

/** One field of the form, as the host asks it. */
export type Question = { readonly key: string; readonly title: string; readonly description?: string; readonly required: boolean } & (
  | { readonly kind: 'text' | 'number' | 'integer'; readonly initial?: string; readonly schema: Acp.ElicitationPropertySchema }
  | { readonly kind: 'boolean'; readonly initial?: boolean }
  | { readonly kind: 'choice'; readonly choices: readonly Choice[]; readonly initial?: string }
  | { readonly kind: 'choices'; readonly choices: readonly Choice[]; readonly initial: readonly string[]; readonly min?: number; readonly max?: number }
);

/** The form's fields as questions, or why the form cannot be asked (a field of a type we do not know). */
export function questionsOf(schema: Acp.ElicitationSchema): { questions: Question[] } | { error: string } {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Acp.ElicitationPropertySchema>);
  if (properties.length > MAX_ELICITATION_FIELDS) return { error: `the form has ${properties.length} fields, more than the ${MAX_ELICITATION_FIELDS} asked one at a time` };
  const required = new Set(schema.required ?? []);
  const questions: Question[] = [];
  for (const [key, property] of properties) {
    const field = property as Acp.ElicitationPropertySchema & { title?: string | null; description?: string | null; default?: unknown };
    const base = { key, title: field.title || key, ...(field.description ? { description: field.description } : {}), required: required.has(key) };
    switch (property.type) {
      case 'string': {
        const string = property as Acp.StringPropertySchema;
        const choices = string.oneOf?.map((option) => ({ value: option.const, label: option.title, ...(option.description ? { description: option.description } : {}) })) ?? string.enum?.map((value) => ({ value, label: value }));
        if (choices) questions.push({ ...base, kind: 'choice', choices, ...(string.default != null ? { initial: string.default } : {}) });
        else questions.push({ ...base, kind: 'text', schema: property, ...(string.default != null ? { initial: string.default } : {}) });
        break;
      }
      case 'number':
      case 'integer': {
        const initial = (property as Acp.NumberPropertySchema).default;
        questions.push({ ...base, kind: property.type, schema: property, ...(initial != null ? { initial: String(initial) } : {}) });
        break;
      }
      case 'boolean': {
        const initial = (property as Acp.BooleanPropertySchema).default;
        questions.push({ ...base, kind: 'boolean', ...(initial != null ? { initial } : {}) });
        break;
      }
      case 'array': {
        const multi = property as Acp.MultiSelectPropertySchema;
        const items = multi.items as { enum?: string[]; anyOf?: Acp.EnumOption[] };
        const choices = items.anyOf?.map((option) => ({ value: option.const, label: option.title })) ?? items.enum?.map((value) => ({ value, label: value }));
        if (!choices) return { error: `field ${JSON.stringify(key)} is a list of a kind we cannot offer` };
        questions.push({ ...base, kind: 'choices', choices, initial: multi.default ?? [], ...(multi.minItems != null ? { min: multi.minItems } : {}), ...(multi.maxItems != null ? { max: multi.maxItems } : {}) });
        break;
      }
      default:
        return { error: `field ${JSON.stringify(key)} has a type we do not know (${JSON.stringify(property.type)})` };
    }
  }
  return { questions };
}

/** What was typed for a text or number field: its value, or what is wrong with it (shown while typing). */
export function parseTyped(question: Question & { kind: 'text' | 'number' | 'integer' }, typed: string): { value: string | number } | { error: string } {
  if (question.kind === 'text') {
    const schema = question.schema as Acp.StringPropertySchema;
    if (schema.minLength != null && typed.length < schema.minLength) return { error: `at least ${schema.minLength} characters` };
    if (schema.maxLength != null && typed.length > schema.maxLength) return { error: `at most ${schema.maxLength} characters` };
    if (schema.pattern != null && !safeTest(schema.pattern, typed)) return { error: `must match ${schema.pattern}` };
    return { value: typed };
  }
  const schema = question.schema as Acp.NumberPropertySchema;
  const value = Number(typed.trim());
  if (typed.trim() === '' || !Number.isFinite(value)) return { error: 'a number' };
  if (question.kind === 'integer' && !Number.isInteger(value)) return { error: 'a whole number' };
  if (schema.minimum != null && value < schema.minimum) return { error: `at least ${schema.minimum}` };
  if (schema.maximum != null && value > schema.maximum) return { error: `at most ${schema.maximum}` };
  return { value };
}

/** Whether the chosen values of a many-choice field are within its bounds. */
export function checkChosen(question: Question & { kind: 'choices' }, chosen: readonly string[]): string | undefined {
  if (question.min != null && chosen.length < question.min) return `choose at least ${question.min}`;
  if (question.max != null && chosen.length > question.max) return `choose at most ${question.max}`;
  return undefined;
}

/** A pattern the agent sent that is not a valid expression does not match: the field is refused, not skipped. */
function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

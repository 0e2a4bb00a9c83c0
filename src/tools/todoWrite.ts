// TodoWrite: the model's task list for this session, replaced whole on each call. It only touches session
// state, so it declares `readOnly` with scope `session`: not read-only to the scheduler, hence serial (spec §2 rule 6).
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../executor';
import { deferredSchema } from '../executor';

/** Items in one list; a longer plan is a sign the items are too small. */
export const TODO_MAX_ITEMS = 100;
/** Characters per item. */
export const TODO_MAX_CONTENT_CHARS = 500;

const todoSchema = deferredSchema(() =>
  z.object({
    content: z.string().min(1).max(TODO_MAX_CONTENT_CHARS).describe('What to do, as an imperative sentence.'),
    status: z.enum(['pending', 'in_progress', 'completed']),
  }),
);
const inputSchema = deferredSchema(() =>
  z.object({
    todos: z.array(todoSchema()).max(TODO_MAX_ITEMS).describe('The whole updated list (it replaces the previous one).'),
  }),
);
export type TodoWriteInput = z.infer<ReturnType<typeof inputSchema>>;
export type Todo = z.infer<ReturnType<typeof todoSchema>>;

export interface TodoData {
  readonly todos: readonly Todo[];
  readonly previous: readonly Todo[];
}

/** The lists of each session, in memory. */
export class TodoStore {
  private readonly lists = new Map<string, readonly Todo[]>();

  get(sessionId: string): readonly Todo[] {
    return this.lists.get(sessionId) ?? [];
  }

  set(sessionId: string, todos: readonly Todo[]): readonly Todo[] {
    const previous = this.get(sessionId);
    this.lists.set(sessionId, todos);
    return previous;
  }
}

const MARK: Readonly<Record<Todo['status'], string>> = { completed: '[x]', in_progress: '[~]', pending: '[ ]' };

export function createTodoWriteTool(store: TodoStore): ToolDefinition<TodoWriteInput, TodoData> {
  return {
    name: 'TodoWrite',
    description:
      'Keeps your task list for this session: send the whole updated list each time. Use it for work of three or more steps; ' +
      'keep exactly one item in_progress and mark items completed as soon as they are done.',
    get inputSchema() {
      return inputSchema();
    },
    readOnly: true,
    sideEffectScope: 'session',
    handler: (input, ctx) => writeTodos(input, ctx, store),
    presentation: { verb: 'Updating the todo list', target: 'none' },
  };
}

function writeTodos(input: TodoWriteInput, ctx: ToolContext, store: TodoStore): ToolOutput<TodoData> {
  const todos = input.todos.map((todo) => ({ content: todo.content, status: todo.status }));
  const previous = store.set(ctx.sessionId, todos);
  if (todos.length === 0) return { content: 'Todo list cleared.', data: { todos, previous } };
  const count = (status: Todo['status']) => todos.filter((todo) => todo.status === status).length;
  const inProgress = count('in_progress');
  const lines = [
    `Todo list updated (${todos.length} item${todos.length === 1 ? '' : 's'}: ${count('completed')} completed, ${inProgress} in progress, ${count('pending')} pending):`,
    ...todos.map((todo) => `${MARK[todo.status]} ${todo.content}`),
  ];
  if (inProgress > 1) lines.push(`(${inProgress} items are in progress; keep one in progress at a time.)`);
  return { content: lines.join('\n'), data: { todos, previous } };
}

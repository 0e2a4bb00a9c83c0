import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { TodoStore } from '../../../src/tools/todoWrite';
import { makeWorkspace, type Workspace } from './helpers';

describe('TodoWrite', () => {
  let ws: Workspace;
  let store: TodoStore;
  beforeEach(() => {
    store = new TodoStore();
    ws = makeWorkspace({ tools: { todos: store } });
  });
  afterEach(() => ws.dispose());

  it('replaces the session list and shows it', async () => {
    const todos = [
      { content: 'Write the tests', status: 'completed' },
      { content: 'Implement Bash', status: 'in_progress' },
      { content: 'Document limits', status: 'pending' },
    ];
    const result = await ws.run('TodoWrite', { todos });
    assert.equal(
      result.modelContent,
      'Todo list updated (3 items: 1 completed, 1 in progress, 1 pending):\n[x] Write the tests\n[~] Implement Bash\n[ ] Document limits',
    );
    assert.deepEqual(store.get(ws.executor.sessionId), todos);
  });

  it('notes more than one item in progress, and clears with an empty list', async () => {
    const two = await ws.run('TodoWrite', { todos: [{ content: 'a', status: 'in_progress' }, { content: 'b', status: 'in_progress' }] });
    assert.match(two.modelContent, /2 items are in progress; keep one in progress at a time/);
    const cleared = await ws.run('TodoWrite', { todos: [] });
    assert.equal(cleared.modelContent, 'Todo list cleared.');
    assert.deepEqual(store.get(ws.executor.sessionId), []);
  });

  it('names the field when a status is not one of the three', async () => {
    const result = await ws.run('TodoWrite', { todos: [{ content: 'a', status: 'done' }] });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /tool TodoWrite: invalid input: field todos\[0\]\.status/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ToolRegistry } from '../../../src/executor/contract/registry';
import { parseRawInput, validateInput } from '../../../src/executor/contract/schema';
import { tool } from './fixtures';

describe('input validation', () => {
  const schema = z.object({ text: z.string(), n: z.number().optional(), todos: z.array(z.object({ status: z.enum(['pending', 'done']) })).optional() }).strict();

  it('names the tool and the missing field', () => {
    const result = validateInput('quiet_writer', schema, {});
    assert.deepEqual(result, { ok: false, message: 'tool quiet_writer: invalid input: missing required field text' });
  });

  it('names wrong types, nested paths, enum values and unknown fields', () => {
    const result = validateInput('t', schema, { text: 1, n: 'x', todos: [{ status: 'later' }], extra: true });
    assert.equal(result.ok, false);
    const message = (result as { message: string }).message;
    assert.match(message, /^tool t: invalid input: /);
    assert.match(message, /field text: expected string, got number/);
    assert.match(message, /field n: expected number, got string/);
    assert.match(message, /field todos\[0\]\.status: /);
    assert.match(message, /unknown field extra/);
  });

  it('parses raw argument text and never repairs broken JSON', () => {
    assert.deepEqual(parseRawInput('t', '{"a":1}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseRawInput('t', ''), { ok: true, value: {} });
    const broken = parseRawInput('t', "{a: 1,}");
    assert.equal(broken.ok, false);
    assert.match((broken as { message: string }).message, /^tool t: invalid input: arguments are not valid JSON/);
  });
});

describe('ToolRegistry', () => {
  it('offers the JSON Schema made from the same zod schema', () => {
    const registry = new ToolRegistry();
    registry.register(tool('Echo', { inputSchema: z.object({ text: z.string().describe('what to echo') }) }));
    const [descriptor] = registry.describe();
    assert.deepEqual(descriptor!.inputSchema, {
      type: 'object',
      properties: { text: { type: 'string', description: 'what to echo' } },
      required: ['text'],
    });
  });

  it('validates tools whose schema arrives as JSON Schema and offers it unchanged', () => {
    const registry = new ToolRegistry();
    const jsonSchema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    registry.register({ name: 'mcp__search', description: 'MCP tool', jsonSchema, handler: () => ({ content: '' }) });
    const entry = registry.get('mcp__search')!;
    assert.deepEqual(registry.describe()[0]!.inputSchema, jsonSchema);
    assert.equal(validateInput('mcp__search', entry.schema.validator, { q: 'x' }).ok, true);
    assert.deepEqual(validateInput('mcp__search', entry.schema.validator, {}), {
      ok: false,
      message: 'tool mcp__search: invalid input: missing required field q',
    });
  });

  it('accepts a JSON Schema given as inputSchema (plain tool modules)', () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'plain', description: '', inputSchema: { type: 'object', properties: {} } as never, handler: () => ({ content: '' }) });
    assert.deepEqual(registry.describe()[0]!.inputSchema, { type: 'object', properties: {} });
  });

  it('refuses duplicate and malformed names, and handles enable/disable and unregister', () => {
    const registry = new ToolRegistry();
    const dispose = registry.register(tool('A'));
    assert.throws(() => registry.register(tool('A')), /already registered/);
    assert.throws(() => registry.register(tool('bad name')), /invalid tool name/);
    registry.setEnabled('A', false);
    assert.equal(registry.isDisabled('A'), true);
    assert.deepEqual(registry.names(), []);
    registry.setEnabled('A', true);
    assert.deepEqual(registry.names(), ['A']);
    dispose();
    assert.equal(registry.has('A'), false);
  });
});

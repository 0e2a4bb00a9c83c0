import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { createRedactor } from '../../../../src/executor/results/redaction/patternRedactor';
import { makeExecutor, tool } from '../fixtures';

describe('serialize stage', () => {
  it('turns empty output into (NAME completed with no output)', async () => {
    const { executor } = makeExecutor([tool('Quiet', { handler: () => ({ content: '  \n' }) })]);
    const result = await executor.execute({ id: '1', name: 'Quiet', input: {} });
    assert.equal(result.modelContent, '(Quiet completed with no output)');
    assert.equal(result.strategy, 'empty');
    assert.equal(result.isError, false);
  });

  it('wraps tool-reported failures and validation failures in <tool_use_error>', async () => {
    const { executor } = makeExecutor([
      tool('Fails', { handler: () => ({ content: 'no such file', isError: true }) }),
      tool('Needs', { inputSchema: z.object({ text: z.string() }) }),
    ]);
    assert.equal((await executor.execute({ id: '1', name: 'Fails', input: {} })).modelContent, '<tool_use_error>no such file</tool_use_error>');
    assert.equal(
      (await executor.execute({ id: '2', name: 'Needs', input: {} })).modelContent,
      '<tool_use_error>tool Needs: invalid input: missing required field text</tool_use_error>',
    );
  });

  it('redacts the tool display and budgets through formatModelContent', async () => {
    const secret = `ghp_${'a1B2'.repeat(9)}`;
    const { executor } = makeExecutor(
      [
        tool('Shown', {
          handler: () => ({ content: 'raw', data: { out: `token ${secret}` } }),
          formatModelContent: (output) => `formatted ${(output.data as { out: string }).out}`,
          display: (output) => ({ kind: 'bash_output', output: (output.data as { out: string }).out, truncated: false }),
        }),
      ],
      { redactor: createRedactor() },
    );
    const result = await executor.execute({ id: '1', name: 'Shown', input: {} });
    assert.equal(result.modelContent, 'formatted token [REDACTED:github-token]');
    assert.deepEqual(result.display, { kind: 'bash_output', output: 'token [REDACTED:github-token]', truncated: false });
  });

  it('keeps a failing display from failing the call', async () => {
    const { executor, logger } = makeExecutor([
      tool('BadDisplay', {
        display: () => {
          throw new Error('display bug');
        },
      }),
    ]);
    const result = await executor.execute({ id: '1', name: 'BadDisplay', input: {} });
    assert.equal(result.isError, false);
    assert.ok(logger.messages().includes('tool.display.failed'));
  });
});

describe('serialize stage: faulty tool formatters', () => {
  it('falls back to the raw content when formatModelContent throws', async () => {
    const { executor, logger } = makeExecutor([
      tool('BadFormat', {
        handler: () => ({ content: 'raw content' }),
        formatModelContent: () => {
          throw new Error('formatter bug');
        },
      }),
    ]);
    const result = await executor.execute({ id: '1', name: 'BadFormat', input: {} });
    assert.equal(result.isError, false);
    assert.equal(result.modelContent, 'raw content');
    assert.ok(logger.messages().includes('tool.format.failed'));
  });
});

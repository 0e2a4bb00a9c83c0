import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRule, ruleNamesTool } from '../../../../src/executor/policy/ruleSyntax';

describe('parseRule: Claude Code rule syntax', () => {
  it('reads a whole-tool rule, prefix and exact commands, paths and domains', () => {
    const rule = (text: string) => {
      const parsed = parseRule(text, 'allow', 'user');
      assert.ok(parsed.ok, text);
      return parsed.rule;
    };
    assert.equal(rule('Read').content, undefined);
    assert.deepEqual(rule('Bash(npm test:*)').command, { words: ['npm', 'test'], prefix: true });
    assert.deepEqual(rule('Bash(git status)').command, { words: ['git', 'status'], prefix: false });
    assert.deepEqual(rule('Bash(npm run build *)').command, { words: ['npm', 'run', 'build'], prefix: true });
    assert.equal(rule('Edit(src/**)').content, 'src/**');
    assert.equal(rule('WebFetch(domain:Example.com)').domain, 'example.com');
    assert.equal(rule('Bash(*)').content, undefined, 'Tool(*) is the whole tool');
  });

  it('rejects what it cannot read, as a value', () => {
    for (const text of ['Bash(a && b)', 'Bash(rm $(x))', 'Edit(src', '(x)', 'Web Fetch']) {
      const parsed = parseRule(text, 'deny', 'user');
      assert.equal(parsed.ok, false, text);
    }
  });

  it('names MCP tools by server', () => {
    assert.ok(ruleNamesTool('mcp__github', 'mcp__github__create_issue'));
    assert.ok(ruleNamesTool('mcp__github__*', 'mcp__github__create_issue'));
    assert.ok(!ruleNamesTool('mcp__git', 'mcp__github__create_issue'));
    assert.ok(!ruleNamesTool('Bash', 'BashOutput'));
  });
});

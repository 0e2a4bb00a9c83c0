import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRule, ruleNamesTool } from '../../../../src/executor/policy/rules/ruleSyntax';

describe('parseRule: Claude Code rule syntax', () => {
  it('reads a whole-tool rule, prefix and exact commands, paths and domains', () => {
    const rule = (text: string) => {
      const parsed = parseRule(text, 'allow', 'user');
      assert.ok(parsed.ok, text);
      return parsed.rule;
    };
    assert.equal(rule('Read').content, undefined);
    const command = (text: string) => {
      const { words, prefix } = rule(text).command!;
      return { words, prefix };
    };
    assert.deepEqual(command('Bash(npm test:*)'), { words: ['npm', 'test'], prefix: true });
    assert.deepEqual(command('Bash(git status)'), { words: ['git', 'status'], prefix: false });
    assert.deepEqual(command('Bash(npm run build *)'), { words: ['npm', 'run', 'build'], prefix: true });
    assert.equal(rule('Bash(cd api && npm run verify:api)').command?.line?.length, 2, 'a whole command line');
    assert.ok(rule('Bash(> *)').command?.redirect, 'a redirection-only pattern');
    assert.equal(rule('Edit(src/**)').content, 'src/**');
    assert.equal(rule('WebFetch(domain:Example.com)').domain, 'example.com');
    assert.equal(rule('Bash(*)').content, undefined, 'Tool(*) is the whole tool');
  });

  it('rejects what it cannot read, as a value', () => {
    for (const text of ['Bash(a && )', 'Bash(rm $(x)', 'Bash(echo "x)', 'Edit(src', '(x)', 'Web Fetch']) {
      const parsed = parseRule(text, 'allow', 'user');
      assert.equal(parsed.ok, false, text);
    }
    assert.equal(parseRule('Bash(echo "x)', 'deny', 'user').ok, true, 'a deny may use a pattern cut inside a quote');
  });

  it('names MCP tools by server', () => {
    assert.ok(ruleNamesTool('mcp__github', 'mcp__github__create_issue'));
    assert.ok(ruleNamesTool('mcp__github__*', 'mcp__github__create_issue'));
    assert.ok(!ruleNamesTool('mcp__git', 'mcp__github__create_issue'));
    assert.ok(!ruleNamesTool('Bash', 'BashOutput'));
  });
});

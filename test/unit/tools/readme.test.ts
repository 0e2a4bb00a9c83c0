import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { createBuiltinTools, ProcessSupervisor } from '../../../src/tools/index';
import { TOOL_TABLE_END, TOOL_TABLE_START, toolListLine, toolTable, withToolList, withToolTable } from '../../../src/tools/toolDocs';

/** The repository root, from out/test/unit/tools. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const GENERATE = 'npx tsc -p . && node scripts/gen-lm-tools.mjs';

describe('README tool table', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

  it('documents every named limit of src/tools', () => {
    const section = readme.slice(readme.indexOf('## Built-in tools'));
    assert.ok(readme.includes('## Built-in tools'), 'README.md has a "Built-in tools" section');
    const missing: string[] = [];
    const toolsOut = path.join(ROOT, 'out', 'src', 'tools');
    // From the sources, so a stale compiled file of a deleted source does not count; the sandbox's limits are in its own section.
    const sources = (fs.readdirSync(path.join(ROOT, 'src', 'tools'), { recursive: true }) as string[]).filter((name) => name.endsWith('.ts') && !name.startsWith('sandbox'));
    for (const file of sources.map((name) => name.replace(/\.ts$/, '.js'))) {
      const exports = require(path.join(toolsOut, file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (/^[A-Z][A-Z0-9_]+$/.test(name) && typeof value === 'number' && !section.includes(`\`${name}\``)) missing.push(`${file}: ${name}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('is the table the tools\' definitions make: every registered tool, its input, flags and scheduling', () => {
    assert.equal(withToolTable(readme), readme, `README.md's tool table is out of date: run ${GENERATE}`);
    const table = readme.slice(readme.indexOf(TOOL_TABLE_START), readme.indexOf(TOOL_TABLE_END));
    for (const tool of createBuiltinTools({ supervisor: new ProcessSupervisor() })) assert.match(table, new RegExp(`^\\| ${tool.name} \\|`, 'm'), tool.name);
  });

  it('would show a change of a tool: a new tool, other flags, another input', () => {
    const tools = createBuiltinTools({ supervisor: new ProcessSupervisor() });
    const read = tools.find((tool) => tool.name === 'Read')!;
    assert.notEqual(toolTable([...tools, { ...read, name: 'Peek' }]), toolTable(tools));
    assert.notEqual(toolTable(tools.map((tool) => (tool === read ? { ...read, concurrentSafe: false } : tool))), toolTable(tools));
    assert.match(toolTable(tools), /^\| Read \| `path, offset\?, limit\?` \| yes · yes · `none` \| parallel \|$/m);
    assert.match(toolTable(tools), /^\| TodoWrite \| `todos: \[\{content, status\}\]` \| yes · unset · `session` \| serial \|$/m);
  });
});

describe('docs/PROTOCOL.md tool list', () => {
  it('names every built-in tool, as the reference agent prints what tool-exec serve offers', () => {
    const protocol = fs.readFileSync(path.join(ROOT, 'docs', 'PROTOCOL.md'), 'utf8');
    assert.equal(withToolList(protocol), protocol, `docs/PROTOCOL.md's tool list is out of date: run ${GENERATE}`);
    assert.ok(protocol.includes(toolListLine()));
    assert.match(toolListLine(), new RegExp(`^I can use ${createBuiltinTools({ supervisor: new ProcessSupervisor() }).length} tools: `));
  });
});

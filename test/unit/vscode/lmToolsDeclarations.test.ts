import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ToolRegistry } from '../../../src/executor/contract/registry';
import { createBuiltinTools, ProcessSupervisor } from '../../../src/tools/index';
import { builtinToolDeclarations, GENERATE_COMMAND } from '../../../src/vscode/lmTools/declarations';
import { isOwnTool, lmToolNameOf, referenceNameOf } from '../../../src/vscode/lmTools/toolNames';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8'));

/** VS Code 1.139's rules for `contributes.languageModelTools` (languageModelToolsContribution.ts). */
const VSCODE_NAME = /^(?!copilot_|vscode_)[\w-]+$/;

describe('language model tool declarations', () => {
  it('package.json declares exactly what the built-in tools generate', () => {
    assert.deepEqual(manifest.contributes.languageModelTools, builtinToolDeclarations(), `package.json is out of date: run ${GENERATE_COMMAND}`);
  });

  it('declares every built-in tool once, with the schema the registry validates with', () => {
    const registry = new ToolRegistry();
    const tools = createBuiltinTools({ supervisor: new ProcessSupervisor() });
    for (const tool of tools) registry.register(tool);
    const declarations = builtinToolDeclarations();
    assert.deepEqual(declarations.map((declaration) => declaration.name), tools.map((tool) => lmToolNameOf(tool.name)));
    for (const descriptor of registry.describe()) {
      const declaration = declarations.find((candidate) => candidate.name === lmToolNameOf(descriptor.name));
      assert.deepEqual(declaration?.inputSchema, descriptor.inputSchema, descriptor.name);
      assert.equal(declaration?.modelDescription, descriptor.description);
    }
  });

  it('uses names, reference names and tags VS Code accepts, none twice', () => {
    const declarations = builtinToolDeclarations();
    for (const declaration of declarations) {
      assert.match(declaration.name, VSCODE_NAME);
      assert.match(declaration.toolReferenceName, /^[\w-]+$/);
      assert.ok(declaration.displayName && declaration.modelDescription && declaration.userDescription, declaration.name);
      assert.ok(declaration.tags.every((tag) => !/^(copilot_|vscode_)/.test(tag)));
      assert.equal(declaration.inputSchema.type, 'object');
    }
    assert.equal(new Set(declarations.map((declaration) => declaration.name)).size, declarations.length);
    assert.equal(new Set(declarations.map((declaration) => declaration.toolReferenceName)).size, declarations.length);
  });

  it('names tools with a prefix of ours, so our own tools are recognised in vscode.lm.tools', () => {
    assert.equal(lmToolNameOf('Read'), 'agentToolExecutor_read');
    assert.equal(lmToolNameOf('WebFetch'), 'agentToolExecutor_webFetch');
    assert.equal(referenceNameOf('Read'), 'executorRead');
    assert.equal(isOwnTool({ name: 'agentToolExecutor_read', tags: [] }), true);
    assert.equal(isOwnTool({ name: 'renamed', tags: ['agentToolExecutor'] }), true);
    assert.equal(isOwnTool({ name: 'mcp_github_create_issue', tags: ['mcp'] }), false);
  });
});

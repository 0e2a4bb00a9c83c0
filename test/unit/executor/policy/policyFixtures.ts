// Real workspaces on disk and tools shaped like the built-in ones, for policy and permission tests.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../../../../src/executor/contract/contract';
import type { PermissionDecision } from '../../../../src/executor/ports/permissionPolicy';
import type { RulesPolicy } from '../../../../src/executor/policy/rulesPolicy';

export interface Sandbox {
  /** The workspace folder (real path). */
  readonly ws: string;
  /** A folder beside it, outside the workspace. */
  readonly outside: string;
  dispose(): void;
}

/**
 * ws/src/a.ts, ws/.env, ws/AGENTS.md, ws/notes.md; outside/secret.txt;
 * ws/src/out -> outside (a folder link), ws/src/link.txt -> outside/secret.txt, ws/dangling -> outside/new.txt.
 */
export function makeSandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'policy-')));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(ws, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(path.join(ws, '.env'), 'TOKEN=x\n');
  writeFileSync(path.join(ws, 'AGENTS.md'), '# agents\n');
  writeFileSync(path.join(ws, 'notes.md'), 'notes\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'outside\n');
  symlinkSync(outside, path.join(ws, 'src', 'out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'src', 'link.txt'));
  symlinkSync(path.join(outside, 'new.txt'), path.join(ws, 'dangling'));
  return { ws, outside, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

const done = (name: string) => (): ToolOutput => ({ content: `${name} ran` });

export const ReadTool: ToolDefinition = {
  name: 'Read',
  description: 'reads',
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  concurrentSafe: true,
  sideEffectScope: 'none',
  handler: done('Read'),
};
export const WriteTool: ToolDefinition = {
  name: 'Write',
  description: 'writes',
  inputSchema: z.object({ path: z.string(), content: z.string() }),
  sideEffectScope: 'workspace',
  handler: done('Write'),
};
export const EditTool: ToolDefinition = { ...WriteTool, name: 'Edit', inputSchema: z.object({ path: z.string(), old_string: z.string(), new_string: z.string() }) };
export const BashTool: ToolDefinition = {
  name: 'Bash',
  description: 'runs',
  inputSchema: z.object({ command: z.string() }),
  sideEffectScope: 'external',
  handler: done('Bash'),
};
export const WebFetchTool: ToolDefinition = {
  name: 'WebFetch',
  description: 'fetches',
  inputSchema: z.object({ url: z.string() }),
  sideEffectScope: 'external',
  handler: done('WebFetch'),
};
export const GlobTool: ToolDefinition = {
  name: 'Glob',
  description: 'globs',
  inputSchema: z.object({ pattern: z.string(), path: z.string().optional() }),
  readOnly: true,
  concurrentSafe: true,
  sideEffectScope: 'none',
  handler: done('Glob'),
};

/** Evaluates one call against the policy, with the workspace as the only folder. */
export function decide(policy: RulesPolicy, sandbox: Sandbox, tool: ToolDefinition, input: unknown): Promise<PermissionDecision> {
  return Promise.resolve(policy.evaluate({ tool, input, callId: 'c1', workspaceFolders: [sandbox.ws] }, new AbortController().signal));
}

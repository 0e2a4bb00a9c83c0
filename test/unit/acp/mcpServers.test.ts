// The workspace's MCP servers as ACP's mcpServers: stdio always, http and sse only when the agent takes them,
// ${workspaceFolder} filled in, what only VS Code can fill in left out; and session/new carries them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acpMcpServers } from '../../../src/acp/mcpServers';
import { acpTests, entries } from './harness';

describe('acpMcpServers', () => {
  it('turns stdio and http definitions into ACP servers, later sources winning by name', () => {
    const { servers, skipped } = acpMcpServers(
      [
        { files: { command: 'old' } },
        {
          files: { type: 'stdio', command: 'npx', args: ['-y', 'server-fs', '${workspaceFolder}'], env: { LOG: 'debug', BAD: 1 } },
          docs: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer t' } },
        },
      ],
      { workspaceFolder: '/w', capabilities: { http: true } },
    );
    assert.deepEqual(skipped, []);
    assert.deepEqual(servers, [
      { name: 'files', command: 'npx', args: ['-y', 'server-fs', '/w'], env: [{ name: 'LOG', value: 'debug' }] },
      { type: 'http', name: 'docs', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'Authorization', value: 'Bearer t' }] },
    ]);
  });

  it('leaves out, and says why, what the agent cannot take or only VS Code can fill in', () => {
    const { servers, skipped } = acpMcpServers([
      {
        remote: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        keyed: { command: 'srv', env: { TOKEN: '${input:token}' } },
        withEnvFile: { command: 'srv', envFile: '.env' },
        nothing: { type: 'stdio' },
        odd: { type: 'websocket', url: 'ws://x' },
      },
    ]);
    assert.deepEqual(servers, []);
    assert.deepEqual(
      skipped.map((server) => server.name),
      ['remote', 'keyed', 'withEnvFile', 'nothing', 'odd'],
    );
    assert.match(skipped[0]!.why, /does not take sse/);
    assert.match(skipped[1]!.why, /\$\{input:token\}/);
  });
});

const acp = acpTests();

describe('ACP session/new with MCP servers', () => {
  it('passes the servers to the agent', async () => {
    const harness = await acp.start();
    const servers = acpMcpServers([{ files: { command: 'npx', args: ['server-fs'] } }]).servers;
    await harness.connection.newSession(acp.dir(), undefined, servers);
    const sessions = entries(harness, 'session/new');
    assert.deepEqual(sessions[0]!.params.mcpServers, []);
    assert.deepEqual(sessions[1]!.params.mcpServers, [{ name: 'files', command: 'npx', args: ['server-fs'], env: [] }]);
  });
});

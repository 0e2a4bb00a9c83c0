// Claude's real ACP agent as scripts/setup-agent-claude.sh installed it, and how the tests start it: on the Node
// that scripts/setup.sh installed (it needs Node >= 22), with a fresh home and Claude config folder of its own,
// pointed at the fake Messages API (fakeMessagesApi.ts) with an API key, so it needs no login and reaches
// nothing else.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadPaths, repoRoot } from '../../vscode/harness/paths';
import type { FakeMessagesApi } from './fakeMessagesApi';

/** The package the tests pin (test/agents-claude/package.json). */
export const CLAUDE_AGENT_PACKAGE = '@agentclientprotocol/claude-agent-acp';

export interface ClaudeAgentLaunch {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  /** The agent's version, as installed. */
  readonly version: string;
}

/** The installed agent's entry and version; throws saying how to install it when it is missing or stale. */
export async function installedClaudeAgent(): Promise<{ node: string; entry: string; version: string }> {
  const paths = await loadPaths();
  const dir = path.join(paths.CACHE_ROOT, 'agents', 'claude');
  const lock = fs.readFileSync(path.join(repoRoot(), 'test', 'agents-claude', 'package-lock.json'));
  const marker = path.join(dir, paths.MARKER);
  const expected = createHash('sha256').update(lock).digest('hex');
  if (!fs.existsSync(marker) || fs.readFileSync(marker, 'utf8').trim() !== expected) {
    throw new Error(`Claude's ACP agent is not installed at ${dir} (or is another version): run bash scripts/setup-agent-claude.sh`);
  }
  const packageDir = path.join(dir, 'node_modules', ...CLAUDE_AGENT_PACKAGE.split('/'));
  const version = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version as string;
  return { node: paths.NODE_BIN, entry: path.join(packageDir, 'dist', 'index.js'), version };
}

/**
 * How to start the agent against `api`, with `home` as its HOME and Claude config folder (created here):
 *   - ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY: the agent reports auth "api_key" and needs no login;
 *   - its settings' `permissions.defaultMode: "default"` ("Manual"): without it the agent starts in `auto`,
 *     where Claude Code decides on its own and writes without asking the client;
 *   - telemetry, error reports, the auto-updater and other non-essential traffic off;
 *   - IS_SANDBOX cleared: with it, as root, the agent offers Claude Code's bypass mode, which Claude Code then
 *     refuses to start with under root;
 *   - the fake as its HTTP(S) proxy (but for 127.0.0.1 itself), so any other request is recorded there.
 */
export async function claudeAgentLaunch(api: FakeMessagesApi, home: string): Promise<ClaudeAgentLaunch> {
  const { node, entry, version } = await installedClaudeAgent();
  const config = path.join(home, '.claude');
  fs.mkdirSync(config, { recursive: true });
  fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }));
  return {
    command: node,
    args: [entry],
    version,
    env: {
      HOME: home,
      CLAUDE_CONFIG_DIR: config,
      ANTHROPIC_BASE_URL: api.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test-fake-key',
      ANTHROPIC_AUTH_TOKEN: '',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      IS_SANDBOX: '',
      HTTP_PROXY: api.baseUrl,
      HTTPS_PROXY: api.baseUrl,
      NO_PROXY: '127.0.0.1,localhost',
    },
  };
}

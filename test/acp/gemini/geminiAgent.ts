// The real Gemini CLI as the tests run it: `gemini --acp`, installed by scripts/setup.sh from
// test/agents/gemini/ (pinned by its lock), pointed at a FakeGeminiService on 127.0.0.1 and kept from
// every other service it would call.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AcpLaunch } from '../../../src/acp/connection';
import { repoRoot } from '../../vscode/harness/paths';

/** The model the CLI is started with: naming one skips its model router, which would ask the service to classify each prompt. */
export const GEMINI_MODEL = 'gemini-2.5-pro';
/** Any key: the fake service records it and checks nothing. */
export const GEMINI_API_KEY = 'fake-gemini-api-key';

/**
 * The CLI's settings for a run that calls nothing but the fake service: no usage statistics (which post to
 * Google's logging endpoint at start) and no telemetry; no update check or notice (an interactive-mode feature,
 * off here so a later version cannot start one).
 */
export const GEMINI_SETTINGS = {
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
} as const;

/** The pinned version (test/agents/gemini/package.json). */
export function geminiVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'test', 'agents', 'gemini', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return manifest.dependencies['@google/gemini-cli']!;
}

/** The CLI's entry point where scripts/setup.sh installed it, or undefined when it has not. */
export function installedGeminiCli(): string | undefined {
  // An ES module without top-level await: Node (>= 20.19, the engines' floor) requires it synchronously.
  const paths = require(path.join(repoRoot(), 'scripts', 'vscode-paths.mjs')) as { testAgentDir(name: string): string; MARKER: string };
  const dir = paths.testAgentDir('gemini');
  const entry = path.join(dir, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
  return fs.existsSync(path.join(dir, paths.MARKER)) && fs.existsSync(entry) ? entry : undefined;
}

/** Why a test of the real CLI does not run here; in CI a missing install fails instead (the install step is under test too). */
export function skipWithoutGemini(cli: string | undefined): string | false {
  if (cli) return false;
  if (process.env.CI === 'true') throw new Error('the Gemini CLI is not installed: scripts/setup.sh must install test/agents/gemini');
  return 'needs the Gemini CLI (bash scripts/setup.sh)';
}

/** A home folder for the CLI (`GEMINI_CLI_HOME`) holding GEMINI_SETTINGS, so no user's settings or sessions are read. */
export function geminiHome(parent: string): string {
  const home = path.join(parent, 'gemini-home');
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(GEMINI_SETTINGS, null, 2));
  return home;
}

/** How to start the CLI as an ACP agent against the service at `baseUrl`. */
export function geminiLaunch(cli: string, baseUrl: string, home: string): AcpLaunch {
  return {
    name: 'gemini',
    command: process.execPath,
    args: [cli, '--acp', '--model', GEMINI_MODEL],
    env: { GEMINI_CLI_HOME: home, GOOGLE_GEMINI_BASE_URL: baseUrl, GEMINI_API_KEY },
  };
}

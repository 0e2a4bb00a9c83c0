// The `sandbox` key of Claude Code's settings.json, read as it is: `enabled`,
// `autoAllowBashIfSandboxed`, `excludedCommands`, `network.allowedDomains`. Parsing is pure; problems are
// values. A broken value never loosens anything: the sandbox stays as the other source has it, and
// auto-allow needs a real `true`.
import { parseRule } from '../../executor';

export interface SandboxSettings {
  /** Run Bash (and background commands) inside the OS sandbox. @default false */
  readonly enabled: boolean;
  /** A command that runs sandboxed needs no approval (deny and ask rules still apply). @default true, as in Claude Code */
  readonly autoAllowBashIfSandboxed: boolean;
  /** Commands that always run outside the sandbox (and so go through the normal approval path): `docker`, `git push:*`. */
  readonly excludedCommands: readonly string[];
  /** Hosts sandboxed commands may reach, besides the domains of `WebFetch(domain:…)` allow rules. */
  readonly allowedDomains: readonly string[];
}

export const SANDBOX_OFF: SandboxSettings = { enabled: false, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: [] };

/** One source's `sandbox` object: only the keys it sets. */
export interface PartialSandboxSettings {
  readonly enabled?: boolean;
  readonly autoAllowBashIfSandboxed?: boolean;
  readonly excludedCommands?: readonly string[];
  readonly allowedDomains?: readonly string[];
}

export interface ParsedSandboxSettings {
  readonly settings: PartialSandboxSettings;
  readonly problems: readonly string[];
}

/** Reads `settings.sandbox` of one settings object; `origin` names it in problems. */
export function parseSandboxSettings(settings: unknown, origin: string): ParsedSandboxSettings {
  const value = isRecord(settings) ? settings.sandbox : undefined;
  if (value === undefined) return { settings: {}, problems: [] };
  if (!isRecord(value)) return { settings: {}, problems: [`${origin}: sandbox must be an object; ignored`] };
  const problems: string[] = [];
  const out: { -readonly [K in keyof PartialSandboxSettings]: PartialSandboxSettings[K] } = {};
  for (const key of ['enabled', 'autoAllowBashIfSandboxed'] as const) {
    if (value[key] === undefined) continue;
    if (typeof value[key] === 'boolean') out[key] = value[key];
    else problems.push(`${origin}: sandbox.${key} must be true or false; ${key === 'enabled' ? 'ignored' : 'every command asks as without the sandbox'}`);
  }
  if (problems.some((problem) => problem.includes('autoAllowBashIfSandboxed'))) out.autoAllowBashIfSandboxed = false;
  const excluded = strings(value.excludedCommands, `${origin}: sandbox.excludedCommands`, problems);
  if (excluded) out.excludedCommands = excluded;
  const network = value.network;
  if (network !== undefined && !isRecord(network)) problems.push(`${origin}: sandbox.network must be an object; ignored`);
  const domains = isRecord(network) ? strings(network.allowedDomains, `${origin}: sandbox.network.allowedDomains`, problems) : undefined;
  if (domains) {
    const valid = domains.filter((domain) => DOMAIN_PATTERN.test(domain));
    for (const bad of domains.filter((domain) => !valid.includes(domain))) problems.push(`${origin}: sandbox.network.allowedDomains: ${JSON.stringify(bad)} is not a host name or *.domain; ignored`);
    out.allowedDomains = valid;
  }
  return { settings: out, problems };
}

/**
 * The settings in force: the workspace's keys over the user's. In an untrusted workspace the workspace's
 * `sandbox` object is ignored (it could turn auto-allow on or open hosts), and the reason is returned.
 */
export function combineSandboxSettings(user: PartialSandboxSettings, workspace: PartialSandboxSettings, workspaceTrusted: boolean): { settings: SandboxSettings; notices: string[] } {
  const notices: string[] = [];
  let layer = workspace;
  if (!workspaceTrusted && Object.keys(workspace).length > 0) {
    notices.push("workspace settings: sandbox is ignored because the workspace is not trusted");
    layer = {};
  }
  return {
    settings: {
      enabled: layer.enabled ?? user.enabled ?? SANDBOX_OFF.enabled,
      autoAllowBashIfSandboxed: layer.autoAllowBashIfSandboxed ?? user.autoAllowBashIfSandboxed ?? SANDBOX_OFF.autoAllowBashIfSandboxed,
      excludedCommands: [...(user.excludedCommands ?? []), ...(layer.excludedCommands ?? [])],
      allowedDomains: [...(user.allowedDomains ?? []), ...(layer.allowedDomains ?? [])],
    },
    notices,
  };
}

/** The domains of `WebFetch(domain:…)` allow rules: a host the user lets the agent fetch, a sandboxed command may reach. */
export function webFetchDomains(allowRules: readonly string[]): string[] {
  const domains: string[] = [];
  for (const text of allowRules) {
    const parsed = parseRule(text, 'allow', 'user');
    if (parsed.ok && parsed.rule.tool === 'WebFetch' && parsed.rule.domain) domains.push(parsed.rule.domain);
  }
  return domains;
}

/** `example.com`, `*.example.com`, `localhost`, an IPv4 address: what the runtime's allow list takes. */
const DOMAIN_PATTERN = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*$/;

function strings(value: unknown, where: string, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of strings; ignored`);
    return undefined;
  }
  const out = value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim());
  if (out.length !== value.length) problems.push(`${where}: entries that are not strings were ignored`);
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

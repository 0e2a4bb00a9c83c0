// The Agent Client Protocol SDK (`@agentclientprotocol/sdk`, ESM only), loaded on first use: this code is
// CommonJS, most windows never start an ACP agent, and the SDK's schemas are a large part of a bundle.
import type * as Acp from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };

export type { Acp };
export type AcpModule = typeof Acp;

let loaded: Promise<AcpModule> | undefined;

/** The SDK's stable ACP v1 entry point. */
export function loadAcp(): Promise<AcpModule> {
  loaded ??= import('@agentclientprotocol/sdk');
  return loaded;
}

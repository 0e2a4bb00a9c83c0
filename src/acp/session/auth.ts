// An agent that answers `auth_required` (session/new, load, resume or a prompt): the user picks one of the
// agent's `authMethods`, we send `authenticate`, and the request is sent again. No vscode import.
import type { Acp } from '../sdk';

/** ACP's `auth_required` error code (the SDK's `RequestError.authRequired`). */
export const AUTH_REQUIRED_CODE = -32000;
/** Sign-ins tried for one request before it fails: one the agent refuses is not asked for forever. Ours. */
export const MAX_SIGN_INS = 2;

/** Asks the user which method to sign in with; undefined when they chose none. */
export type ChooseAuthMethod = (methods: readonly Acp.AuthMethod[], signal?: AbortSignal) => Promise<string | undefined>;

export interface Authenticator {
  readonly agentInfo: Acp.InitializeResponse | undefined;
  authenticate(methodId: string, signal?: AbortSignal): Promise<void>;
}

export function isAuthRequired(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === AUTH_REQUIRED_CODE;
}

/** Runs `work`; each time it answers auth_required, signs in with the method the user chooses and runs it again. */
export async function withSignIn<T>(agent: Authenticator, choose: ChooseAuthMethod, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isAuthRequired(error)) throw error;
      if (attempt >= MAX_SIGN_INS) throw new Error(`the agent still asks to sign in after ${MAX_SIGN_INS} sign-ins: ${messageOf(error)}`);
      // Terminal sign-in runs the agent's own program in a terminal; we do not offer it (clientCapabilities.auth).
      const methods = (agent.agentInfo?.authMethods ?? []).filter((method) => !('type' in method) || method.type !== 'terminal');
      if (methods.length === 0) throw new Error(`the agent asks to sign in and offers no way to: ${messageOf(error)}`);
      const methodId = await choose(methods, signal);
      if (methodId === undefined) throw new Error('the agent asks to sign in, and no way to sign in was chosen');
      if (!methods.some((method) => method.id === methodId)) throw new Error(`the agent offers no sign-in ${JSON.stringify(methodId)}`);
      await agent.authenticate(methodId, signal);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error);
}

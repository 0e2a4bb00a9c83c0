// Binds the protocol's methods to a JSON-RPC endpoint: a vscode-jsonrpc `MessageConnection`
// (`tool-exec serve`) or a `LanguageClient` (VS Code) — both have `onRequest(method, handler)`.
// Handlers take params by name or none at all; positional params are refused with InvalidParams.
import { ResponseError } from 'vscode-jsonrpc';
import { BridgeErrorCodes, Methods } from './protocol';
import type { BridgeService, CancelToken } from './service';
import { disposableStore } from '../common/lifecycle';

/** The part of a JSON-RPC endpoint the bridge needs. */
export interface RpcEndpoint {
  onRequest(method: string, handler: (...args: any[]) => unknown): { dispose(): void };
}

export interface BindOptions {
  /** Headless: every method but `initialize` is refused until `initialize` succeeded. */
  readonly requireInitialize: boolean;
}

/** Registers every executor method; returns what unregisters them. */
export function bindBridge(endpoint: RpcEndpoint, service: BridgeService, options: BindOptions): { dispose(): void } {
  let initialized = !options.requireInitialize;
  const methods: Record<string, (params: unknown, token: CancelToken) => unknown> = {
    [Methods.listTools]: () => service.listTools(),
    [Methods.beginTurn]: (params) => service.beginTurn(params),
    [Methods.offer]: (params) => service.offer(params),
    [Methods.endTurn]: (params, token) => service.endTurn(params, token),
    [Methods.executeBatch]: (params, token) => service.executeBatch(params, token),
    [Methods.cancelTurn]: (params) => service.cancelTurn(params),
    [Methods.listCheckpoints]: () => service.listCheckpoints(),
    [Methods.undoTurn]: (params) => service.undoTurn(params),
  };
  const disposables = disposableStore();
  if (options.requireInitialize) {
    disposables.add(
      endpoint.onRequest(Methods.initialize, (...args: unknown[]) => {
        const { params } = split(args);
        if (params instanceof ResponseError) return params;
        const answer = service.initialize(params);
        if (!(answer instanceof ResponseError)) initialized = true;
        return answer;
      }),
    );
  }
  for (const [method, handler] of Object.entries(methods)) {
    disposables.add(
      endpoint.onRequest(method, (...args: unknown[]) => {
        const { params, token } = split(args);
        if (params instanceof ResponseError) return params;
        if (!initialized) return new ResponseError(BridgeErrorCodes.ServerNotInitialized, `${method} before initialize: send initialize first`);
        return handler(params, token);
      }),
    );
  }
  return disposables;
}

/** vscode-jsonrpc calls a string-method handler with (token), (params, token) or (...positional, token). */
function split(args: readonly unknown[]): { params: unknown; token: CancelToken } {
  const token = args[args.length - 1] as CancelToken;
  if (args.length > 2) return { params: new ResponseError(BridgeErrorCodes.InvalidParams, 'invalid params: pass one object by name, not positional parameters'), token };
  return { params: args.length === 2 ? args[0] : {}, token };
}

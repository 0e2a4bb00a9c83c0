// What the bridge tests expect of an answer: an error response, as the agent's connection rejects with it.
import assert from 'node:assert/strict';
import { ResponseError } from 'vscode-jsonrpc/node';

/** The error response a request was answered with; fails when it succeeded. */
export async function rejection(promise: Promise<unknown>): Promise<ResponseError<unknown>> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ResponseError, String(error));
    return error;
  }
  assert.fail('expected an error response');
}

// One result as a line of JSON, for whoever reads results outside the editor: `tool-exec run --json`
// (src/cli/output.ts) and an agent over the bridge (src/bridge/wire.ts) get the same shape from here.
import type { ToolCallResult } from '../contract/result';

/** The JSON contract for one call; `content` is exactly what the model receives. */
export function resultJsonLine(result: ToolCallResult): string {
  return JSON.stringify({
    id: result.callId,
    name: result.name,
    group: result.group ?? 0,
    isError: result.isError,
    errorKind: result.errorKind,
    content: result.modelContent,
    truncated: result.truncated,
    originalBytes: result.originalBytes,
    artifactPath: result.artifact?.path ?? null,
    display: result.display ?? null,
    timing: {
      totalMs: result.timing.totalMs,
      permissionWaitMs: result.timing.permissionWaitMs,
      queuedMs: result.timing.queuedMs,
      startMs: result.timing.startMs,
      endMs: result.timing.endMs,
    },
  });
}

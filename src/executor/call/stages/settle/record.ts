// Stage 14b: the session record — after the result exists; media parts go to artifacts.
import type { CallState, ExecutorDeps } from '../../callState';
import { projectErrorMessage } from '../../../contract/errors';
import type { ToolCallResult } from '../../../contract/result';
import { callRecordEntry, type MediaReference } from '../../../results/sessionRecord';

const MEDIA_EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

export async function recordCall(state: CallState, deps: ExecutorDeps, result: ToolCallResult): Promise<void> {
  const recorder = deps.sessionRecorder;
  if (!recorder) return;
  const failed = (error: unknown) => deps.logger.warn('tool.record.failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
  try {
    const media = result.media?.length ? await storeMedia(state, deps, result) : undefined;
    // Handed over in the calls' order; the result does not wait for the disk, the host flushes.
    recorder.record(callRecordEntry(deps.sessionId, result, state.input, deps.redactor, media)).catch(failed);
  } catch (error) {
    failed(error);
  }
}

async function storeMedia(state: CallState, deps: ExecutorDeps, result: ToolCallResult): Promise<MediaReference[]> {
  const store = deps.artifactStore;
  const retention = state.entry?.def.artifactRetention ?? 'session';
  return Promise.all(
    result.media!.map(async (part): Promise<MediaReference> => {
      const base = { kind: part.kind, mimeType: part.mimeType, bytes: part.data.byteLength };
      if (!store) return { ...base, error: 'no artifact store' };
      try {
        const extension = MEDIA_EXTENSIONS[part.mimeType] ?? 'bin';
        const artifact = await store.write({ sessionId: deps.sessionId, callId: state.call.id, retention, content: part.data, extension });
        return { ...base, artifact };
      } catch (error) {
        return { ...base, error: projectErrorMessage(error) };
      }
    }),
  );
}

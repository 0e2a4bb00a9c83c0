// The undo buttons a chat reply ends with once its turn changed something: the same two for every front
// end that answers in the chat (the built-in loop, the bridge agent, ACP agents). Small on purpose: the
// bridge agent's bundle takes it without the checkpoint store.
import * as vscode from 'vscode';

export const UNDO_TURN_COMMAND = 'agentToolExecutor.undoTurn';
export const UNDO_BACK_TO_COMMAND = 'agentToolExecutor.undoBackTo';

/** "Undo this turn" and "Undo back to here" for the recorded turn. */
export function offerUndo(stream: vscode.ChatResponseStream, turnId: string): void {
  stream.button({ command: UNDO_TURN_COMMAND, title: 'Undo this turn', arguments: [turnId] });
  stream.button({ command: UNDO_BACK_TO_COMMAND, title: 'Undo back to here', arguments: [turnId] });
}

/** Ends a reply's checkpoint once its turns' results are final (so their changes are in it), then offers the undo when it recorded a turn. */
export async function endReplyCheckpoint(
  checkpoint: { end(reported: readonly string[]): Promise<{ readonly turnId: string } | undefined> } | undefined,
  turns: readonly Promise<unknown>[],
  reported: readonly string[],
  stream: vscode.ChatResponseStream,
): Promise<void> {
  if (!checkpoint) return;
  await Promise.all(turns);
  const record = await checkpoint.end(reported).catch(() => undefined);
  if (record) offerUndo(stream, record.turnId);
}

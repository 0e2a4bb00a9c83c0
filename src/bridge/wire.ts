// The executor's values as they travel to an agent: results in the CLI's `--json` shape, events with the
// agent's turn id and without what only the editor needs (a proposed change's whole file texts).
import { resultJsonLine } from '../executor';
import type { TurnEvent } from '../executor';
import type { ToolCallResult } from '../executor';
import type { EventParams, WireResult } from './protocol';

/** Exactly a `tool-exec run --json` line, as an object: one definition of the shape for both. */
export function wireResult(result: ToolCallResult): WireResult {
  return JSON.parse(resultJsonLine(result)) as WireResult;
}

export function wireEvent(turnId: string, event: TurnEvent): EventParams {
  const { turnId: _internal, ...fields } = event;
  switch (fields.type) {
    case 'toolCallResult':
    case 'toolCallFailed':
      return { turnId, event: { type: fields.type, result: wireResult(fields.result) } };
    case 'permissionRequested': {
      const { preview, ...rest } = fields;
      return { turnId, event: preview ? { ...rest, preview: { title: preview.title, detail: preview.detail } } : rest };
    }
    default:
      return { turnId, event: fields };
  }
}

// The `[Workspace Changes]` block appended to a result (spec §5, in its format).
import type { WorkspaceChange } from '../contract/result';
import { formatBytes } from '../format/text';

/** More changes than this are summarised in one line, so a mass rewrite cannot flood the model. */
export const MAX_LISTED_CHANGES = 100;

export function formatWorkspaceChanges(changes: readonly WorkspaceChange[]): string {
  if (changes.length === 0) return '';
  const lines = changes.slice(0, MAX_LISTED_CHANGES).map(formatChange);
  if (changes.length > MAX_LISTED_CHANGES) {
    lines.push(`… and ${changes.length - MAX_LISTED_CHANGES} more changes`);
  }
  return ['[Workspace Changes]', ...lines].join('\n');
}

function formatChange(change: WorkspaceChange): string {
  switch (change.kind) {
    case 'created':
      return `+ ${change.path} (created, ${formatBytes(change.sizeAfter ?? 0)})`;
    case 'modified':
      // A change seen only through a watcher event has no size from before the call.
      return change.sizeBefore === undefined
        ? `~ ${change.path} (modified, ${formatBytes(change.sizeAfter ?? 0)})`
        : `~ ${change.path} (modified, ${formatBytes(change.sizeBefore)} → ${formatBytes(change.sizeAfter ?? 0)})`;
    case 'deleted':
      return `- ${change.path} (deleted)`;
  }
}

// The total budget of a batch (spec §7): after every call ran, the model contents of the turn
// together must fit `maxTotalBytes`. Small results are kept whole; the large ones share what is left
// equally (water filling) and are cut to their head and tail thirds.
import { truncateMiddle } from './budget';
import type { ToolCallResult } from '../contract/result';
import { utf8Bytes } from '../format/text';

/** Room for the truncation marker line a cut result gains. */
export const TOTAL_BUDGET_MARKER_BYTES = 200;

export function applyTotalBudget(results: readonly ToolCallResult[], maxTotalBytes: number | undefined): ToolCallResult[] {
  const sizes = results.map((result) => result.modelBytes);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (maxTotalBytes === undefined || total <= maxTotalBytes) return [...results];
  const share = fairShare(sizes, maxTotalBytes);
  return results.map((result) => {
    if (result.modelBytes <= share) return result;
    const limit = Math.max(1, share - TOTAL_BUDGET_MARKER_BYTES);
    const modelContent = truncateMiddle(result.modelContent, limit);
    return {
      ...result,
      modelContent,
      modelBytes: utf8Bytes(modelContent),
      truncated: true,
      strategy: result.strategy === 'artifact' ? 'artifact' : 'truncate',
    };
  });
}

/** The largest allowance such that results under it plus `count × allowance` fit the total. */
function fairShare(sizes: readonly number[], totalBudget: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = totalBudget;
  for (let index = 0; index < sorted.length; index++) {
    const allowance = Math.floor(remaining / (sorted.length - index));
    if (sorted[index]! > allowance) return allowance;
    remaining -= sorted[index]!;
  }
  return Number.POSITIVE_INFINITY;
}

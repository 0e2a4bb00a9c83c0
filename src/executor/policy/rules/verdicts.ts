// How the verdicts of a call's parts make its decision, and what a sensitive path asks.
import type { PermissionDecision } from '../../ports/permissionPolicy';
import type { Check } from './ruleMatch';
import { classifySensitive } from '../path/sensitiveFiles';

type Verdict = PermissionDecision;

/** Shown reasons are cut to this many parts, so a 50-part command gives a readable message. */
const MAX_REASONS_SHOWN = 3;

/** A deny anywhere wins; then any ask (forced if any is); else allowed. */
export function combine(verdicts: readonly Verdict[]): PermissionDecision {
  const denied = verdicts.find((verdict) => verdict.behavior === 'deny');
  if (denied) return denied;
  const asks = verdicts.filter((verdict) => verdict.behavior === 'ask');
  if (asks.length > 0) {
    const first = asks[0]!;
    const reasons = [...new Set(asks.map((ask) => ask.reason))];
    const shown = reasons.slice(0, MAX_REASONS_SHOWN).join('; ') + (reasons.length > MAX_REASONS_SHOWN ? `; and ${reasons.length - MAX_REASONS_SHOWN} more` : '');
    const forced = asks.find((ask) => ask.forced);
    // Offered only when the prefix rules together would have allowed every part that asked.
    const suggestedRules = asks.every((ask) => ask.suggestedRules?.length) ? [...new Set(asks.flatMap((ask) => ask.suggestedRules!))] : undefined;
    return { behavior: 'ask', by: (forced ?? first).by, rule: (forced ?? first).rule, reason: shown, forced: forced !== undefined, ...(suggestedRules && !forced ? { suggestedRules } : {}) };
  }
  const byRule = verdicts.filter((verdict) => verdict.by === 'rule' && verdict.rule);
  if (byRule.length > 0) {
    return { behavior: 'allow', by: 'rule', rule: [...new Set(byRule.map((verdict) => verdict.rule!))].join(', '), reason: byRule.map((verdict) => verdict.reason).join('; ') };
  }
  return verdicts[0] ?? { behavior: 'ask', by: 'mode', reason: 'nothing to check' };
}

export function sensitiveReason(check: Check, ignoreFiles: readonly string[] | undefined, gitPaths: ReadonlySet<string>): string | undefined {
  if (check.kind !== 'path') return undefined;
  for (const candidate of [check.path.lexical, ...check.path.real]) {
    if (check.access === 'write' && gitPaths.has(candidate)) return `${candidate} is a file the repository's git config includes or a submodule's .git file, which can run code: writing it always asks`;
    const sensitive = classifySensitive(candidate, check.access, ignoreFiles);
    if (!sensitive) continue;
    const verb = check.access === 'write' ? 'writing' : 'reading';
    switch (sensitive.category) {
      case 'agent-memory':
        return `${candidate} is an agent memory file (${sensitive.matched}): ${verb} it always asks`;
      case 'secret':
        return `${candidate} may hold secrets (${sensitive.matched}): ${verb} it always asks`;
      case 'config':
        return `${candidate} is configuration that can run code (${sensitive.matched}): ${verb} it always asks`;
      case 'ignore-file':
        return `${candidate} is an agent ignore file, which decides what every tool and Workspace Changes see: ${verb} it always asks`;
    }
  }
  return undefined;
}


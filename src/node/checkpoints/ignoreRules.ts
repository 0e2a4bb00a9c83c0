// Which entries a checkpoint leaves out by the workspace's ignore files. A decision is a pure function
// of the rule texts on an entry's path and the entry's name, so it is remembered from one checkpoint to
// the next and the matcher is asked again only for a new name or where an ignore file's text changed.
import ignore, { type Ignore } from 'ignore';

/** One ignore file's rules, for paths below `base` (posix, relative to the walked folder; '' is its root). */
export interface RuleSet {
  readonly base: string;
  readonly text: string;
  readonly matcher: Ignore;
}

/** The decisions for one folder's entries (a folder's name ends in `/`), valid for the chain they were made under. */
interface FolderDecisions {
  readonly chain: readonly RuleSet[];
  readonly decisions: Map<string, boolean>;
}

/**
 * Rule sets and decisions kept between walks of one folder. A walk keeps what it used and drops the rest,
 * so removed folders and replaced ignore files do not pile up.
 */
export class IgnoreMemo {
  private sets = new Map<string, RuleSet>();
  private folders = new Map<string, FolderDecisions>();
  private usedSets = new Map<string, RuleSet>();
  private usedFolders = new Map<string, FolderDecisions>();

  /** Starts a walk. */
  begin(): void {
    this.usedSets = new Map();
    this.usedFolders = new Map();
  }

  /** Ends a walk that went through the whole folder: only what it used is kept. */
  finish(): void {
    this.sets = this.usedSets;
    this.folders = this.usedFolders;
  }

  /** The rule set of an ignore file: the same object while its text is the same. */
  rules(base: string, text: string): RuleSet {
    const key = `${base}\0${text}`;
    let set = this.usedSets.get(key) ?? this.sets.get(key);
    if (!set) set = { base, text, matcher: ignore().add(text) };
    this.usedSets.set(key, set);
    return set;
  }

  /** The decisions for the entries of `folder` under `chain`; empty when any rule set on the chain changed. */
  decisions(folder: string, chain: readonly RuleSet[]): Map<string, boolean> {
    const known = this.usedFolders.get(folder) ?? this.folders.get(folder);
    const kept = known && sameChain(known.chain, chain) ? known : { chain, decisions: new Map<string, boolean>() };
    this.usedFolders.set(folder, kept);
    return kept.decisions;
  }
}

function sameChain(a: readonly RuleSet[], b: readonly RuleSet[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** Whether any rule set on the chain ignores the entry at `relative` (posix, from the walked folder's root). */
export function ignoredBy(decisions: Map<string, boolean>, chain: readonly RuleSet[], relative: string, name: string, directory: boolean): boolean {
  const key = directory ? `${name}/` : name;
  let answer = decisions.get(key);
  if (answer === undefined) {
    answer = false;
    for (const set of chain) {
      const below = set.base === '' ? relative : relative.slice(set.base.length + 1);
      if (set.matcher.ignores(directory ? `${below}/` : below)) {
        answer = true;
        break;
      }
    }
    decisions.set(key, answer);
  }
  return answer;
}

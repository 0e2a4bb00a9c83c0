// A digest of every file, link and folder under a root, .git included: two trees with the same digest
// hold the same bytes, modes and link targets.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function treeListing(root: string, skip: ReadonlySet<string> = new Set()): string[] {
  const lines: string[] = [];
  const visit = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (skip.has(full)) continue;
      const relative = path.relative(root, full);
      const stat = fs.lstatSync(full);
      if (stat.isSymbolicLink()) lines.push(`L ${relative} -> ${fs.readlinkSync(full)}`);
      else if (stat.isDirectory()) {
        lines.push(`D ${relative}`);
        visit(full);
      } else lines.push(`F ${relative} ${(stat.mode & 0o7777).toString(8)} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`);
    }
  };
  visit(root);
  return lines;
}

export function treeHash(root: string, skip?: ReadonlySet<string>): string {
  return createHash('sha256').update(treeListing(root, skip).join('\n')).digest('hex');
}

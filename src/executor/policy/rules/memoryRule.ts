// The special rule of spec §3.5, kept by the permission stage whatever policy is plugged in: a write
// to an agent memory file (`AGENTS.md` and kin) always asks.
import type { ToolDefinition } from '../../contract/contract';
import { judgePath, resolvePath, type PathJudge } from '../path/judgePath';
import { classifySensitive } from '../path/sensitiveFiles';
import { subjectsOf } from '../subjects';

/** The memory file this call writes (resolved), if any. */
export async function agentMemoryWriteTarget(tool: ToolDefinition, input: unknown, folders: readonly string[], judge: PathJudge = judgePath): Promise<string | undefined> {
  const subjects = subjectsOf(tool, input);
  if (!subjects.ok) return undefined;
  for (const subject of subjects.subjects) {
    if (subject.kind !== 'path' || subject.access !== 'write') continue;
    const resolved = await resolvePath(subject.path, folders, judge);
    const hit = [resolved.lexical, ...resolved.real].find((candidate) => classifySensitive(candidate, 'write')?.category === 'agent-memory');
    if (hit) return hit;
  }
  return undefined;
}

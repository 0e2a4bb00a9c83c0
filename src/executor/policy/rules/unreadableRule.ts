// What a deny rule we cannot read becomes: never nothing (that would fail open), never a lockout.
import { patternText } from './commandPattern';
import { COMMAND_RULE_TOOLS, conservativeCommandPattern, EVERY_TOOL, type PermissionRule, type RuleSource } from './ruleSyntax';

/**
 * The most conservative reading of a deny rule we cannot read. On a command tool: a deny of every
 * command starting with its readable words (`Bash(rm -rf "/x` → `Bash(rm -rf *)`); on another tool,
 * or with nothing readable, every call of the tool (or, with no readable tool, of every tool) asks.
 * Claude Code skips such a rule, so none of these readings allows what it would not.
 */
export function conservativeDeny(text: string, source: RuleSource): { rule: PermissionRule; description: string } {
  const match = /^\s*([A-Za-z0-9_.\-]+)\s*(?:\(([^]*?)\)?\s*)?$/.exec(text);
  const tool = match?.[1] ?? EVERY_TOOL;
  const content = match?.[2];
  if (content !== undefined && COMMAND_RULE_TOOLS.has(tool)) {
    const command = conservativeCommandPattern(content);
    if (command) {
      const shown = `${tool}(${patternText(command.pattern!)})`;
      return { rule: { text: shown, behavior: 'deny', source, tool, content: patternText(command.pattern!), command }, description: `a deny of ${shown}` };
    }
  }
  const scope = tool === EVERY_TOOL ? 'every tool call' : `every ${tool} call`;
  return { rule: { text: tool, behavior: 'ask', source, tool }, description: `an ask for ${scope}` };
}


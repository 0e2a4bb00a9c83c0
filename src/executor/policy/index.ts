// The permission policy: modes, Claude-Code rules, paths, sensitive files, settings.
export { PERMISSION_MODES, parsePermissionMode, modeStrictness, type PermissionMode } from './modes';
export { RulesPolicy, type RuleLists, type RulesPolicyOptions } from './rulesPolicy';
export { parseRule, parseCommandPattern, type PermissionRule, type RuleBehavior, type RuleSource, type CommandPattern } from './rules/ruleSyntax';
export { splitCommand, type CommandPart, type CommandWord, type SplitResult } from './shell/shellSplit';
export { resolvePath, realLocation, isInside, type ResolvedPath } from './path/judgePath';
export { classifySensitive, type SensitiveCategory, type SensitiveFile } from './path/sensitiveFiles';
export { subjectsOf, globBase } from './subjects';
export {
  createPolicyFromSettings,
  parseSettings,
  parseHookSettings,
  SUPPORTED_HOOK_EVENTS,
  type CommandHookConfig,
  type ParsedSettings,
  type PolicySettingsOptions,
} from './settings';

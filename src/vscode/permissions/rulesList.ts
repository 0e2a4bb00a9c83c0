// "Agent Tool Executor: Permission Rules…": the rules in force with where they come from;
// picking one offers to remove it from its source (this session, a settings file, VS Code settings).
import * as vscode from 'vscode';
import type { PermissionRule } from '../../executor';

export const MANAGE_RULES_COMMAND = 'agentToolExecutor.manageRules';

const SOURCES: Readonly<Record<PermissionRule['source'], string>> = {
  user: '~/.claude/settings.json or user settings',
  workspace: ".claude/settings*.json or this workspace's settings",
  session: 'this session (Allow for Session)',
  cli: 'the command line',
};
const ICONS: Readonly<Record<PermissionRule['behavior'], string>> = { allow: '$(check)', ask: '$(question)', deny: '$(circle-slash)' };

export interface RulesHost {
  readonly rules: readonly PermissionRule[];
  removeRule(rule: PermissionRule): Promise<boolean>;
}

export function registerRulesList(host: RulesHost): vscode.Disposable {
  return vscode.commands.registerCommand(MANAGE_RULES_COMMAND, async () => {
    const rules = host.rules;
    if (rules.length === 0) {
      void vscode.window.showInformationMessage('Agent Tool Executor: no permission rules are in force; the permission mode decides every call.');
      return;
    }
    const picked = await vscode.window.showQuickPick(
      rules.map((rule) => ({ label: `${ICONS[rule.behavior]} ${rule.text}`, description: `${rule.behavior} · ${rule.source}`, detail: SOURCES[rule.source], rule })),
      { title: 'Permission rules in force (pick one to remove it)', matchOnDescription: true, matchOnDetail: true },
    );
    if (!picked) return;
    const remove = 'Remove';
    const answer = await vscode.window.showWarningMessage(`Remove the ${picked.rule.behavior} rule ${picked.rule.text}?`, { modal: true, detail: `It comes from ${SOURCES[picked.rule.source]}.` }, remove);
    if (answer !== remove) return;
    const removed = await host.removeRule(picked.rule);
    void vscode.window.showInformationMessage(
      removed ? `Agent Tool Executor: removed ${picked.rule.text}.` : `Agent Tool Executor: ${picked.rule.text} was not found in a file or setting this extension can edit.`,
    );
  });
}

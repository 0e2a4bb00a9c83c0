// Command lines and verdicts from the peers' own tests, against our rules set to allow the same simple
// commands: where a peer allows and every command that runs is allowed by our rules, we allow; where a
// peer asks because a command in the line is not allowed, we never allow. The command lines and the
// peers' verdicts are taken from (not their code):
//   VSC = microsoft/vscode src/vs/workbench/contrib/terminalContrib/chatAgentTools/test/browser/subCommandsForAutoApproval.test.ts
//   GEM = google-gemini/gemini-cli packages/core/src/utils/shell-utils.test.ts (a line is allowed when all getCommandRoots are)
//   CDX = openai/codex codex-rs/core/src/command_safety/is_safe_command.rs (tests module)
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createPolicyFromSettings } from '../../../../src/executor/policy/index';
import { BashTool, decide, makeSandbox } from './policyFixtures';

/** Our rules for the simple commands the peers treat as safe (exact where a prefix would also allow their unsafe forms). */
const RULES = [
  'Bash(ls:*)', 'Bash(pwd)', 'Bash(echo:*)', 'Bash(cat:*)', 'Bash(grep:*)', 'Bash(wc -l)', 'Bash(true)', 'Bash(git status)',
  'Bash(git branch --show-current)', 'Bash(git -C . branch --show-current)', 'Bash(git commit -m "feat")', 'Bash(sed -n 1,5p file.txt)',
  'Bash(find . -name file.txt)', 'Bash(diff:*)', 'Bash(printf:*)', 'Bash(nl -nrz Cargo.toml)', 'Bash(rg Cargo.toml -n)', 'Bash(base64)',
  'Bash(bash -lc:*)', 'Bash(zsh -lc:*)',
];

type Row = readonly [command: string, peer: 'allow' | 'ask', source: string];

const ROWS: readonly Row[] = [
  ['echo "hello world" > file.txt', 'allow', 'VSC redirection target'],
  ['echo "test" >> output.txt', 'allow', 'VSC append redirection'],
  ['ls 2> error.log', 'allow', 'VSC error redirection / GEM getCommandRoots'],
  ['cat < input.txt', 'allow', 'VSC input redirection / GEM'],
  ['echo test > file.txt && cat file.txt', 'allow', 'VSC logical operators and redirection'],
  ['ls -la | grep test', 'allow', 'VSC pipe'],
  ['ls -l && git status', 'allow', 'GEM splitCommands'],
  ['echo "hello" && git commit -m "feat"', 'allow', 'GEM chained with quotes'],
  ['echo $(badCommand --danger)', 'ask', 'GEM nested command substitution'],
  ['diff <(ls) <(ls -a)', 'allow', 'GEM process substitution'],
  ['echo `badCommand --danger`', 'ask', 'GEM backtick substitution'],
  ['echo "${var1=aa\\140 env| ls -l\\140}${var1@P}"', 'ask', 'GEM prompt transformation'],
  ['echo ${foo@P}', 'ask', 'GEM prompt transformation'],
  ['echo $(cat secret) > output.txt', 'allow', 'GEM substitution in a redirected statement'],
  ['echo "foo" > >(cat)', 'allow', 'GEM process substitution as a redirection target'],
  ['printf "test" >> log.txt', 'allow', 'GEM splitCommands'],
  ['ls', 'allow', 'CDX known_safe_examples'],
  ['git status', 'allow', 'CDX known_safe_examples'],
  ['git branch --show-current', 'allow', 'CDX known_safe_examples'],
  ['sed -n 1,5p file.txt', 'allow', 'CDX known_safe_examples'],
  ['nl -nrz Cargo.toml', 'allow', 'CDX known_safe_examples'],
  ['find . -name file.txt', 'allow', 'CDX known_safe_examples'],
  ['base64', 'allow', 'CDX known_safe_examples'],
  ['rg Cargo.toml -n', 'allow', 'CDX ripgrep_rules'],
  ['git -C . branch --show-current', 'allow', 'CDX git_branch_global_options'],
  ['git branch -d feature', 'ask', 'CDX git_branch_mutating_flags'],
  ['git branch new-branch', 'ask', 'CDX git_branch_mutating_flags'],
  ['git checkout status', 'ask', 'CDX git_first_positional_is_the_subcommand'],
  ['git log --output=/tmp/git-log-out-test -n 1', 'ask', 'CDX git_output_and_config_override_flags'],
  ['git -c core.pager=cat log -n 1', 'ask', 'CDX git_output_and_config_override_flags'],
  ['cargo check', 'ask', 'CDX cargo_check_is_not_safe'],
  ['foo', 'ask', 'CDX unknown_or_partial'],
  ['git fetch', 'ask', 'CDX unknown_or_partial'],
  ['sed -n xp file.txt', 'ask', 'CDX unknown_or_partial'],
  ['find . -name file.txt -exec rm {} ;', 'ask', 'CDX unknown_or_partial'],
  ['find . -delete -name file.txt', 'ask', 'CDX unknown_or_partial'],
  ['find . -fprint /etc/passwd', 'ask', 'CDX unknown_or_partial'],
  ['base64 -o out.bin', 'ask', 'CDX base64_output_options'],
  ['rg --pre pwned files', 'ask', 'CDX ripgrep_rules'],
  ["zsh -lc 'ls'", 'allow', 'CDX zsh_lc_safe_command_sequence'],
  ["bash -lc 'git status'", 'allow', 'CDX bash_lc_safe_examples'],
  ["bash -lc 'sed -n 1,5p file.txt'", 'allow', 'CDX bash_lc_safe_examples'],
  ["bash -lc 'find . -name file.txt'", 'allow', 'CDX bash_lc_safe_examples'],
  [`bash -lc 'grep -R "Cargo.toml" -n || true'`, 'allow', 'CDX bash_lc_safe_examples_with_operators'],
  ["bash -lc 'ls && pwd'", 'allow', 'CDX bash_lc_safe_examples_with_operators'],
  [`bash -lc "echo 'hi' ; ls"`, 'allow', 'CDX bash_lc_safe_examples_with_operators'],
  ["bash -lc 'ls | wc -l'", 'allow', 'CDX bash_lc_safe_examples_with_operators'],
  ['bash -lc "\'git status\'"', 'ask', 'CDX bash_lc_unsafe_examples: a program named "git status"'],
  ["bash -lc 'find . -name file.txt -delete'", 'ask', 'CDX bash_lc_unsafe_examples'],
  ["bash -lc 'ls && rm -rf /'", 'ask', 'CDX bash_lc_unsafe_examples'],
  ["bash -lc 'git -C . branch -d feature'", 'ask', 'CDX git_branch_global_options'],
];

/**
 * Where Codex asks only because its parser cannot prove a line safe, and every command in it is
 * allowed by our rules: we allow, as the issue asks (every command that runs is allowed; a write
 * inside the workspace follows the path rules, as in Claude Code and VS Code).
 */
const PARSER_LIMITS: readonly Row[] = [
  ["bash -lc '(ls)'", 'ask', 'CDX bash_lc_unsafe_examples: "not provably safe with the current parser"'],
  ["bash -lc 'ls || (pwd && echo hi)'", 'ask', 'CDX bash_lc_unsafe_examples: nested parentheses'],
  ["bash -lc 'ls > out.txt'", 'ask', 'CDX bash_lc_unsafe_examples: redirection'],
];

describe("the peers' command tests against our rules", () => {
  const sandbox = makeSandbox();
  after(() => sandbox.dispose());
  const policy = createPolicyFromSettings({ user: { permissions: { allow: RULES } }, workspaceTrusted: true, workspaceFolders: [sandbox.ws] });

  for (const [command, peer, source] of ROWS) {
    it(`${peer === 'allow' ? 'allows' : 'never allows'} ${JSON.stringify(command)} (${source})`, async () => {
      const decision = await decide(policy, sandbox, BashTool, { command });
      if (peer === 'allow') assert.equal(decision.behavior, 'allow', decision.reason);
      else assert.notEqual(decision.behavior, 'allow', decision.reason);
    });
  }

  for (const [command, , source] of PARSER_LIMITS) {
    it(`allows ${JSON.stringify(command)}, where the peer's parser gives up (${source})`, async () => {
      assert.equal((await decide(policy, sandbox, BashTool, { command })).behavior, 'allow');
    });
  }
});

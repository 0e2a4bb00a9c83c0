#!/usr/bin/env bash
# The README's test command (`npm test`): installs what is missing, builds, then runs
#   0. lint (`npm run lint`: what each layer may import, no import cycles),
#   1. unit tests (node --test),
#   2. integration tests inside the real VS Code extension host (mocha, test/vscode/),
#   3. browser end-to-end tests against a fresh server with the packaged .vsix (test/e2e/),
#      and `npm start -- --check` (the served VS Code's chat panel answers `@executor`),
#   4. a check that no server, browser or watcher process outlived them,
# and prints a summary. Exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

LOGS=$(mktemp -d "${TMPDIR:-/tmp}/ate-test-logs-XXXXXX")
trap 'rm -rf "$LOGS"' EXIT
# Backstops per stage, far above the measured times, so a hang fails the run instead of eating
# CI's 90 minutes; the VS Code runners have their own, shorter timeouts and kill their groups.
UNIT_BACKSTOP=900s
SUITE_BACKSTOP=900s
STARTED=$SECONDS
names=() statuses=() counts=()

die() { printf '[test] FAILED: %s\n' "$*" >&2; exit 1; }

# Runs one stage, echoing its output and keeping it to read the counts from.
stage() {
  local name=$1; shift
  local t0=$SECONDS
  printf '\n[test] ── %s ──\n' "$name"
  "$@" 2>&1 | tee "$LOGS/$name.log"
  local rc=${PIPESTATUS[0]}
  names+=("$name")
  statuses+=("$([[ $rc == 0 ]] && echo pass || echo "FAIL (exit $rc)")")
  counts+=("$(count "$LOGS/$name.log") in $((SECONDS - t0)) s")
  return "$rc"
}

# "P passed, F failed" from node's test runner (ℹ pass / ℹ fail) or a plain closing line.
count() {
  local passed failed
  passed=$(grep -E '^(ℹ|#) pass [0-9]+$' "$1" | tail -1 | grep -oE '[0-9]+$')
  failed=$(grep -E '^(ℹ|#) fail [0-9]+$' "$1" | tail -1 | grep -oE '[0-9]+$')
  if [[ -z "$passed" ]]; then
    local line
    line=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
    passed=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+')
    failed=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
  fi
  echo "${passed:-0} passed, ${failed:-0} failed"
}

# --- 0. Dependencies, tools, build (nothing else can run without them) ---------
bash scripts/ensure-npm-deps.sh || die "npm ci (scripts/ensure-npm-deps.sh)"
bash scripts/setup.sh || die "scripts/setup.sh"
bash scripts/setup-agent-claude.sh || die "scripts/setup-agent-claude.sh (Claude's ACP agent for the real-agent tests)"
npm run --silent build || die "npm run build"

# --- 0. Lint: first, as it is the fastest to fail ---------------------------------
stage lint bash -c 'npm run --silent lint && echo "lint: 1 passed, 0 failed"'

# --- 1. Unit tests --------------------------------------------------------------
stage unit timeout -k 15s "$UNIT_BACKSTOP" npm run --silent test:unit

# --- 2-3. The real VS Code: package once, then both suites -----------------------
mkdir -p build
if stage package npm run --silent package; then
  stage vscode timeout -k 15s "$SUITE_BACKSTOP" node out/test/vscode/run.js
  stage e2e timeout -k 15s "$SUITE_BACKSTOP" node --test --test-reporter=spec --test-concurrency=1 out/test/e2e/*.test.js
  # The README's main command, as a newcomer runs it (`npm start -- --check` minus the installs
  # and the packaging done above): the served VS Code's chat panel answers `@executor`.
  stage start timeout -k 15s "$SUITE_BACKSTOP" bash -c 'node out/test/vscode/harness/startDemo.js --check && echo "start: 1 passed, 0 failed"'
fi

# --- 4. Nothing left running ------------------------------------------------------
stage leaks node --test --test-reporter=spec out/test/vscode/leaks.test.js

# --- Summary ----------------------------------------------------------------------
printf '\n[test] ── summary (%d s) ──\n' "$((SECONDS - STARTED))"
total_passed=0 total_failed=0 failed_stages=0
for i in "${!names[@]}"; do
  printf '  %-8s %-16s %s\n' "${names[$i]}" "${statuses[$i]}" "${counts[$i]}"
  [[ "${statuses[$i]}" == pass ]] || failed_stages=$((failed_stages + 1))
  [[ "${names[$i]}" == package ]] && continue
  total_passed=$((total_passed + $(grep -oE '^[0-9]+' <<<"${counts[$i]}")))
  total_failed=$((total_failed + $(grep -oE ', [0-9]+ failed' <<<"${counts[$i]}" | grep -oE '[0-9]+')))
done
if ((failed_stages > 0)); then
  printf '[test] %d stage(s) failed\n' "$failed_stages"
fi
printf 'all: %d passed, %d failed\n' "$total_passed" "$total_failed"
((failed_stages == 0))

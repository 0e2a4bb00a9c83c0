#!/usr/bin/env bash
# `npm run demo:cli`: installs what is missing, builds, and runs the tool-exec CLI
# on a sample batch (examples/sample-batch.json) in a scratch copy of examples/demo-workspace.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-npm-deps.sh
# Grep runs ripgrep; the tests' setup installs it too.
if ! command -v rg >/dev/null; then
  if [[ $(id -u) == 0 ]]; then
    printf '[demo] apt-get install ripgrep\n'
    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep >/dev/null
  else
    printf '[demo] ripgrep (rg) is missing: Grep will say so (install it with: sudo apt-get install ripgrep)\n'
  fi
fi
npm run --silent build

workspace=$(mktemp -d "${TMPDIR:-/tmp}/tool-exec-demo-XXXXXX")
artifacts="$workspace.artifacts"
cp -r examples/demo-workspace/. "$workspace"
# A fake token, so the output shows redaction at work.
printf 'GITHUB_TOKEN=ghp_%s\n' "$(head -c 64 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 36)" > "$workspace/.env"

printf '[demo] workspace: %s\n[demo] tool-exec run --settings examples/demo-settings.json --approve allow examples/sample-batch.json\n\n' "$workspace"
node dist/cli.js run \
  --workspace "$workspace" \
  --settings examples/demo-settings.json \
  --approve allow \
  --max-result-bytes 4000 \
  --artifacts "$artifacts" \
  examples/sample-batch.json
printf '\n[demo] the workspace after the batch: %s (artifacts: %s)\n' "$workspace" "$artifacts"

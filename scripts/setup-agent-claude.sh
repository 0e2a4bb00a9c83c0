#!/usr/bin/env bash
# Installs Claude's ACP agent for the real-agent tests, idempotently: `npm ci` of
# test/agents-claude (the pinned @agentclientprotocol/claude-agent-acp and its
# Claude Code binary, a registry package) into
# ${XDG_CACHE_HOME:-~/.cache}/agent-tool-executor/agents/claude. The marker holds
# the lock file's hash, so a version bump reinstalls and a current install takes
# no time. The agent needs Node >= 22: it runs on the Node 24 that
# scripts/setup.sh installs, which must have run first.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPTS_DIR=$PWD/scripts
SOURCE_DIR=$PWD/test/agents-claude
eval "$(node scripts/vscode-paths.mjs)"
AGENT_DIR="$CACHE_ROOT/agents/claude"

step() { printf '[setup-agent-claude] %s\n' "$*"; }
fail() { printf '[setup-agent-claude] FAILED: %s\n' "$*" >&2; exit 1; }

[[ -x "$NODE_BIN" ]] || fail "Node $NODE_VERSION is missing ($NODE_BIN): run bash scripts/setup.sh first"
lock_hash=$(sha256sum "$SOURCE_DIR/package-lock.json" | cut -d' ' -f1)
mkdir -p "$CACHE_ROOT"
# Two runs at once must not install into one folder.
exec 9>"$CACHE_ROOT/.lock-agent-claude"
flock 9
if [[ "$(cat "$AGENT_DIR/$MARKER" 2>/dev/null)" != "$lock_hash" ]]; then
  step "npm ci @agentclientprotocol/claude-agent-acp into $AGENT_DIR"
  rm -rf "$AGENT_DIR" && mkdir -p "$AGENT_DIR"
  cp "$SOURCE_DIR/package.json" "$SOURCE_DIR/package-lock.json" "$AGENT_DIR/"
  (cd "$AGENT_DIR" && PATH="$NODE_HOME/bin:$PATH" "$SCRIPTS_DIR/clean-env.sh" \
     npm ci --no-audit --no-fund --loglevel=error > "$AGENT_DIR/install.log" 2>&1) \
    || { tail -n 30 "$AGENT_DIR/install.log" >&2; fail "npm ci (log: $AGENT_DIR/install.log)"; }
  entry="$AGENT_DIR/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js"
  [[ -f "$entry" ]] || fail "installed, but $entry is missing"
  echo "$lock_hash" > "$AGENT_DIR/$MARKER"
fi
step "ready: $(node -p "require('$AGENT_DIR/node_modules/@agentclientprotocol/claude-agent-acp/package.json').version") in $AGENT_DIR"

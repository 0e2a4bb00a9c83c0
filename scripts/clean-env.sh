#!/usr/bin/env bash
# Runs a command without what an outer package manager leaves in the environment.
#
# Under `npm test` / `npm start` the outer npm (on the machine's Node) exports
# npm_config_user_agent=npm/… node/v20…, dozens of other npm_* variables, NODE,
# INIT_CWD, COLOR, and puts node_modules/.bin and its node-gyp-bin first on PATH.
# A nested `npm install` inherits them: code-server's postinstall reads the Node
# version from npm_config_user_agent and refuses to install even with Node 24
# first on PATH. Every nested install goes through this script, so `npm test`,
# `npm start`, `.ci/run` and a direct `bash scripts/setup.sh` install alike.
# npm's own settings still come from the usual .npmrc files; user variables
# that npm does not set (proxies, CA bundles, HOME, XDG_*) pass through.
#
# Usage: scripts/clean-env.sh [NAME=VALUE]... COMMAND [ARG]...
set -euo pipefail

unset_args=()
while IFS= read -r name; do
  case "${name,,}" in
    npm_*|node|init_cwd|color) unset_args+=(-u "$name") ;;
  esac
done < <(compgen -e)

# Drop the PATH entries a package manager prepends for its scripts.
clean_path=
IFS=: read -r -a parts <<<"${PATH:-}"
for dir in "${parts[@]}"; do
  case "$dir" in
    ''|*/node_modules/.bin|*/node_modules/.bin/|*/node-gyp-bin|*/node-gyp-bin/) ;;
    *) clean_path+="${clean_path:+:}$dir" ;;
  esac
done

exec env "${unset_args[@]}" PATH="$clean_path" "$@"

#!/usr/bin/env bash
# Installs the npm dependencies when package-lock.json changed since the last install (idempotent, ~0 s when current).
set -euo pipefail
cd "$(dirname "$0")/.."
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ "$(cat node_modules/.ate-lock-hash 2>/dev/null)" != "$lock_hash" ]]; then
  printf '[deps] npm ci\n'
  npm ci --no-audit --no-fund || { printf '[deps] FAILED: npm ci\n' >&2; exit 1; }
  echo "$lock_hash" > node_modules/.ate-lock-hash
fi

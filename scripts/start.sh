#!/usr/bin/env bash
# The README's main job (`npm start`): installs what is missing, builds and packages the extension,
# then serves the real VS Code (the one code-server bundles) on 127.0.0.1 with the .vsix installed,
# the scripted demo model switched on and a fresh copy of examples/demo-workspace open, and prints
# the URL. Ctrl-C (or SIGTERM) stops the server and removes its temporary folders.
#   PORT=9000 npm start     another port than 8765 (a taken port falls back to a free one)
#   npm start -- --check    open it in headless Chromium, screenshot test-results/start-demo.png, stop
# The CLI demo that used to be `npm start` is `npm run demo:cli`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-npm-deps.sh
bash scripts/setup.sh
npm run --silent package
# The harness that starts the server is TypeScript under test/; tsc compiles it to out/.
npm run --silent compile
# exec: the signals npm forwards reach node, which kills the server's process group.
exec node out/test/vscode/harness/startDemo.js "$@"

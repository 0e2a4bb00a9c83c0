// `dist/cli.js`, the `tool-exec` command: starts the CLI bundle beside it, `dist/cli-main.js`, with a V8 code
// cache where it can (src/cli/launch/cliCodeCache.ts: a fresh process starts faster), and V8's young generation capped
// (src/node/runtime/youngGeneration.ts: a lower peak RSS for big output). Only Node built-ins here.
import * as path from 'node:path';
import { launch } from './cliCodeCache';
import { capYoungGeneration, type YoungGenerationCap } from '../../node/runtime/youngGeneration';

// The cap changes a V8 flag, and V8 rejects a code cache made under other flags than its own: so the cap
// begins once the bundle is compiled (with the cache, under the flags the process started with) and is
// undone before the cache is written at exit.
let cap: YoungGenerationCap | undefined;
launch(path.join(__dirname, 'cli-main.js'), { beforeSave: () => cap?.dispose() });
cap = capYoungGeneration();

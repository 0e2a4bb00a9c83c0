// `dist/cli.js`, the `tool-exec` command: starts the CLI bundle beside it, `dist/cli-main.js`, with a V8 code
// cache where it can (src/cli/codeCache.ts; issue 13: a fresh CLI process), and V8's young generation capped
// (src/node/youngGeneration.ts; issue 13: peak RSS of big output). Only Node built-ins here.
import * as path from 'node:path';
import { launch } from './codeCache';
import { capYoungGeneration } from '../node/youngGeneration';

capYoungGeneration();
launch(path.join(__dirname, 'cli-main.js'));

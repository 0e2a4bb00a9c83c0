// Where the sandbox runtime's process script is. Here, tsc's output beside this file; the bundles replace
// this module (scripts/build.mjs) with one that names dist/sandbox-host.js, built from the same source.
import * as path from 'node:path';

export const SANDBOX_HOST_SCRIPT = path.join(__dirname, 'runtimeHost.js');

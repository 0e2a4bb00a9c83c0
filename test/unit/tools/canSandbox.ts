// Whether this machine can run the real OS sandbox the tests use: Linux with bubblewrap and socat (scripts/setup.sh).
import { spawnSync } from 'node:child_process';

export const CAN_SANDBOX = process.platform === 'linux' && spawnSync('sh', ['-c', 'command -v bwrap && command -v socat'], { encoding: 'utf8' }).status === 0;

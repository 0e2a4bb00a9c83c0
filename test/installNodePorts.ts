// The tests' composition root for what the core asks of the machine: paths are resolved on this
// machine's file system, as the extension and the CLI install it (src/extension.ts, src/cli/adapters.ts).
// Loaded before every unit test file (`--require` in package.json, which the processes they fork inherit,
// hence only the port and its adapter) and by the VS Code suite's entry.
import { installFileSystemProbe } from '../src/executor/ports/fileSystemProbe';
import { nodeFileSystemProbe } from '../src/node/runtime/fileSystemProbe';
import { processMountTable } from '../src/node/runtime/localMounts';

installFileSystemProbe(nodeFileSystemProbe(processMountTable()));

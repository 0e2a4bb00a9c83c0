// Child of the big-output row: runs the `tool-exec` CLI of a production bundle in this process, as
// `node dist/cli.js ARGS...` would, and prints this process's peak RSS and CPU time (its own threads) as the last line of its output.
// Usage: node out/bench/child/cliPeak.js CLI_JS ARGS...
import { writeSync } from 'node:fs';

const [cli, ...args] = process.argv.slice(2);
if (!cli) throw new Error('usage: cliPeak.js CLI_JS ARGS...');
process.argv = [process.argv[0]!, cli, ...args];
// Registered before the CLI runs, so it comes first at exit: before the CLI's launcher writes its code cache.
// Written to fd 1 itself: the CLI sends what is written to `process.stdout` outside its results to stderr.
process.once('exit', () => {
  const { user, system } = process.cpuUsage();
  writeSync(1, `${JSON.stringify({ rssMiB: Math.round(process.resourceUsage().maxRSS / 1024), cpuMs: Math.round((user + system) / 1000) })}\n`);
});
require(cli);

// One wait for both ways Bash runs a command, in the foreground (./bash.ts) and in the background
// (./backgroundShells.ts).

/** After the shell exits, how long its output pipes may stay open before what still holds them is stopped. */
export const BASH_EXIT_DRAIN_MS = 500;

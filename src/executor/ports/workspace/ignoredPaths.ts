// Port: the ignore files of agents (`.aiignore`, `.cursorignore`, …) that keep paths away from every tool.

export interface IgnoredPaths {
  /**
   * The ignore file (as the user knows it, e.g. `.aiignore`) that excludes this absolute path or one
   * of its parent folders; undefined when none does.
   */
  excludedBy(absolutePath: string, isDirectory?: boolean): string | undefined;
  /** The ignore files in force, absolute (for tools that hand them to another program, like ripgrep). */
  sources?(): readonly string[];
  /** The ignore files' names, whether they exist or not: writing one always asks, and the sandbox refuses it. */
  names?(): readonly string[];
}

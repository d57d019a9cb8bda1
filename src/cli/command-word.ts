// Which subcommand a command line names, read before any command module loads: the command list registers
// only that one in full, and the start-up (cached-start.ts) keeps a compiled-code cache per command.

/** The global options that take a value (so the word after them is not the command). */
const GLOBAL_WITH_VALUE = new Set(['-c', '--config', '--db', '--db-schema', '--base-url', '--log-level']);

/** The subcommand named on the command line (`help <name>` included), or null. */
export function requestedCommand(args: readonly string[]): string | null {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (GLOBAL_WITH_VALUE.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  return words[0] === 'help' ? (words[1] ?? null) : (words[0] ?? null);
}

/**
 * The commands that need neither the store, the client nor the schedule: they run from a small bundle
 * (scripts/bundle-cli.mjs, src/cli/cached-start.ts), as does a command line naming none (--help,
 * --version, a mistyped option).
 */
export const LIGHT_COMMANDS: readonly string[] = ['streams'];

// `ds-mirror migrate`: applies pending migrations and prints each one's result (other commands
// apply them silently on open).
import type { Command } from 'commander';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { commandContext, openConfiguredStore } from './context.js';

export function migrateCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('migrate')
    .description('Apply pending schema migrations and print what was done')
    .action(async (_flags: unknown, command: Command) => {
      const ctx = commandContext(command, io);
      const store = await openConfiguredStore(ctx, false);
      try {
        const { results, error } = await store.migrate();
        for (const r of results) io.stdout.write(`${r.status.padEnd(11)} ${r.name}\n`);
        if (results.length === 0 && !error) io.stdout.write('the schema is up to date\n');
        if (error) {
          io.stderr.write(`ds-mirror: migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
          setExit(EXIT.failed);
        }
      } finally {
        await store.close();
      }
    });
}

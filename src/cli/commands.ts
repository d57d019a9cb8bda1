// Every subcommand, each in its own file, loaded only when it runs: `ds-mirror --help` and a command's
// start pay for commander alone, not for the store, client and scheduler every other command needs.
// The command asked for is registered in full; the others as a name and a summary for the help list.
import type { Command } from 'commander';
import { requestedCommand } from './command-word.js';
import type { CliIo, SetExit } from './io.js';

type Register = (program: Command, io: CliIo, setExit: SetExit) => void;

interface CommandEntry {
  name: string;
  /** What `ds-mirror --help` shows; the command's own --help has the full description. */
  summary: string;
  /** Arguments, as the help list shows them. */
  args?: string;
  load: () => Promise<Register>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'sync',
    args: '[streams...]',
    summary: 'Mirror streams into the database (default: every stream that is not opt-in)',
    load: async () => (await import('./sync-command.js')).syncCommand,
  },
  {
    name: 'status',
    summary: 'Show each stream: last success, rows, lag, last error, pending checkpoint',
    load: async () => (await import('./status-command.js')).statusCommand,
  },
  {
    name: 'budget',
    summary: "Quotas per API family: used today and this month, the schedule's projected month, and the freshness it buys",
    load: async () => (await import('./budget-command.js')).budgetCommand,
  },
  {
    name: 'migrate',
    summary: 'Apply pending schema migrations and print what was done',
    load: async () => (await import('./migrate-command.js')).migrateCommand,
  },
  {
    name: 'streams',
    summary: 'List every stream: endpoint, table, key, and whether it is opt-in',
    load: async () => (await import('./streams-command.js')).streamsCommand,
  },
  {
    name: 'views',
    summary: 'List the configured monitoring views with their names',
    load: async () => (await import('./views-command.js')).viewsCommand,
  },
  {
    name: 'receive',
    summary: 'Receive signed webhook deliveries (monitoring alerts) and append them to the mirror',
    load: async () => (await import('./receive-command.js')).receiveCommand,
  },
  {
    name: 'backfill',
    args: '<alerts>',
    summary: 'Fill history the webhook receiver may have missed',
    load: async () => (await import('./backfill-command.js')).backfillCommand,
  },
  {
    name: 'jobs',
    summary: 'List the scheduled jobs: schedule, streams, mode, and next run times',
    load: async () => (await import('./jobs-command.js')).jobsCommand,
  },
  {
    name: 'daemon',
    summary: 'Run the scheduled jobs and, when configured, the webhook receiver; serve /healthz and /metrics',
    load: async () => (await import('./daemon-command.js')).daemonCommand,
  },
  {
    name: 'schema',
    summary: 'The data dictionary: every table, view and column, as Markdown or JSON',
    load: async () => (await import('./schema-command.js')).schemaCommand,
  },
  {
    name: 'export',
    args: '<table-or-view>',
    summary: 'Export a table or view to CSV or Parquet, streamed',
    load: async () => (await import('./export-command.js')).exportCommand,
  },
  {
    name: 'copy',
    summary: 'Copy the whole mirror to another database, then verify it row for row',
    load: async () => (await import('./copy-command.js')).copyCommand,
  },
];

export async function registerCommands(program: Command, io: CliIo, setExit: SetExit, argv: readonly string[]): Promise<void> {
  const wanted = requestedCommand(argv.slice(2));
  for (const entry of COMMANDS) {
    if (entry.name === wanted) {
      (await entry.load())(program, io, setExit);
      continue;
    }
    const stub = program.command(entry.name).description(entry.summary);
    if (entry.args) stub.argument(entry.args);
  }
}

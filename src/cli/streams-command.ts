// `ds-mirror streams`: the catalog, so a user can see what can be mirrored and how.
import type { Command } from 'commander';
import { allStreams } from '../catalog/index.js';
import type { CliIo } from './io.js';
import { formatTable } from './table.js';

export function streamsCommand(program: Command, io: CliIo): void {
  program
    .command('streams')
    .description('List every stream: endpoint, table, key, and whether it is opt-in')
    .action(() => {
      const rows = allStreams().map((s) => [
        s.name,
        s.kind !== 'fanout' ? s.path : `${s.parent.table} → ${s.path}`,
        s.table,
        s.key.join(', '),
        s.optIn ? 'opt-in' : 'default',
        s.description,
      ]);
      io.stdout.write(`${formatTable(['stream', 'endpoint', 'table', 'key', 'runs', 'what'], rows)}\n`);
    });
}

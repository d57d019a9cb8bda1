// Registers every subcommand; each lives in its own file.
import type { Command } from 'commander';
import type { CliIo } from '../cli.js';
import { backfillCommand } from './backfill-command.js';
import { copyCommand } from './copy-command.js';
import { daemonCommand } from './daemon-command.js';
import { jobsCommand } from './jobs-command.js';
import { migrateCommand } from './migrate-command.js';
import { receiveCommand } from '../receiver/receive-command.js';
import { schemaCommand } from './schema-command.js';
import { exportCommand } from './export-command.js';
import { statusCommand } from './status-command.js';
import { streamsCommand } from './streams-command.js';
import { syncCommand } from './sync-command.js';

export type SetExit = (code: number) => void;

export function registerCommands(program: Command, io: CliIo, setExit: SetExit): void {
  syncCommand(program, io, setExit);
  statusCommand(program, io);
  migrateCommand(program, io, setExit);
  streamsCommand(program, io);
  receiveCommand(program, io);
  backfillCommand(program, io, setExit);
  jobsCommand(program, io, setExit);
  daemonCommand(program, io, setExit);
  copyCommand(program, io, setExit);
  schemaCommand(program, io);
  exportCommand(program, io);
}

// `ds-mirror jobs`: the scheduled jobs as configured (defaults from jobs/, the user's overrides), with
// their next run times. A job the daemon would refuse (a bad file, a schedule that never fires, an unknown
// stream) is named here with its file and field, and the command exits 2.
import type { Command } from 'commander';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { checkedJobs, jobCatalog, nextRuns } from '../scheduler/index.js';
import { commandContext, openMirrorOrEmpty, positiveNumber } from './context.js';
import { scheduleProblems } from '../mirror/schedule-fit.js';
import { formatTable } from './table.js';

export function jobsCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('jobs')
    .description('List the scheduled jobs: schedule, streams, mode, and next run times (change them with "jobs" in the config file)')
    .option('--next <n>', 'how many next run times to show', positiveNumber('--next'), 1)
    .option('--json', 'print JSON instead of a table')
    .action(async (flags: { next: number; json?: boolean }, command: Command) => {
      const ctx = commandContext(command, io);
      const { config } = ctx;
      // The jobs the daemon would run; each one it would refuse is one line naming its file and field.
      const files = jobCatalog(config.jobsDir);
      const { jobs, refused } = checkedJobs(files.jobs, config.jobs, config.timezone);
      const problems = [...files.refused, ...refused].map((r) => r.problem);
      const rows = jobs.map((job) => ({ job, next: job.enabled ? nextRuns(job, flags.next) : [] }));
      if (flags.json) {
        io.stdout.write(
          `${JSON.stringify(
            rows.map(({ job, next }) => ({ ...job, nextRuns: next.map((d) => d.toISOString()) })),
            null,
            2,
          )}\n`,
        );
      } else {
        const zone = config.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
        io.stdout.write(
          `${formatTable(
            ['job', 'enabled', 'schedule', 'mode', 'streams', `next run (${zone})`],
            rows.map(({ job, next }) => [
              job.name,
              job.enabled ? 'yes' : 'no',
              job.schedule,
              job.mode,
              job.streams.join(', '),
              next.map((d) => localTime(d, zone)).join(', ') || null,
            ]),
          )}\n`,
        );
      }
      for (const p of problems) io.stderr.write(`ds-mirror: ${p}\n`);
      if (problems.length > 0) return setExit(EXIT.usage);
      const store = await openMirrorOrEmpty(ctx);
      try {
        const over = await scheduleProblems(store, config, jobs);
        for (const p of over) io.stderr.write(`ds-mirror: schedule over quota: ${p} (see ds-mirror budget)\n`);
      } finally {
        await store.close();
      }
    });
}

/** 2026-11-22 02:30:00 in the schedule's time zone. */
function localTime(date: Date, timeZone: string): string {
  return date.toLocaleString('sv-SE', { timeZone });
}

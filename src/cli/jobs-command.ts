// `ds-mirror jobs`: the scheduled jobs as configured (defaults from jobs/, the user's overrides), with
// their next run times. A job whose streams are unknown is flagged here, before the daemon refuses it.
import type { Command } from 'commander';
import { jobDefinitions } from '../scheduler/job-files.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { configureJobs, jobStreams, nextRuns, type ScheduledJob } from '../scheduler/index.js';
import { commandContext, openConfiguredStore, positiveNumber, type CommandContext } from './context.js';
import { recordJobs } from '../scheduler/record-jobs.js';
import { scheduleProblems } from './schedule-fit.js';
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
      const jobs = configureJobs(jobDefinitions(config.jobsDir), config.jobs, config.timezone);
      const problems: string[] = [];
      const rows = jobs.map((job) => {
        let problem: string | null = null;
        if (job.enabled) {
          try {
            jobStreams(job);
          } catch (err) {
            problem = (err as Error).message;
            problems.push(problem);
          }
        }
        const next = job.enabled ? nextRuns(job, flags.next) : [];
        return { job, next, problem };
      });
      if (flags.json) {
        io.stdout.write(
          `${JSON.stringify(
            rows.map(({ job, next, problem }) => ({ ...job, nextRuns: next.map((d) => d.toISOString()), problem })),
            null,
            2,
          )}\n`,
        );
      } else {
        const zone = config.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
        io.stdout.write(
          `${formatTable(
            ['job', 'enabled', 'schedule', 'mode', 'streams', `next run (${zone})`],
            rows.map(({ job, next, problem }) => [
              job.name,
              job.enabled ? 'yes' : 'no',
              job.schedule,
              job.mode,
              problem ? `${job.streams.join(', ')} (unknown stream)` : job.streams.join(', '),
              next.map((d) => localTime(d, zone)).join(', ') || null,
            ]),
          )}\n`,
        );
      }
      for (const p of problems) io.stderr.write(`ds-mirror: ${p}\n`);
      if (problems.length > 0) return setExit(EXIT.usage);
      await recordAndFit(ctx, jobs, io);
    });
}

/** Records the jobs in the database (v_jobs, v_streams), and says where the schedule does not fit the quotas. */
async function recordAndFit(ctx: CommandContext, jobs: ScheduledJob[], io: CliIo): Promise<void> {
  const store = await openConfiguredStore(ctx);
  try {
    await recordJobs(store, jobs, new Date());
    const over = await scheduleProblems(store, ctx.config, jobs);
    for (const p of over) io.stderr.write(`ds-mirror: schedule over quota: ${p} (see ds-mirror budget)\n`);
  } finally {
    await store.close();
  }
}

/** 2026-11-22 02:30:00 in the schedule's time zone. */
function localTime(date: Date, timeZone: string): string {
  return date.toLocaleString('sv-SE', { timeZone });
}

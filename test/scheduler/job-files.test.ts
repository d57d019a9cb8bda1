// @end-to-end
// Jobs are files: the defaults are the JSON files of the top-level jobs/ folder, and a user's folder adds
// jobs or replaces a default by name; `ds-mirror jobs`, `budget` and the daemon read both alike; a bad
// file is one line naming the file and the field. Configuration over them: the shipped defaults' schedule,
// the user's overrides, and one clear error for each mistake.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStreams } from '../../src/catalog/index.js';
import { ConfigError } from '../../src/errors.js';
import { configureJobs, jobStreams, nextRuns } from '../../src/scheduler/index.js';
import { DEFAULT_JOBS_DIR, defaultJobs, jobDefinitions, loadJobFiles } from '../../src/scheduler/job-files.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-jobs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (folder: string, file: string, job: object) => writeFileSync(join(folder, file), JSON.stringify(job));

/** The shipped jobs, in the order of jobs/. */
const DEFAULT_JOB_NAMES = [
  'daily-catalog',
  'assets-top',
  'weekly-charts',
  'monthly-assets',
  'monitoring-lists',
  'monitoring-events',
  'alert-backfill',
];

describe('job files', () => {
  it('the defaults are the files of jobs/, each saying what it buys', () => {
    expect(DEFAULT_JOBS_DIR).toMatch(/\/jobs\/?$/);
    expect(defaultJobs.map((j) => j.name)).toEqual(DEFAULT_JOB_NAMES);
    for (const job of defaultJobs) expect((job.why ?? '').length, job.name).toBeGreaterThan(40);
  });

  it("a user's folder adds a job, replaces a default by name, and turns one off", () => {
    const mine = mkdtempSync(join(dir, 'mine-'));
    write(mine, 'a.json', {
      name: 'hourly-charts',
      description: 'charts every hour',
      schedule: '5 * * * *',
      streams: ['charts'],
      mode: 'incremental',
      timeZone: 'Europe/Paris',
    });
    write(mine, 'b.json', {
      name: 'weekly-charts',
      description: 'off',
      schedule: '40 3 * * 0',
      streams: ['charts'],
      mode: 'incremental',
      enabled: false,
    });
    const jobs = configureJobs(jobDefinitions(mine), {}, 'UTC');
    expect(jobs.map((j) => [j.name, j.enabled, j.timeZone])).toContainEqual(['hourly-charts', true, 'Europe/Paris']);
    expect(jobs.find((j) => j.name === 'weekly-charts')?.enabled).toBe(false);
    expect(jobs).toHaveLength(defaultJobs.length + 1);
  });

  it('a bad file is one line naming the file and the field', () => {
    const bad = mkdtempSync(join(dir, 'bad-'));
    write(bad, 'x.json', { name: 'x', description: 'x', schedule: '* * * * *', streams: 'charts', mode: 'incremental' });
    expect(() => loadJobFiles(bad)).toThrow(/x\.json: streams: .*expected array/i);
    write(bad, 'x.json', { name: 'x', description: 'x', schedule: '* * * * *', streams: ['charts'], mode: 'sometimes' });
    expect(() => loadJobFiles(bad)).toThrow(/x\.json: mode: /);
  });

  it('the compiled CLI reads the same files: `ds-mirror jobs` lists a user job from DS_JOBS_DIR', async () => {
    const mine = mkdtempSync(join(dir, 'cli-'));
    write(mine, 'mine.json', {
      name: 'my-sectors',
      description: 'sectors at noon',
      schedule: '0 12 * * *',
      streams: ['sectors'],
      mode: 'incremental',
    });
    const env = { ...process.env, DS_JOBS_DIR: mine, DS_DB: `sqlite:${join(dir, 'jobs.db')}`, DS_LOG_LEVEL: 'warn' };
    const { stdout } = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', 'jobs'], { env });
    expect(stdout).toMatch(/my-sectors/);
    expect(stdout).toMatch(/daily-catalog/);
    write(mine, 'broken.json', { name: 'broken' });
    const failed = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', 'jobs'], { env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((failed as { code: number }).code).toBe(2);
    expect((failed as { stderr: string }).stderr.trim().split('\n')).toEqual([expect.stringMatching(/broken\.json: /)]);
  });
});

describe('default jobs', () => {
  it('ship the budget schedule, each job over streams the catalog knows, every default stream covered', () => {
    const byName = Object.fromEntries(configureJobs(defaultJobs).map((j) => [j.name, j]));
    expect(Object.keys(byName)).toEqual(DEFAULT_JOB_NAMES);
    for (const job of Object.values(byName)) {
      expect(jobStreams(job).length).toBeGreaterThan(0);
      expect(job).toMatchObject({ mode: 'incremental', enabled: true });
    }
    // Every stream of a default run is kept by some job; the assets-top tier too.
    const covered = new Set(Object.values(byName).flatMap((j) => jobStreams(j).map((s) => s.name)));
    for (const s of [...resolveStreams(['all']), ...resolveStreams(['assets-top'])]) expect(covered, s.name).toContain(s.name);
    // The complete assets pass runs on the day the monthly allowance renews.
    const [a, b] = nextRuns(byName['monthly-assets'], 2, new Date('2026-03-15T00:00:00Z'));
    expect([a.toISOString(), b.toISOString()]).toEqual(['2026-04-01T04:30:00.000Z', '2026-05-01T04:30:00.000Z']);
    const top = nextRuns(byName['assets-top'], 3, new Date('2026-03-01T00:00:00Z'));
    expect(top.map((d) => d.toISOString())).toEqual(['2026-03-01T00:20:00.000Z', '2026-03-01T12:20:00.000Z', '2026-03-02T00:20:00.000Z']);
  });
});

describe('overrides', () => {
  it('change a schedule (seconds allowed) and turn a job off without touching the others', () => {
    const jobs = configureJobs(defaultJobs, { 'monitoring-events': { schedule: '*/10 * * * * *' }, 'alert-backfill': { enabled: false } });
    const events = jobs.find((j) => j.name === 'monitoring-events')!;
    expect(events.schedule).toBe('*/10 * * * * *');
    expect(nextRuns(events, 2, new Date('2026-03-01T00:00:01Z')).map((d) => d.toISOString())).toEqual([
      '2026-03-01T00:00:10.000Z',
      '2026-03-01T00:00:20.000Z',
    ]);
    expect(jobs.find((j) => j.name === 'alert-backfill')!.enabled).toBe(false);
    expect(jobs.find((j) => j.name === 'daily-catalog')).toMatchObject({ schedule: '10 3 * * *', enabled: true });
  });

  it('read schedules in the configured time zone', () => {
    const [tokyo] = configureJobs(defaultJobs, { 'daily-catalog': { schedule: '0 3 * * *' } }, 'Asia/Tokyo');
    expect(tokyo.timeZone).toBe('Asia/Tokyo');
    // 03:00 in Tokyo (UTC+9, no daylight saving) is 18:00 UTC the day before.
    expect(nextRuns(tokyo, 1, new Date('2026-03-01T00:00:00Z'))[0].toISOString()).toBe('2026-03-01T18:00:00.000Z');
    const [utc] = configureJobs(defaultJobs, { 'daily-catalog': { schedule: '0 3 * * *' } }, 'UTC');
    expect(nextRuns(utc, 1, new Date('2026-03-01T00:00:00Z'))[0].toISOString()).toBe('2026-03-01T03:00:00.000Z');
  });

  it('refuse an unknown job, a bad cron expression and a bad time zone with a line that says what to fix', () => {
    expect(() => configureJobs(defaultJobs, { nightly: { enabled: false } })).toThrow(
      new ConfigError(
        'jobs.nightly: no such job; the jobs are daily-catalog, assets-top, weekly-charts, monthly-assets, monitoring-lists, monitoring-events, alert-backfill',
      ),
    );
    expect(() => configureJobs(defaultJobs, { 'daily-catalog': { schedule: '61 * * * *' } })).toThrow(
      /jobs\.daily-catalog\.schedule "61 \* \* \* \*" is not a cron expression .*use 5 fields/,
    );
    expect(() => configureJobs(defaultJobs, {}, 'Mars/Olympus')).toThrow(/timezone "Mars\/Olympus" is not an IANA time zone/);
  });

  it('name the job whose streams the catalog does not know', () => {
    const [job] = configureJobs([{ name: 'typo', description: '', schedule: '* * * * *', streams: ['glosary'], mode: 'incremental' }]);
    expect(() => jobStreams(job)).toThrow(/^job typo: unknown stream "glosary".*jobs\.typo\.enabled = false/);
  });
});

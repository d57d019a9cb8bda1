// Job configuration: the shipped defaults, the user's overrides, and one clear error for each mistake.
import { describe, expect, it } from 'vitest';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { ConfigError } from '../../src/errors.js';
import { configureJobs, jobStreams, nextRuns } from '../../src/scheduler/index.js';

describe('default jobs', () => {
  it('ship the budget schedule, each job over streams the catalog knows, every default stream covered', () => {
    const byName = Object.fromEntries(configureJobs(defaultJobs).map((j) => [j.name, j]));
    expect(Object.keys(byName)).toEqual([
      'daily-catalog',
      'assets-top',
      'weekly-charts',
      'monthly-assets',
      'monitoring-lists',
      'monitoring-events',
      'alert-backfill',
    ]);
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

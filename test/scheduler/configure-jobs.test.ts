// Job configuration: the shipped defaults, the user's overrides, and one clear error for each mistake.
import { describe, expect, it } from 'vitest';
import { defaultJobs } from '../../jobs/index.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { ConfigError } from '../../src/errors.js';
import { configureJobs, jobStreams, nextRuns } from '../../src/scheduler/index.js';

describe('default jobs', () => {
  it('ship the four schedules of the issue, each over streams the catalog knows', () => {
    const byName = Object.fromEntries(configureJobs(defaultJobs).map((j) => [j.name, j]));
    expect(Object.keys(byName)).toEqual(['nightly-full', 'hourly-incremental', 'monitoring-events', 'alert-backfill']);
    expect(byName['nightly-full']).toMatchObject({ mode: 'full', streams: ['v1', 'token-unlocks'], enabled: true });
    expect(byName['hourly-incremental']).toMatchObject({ mode: 'incremental', streams: ['all'] });
    expect(byName['monitoring-events']).toMatchObject({ schedule: '*/5 * * * *', streams: ['monitoring-events'] });
    expect(byName['alert-backfill']).toMatchObject({ streams: ['monitoring-views'] });
    for (const job of Object.values(byName)) expect(jobStreams(job).length).toBeGreaterThan(0);
    // The nightly covers every /v1 list plus token unlocks, and fires once a day.
    expect(jobStreams(byName['nightly-full']).map((s) => s.name)).toEqual(resolveStreams(['v1', 'token-unlocks']).map((s) => s.name));
    const [a, b] = nextRuns(byName['nightly-full'], 2, new Date('2026-03-01T00:00:00Z'));
    expect(b.getTime() - a.getTime()).toBe(86_400_000);
    const hourly = nextRuns(byName['hourly-incremental'], 3, new Date('2026-03-01T00:00:00Z'));
    expect(hourly.map((d) => d.toISOString())).toEqual(['2026-03-01T00:05:00.000Z', '2026-03-01T01:05:00.000Z', '2026-03-01T02:05:00.000Z']);
  });
});

describe('overrides', () => {
  it('change a schedule (seconds allowed) and turn a job off without touching the others', () => {
    const jobs = configureJobs(defaultJobs, { 'monitoring-events': { schedule: '*/10 * * * * *' }, 'alert-backfill': { enabled: false } });
    const events = jobs.find((j) => j.name === 'monitoring-events')!;
    expect(events.schedule).toBe('*/10 * * * * *');
    expect(nextRuns(events, 2, new Date('2026-03-01T00:00:01Z')).map((d) => d.toISOString())).toEqual([
      '2026-03-01T00:00:10.000Z', '2026-03-01T00:00:20.000Z',
    ]);
    expect(jobs.find((j) => j.name === 'alert-backfill')!.enabled).toBe(false);
    expect(jobs.find((j) => j.name === 'nightly-full')).toMatchObject({ schedule: '30 2 * * *', enabled: true });
  });

  it('read schedules in the configured time zone', () => {
    const [tokyo] = configureJobs(defaultJobs, { 'nightly-full': { schedule: '0 3 * * *' } }, 'Asia/Tokyo');
    expect(tokyo.timeZone).toBe('Asia/Tokyo');
    // 03:00 in Tokyo (UTC+9, no daylight saving) is 18:00 UTC the day before.
    expect(nextRuns(tokyo, 1, new Date('2026-03-01T00:00:00Z'))[0].toISOString()).toBe('2026-03-01T18:00:00.000Z');
    const [utc] = configureJobs(defaultJobs, { 'nightly-full': { schedule: '0 3 * * *' } }, 'UTC');
    expect(nextRuns(utc, 1, new Date('2026-03-01T00:00:00Z'))[0].toISOString()).toBe('2026-03-01T03:00:00.000Z');
  });

  it('refuse an unknown job, a bad cron expression and a bad time zone with a line that says what to fix', () => {
    expect(() => configureJobs(defaultJobs, { nightly: { enabled: false } })).toThrow(
      new ConfigError('jobs.nightly: no such job; the jobs are nightly-full, hourly-incremental, monitoring-events, alert-backfill'),
    );
    expect(() => configureJobs(defaultJobs, { 'nightly-full': { schedule: '61 * * * *' } })).toThrow(/jobs\.nightly-full\.schedule "61 \* \* \* \*" is not a cron expression .*use 5 fields/);
    expect(() => configureJobs(defaultJobs, {}, 'Mars/Olympus')).toThrow(/timezone "Mars\/Olympus" is not an IANA time zone/);
  });

  it('name the job whose streams the catalog does not know', () => {
    const [job] = configureJobs([{ name: 'typo', description: '', schedule: '* * * * *', streams: ['glosary'], mode: 'incremental' }]);
    expect(() => jobStreams(job)).toThrow(/^job typo: unknown stream "glosary".*jobs\.typo\.enabled = false/);
  });
});

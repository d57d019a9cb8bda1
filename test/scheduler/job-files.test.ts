// @end-to-end
// Jobs are files: the defaults are the JSON files of the top-level jobs/ folder, and a user's folder adds
// jobs or replaces a default by name; `ds-mirror jobs`, `budget` and the daemon read both alike; a bad
// file is one line naming the file and the field.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureJobs } from '../../src/scheduler/index.js';
import { DEFAULT_JOBS_DIR, defaultJobs, jobDefinitions, loadJobFiles } from '../../src/scheduler/job-files.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-jobs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (folder: string, file: string, job: object) => writeFileSync(join(folder, file), JSON.stringify(job));

describe('job files', () => {
  it('the defaults are the files of jobs/, each saying what it buys', () => {
    expect(DEFAULT_JOBS_DIR).toMatch(/\/jobs\/?$/);
    expect(defaultJobs.map((j) => j.name)).toEqual([
      'daily-catalog',
      'assets-top',
      'weekly-charts',
      'monthly-assets',
      'monitoring-lists',
      'monitoring-events',
      'alert-backfill',
    ]);
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

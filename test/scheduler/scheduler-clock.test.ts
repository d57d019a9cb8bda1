// The scheduler under fake timers (they drive the cron library's timers and Date, and the injected
// clock): fires at the cron times, skips a tick that overlaps the job's own run, and stop() waits for the
// run in flight, all without waiting wall-clock time.
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveStreams } from '../../src/catalog/index.js';
import type { JobFinished, ScheduledJob } from '../../src/scheduler/index.js';
import { startScheduler, type Scheduler } from '../../src/scheduler/scheduler.js';
import type { RunResult } from '../../src/sync/engine.js';

const START = Date.parse('2026-11-23T10:00:30.000Z');
const MINUTE = 60_000;

function job(name: string, schedule: string, streams = ['glossary']): { job: ScheduledJob; streams: ReturnType<typeof resolveStreams> } {
  return {
    job: { name, description: name, schedule, streams, mode: 'incremental', enabled: true, timeZone: 'UTC' },
    streams: resolveStreams(streams),
  };
}

interface StartedRun {
  at: string;
  streams: string[];
  signal: AbortSignal;
  end: (outcome?: RunResult['outcome']) => void;
}
/** Every run a test started, so the test's end can finish them. */
const allStarted: StartedRun[] = [];

/** A run that ends when the test says so, recording when it started and whether it was told to stop. */
function controlledRuns() {
  const started: StartedRun[] = [];
  const run = (_job: ScheduledJob, streams: readonly { name: string }[], signal: AbortSignal) =>
    new Promise<RunResult>((resolve) => {
      const one: StartedRun = {
        at: new Date().toISOString(),
        streams: streams.map((s) => s.name),
        signal,
        end: (outcome = 'success') => resolve({ runId: started.length, outcome, streams: [] }),
      };
      started.push(one);
      allStarted.push(one);
    });
  return { started, run };
}

describe('scheduler on fake timers', () => {
  let scheduler: Scheduler | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ now: START });
  });
  afterEach(async () => {
    const stopping = scheduler?.stop();
    for (const run of allStarted.splice(0)) run.end('stopped');
    await stopping;
    scheduler = undefined;
    vi.useRealTimers();
  });

  it('fires at the cron times and reports the next one', async () => {
    const { started, run } = controlledRuns();
    scheduler = startScheduler({ jobs: [job('every-10', '*/10 * * * *')], run, logger: pino({ level: 'silent' }), now: () => Date.now() });
    expect(scheduler.status()[0].nextRunAt).toBe('2026-11-23T10:10:00.000Z');
    await vi.advanceTimersByTimeAsync(9 * MINUTE);
    expect(started).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1 * MINUTE);
    expect(started.map((s) => s.at)).toEqual(['2026-11-23T10:10:00.000Z']);
    started[0].end();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    started[1].end();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(started.map((s) => s.at)).toEqual(['2026-11-23T10:10:00.000Z', '2026-11-23T10:20:00.000Z', '2026-11-23T10:30:00.000Z']);
    expect(scheduler.status()[0]).toMatchObject({
      runs: 3,
      skipped: 0,
      lastStartedAt: '2026-11-23T10:30:00.000Z',
      nextRunAt: '2026-11-23T10:40:00.000Z',
    });
  });

  it('skips a tick that finds the job still running, and times the run on the clock', async () => {
    const { started, run } = controlledRuns();
    const finished: JobFinished[] = [];
    const skipped: string[] = [];
    scheduler = startScheduler({
      jobs: [job('every-minute', '* * * * *')],
      run,
      logger: pino({ level: 'silent' }),
      now: () => Date.now(),
      onFinished: (e) => finished.push(e),
      onSkipped: (name) => skipped.push(name),
    });
    await vi.advanceTimersByTimeAsync(30_000); // 10:01:00, the first run starts
    await vi.advanceTimersByTimeAsync(2 * MINUTE); // 10:02 and 10:03 find it running
    expect(started).toHaveLength(1);
    expect(skipped).toEqual(['every-minute', 'every-minute']);
    await vi.advanceTimersByTimeAsync(30_000);
    started[0].end('partial');
    await vi.advanceTimersByTimeAsync(0);
    expect(finished).toEqual([
      { job: 'every-minute', outcome: 'partial', durationMs: 150_000, result: { runId: 1, outcome: 'partial', streams: [] } },
    ]);
    expect(scheduler.status()[0]).toMatchObject({
      running: false,
      skipped: 2,
      lastFinishedAt: '2026-11-23T10:03:30.000Z',
      lastSuccessAt: '2026-11-23T10:03:30.000Z',
    });
    await vi.advanceTimersByTimeAsync(30_000); // 10:04: free again
    expect(started.map((s) => s.at)).toEqual(['2026-11-23T10:01:00.000Z', '2026-11-23T10:04:00.000Z']);
  });

  it('stop() tells the running job to stop, waits for it, and fires nothing after', async () => {
    const { started, run } = controlledRuns();
    scheduler = startScheduler({ jobs: [job('every-minute', '* * * * *')], run, logger: pino({ level: 'silent' }), now: () => Date.now() });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(started).toHaveLength(1);
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(started[0].signal.aborted).toBe(true);
    expect(stopped).toBe(false);
    started[0].end('stopped');
    await stopping;
    expect(scheduler.status()[0]).toMatchObject({ running: false, lastOutcome: 'stopped', nextRunAt: null });
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(started).toHaveLength(1);
  });

  it("leaves a stream held by another job to that job, and skips the holder's own overlapping ticks", async () => {
    const { started, run } = controlledRuns();
    const skipped: string[] = [];
    scheduler = startScheduler({
      jobs: [job('long', '0 * * * *', ['glossary', 'chains']), job('short', '*/15 * * * *', ['chains'])],
      run,
      logger: pino({ level: 'silent' }),
      now: () => Date.now(),
      onSkipped: (name) => skipped.push(name),
    });
    await vi.advanceTimersByTimeAsync(15 * MINUTE); // 10:15: short runs chains
    await vi.advanceTimersByTimeAsync(45 * MINUTE); // 10:30, 10:45 and 11:00 skip short; at 11:00 long runs glossary only
    expect(skipped).toEqual(['short', 'short', 'short']);
    expect(started.map((s) => [s.at, s.streams])).toEqual([
      ['2026-11-23T10:15:00.000Z', ['chains']],
      ['2026-11-23T11:00:00.000Z', ['glossary']],
    ]);
    expect(scheduler.status().map((s) => [s.name, s.running])).toEqual([
      ['long', true],
      ['short', true],
    ]);
  });
});

// What a command writes while it runs, with an injected clock: progress (totals only where known, else a
// spinner with the rate; an ETA from the rate so far; off a terminal one log line per running stream per
// interval), the logs (one human line each on a terminal, pino's JSON lines elsewhere; both redacted), and
// counts as every command and page writes them (grouped by hand, src/figures.ts, as en-US groups them).
import pino from 'pino';
import { Command } from 'commander';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { commandContext } from '../../src/cli/context.js';
import { figures, logProgress, progressLine, ProgressTracker, type Clock } from '../../src/cli/progress-bars.js';
import { count, counted } from '../../src/figures.js';
import { createLogger } from '../../src/logger.js';
import { emptyStats } from '../../src/sync/context.js';
import { runEstimates } from '../../src/mirror/progress-estimates.js';
import { outcomeNote } from '../../src/cli/run-summary.js';
import { openTestStore } from '../helpers/stores.js';

function fakeClock(): Clock & { advance(ms: number): void } {
  let now = 1_000_000;
  const timers: { every: number; next: number; tick: () => void; live: boolean }[] = [];
  return {
    now: () => now,
    every(ms, tick) {
      const t = { every: ms, next: now + ms, tick, live: true };
      timers.push(t);
      return { cancel: () => void (t.live = false) };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.live && t.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.every;
        due.tick();
      }
      now = end;
    },
  };
}

const fetched = (stream: string, n: number) => ({ ...emptyStats(stream), fetched: n, inserted: n });

describe('progress', () => {
  it('draws a bar with the total and an ETA where the total is known, a spinner with the rate where not', () => {
    const clock = fakeClock();
    const tracker = new ProgressTracker(clock);
    tracker.start('assets', 3000);
    tracker.start('monitoring-events', null);
    clock.advance(10_000);
    tracker.advance('assets', fetched('assets', 1000));
    tracker.advance('monitoring-events', fetched('monitoring-events', 500));
    const assets = figures(tracker.streams.get('assets')!, clock.now());
    expect(assets).toMatchObject({ done: 1000, total: 3000, rate: 100, etaSeconds: 20 });
    expect(progressLine(tracker.streams.get('assets')!, clock.now())).toMatch(/1000\/3000 rows 33% 100\/s ETA 20s/);
    const events = progressLine(tracker.streams.get('monitoring-events')!, clock.now());
    expect(events).toMatch(/500 rows 50\.0\/s/);
    expect(events).not.toMatch(/ETA|\d\/\d/);
  });

  it('marks a total taken from the last run as an estimate, and lets it grow rather than pass 100%', () => {
    const clock = fakeClock();
    const tracker = new ProgressTracker(clock, new Map([['monitoring-events', 400]]));
    tracker.start('monitoring-events', null);
    clock.advance(1000);
    tracker.advance('monitoring-events', fetched('monitoring-events', 100));
    expect(progressLine(tracker.streams.get('monitoring-events')!, clock.now())).toContain('100/~400 rows 25%');
    tracker.advance('monitoring-events', fetched('monitoring-events', 450));
    expect(tracker.streams.get('monitoring-events')!.total).toBe(450);
    // A list that learns its real total replaces the estimate.
    tracker.start('monitoring-events', 900);
    expect(tracker.streams.get('monitoring-events')).toMatchObject({ total: 900, estimated: false });
  });

  it('logs one line per running stream at each interval off a terminal, and stops when all are done', () => {
    const clock = fakeClock();
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write: (chunk, _e, done) => {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const progress = logProgress(logger, { clock, intervalMs: 5000 });
    progress.start('assets', 2000);
    progress.start('charts', null);
    clock.advance(4999);
    expect(lines).toHaveLength(0);
    progress.advance('assets', fetched('assets', 500));
    clock.advance(1);
    expect(lines.map((l) => [l.stream, l.fetched, l.total, l.msg])).toEqual([
      ['assets', 500, 2000, 'progress'],
      ['charts', 0, null, 'progress'],
    ]);
    expect(lines[0].etaSeconds).toBe(15);
    progress.finish('charts', fetched('charts', 7));
    clock.advance(5000);
    expect(lines.slice(2).map((l) => l.stream)).toEqual(['assets']);
    progress.finish('assets', fetched('assets', 2000));
    clock.advance(60_000);
    expect(lines).toHaveLength(3);
  });
});

describe('progress from the first run', () => {
  it("estimates a never-synced stream from the real service's published size, not the sandbox's", async () => {
    const t = await openTestStore('sqlite');
    try {
      const real = await runEstimates(
        t.store,
        ['assets', 'chains', 'monitoring-events', 'asset-ohlcv'],
        'incremental',
        'https://api.example.com',
      );
      expect(Object.fromEntries(real)).toEqual({ assets: 133_000, chains: 26, 'monitoring-events': 20_000 });
      const local = await runEstimates(t.store, ['assets'], 'incremental', 'http://127.0.0.1:4010');
      expect(local.size).toBe(0);
      const tracker = new ProgressTracker(fakeClock(), real);
      tracker.start('assets', null);
      expect(progressLine(tracker.streams.get('assets')!, tracker.clock.now())).toMatch(/ 0\/~133000 rows 0% /);
    } finally {
      await t.cleanup();
    }
  });

  it('counts detail fetches in the line, so a details phase never looks stalled', () => {
    const tracker = new ProgressTracker(fakeClock());
    tracker.start('monitoring-events', 500);
    tracker.advance('monitoring-events', { ...fetched('monitoring-events', 500), details: 37 });
    expect(progressLine(tracker.streams.get('monitoring-events')!, tracker.clock.now())).toMatch(/\+37 details/);
  });

  it('says a spent quota once: its rows point below instead of repeating it', () => {
    const message = 'the /v1 monthly quota is spent (2,500 of 2,500 requests); it renews 2026-12-01 00:00 UTC';
    const stopped = { ...emptyStats('assets'), outcome: 'stopped' as const, error: `assets: ${message}` };
    expect(outcomeNote(stopped, new Map([[message, 'quota spent']]))).toBe('stopped: quota spent (see below)');
    expect(outcomeNote(stopped)).toContain(message);
  });
});

function stderr(isTTY: boolean) {
  const lines: string[] = [];
  return {
    lines,
    stream: {
      isTTY,
      write: (text: string) => {
        lines.push(text);
        return true;
      },
    },
  };
}

function logTo(isTTY: boolean) {
  const err = stderr(isTTY);
  const io = { stdout: process.stdout, stderr: err.stream as unknown as NodeJS.WriteStream, env: { DS_LOG_LEVEL: 'info' } };
  const { logger } = commandContext(new Command('test'), io);
  logger.warn({ signal: 'SIGTERM', job: 'monthly-assets', err: 'connect ECONNREFUSED 127.0.0.1:1', apiKey: 'sk-123' }, 'signal received');
  logger.debug('not at info');
  return err.lines;
}

describe('the logs', () => {
  it('on a terminal: the time, the level, the message, then key=value, redacted', () => {
    const lines = logTo(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}signal received signal=SIGTERM job=monthly-assets err="connect ECONNREFUSED 127\.0\.0\.1:1" apiKey=\[redacted\]\n$/,
    );
  });

  it("elsewhere: pino's JSON lines on file descriptor 2, redacted", () => {
    expect(logTo(false)).toEqual([]); // not the human lines: straight to fd 2
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.warn({ signal: 'SIGTERM', apiKey: 'sk-123' }, 'signal received');
    expect(JSON.parse(lines[0])).toMatchObject({ level: 40, msg: 'signal received', signal: 'SIGTERM', apiKey: '[redacted]' });
  });
});

describe('count', () => {
  it('groups digits in threes as en-US does, rounded to a whole number', () => {
    const numbers = [0, 7, 999, 1_000, 9_999.4, 109_226, 1_234_567.5, -1, -1_234, -987_654_321, 2 ** 53 - 1, 2 ** 60, Number.NaN, Infinity];
    for (const n of numbers) expect(count(n), String(n)).toBe(Math.round(n).toLocaleString('en-US'));
    expect(count(-0.2)).toBe('0');
  });

  it('agrees the noun with the number', () => {
    expect([counted(1, 'request'), counted(2_500, 'request'), counted(1.2, 'view')]).toEqual(['1 request', '2,500 requests', '1 view']);
  });
});

// Progress of a run that tells the truth. A stream's total is known only where the mirror knows it: the
// rows each list held last time, a fan-out's parents, or (an estimate, marked ~) what the stream fetched
// on its last run. With a total: a bar, the count out of it, the ETA from the rate so far. Without: a
// spinner, the count and the rate. On a terminal the lines redraw in place; anywhere else (a pipe, a log
// file, the daemon) each running stream gets one log line per interval. A stream's end is logged at
// debug: the command's summary (or the daemon's job line) says it once.
import { createRequire } from 'node:module';
import type cliProgressType from 'cli-progress';
import type { Logger } from 'pino';
import type { StreamRunStats } from '../store/types.js';
import type { Progress } from '../sync/index.js';

/** Time, injected so tests drive it. */
export interface Clock {
  now(): number;
  every(ms: number, tick: () => void): { cancel(): void };
}

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref(); // a progress line never keeps the process alive
    return { cancel: () => clearInterval(timer) };
  },
};

export interface StreamProgress {
  stream: string;
  done: number;
  total: number | null;
  /** The total is a guess from the last run, not a count the mirror holds. */
  estimated: boolean;
  startedAt: number;
  finishedAt: number | null;
  stats: Readonly<StreamRunStats> | null;
}

export interface ProgressOptions {
  clock?: Clock;
  /** Rows each stream fetched on its last run: the estimate when nothing better is known. */
  estimates?: ReadonlyMap<string, number>;
}

/** The streams' counts over time, shared by both outputs. */
export class ProgressTracker implements Progress {
  readonly streams = new Map<string, StreamProgress>();

  constructor(
    readonly clock: Clock,
    private readonly estimates: ReadonlyMap<string, number> = new Map(),
  ) {}

  start(stream: string, expected: number | null): void {
    const known = this.streams.get(stream);
    if (known) {
      // A stream that learns its total after starting (a list reads its last counts first).
      if (expected !== null && expected > 0) Object.assign(known, { total: Math.max(expected, known.done), estimated: false });
      return;
    }
    const estimate = this.estimates.get(stream);
    const total = expected !== null && expected > 0 ? expected : estimate && estimate > 0 ? estimate : null;
    this.streams.set(stream, {
      stream,
      done: 0,
      total,
      estimated: total !== null && expected === null,
      startedAt: this.clock.now(),
      finishedAt: null,
      stats: null,
    });
  }

  advance(stream: string, stats: Readonly<StreamRunStats>): void {
    const p = this.streams.get(stream);
    if (!p) return;
    p.done = stats.fetched;
    p.stats = stats;
    // More than expected: the total was low (new rows upstream, or a guess); it grows, it never lies.
    if (p.total !== null && p.done > p.total) p.total = p.done;
  }

  finish(stream: string, stats: Readonly<StreamRunStats>): void {
    this.advance(stream, stats);
    const p = this.streams.get(stream);
    if (!p) return;
    p.finishedAt = this.clock.now();
    p.total = p.done;
    p.estimated = false;
  }

  running(): StreamProgress[] {
    return [...this.streams.values()].filter((p) => p.finishedAt === null);
  }
}

export interface ProgressFigures {
  done: number;
  total: number | null;
  estimated: boolean;
  /** Rows a second since the stream started. */
  rate: number;
  /** Seconds left at that rate; null without a total or a rate. */
  etaSeconds: number | null;
  elapsedSeconds: number;
}

export function figures(p: StreamProgress, now: number): ProgressFigures {
  const elapsedSeconds = Math.max(0, ((p.finishedAt ?? now) - p.startedAt) / 1000);
  const rate = elapsedSeconds > 0 ? p.done / elapsedSeconds : 0;
  const etaSeconds = p.total !== null && p.finishedAt === null && rate > 0 ? Math.max(0, (p.total - p.done) / rate) : null;
  return { done: p.done, total: p.total, estimated: p.estimated, rate, etaSeconds, elapsedSeconds };
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const BAR_WIDTH = 20;

/** One terminal line: `assets  ██████░░░░ 1200/3000 rows 40% 85/s ETA 21s +12 ~3`. */
export function progressLine(p: StreamProgress, now: number, nameWidth = 22): string {
  const f = figures(p, now);
  const name = p.stream.padEnd(nameWidth);
  // Detail records (development details) are requests of their own: counted, so that phase never looks stalled.
  const details = p.stats?.details ? ` +${p.stats.details} details` : '';
  const detail = p.stats ? ` +${p.stats.inserted} ~${p.stats.updated} -${p.stats.deleted}${details}` : '';
  const rate = `${formatRate(f.rate)}/s`;
  if (p.finishedAt !== null) {
    return `${name} ${'█'.repeat(BAR_WIDTH)} ${f.done} rows in ${formatDuration(f.elapsedSeconds)}${detail} ${p.stats?.outcome ?? ''}`.trimEnd();
  }
  if (f.total === null) {
    const frame = SPINNER[Math.floor(now / 100) % SPINNER.length];
    return `${name} ${frame} ${f.done} rows ${rate}${detail}`;
  }
  const share = f.total > 0 ? Math.min(1, f.done / f.total) : 0;
  const filled = Math.round(share * BAR_WIDTH);
  const tilde = f.estimated ? '~' : '';
  const eta = f.etaSeconds === null ? 'ETA -' : `ETA ${formatDuration(f.etaSeconds)}`;
  return `${name} ${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ${f.done}/${tilde}${f.total} rows ${Math.floor(share * 100)}% ${rate} ${eta}${detail}`;
}

/** Bars redrawn in place on a terminal. */
export function terminalProgress(stream: NodeJS.WriteStream, opts: ProgressOptions = {}): Progress & { stop(): void } {
  const tracker = new ProgressTracker(opts.clock ?? systemClock, opts.estimates);
  // Loaded here, on a terminal only: a piped or scheduled run never draws a bar.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressType;
  const multibar = new cliProgress.MultiBar({
    stream,
    clearOnComplete: false,
    hideCursor: true,
    fps: 10,
    format: (_options, _params, payload: { stream: string }) => {
      const p = tracker.streams.get(payload.stream);
      const width = Math.max(...[...tracker.streams.keys()].map((n) => n.length));
      return p ? progressLine(p, tracker.clock.now(), width) : payload.stream;
    },
  });
  const bars = new Map<string, cliProgressType.SingleBar>();
  const redraw = (name: string) => bars.get(name)?.update(tracker.streams.get(name)?.done ?? 0);
  return {
    start(name, expected) {
      tracker.start(name, expected);
      if (!bars.has(name)) bars.set(name, multibar.create(1, 0, { stream: name }));
      redraw(name);
    },
    advance(name, s) {
      tracker.advance(name, s);
      redraw(name);
    },
    finish(name, s) {
      tracker.finish(name, s);
      redraw(name);
    },
    stop: () => multibar.stop(),
  };
}

/** Off a terminal: one info line per running stream every `intervalMs`; starts and ends at debug. */
export function logProgress(logger: Logger, opts: ProgressOptions & { intervalMs?: number } = {}): Progress & { stop(): void } {
  const tracker = new ProgressTracker(opts.clock ?? systemClock, opts.estimates);
  const intervalMs = opts.intervalMs ?? 10_000;
  let timer: { cancel(): void } | null = null;
  const report = () => {
    const now = tracker.clock.now();
    for (const p of tracker.running()) {
      const f = figures(p, now);
      logger.info(
        {
          stream: p.stream,
          fetched: f.done,
          ...(p.stats?.details ? { details: p.stats.details } : {}),
          total: f.total,
          ...(f.estimated ? { estimated: true } : {}),
          perSecond: Math.round(f.rate * 10) / 10,
          etaSeconds: f.etaSeconds === null ? null : Math.round(f.etaSeconds),
        },
        'progress',
      );
    }
  };
  const stop = () => {
    timer?.cancel();
    timer = null;
  };
  return {
    start(name, expected) {
      tracker.start(name, expected);
      logger.debug({ stream: name, expected }, 'stream started');
      timer ??= tracker.clock.every(intervalMs, report);
    },
    advance: (name, s) => tracker.advance(name, s),
    finish(name, s) {
      tracker.finish(name, s);
      logger.debug({ ...s }, 'stream finished');
      if (tracker.running().length === 0) stop();
    },
    stop,
  };
}

function formatRate(perSecond: number): string {
  return perSecond >= 100 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

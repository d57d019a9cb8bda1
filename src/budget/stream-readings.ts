// How a plain `sync` reads each stream: the way its scheduled job reads it, so a run costs what an
// incremental run costs. `/v1/assets` has no change filter, so an "incremental" pass over it is a
// complete pass (more than half the month's /v1 quota): a plain run reads the top of each class, as the
// frequent tier does, and the complete pass only when the mirror never finished one, when the job that
// schedules it has fired since the last one ended (the month's pass is due), or under --full.
import { topTierOf } from '../catalog/index.js';
import type { StreamDef } from '../catalog/types.js';
import { DEFAULT_TOP_ASSETS } from '../catalog/v1.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../requests/run-settings.js';
import type { ScheduleEntry } from './projection.js';
import { lastFireAtOrBefore } from './schedule-fires.js';
import { plannerOf, resumePoints } from '../sync/index.js';
import { count } from '../figures.js';

export interface StreamReading {
  /** The stream asked for. */
  stream: string;
  /** The stream the run reads for it (assets → assets-top when the complete pass is not due). */
  reads: StreamDef;
  /** How it is read, and why, in a few words. */
  how: string;
}

const when = (at: Date | string) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export async function streamReadings(
  store: Store,
  settings: SyncSettings,
  streams: readonly StreamDef[],
  schedule: readonly ScheduleEntry[],
  at: Date,
): Promise<StreamReading[]> {
  const readings: StreamReading[] = [];
  for (const stream of streams) {
    const top = topTierOf(stream);
    const tiered = top && settings.mode !== 'full' ? await completePassDue(store, stream, schedule, at) : null;
    if (top && tiered && !tiered.due) {
      const n = settings.topAssets ?? DEFAULT_TOP_ASSETS;
      readings.push({ stream: stream.name, reads: top, how: `the top ${n} of each class, as ${top.name}: ${tiered.why}` });
    } else {
      readings.push({ stream: stream.name, reads: stream, how: tiered?.why ?? (await plainHow(store, settings, stream, schedule)) });
    }
  }
  // A stream asked for twice (assets read as its top tier, and the top tier named too) is read once.
  return readings.filter((r, i) => readings.findIndex((o) => o.reads === r.reads) === i);
}

/** Whether the stream's complete pass is due now, and why (or why not). */
async function completePassDue(
  store: Store,
  stream: StreamDef,
  schedule: readonly ScheduleEntry[],
  at: Date,
): Promise<{ due: boolean; why: string }> {
  const last = (await store.getState(stream.name))?.lastSuccessAt ?? null;
  if (last === null) return { due: true, why: 'complete pass: the mirror never completed one' };
  const jobs = schedule.filter((e) => e.streams.some((s) => s.name === stream.name)).map((e) => e.job);
  const fired = jobs
    .map((job) => ({ job: job.name, at: lastFireAtOrBefore(job, at) }))
    .filter((f): f is { job: string; at: Date } => f.at !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime())[0];
  if (fired && Date.parse(last) < fired.at.getTime())
    return { due: true, why: `complete pass, due: ${fired.job} fired ${when(fired.at)}, after the last one (${when(last)})` };
  const by = jobs.length > 0 ? `${jobs.map((j) => j.name).join(', ')} runs the next` : 'no job runs the next';
  return { due: false, why: `the complete pass ran ${when(last)}, ${by} (--full: now)` };
}

/** Any other stream: read as an incremental run reads it, with the job that schedules it. */
async function plainHow(store: Store, settings: SyncSettings, stream: StreamDef, schedule: readonly ScheduleEntry[]): Promise<string> {
  if (settings.mode === 'full') return 'complete pass (--full)';
  const job = schedule.find((e) => e.streams.some((s) => s.name === stream.name))?.job.name;
  const as = job ? `, as ${job}` : '';
  const synced = (await store.getState(stream.name))?.lastSuccessAt != null;
  const resumed = await resumePoints(store, settings, stream);
  if (resumed) return `${resumedHow(resumed)}${as}`;
  return `${plannerOf(stream).reading(settings, synced)}${as}`;
}

/** An interrupted pass the run resumes: where, and over what. */
function resumedHow(resumed: { next: Record<string, number | null>; windowStart: string | null }): string {
  const pages = Object.values(resumed.next).filter((p): p is number => p !== null);
  const at = pages.length > 0 ? `at page ${count(Math.min(...pages))}` : 'at its end';
  return `resumes the interrupted ${resumed.windowStart === null ? 'complete pass' : `window from ${resumed.windowStart.slice(0, 10)}`} ${at} (its checkpoint)`;
}

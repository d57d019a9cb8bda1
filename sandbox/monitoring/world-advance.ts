// One step of change over time: remove some events, update some events and developments, add
// developments to existing events and add new events. Reports exactly which ids changed.
import type { EventWorld } from './event-world.js';
import { developmentId, eventId } from './event-text.js';
import { type Rng, countOf, sample } from './seeded-random.js';
import type { AdvanceOptions, IdChanges } from './types.js';

export interface WorldChange {
  events: IdChanges;
  developments: IdChanges;
  /** Indices of every development created by this step (for webhook alerts). */
  newDevelopments: number[];
}

/** `from`..`to`: Unix seconds of the previous and the new sandbox time; new items start in between. */
export function advanceWorld(w: EventWorld, rng: Rng, opts: AdvanceOptions, from: number, to: number): WorldChange {
  const start = Math.min(from, to);
  const live: number[] = [];
  for (let e = 0; e < w.eventCount; e++) if (w.isLive(e)) live.push(e);

  const removedEvents = sample(rng, live, countOf(opts.removeFraction, live.length));
  const removedDevs: number[] = [];
  for (const e of removedEvents) {
    removedDevs.push(...w.developmentsOf(e));
    w.removeEvent(e);
  }
  const gone = new Set(removedEvents);
  const remaining = live.filter((e) => !gone.has(e));

  const updatedEvents = new Set(sample(rng, remaining, countOf(opts.updateFraction, remaining.length)));
  for (const e of updatedEvents) w.updateEvent(e, to);

  const liveDevs: number[] = [];
  for (let d = 0; d < w.dev.length; d++) if (w.isLive(w.dev.cols.event[d])) liveDevs.push(d);
  const updatedDevs = sample(rng, liveDevs, countOf(opts.updateFraction, liveDevs.length));
  for (const d of updatedDevs) {
    w.updateDevelopment(d, to);
    updatedEvents.add(w.dev.cols.event[d]);
  }

  const newDevelopments: number[] = [];
  for (const e of sample(rng, remaining, countOf(opts.addFraction, remaining.length))) {
    newDevelopments.push(w.addDevelopment(e, start + rng.int(Math.max(1, to - start)) + 1, to));
    w.updateEvent(e, to);
    updatedEvents.add(e);
  }

  const addedEvents: number[] = [];
  for (let k = countOf(opts.addFraction, remaining.length); k > 0; k--) {
    const e = w.createEvent(start + 1, to, to);
    addedEvents.push(e);
    newDevelopments.push(...w.developmentsOf(e));
  }

  const addedDevSet = new Set(newDevelopments);
  const ev = (list: Iterable<number>): string[] => [...list].map((e) => eventId(w, e));
  const dv = (list: Iterable<number>): string[] => [...list].map((d) => developmentId(w, d));
  return {
    events: { added: ev(addedEvents), updated: ev(updatedEvents), removed: ev(removedEvents) },
    developments: {
      added: dv(newDevelopments),
      updated: dv(updatedDevs.filter((d) => !addedDevSet.has(d))),
      removed: dv(removedDevs),
    },
    newDevelopments,
  };
}

// The shape's pure parts: which values of another type are taken without loss (and which are not), and what
// each contract does with a record whose typed field changed type. No store, no service.
import { describe, expect, it } from 'vitest';
import { assets } from '../../src/catalog/v1.js';
import { eventRecord } from '../../src/catalog/monitoring-records.js';
import { DriftError } from '../../src/errors.js';
import { coerce, LOSSY } from '../../src/sync/shape/coercions.js';
import { expectedShape, type KnownField } from '../../src/sync/shape/expected-shape.js';
import { PassShape, seenFields } from '../../src/sync/shape/pass-shape.js';
import { EVENT_ITEMS } from '../../src/sync/monitoring/event-rows.js';

const number = { type: 'number', time: null } as const;
const unix = { type: 'number', time: 'unix' } as const;
const iso = { type: 'string', time: 'iso' } as const;

describe('loss-free coercions', () => {
  it('takes an exact numeric text, a zoned ISO time for Unix seconds and back, and nothing that would lose', () => {
    expect(coerce('212.5', number)).toBe(212.5);
    expect(coerce('-3e2', number)).toBe(-300);
    expect(coerce('0.1234567890123456789', number)).toBe(LOSSY); // more digits than a double keeps
    expect(coerce('12 USD', number)).toBe(LOSSY);
    expect(coerce('', number)).toBe(LOSSY);
    expect(coerce('2023-09-06T15:34:04Z', unix)).toBe(1694014444);
    expect(coerce('2023-09-06T17:34:04+02:00', unix)).toBe(1694014444);
    expect(coerce('2023-09-06T15:34:04', unix)).toBe(LOSSY); // no zone: which instant?
    expect(coerce(1694014444, iso)).toBe('2023-09-06T15:34:04.000Z');
    expect(coerce(1694014444123, iso)).toBe('2023-09-06T15:34:04.123Z'); // milliseconds
    expect(coerce(42, { type: 'string', time: null })).toBe('42');
    expect(coerce('true', { type: 'boolean', time: null })).toBe(true);
    expect(coerce([1], { type: 'object', time: null })).toBe(LOSSY);
  });
});

const KNOWN = new Map<string, KnownField>([
  ['id', { types: ['number'], share: 1 }],
  ['price', { types: ['object'], share: 1 }],
  ['price.usd', { types: ['number'], share: 1 }],
  ['title', { types: ['string'], share: 1 }],
]);

describe('a pass under each contract', () => {
  const record = () => ({
    id: 1,
    code: 'X',
    title: 'X',
    slug: 'x',
    asset_class: 'token',
    price: { usd: '2.5' },
    updated_at: '2023-09-06T15:34:04Z',
  });

  it('hold: coerces in place (row and raw agree), quarantines what would lose, counts both', () => {
    const shape = new PassShape(expectedShape('assets', assets, KNOWN), 'hold');
    const taken = record();
    expect(shape.take(taken)).toBeNull();
    expect(taken.price.usd).toBe(2.5);
    expect(taken.updated_at).toBe(1694014444);
    const lossy = { ...record(), price: { usd: 'n/a' } };
    expect(shape.take(lossy)).toMatchObject({ field: 'price.usd', reason: expect.stringContaining('cannot be taken without loss') });
    expect([...shape.otherTypes.values()].map((o) => [o.path, o.seen, o.coerced, o.lossy])).toEqual([
      ['updated_at', 'string', 2, 0], // both records: fields are checked parents first
      ['price.usd', 'string', 1, 1],
    ]);
  });

  it('hold: most of a page set aside for one field fails the stream naming it; a few do not', () => {
    const shape = new PassShape(expectedShape('assets', assets, KNOWN), 'hold');
    expect(() => shape.judgePage([{ field: 'title' }], 10)).not.toThrow();
    expect(() =>
      shape.judgePage(
        Array.from({ length: 6 }, () => ({ field: 'title' })),
        10,
      ),
    ).toThrow(/assets: required field "title" missing in 6 of 10 records of a page/);
  });

  it('accept writes what comes; fail fails at the first value of another type', () => {
    const accepting = new PassShape(expectedShape('assets', assets, KNOWN), 'accept');
    const taken = record();
    expect(accepting.take(taken)).toBeNull();
    expect(taken.price.usd).toBe('2.5');
    const failing = new PassShape(expectedShape('assets', assets, KNOWN), 'fail');
    expect(() => failing.take(record())).toThrow(DriftError);
  });

  it('a typed field every earlier record carried, gone from a whole page, holds it until confirmed', () => {
    const known = new Map<string, KnownField>([['title', { types: ['string'], share: 1 }]]);
    const page = [1, 2, 3].map((id) => ({ id: String(id), startedAt: '2024-01-01T00:00:00Z' }));
    const holding = new PassShape(expectedShape('monitoring-events', eventRecord, known), 'hold');
    expect(holding.holdPage(page)).toEqual(['title']);
    const confirmed = new PassShape(expectedShape('monitoring-events', eventRecord, known), 'hold', () => true);
    expect(confirmed.holdPage(page)).toEqual([]);
    expect([...confirmed.confirmedGone]).toEqual(['title']);
  });

  // The walk that counts a record's fields also tells whether a typed one came in another type: only such a
  // record is checked field by field, so each place a typed value can sit must be seen by the walk.
  it('finds a typed value of another type in a later list item, under a parent that came as a list, in any key order', () => {
    const known = new Map<string, KnownField>([
      ['assets', { types: ['array'], share: 1 }],
      ['assets[]', { types: ['object'], share: 1 }],
      ['assets[].id', { types: ['string'], share: 1 }],
    ]);
    const events = new PassShape(expectedShape('monitoring-events', { ...eventRecord, items: EVENT_ITEMS }, known), 'hold');
    const event = { id: 'e1', startedAt: '2024-01-01T00:00:00Z', title: 't', assets: [{ id: 'a' }, { id: 7 }] };
    expect(events.take(event)).toBeNull();
    expect(event.assets[1]!.id).toBe('7'); // a number where text is kept: taken as its text
    expect(events.take({ id: 'e2', startedAt: '2024-01-01T00:00:00Z', title: 't', assets: [{ id: 'b' }, { id: [1] }] })).toMatchObject({
      field: 'assets[].id',
    });

    const shape = new PassShape(expectedShape('assets', assets, KNOWN), 'hold');
    expect(shape.take({ ...record(), price: [{ usd: 1 }] })).toMatchObject({ field: 'price' }); // an object come as a list
    expect(shape.take({ updated_at: 1694014444, price: { usd: 3 }, title: 'Y', id: 2, code: 'Y' })).toBeNull(); // keys reordered
    expect(shape.take({ id: 3, extra: true, title: 'Z', price: { usd: 'n/a' } })).toMatchObject({ field: 'price.usd' });
    const seen = seenFields(shape);
    expect(seen.get('id')!.counts[1]).toBe(3); // three numbers, whatever the keys' order
    expect(seen.get('title')!.counts[0]).toBe(3);
    expect(seen.get('price')!.counts.slice(3, 5)).toEqual([2, 1]); // two objects, one list
    expect(seen.get('price[]')!.counts[3]).toBe(1);
    expect(seen.get('extra')!.counts[2]).toBe(1);
    // A typed field no record carried is not seen (its counter, made in advance, counted nothing).
    expect(seen.has('market_cap')).toBe(false);
    expect(seen.has('market_cap.updated_at')).toBe(false);
  });
});

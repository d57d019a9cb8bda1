// The catalog is data: names of paginators, mappings and settings, no functions. Serialised to JSON and
// read back, every entry is the same entry, so a catalog could be written, diffed or loaded as a file.
import { describe, expect, it } from 'vitest';
import { allStreams } from '../../src/catalog/index.js';
import { DETAIL_COLUMNS, developmentSummary, eventRecord, viewRecord } from '../../src/catalog/monitoring-records.js';

/** Paths inside a value where something JSON cannot carry sits (a function, undefined inside an array, a class). */
function notData(value: unknown, path = '$'): string[] {
  if (typeof value === 'function') return [path];
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => notData(v, `${path}[${i}]`));
  if (Object.getPrototypeOf(value) !== Object.prototype) return [path];
  return Object.entries(value as object).flatMap(([k, v]) => notData(v, `${path}.${k}`));
}

describe('the catalog', () => {
  const streams = allStreams();

  it('holds only data: JSON and back gives equal entries', () => {
    expect(streams.length).toBeGreaterThan(20);
    expect(streams.flatMap((s) => notData(s, s.name))).toEqual([]);
    expect(JSON.parse(JSON.stringify(streams))).toEqual(streams);
  });

  it('and so do the monitoring record mappings the runners use', () => {
    const mappings = { viewRecord, eventRecord, developmentSummary, DETAIL_COLUMNS };
    expect(notData(mappings)).toEqual([]);
    expect(JSON.parse(JSON.stringify(mappings))).toEqual(mappings);
  });

  it('the check finds a function', () => {
    expect(notData({ columns: { a: 'a', b: () => 1 } })).toEqual(['$.columns.b']);
  });
});

import { describe, expect, it } from 'vitest';
import { isSingleJsonValue, jsonbRows } from '../../src/store/postgres/jsonb-rows.js';

describe('jsonbRows', () => {
  it('accepts every value JSON.stringify writes', () => {
    const values = [
      { a: 'x,y', b: [1, '}', { c: '"]' }] },
      [],
      {},
      'text with "quotes", commas and \\ backslashes',
      0,
      -1.5e-7,
      true,
      null,
      ['a,b', '[', '{'],
    ];
    for (const v of values) expect(isSingleJsonValue(JSON.stringify(v)), JSON.stringify(v)).toBe(true);
  });

  it('refuses text that would add or swallow elements once embedded', () => {
    for (const text of ['1,2', '[1],[2]', '{"a":1},{"b":2}', '"a","b"', '"open', '[1', '1]', ']', '', '{"a":"\\"}']) {
      expect(isSingleJsonValue(text), text).toBe(false);
    }
  });

  it('writes scalars as JSON, then appends the JSON columns as they are', () => {
    const rows = jsonbRows(
      ['bigint', 'text', 'boolean', 'jsonb', 'text', 'double precision', 'double precision', 'bigint', 'text'],
      ['id', 'title', 'on', 'raw', 'note', 'a', 'b', 'c', 'code'],
    );
    const text = rows.encode([
      [1, 'say "hi"\n', true, '{"k":[1,2]}', null, Number.NaN, -Infinity, 12n, 1e21],
      [2, null, false, null, 'x', 0.5, 7, null, true],
    ]);
    expect(JSON.parse(text)).toEqual([
      [1, 'say "hi"\n', true, null, 'NaN', '-Infinity', '12', '1e+21', { k: [1, 2] }],
      [2, null, false, 'x', 0.5, 7, null, 'true', null],
    ]);
  });

  it('reads each column back from its place, with its type, JSON null as SQL NULL', () => {
    expect(jsonbRows(['bigint', 'jsonb', 'text', 'timestamp with time zone'], ['a', 'b', 'c', 'd']).select).toBe(
      "(e->>0)::bigint, nullif(e->3, 'null'::jsonb), e->>1, (e->>2)::timestamp with time zone",
    );
  });

  it('writes rows of JSON columns only', () => {
    expect(JSON.parse(jsonbRows(['jsonb', 'jsonb'], ['a', 'b']).encode([['[1]', null]]))).toEqual([[[1], null]]);
  });

  it('names the column whose JSON text would spill into its neighbours', () => {
    expect(() => jsonbRows(['bigint', 'jsonb'], ['t.id', 't.raw']).encode([[1, '{"a":1}],[2,{"b":2}']])).toThrow(
      /"t\.raw" holds text that is not one JSON value/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { countRecords } from '../../src/sync/record-count.js';

const count = (text: string) => countRecords(Buffer.from(text), 'data');

describe('countRecords (a page read ahead: its records counted from its bytes)', () => {
  it('counts the items of the array under the key, whatever they hold', () => {
    expect(count('{"page":1,"total":3,"data":[{"a":1},{"b":"x,]}"},{"c":[1,2,{"d":"\\"],"}]}]}')).toBe(3);
    expect(count('  {"data" : [ {"k":"v"} , {"k":"w"} ] }')).toBe(2);
    expect(count('{"data":[[1,2],[3]],"page":2}')).toBe(2);
    expect(count('{"data":["a\\\\","b"]}')).toBe(2); // an escaped backslash ends before the quote
    expect(count('{"data":[]}')).toBe(0);
    expect(count('{"data":[ ]}')).toBe(0);
    expect(count('{"data":[1]}')).toBe(1);
  });

  it('counts only the top-level array under that key', () => {
    expect(count('{"x":"data","data":[1,2]}')).toBe(2);
    expect(count('{"x":{"data":[1,2,3]},"data":[1]}')).toBe(1);
  });

  it('says nothing (null) when the bytes do not show the array', () => {
    expect(count('{"nodata":[1]}')).toBeNull();
    expect(count('{"data":[1,2')).toBeNull();
    expect(count('{"data":["unclosed]}')).toBeNull();
    expect(count('{"d\\u0061ta":[1]}')).toBeNull(); // an escaped key is not recognised: the page is counted when parsed
  });

  it('agrees with a parse on a page of 100 records', () => {
    const data = Array.from({ length: 100 }, (_, i) => ({ id: i, name: `n,${i}]`, nested: { a: [1, 2, 3], s: 'x"y\\' } }));
    expect(count(JSON.stringify({ page: 1, total: 9, data }))).toBe(100);
  });
});

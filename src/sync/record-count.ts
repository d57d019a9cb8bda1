// How many records a page's bytes hold, read without parsing them. The pager reads a list ahead past its
// full pages as they arrive, while earlier ones are still being written; a page waiting its turn stays
// bytes (parsed, a 100-record page of assets takes several times its 140 KB). Only a hint: the page's
// count when it is parsed in turn is the one that ends the list.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const SPACE = 0x20;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** Items of the array under `key` in the body's top-level object, or null when the bytes do not show one. */
export function countRecords(body: Uint8Array, key: string): number | null {
  const wanted = Buffer.from(JSON.stringify(key));
  let depth = 0;
  let atKey = false; // the last string at depth 1 was `key`
  let inRecords = false;
  let items = 0;
  let empty = true;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === QUOTE) {
      const start = i;
      i = stringEnd(body, i);
      if (i < 0) return null;
      if (depth === 1) atKey = i + 1 - start === wanted.length && Buffer.compare(wanted, body.subarray(start, i + 1)) === 0;
      if (inRecords && depth === 2) empty = false;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (inRecords && depth === 2) empty = false;
      if (c === OPEN_ARRAY && depth === 1 && atKey) inRecords = true;
      depth++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (inRecords && depth === 1) return empty ? 0 : items + 1;
    } else if (inRecords && depth === 2) {
      if (c === COMMA) items++;
      else if (c > SPACE) empty = false;
    }
  }
  return null;
}

/** The index of the quote closing the string opened at `open` (memchr, then escapes counted back), or -1. */
function stringEnd(body: Uint8Array, open: number): number {
  for (let end = body.indexOf(QUOTE, open + 1); end >= 0; end = body.indexOf(QUOTE, end + 1)) {
    let slashes = 0;
    while (body[end - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return end;
  }
  return -1;
}

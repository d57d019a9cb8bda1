// Path identifiers: `idOrSlug` (a decimal id, else a slug) and plain numeric ids. A malformed
// identifier is a 400; a well-formed one that names nothing (or a removed record) is a 404.
import { slugIndex } from '../core/text.js';
import { badRequest, notFound } from '../http/http-error.js';
import type { Collection, IdSpace } from '../core/collection.js';

const MAX_IDENTIFIER = 255;

/** `plainSlug` finds the records whose slug has no index tail (the partner services' assets on `/v1`). */
export function resolveIdOrSlug(
  what: string,
  coll: Collection,
  ids: IdSpace,
  token: string,
  slugOf: (i: number) => string,
  plainSlug: (slug: string) => number = () => -1,
): number {
  if (token.length === 0 || token.length > MAX_IDENTIFIER) {
    throw badRequest([`idOrSlug must be shorter than or equal to ${MAX_IDENTIFIER} characters`]);
  }
  const i = /^\d+$/.test(token) ? ids.indexOf(Number(token)) : slugIndex(token);
  if (i >= 0 && coll.isLive(i) && (/^\d+$/.test(token) || slugOf(i) === token)) return i;
  const plain = /^\d+$/.test(token) ? -1 : plainSlug(token);
  if (plain >= 0 && coll.isLive(plain)) return plain;
  throw notFound(`${what} '${token}' not found`);
}

export function resolveId(what: string, coll: Collection, ids: IdSpace, token: string): number {
  if (!/^\d+$/.test(token) || Number(token) > 4294967295) throw badRequest(['id must be an integer number']);
  const i = ids.indexOf(Number(token));
  if (i >= 0 && coll.isLive(i)) return i;
  throw notFound(`${what} ${token} not found`);
}

// Lies a list can tell with a 200: what a client must never take as evidence that records were removed.
// Each is aimed at the lists under one path, and rewrites the page the service would have served: a list
// answered empty, a list cut short, a key served twice in a page, keys renamed in case or spacing, and a
// record gone mid-pass (offset drift: every later page slides by one, so one record is never served).
// The counts a page reports (`total`, `metadata.totalRows`) are left as they were, as such a lie leaves them.

export interface Lies {
  /** Every page answers with no records. */
  empty?: { path: string };
  /** The list ends after this many records: the page holding the cut is short, the later ones empty. */
  cut?: { path: string; afterRecords: number };
  /** Page `page` serves its first record again in place of its second (which is never served). */
  duplicate?: { path: string; page: number };
  /** String ids (or another key field, e.g. `slug`) come back upper-cased, or with a trailing space. */
  renameIds?: { path: string; how: 'upper' | 'space'; field?: string };
  /** Once page `afterPage` has been served, the list's first record is gone: every page slides by one. */
  drift?: { path: string; afterPage: number; started?: boolean };
}

type ListBody = { data: unknown[] } & Record<string, unknown>;

export function validateLies(lies: Lies): Lies {
  const paths = Object.values(lies).map((lie) => (lie as { path?: unknown }).path);
  if (paths.some((p) => typeof p !== 'string' || !p.startsWith('/'))) throw new Error('every chaos lie needs a path starting with /');
  const whole = (n: unknown, min: number) => Number.isInteger(n) && (n as number) >= min;
  if (lies.cut && !whole(lies.cut.afterRecords, 0)) throw new Error('chaos lie cut.afterRecords must be a whole number >= 0');
  if (lies.duplicate && !whole(lies.duplicate.page, 1)) throw new Error('chaos lie duplicate.page must be a whole number >= 1');
  if (lies.drift && !whole(lies.drift.afterPage, 1)) throw new Error('chaos lie drift.afterPage must be a whole number >= 1');
  if (lies.renameIds && !['upper', 'space'].includes(lies.renameIds.how))
    throw new Error("chaos lie renameIds.how must be 'upper' or 'space'");
  if (lies.renameIds && lies.renameIds.field !== undefined && !/^\w+$/.test(String(lies.renameIds.field)))
    throw new Error('chaos lie renameIds.field must name a field, e.g. slug');
  return Object.fromEntries(Object.entries(lies).map(([name, lie]) => [name, { ...lie }])) as Lies;
}

/**
 * The page a lying service serves for `path?search`, from the `body` it would have served; `pageOf(n)`
 * gives the honest body of page n of the same list. Returns `body` itself when no lie is aimed here.
 */
export function tellLies(lies: Lies, path: string, search: string, body: ListBody, pageOf: (page: number) => ListBody | null): ListBody {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page') ?? 1) || 1;
  const at = (lie: { path: string } | undefined) => lie !== undefined && path.startsWith(lie.path);
  let data = body.data;
  const { drift } = lies;
  if (drift && at(drift)) {
    if (drift.started) data = [...data.slice(1), ...(pageOf(page + 1)?.data.slice(0, 1) ?? [])];
    if (page >= drift.afterPage) drift.started = true; // the pages after this one are read from the slid list
  }
  if (at(lies.empty)) data = [];
  if (lies.cut && at(lies.cut)) {
    const size = Number(params.get('limit')) || body.data.length;
    data = data.slice(0, Math.max(0, lies.cut.afterRecords - (page - 1) * size));
  }
  if (lies.duplicate && at(lies.duplicate) && page === lies.duplicate.page && data.length > 1) data = [data[0], data[0], ...data.slice(2)];
  if (lies.renameIds && at(lies.renameIds)) data = data.map((record) => renamed(record, lies.renameIds!));
  return data === body.data ? body : { ...body, data };
}

function renamed(record: unknown, { how, field = 'id' }: NonNullable<Lies['renameIds']>): unknown {
  const key = (record as Record<string, unknown> | null)?.[field];
  if (typeof key !== 'string') return record;
  return { ...(record as object), [field]: how === 'upper' ? key.toUpperCase() : `${key} ` };
}

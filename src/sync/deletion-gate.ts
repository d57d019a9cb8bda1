// Whether a complete pass may soft-delete what it was not served. A small share is deleted at once. A pass
// whose list moved or lied (see deletion-evidence.ts) deletes nothing. Keys that came back differing only
// in case or spacing are the same records renamed by a lie as often as by a change: only the operator's
// `--confirm-deletions` deletes them. More than `maxDeleteShare` (an empty list included) is held in the
// store until a complete pass at least `confirmDeletionsAfterHours` later finds the same keys missing, or
// until `--confirm-deletions`: one lying answer, even one told twice in a row, cannot empty a table.
import { keyString, type Row } from '../store/types.js';
import type { StreamContext } from './context.js';
import { clearHold, heldKeys, noteHold, saveHold } from './held-deletions.js';

export const DEFAULT_MAX_DELETE_SHARE = 0.05;
export const DEFAULT_CONFIRM_AFTER_HOURS = 6;

export interface Candidate {
  stream: string;
  /** The list's variant (an asset class), '' for a list without variants. */
  variant: string;
  table: string;
  key: readonly string[];
  scope: Row;
  /** Keys (keyString) the pass was served. */
  seen: ReadonlySet<string>;
  /** Why the pass saw a moving or lying list, asked only when something would be deleted; null when none. */
  doubt: () => Promise<string | null>;
}

export interface Verdict {
  /** Keys not served that stay live. */
  keep: ReadonlySet<string>;
  /** Keys not served, kept or not. */
  missing: number;
  /** What was held back and why, or what an agreeing pass deleted. */
  notice: string | null;
}

export async function judgeDeletions(ctx: StreamContext, c: Candidate): Promise<Verdict> {
  const { store, settings } = ctx;
  const place = { stream: c.stream, variant: c.variant };
  const { live, missing } = await missingKeys(ctx, c);
  if (missing.size === 0) {
    await clearHold(store, place);
    return { keep: missing, missing: 0, notice: null };
  }
  const what = `${missing.size} of ${live} rows of ${c.table}${c.variant ? ` (${c.variant})` : ''}`;
  const doubt = (await c.doubt()) ?? (settings.confirmDeletions ? null : renamedKeys(missing, c.seen));
  if (doubt) {
    const notice = `${what} not deleted: ${doubt}`;
    await noteHold(store, place, missing.size, notice, ctx.now());
    return { keep: missing, missing: missing.size, notice };
  }
  const share = settings.maxDeleteShare ?? DEFAULT_MAX_DELETE_SHARE;
  // One row at a time is never a mass deletion: a list of a few records may lose one.
  if (settings.confirmDeletions || missing.size <= Math.max(1, share * live)) {
    await clearHold(store, place);
    return { keep: new Set(), missing: missing.size, notice: null };
  }
  return holdMass(ctx, c, { live, missing });
}

/** More than the share: keys missing since long enough ago are deleted, the others held (from now, if new). */
async function holdMass(ctx: StreamContext, c: Candidate, pass: { live: number; missing: Set<string> }): Promise<Verdict> {
  const place = { stream: c.stream, variant: c.variant };
  const now = ctx.now();
  const waitMs = (ctx.settings.confirmDeletionsAfterHours ?? DEFAULT_CONFIRM_AFTER_HOURS) * 3_600_000;
  const held = await heldKeys(ctx.store, place);
  const keep = new Map<string, string>();
  for (const key of pass.missing) {
    const since = held.get(key) ?? now;
    if (Date.parse(since) > Date.parse(now) - waitMs) keep.set(key, since);
  }
  const agreed = pass.missing.size - keep.size;
  const agreedNote = agreed > 0 ? `${agreed} rows deleted that a complete pass at least ${hours(waitMs)} earlier missed too` : null;
  if (keep.size === 0) {
    await clearHold(ctx.store, place);
    return { keep: new Set(), missing: pass.missing.size, notice: agreedNote };
  }
  const first = Math.min(...[...keep.values()].map(Date.parse));
  const share = Math.round((100 * pass.missing.size) / pass.live);
  const reason =
    `${keep.size} rows of ${c.table}${c.variant ? ` (${c.variant})` : ''} held back: the pass was not served ${pass.missing.size} of ${pass.live} rows (${share}%, ` +
    `more than maxDeleteShare); deleted when a complete pass from ${new Date(first + waitMs).toISOString()} finds them missing too, ` +
    'or by sync --full --confirm-deletions';
  await saveHold(ctx.store, place, keep, reason, now);
  return { keep: new Set(keep.keys()), missing: pass.missing.size, notice: agreedNote ? `${agreedNote}; ${reason}` : reason };
}

async function missingKeys(ctx: StreamContext, c: Candidate): Promise<{ live: number; missing: Set<string> }> {
  let query = ctx.store.db
    .selectFrom(c.table)
    .select([...c.key])
    .where('deleted_at', 'is', null);
  for (const [column, value] of Object.entries(c.scope)) query = query.where(column, '=', ctx.store.adapter.toDb(value));
  const rows = await query.execute();
  const missing = new Set<string>();
  for (const row of rows) {
    const key = keyString(c.key.map((k) => row[k]));
    if (!c.seen.has(key)) missing.add(key);
  }
  return { live: rows.length, missing };
}

/** Missing keys that came back differing only in case or spacing, said with one example; null when none. */
function renamedKeys(missing: ReadonlySet<string>, seen: ReadonlySet<string>): string | null {
  const served = new Map<string, string>();
  for (const key of seen) served.set(fold(key), key);
  let count = 0;
  let example = '';
  for (const key of missing) {
    const twin = served.get(fold(key));
    if (twin === undefined) continue;
    if (count++ === 0) example = `"${clip(key)}" came back as "${clip(twin)}"`;
  }
  if (count === 0) return null;
  return `${count} records came back under keys that differ only in case or spacing (${example}): the pass is no basis for deleting; sync --full --confirm-deletions if the keys really changed`;
}

function fold(key: string): string {
  return key.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

function clip(key: string): string {
  return key.length > 40 ? `${key.slice(0, 40)}…` : key;
}

function hours(ms: number): string {
  return `${Math.round((ms / 3_600_000) * 10) / 10} h`;
}

// Whether a complete pass may soft-delete what it was not served. A small share is deleted at once. A pass
// whose list moved or lied (see deletion-evidence.ts) deletes nothing. Three things are held in the store
// until a complete pass at least `confirmDeletionsAfterHours` later finds the same keys missing, or until
// `--confirm-deletions`: more than `maxDeleteShare` of the list at once (an empty list included); a list
// that small deletions took more than `maxDeleteShare` below its size at its last confirmed pass (a slow
// drain, confirmed-size.ts); and keys that came back differing only in case or spacing, the same records
// renamed by a lie as often as by a change (their records wait beside them, renamed-keys.ts). One lying
// answer, even one told twice in a row or a little each time, cannot empty a table.
import { keyString, rowKey, type Row } from '../store/types.js';
import type { StreamContext } from './context.js';
import { type ConfirmedSize, confirmSize, raisePeak, readConfirmedSize } from './confirmed-size.js';
import { clearHold, heldKeys, noteHold, saveHold } from './held-deletions.js';
import { foldKey } from './renamed-keys.js';

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
  // The list as this pass leaves it, once what it missed is gone: the keys it was served (or kept).
  const pass: Pass = { live, missing, rows: c.seen.size, size: await readConfirmedSize(store, place) };
  if (missing.size === 0) {
    await clearHold(store, place);
    await trustedSize(ctx, place, pass);
    return { keep: missing, missing: 0, notice: null };
  }
  const doubt = await c.doubt();
  if (doubt) {
    const notice = `${missing.size} of ${live} rows of ${c.table}${c.variant ? ` (${c.variant})` : ''} not deleted: ${doubt}`;
    await noteHold(store, place, missing.size, notice, ctx.now());
    return { keep: missing, missing: missing.size, notice };
  }
  if (settings.confirmDeletions) {
    await clearHold(store, place);
    await confirmSize(store, place, pass.rows, ctx.now());
    return { keep: new Set(), missing: missing.size, notice: null };
  }
  const why = renamedKeys(missing, c.seen) ?? unusualShare(settings, pass) ?? drained(settings, pass);
  if (why === null) {
    await clearHold(store, place);
    await trustedSize(ctx, place, pass);
    return { keep: new Set(), missing: missing.size, notice: null };
  }
  return holdMass(ctx, c, pass, why);
}

/** What a pass found: live rows before it deletes, those it missed, rows it leaves, the list's confirmed size. */
interface Pass {
  live: number;
  missing: Set<string>;
  rows: number;
  size: ConfirmedSize | null;
}

/** A trusted pass whose deletions (if any) were small: the list's first size, or its peak raised. */
async function trustedSize(ctx: StreamContext, place: { stream: string; variant: string }, pass: Pass): Promise<void> {
  if (pass.size === null) await confirmSize(ctx.store, place, pass.rows, ctx.now());
  else await raisePeak(ctx.store, place, pass.size, pass.rows);
}

/** Why the pass deletes more than the share of the list at once, or null. One row at a time never is. */
function unusualShare(settings: StreamContext['settings'], pass: Pass): string | null {
  const share = settings.maxDeleteShare ?? DEFAULT_MAX_DELETE_SHARE;
  if (pass.missing.size <= Math.max(1, share * pass.live)) return null;
  return `the pass was not served ${pass.missing.size} of ${pass.live} rows (${percent(pass.missing.size, pass.live)}%, more than maxDeleteShare)`;
}

/** Why the list, small deletions added up, is more than the share below its size at the last confirmed pass; or null. */
function drained(settings: StreamContext['settings'], pass: Pass): string | null {
  if (pass.size === null) return null;
  const share = settings.maxDeleteShare ?? DEFAULT_MAX_DELETE_SHARE;
  const { peakRows, confirmedAt } = pass.size;
  const gone = peakRows - pass.rows;
  if (gone <= Math.max(1, share * peakRows)) return null;
  return (
    `the list would be down to ${pass.rows} rows from ${peakRows} at its last confirmed pass (${confirmedAt}, or a later one that found it larger): ` +
    `${percent(gone, peakRows)}% fewer, more than maxDeleteShare, by small steps`
  );
}

/** Past the share: keys missing since long enough ago are deleted, the others held (from now, if new). */
async function holdMass(ctx: StreamContext, c: Candidate, pass: Pass, why: string): Promise<Verdict> {
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
    // Every deletion agreed with: the list is confirmed at what this pass leaves.
    await clearHold(ctx.store, place);
    await confirmSize(ctx.store, place, pass.rows, now);
    return { keep: new Set(), missing: pass.missing.size, notice: agreedNote };
  }
  const first = Math.min(...[...keep.values()].map(Date.parse));
  const reason =
    `${keep.size} rows of ${c.table}${c.variant ? ` (${c.variant})` : ''} held back: ${why}; ` +
    `deleted when a complete pass from ${new Date(first + waitMs).toISOString()} finds them missing too, or by sync --full --confirm-deletions`;
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
    const key = rowKey(row, c.key);
    if (!c.seen.has(key)) missing.add(key);
  }
  return { live: rows.length, missing };
}

/** Missing keys that came back differing only in case or spacing, said with one example; null when none. */
function renamedKeys(missing: ReadonlySet<string>, seen: ReadonlySet<string>): string | null {
  const served = new Map<string, string>();
  for (const key of seen) served.set(foldKey(key), key);
  let count = 0;
  let example = '';
  for (const key of missing) {
    const twin = served.get(foldKey(key));
    if (twin === undefined) continue;
    if (count++ === 0) example = `"${clip(key)}" came back as "${clip(twin)}"`;
  }
  if (count === 0) return null;
  return `${count} records came back under keys that differ only in case or spacing (${example}); they wait in held_arrivals and replace the rows they rename only when that is confirmed`;
}

function clip(key: string): string {
  return key.length > 40 ? `${key.slice(0, 40)}…` : key;
}

function percent(part: number, whole: number): number {
  return Math.round((100 * part) / whole);
}

function hours(ms: number): string {
  return `${Math.round((ms / 3_600_000) * 10) / 10} h`;
}

// Where the workers of one database run on several machines, they share the service's per-minute pace
// through the database (a row per family, by its clock); on a store of one machine (SQLite) the process
// keeps the pace itself. Which stores share it, and how, is the budget's to know: each such dialect's
// statement lives in the budget's folder for that dialect (postgres/pace-slot.ts), listed here.
import type { Kysely } from 'kysely';
import type { Dialect, Store } from '../store/index.js';
import { postgresPace } from './postgres/pace-slot.js';

export interface SharedPace {
  readonly dialect: Dialect;
  /** Takes the family's next slot (one every `intervalMs`): when it starts (epoch ms) and the ms until then. */
  take(db: Kysely<any>, family: string, intervalMs: number): Promise<{ startMs: number; waitMs: number }>;
}

const SHARED_PACES: readonly SharedPace[] = [postgresPace];

/** The pace `store`'s workers share, or undefined where each process keeps its own. */
export function sharedPaceOf(store: Store): SharedPace | undefined {
  return SHARED_PACES.find((p) => p.dialect === store.dialect);
}

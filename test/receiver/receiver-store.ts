// A wrapper that makes a real store fail or stall on purpose (the storage failure the sender must
// see as a 503), and row counts of the three tables the receiver writes.
import type { Store } from '../../src/store/index.js';

/** The same store, whose first `failures` transactions throw and every transaction waits `delayMs` first. */
export function failingStore(store: Store, failures: number, delayMs = 0): Store {
  let left = failures;
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
      return async (fn: Parameters<Store['transaction']>[0]) => {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (left > 0) {
          left--;
          throw new Error('disk I/O error (injected)');
        }
        return target.transaction(fn);
      };
    },
  });
}

export interface RowCounts {
  deliveries: number;
  alerts: number;
  developments: number;
}

/** Rows of one delivery's ids in the three tables the receiver writes, or of the whole tables. */
export async function rowCounts(store: Store, env?: any): Promise<RowCounts> {
  const count = async (table: string, column: string, value: string | undefined) => {
    let q = store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (value !== undefined) q = q.where(column, '=', value);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  return {
    deliveries: await count('webhook_deliveries', 'id', env?.id),
    alerts: await count('alert_history', 'event_id', env?.data.event.id),
    developments: await count('monitoring_developments', 'id', env?.data.latest_development.id),
  };
}

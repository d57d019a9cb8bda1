// The SQLite writer thread (started by sqlite-writer.ts): its own connection to the mirror's file,
// one prepared statement per table, and one transaction for every group that queued while the last
// one committed. The commit's fsync blocks this thread only, never the HTTP one.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { isRecordError, openSqliteRowWriter } from '../store/thread-writer.js';
import type { Row } from '../store/types.js';
import { deliveryRows } from './delivery-rows.js';
import type { ThreadReply, ThreadRequest } from './sqlite-writer.js';
import { webhookAlertSql } from './webhook-alerts.js';

/** Insert-only tables: the first row of a key wins (a development the sync fetched in detail stays). */
const INSERT_ONLY = {
  delivery: { table: 'webhook_deliveries', key: ['id'] },
  pair: { table: 'alert_deliveries', key: ['delivery_id', 'view_id'] },
  development: { table: 'monitoring_developments', key: ['id'] },
} as const;

// Every commit on this connection acknowledges webhooks, which the sender will not send again: the writer
// syncs the log at each commit, so it survives power loss.
const db = openSqliteRowWriter((workerData as { file: string }).file);

/** Writes the row into its table; returns rows changed. */
function write(table: keyof typeof INSERT_ONLY | 'alert', row: Row): number {
  if (table === 'alert') return db.run('alert', webhookAlertSql, row);
  return db.insertIgnore(INSERT_ONLY[table].table, INSERT_ONLY[table].key, row);
}

// BEGIN IMMEDIATE: take the write lock up front, so a busy file waits (busy_timeout) instead of failing.
const commit = db.immediate((groups: readonly ThreadRequest[]) =>
  groups.map(({ deliveries }) => {
    let inserted = 0;
    for (const [body, signed, receivedAt] of deliveries) {
      // The HTTP thread validated this body; parsing it again here is cheaper than copying the parsed object.
      const rows = deliveryRows({ envelope: JSON.parse(body), body, signed, receivedAt });
      write('delivery', rows.delivery);
      // A delivery id the log already holds may reach another view (the service sends one id to every
      // view the development matches): the pair is what is new, and a retry adds none.
      inserted += write('pair', rows.pair);
      write('alert', rows.alert);
      write('development', rows.development);
    }
    return inserted;
  }),
);

/**
 * Commits the groups together; when the values of one delivery make that fail, each group is committed
 * alone, so only the group that holds it fails (the committer then splits that group further).
 */
function commitGroups(groups: readonly ThreadRequest[]): void {
  try {
    const inserted = commit(groups);
    commits++;
    groups.forEach(({ seq }, i) => port.postMessage({ seq, inserted: inserted[i], commit: commits } satisfies ThreadReply));
  } catch (err) {
    if (groups.length > 1 && isRecordError(err)) return groups.forEach((group) => commitGroups([group]));
    const error = err instanceof Error ? err.message : String(err);
    const code = err instanceof RangeError || err instanceof TypeError ? err.name : (err as { code?: unknown }).code;
    for (const { seq } of groups) port.postMessage({ seq, error, code: typeof code === 'string' ? code : undefined } satisfies ThreadReply);
  }
}

const port = parentPort!;
let commits = 0;
port.on('message', (first: ThreadRequest | 'close') => {
  // Everything that queued while the last commit ran is committed together: one fsync for all.
  const groups: ThreadRequest[] = [];
  let close = false;
  for (let m: unknown = first; m !== undefined; m = receiveMessageOnPort(port)?.message) {
    if (m === 'close') close = true;
    else groups.push(m as ThreadRequest);
  }
  if (groups.length > 0) commitGroups(groups);
  if (close) {
    db.close();
    port.close();
  }
});
port.postMessage('ready');

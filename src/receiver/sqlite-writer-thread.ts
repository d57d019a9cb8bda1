// The SQLite writer thread (started by sqlite-writer.ts): its own connection to the mirror's file,
// one prepared insert per table, and one transaction for every group that queued while the last
// one committed. The commit's fsync blocks this thread only, never the HTTP one.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3';
import { openSqlite } from '../store/sqlite/sqlite-connection.js';
import { insertIgnoreSql } from '../store/sqlite/sqlite-statements.js';
import { toSqliteValue } from '../store/sqlite/sqlite-values.js';
import type { Row } from '../store/types.js';
import { isRecordError } from '../store/storage-errors.js';
import { deliveryRows, type DeliveryRows } from './delivery-rows.js';
import type { ThreadReply, ThreadRequest } from './sqlite-writer.js';

const KEYS: Record<keyof DeliveryRows, string[]> = { delivery: ['id'], alert: ['view_id', 'event_id'], development: ['id'] };
const TABLES: Record<keyof DeliveryRows, string> = {
  delivery: 'webhook_deliveries',
  alert: 'alert_history',
  development: 'monitoring_developments',
};

// Every commit on this connection acknowledges webhooks, which the sender will not send again: WAL
// with synchronous=FULL syncs the log at each commit, so it survives power loss.
const db = openSqlite((workerData as { file: string }).file, { synchronous: 'FULL', fileMustExist: true });

const inserts = new Map<keyof DeliveryRows, { statement: Statement; columns: string[] }>();

/** Insert-only, arrival order: the first row of a key wins, and a development the sync fetched in detail stays. */
function insert(table: keyof DeliveryRows, row: Row): number {
  let found = inserts.get(table);
  if (!found) {
    const columns = Object.keys(row);
    found = { statement: db.prepare(insertIgnoreSql(TABLES[table], columns, KEYS[table])), columns };
    inserts.set(table, found);
  }
  return found.statement.run(found.columns.map((c) => toSqliteValue(row[c]))).changes;
}

// BEGIN IMMEDIATE: take the write lock up front, so a busy file waits (busy_timeout) instead of failing.
const commit = db.transaction((groups: readonly ThreadRequest[]) =>
  groups.map(({ deliveries }) => {
    let inserted = 0;
    for (const [body, signed, receivedAt] of deliveries) {
      // The HTTP thread validated this body; parsing it again here is cheaper than copying the parsed object.
      const rows = deliveryRows({ envelope: JSON.parse(body), body, signed, receivedAt });
      inserted += insert('delivery', rows.delivery);
      // Every delivery adds its (view, event) pair, even a duplicate delivery id: the same event
      // delivered to a second view shares the id but is a second alert.
      insert('alert', rows.alert);
      insert('development', rows.development);
    }
    return inserted;
  }),
).immediate;

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

// A SQLite writer thread (started by sqlite-writer.ts): its own connection to the store's file, and one
// transaction for every request that queued while the last one committed. A request is data (RowsWrite,
// types.ts): the thread runs no code of its callers. The commit's fsync blocks this thread only, never
// the caller's.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { ThreadReply, ThreadRequest, WriterThreadData } from './sqlite-writer.js';
import { isSqliteRecordError } from './sqlite-errors.js';
import { openSqliteRowWriter } from './sqlite-row-writer.js';

const { file } = workerData as WriterThreadData;

// Every commit on this connection acknowledges something to the outside, which will not be sent again:
// the log is synced at each commit, so it survives power loss.
const db = openSqliteRowWriter(file);

// BEGIN IMMEDIATE: take the write lock up front, so a busy file waits (busy_timeout) instead of failing.
const commit = db.immediate((requests: readonly ThreadRequest[]) =>
  requests.map(({ writes }) => writes.reduce((counted, write) => counted + db.write(write), 0)),
);

/**
 * Commits the requests together; when the values of one make that fail, each is committed alone, so
 * only the request that holds them fails (the caller may split it further).
 */
function commitRequests(requests: readonly ThreadRequest[]): void {
  try {
    const results = commit(requests);
    commits++;
    requests.forEach(({ seq }, i) => port.postMessage({ seq, result: results[i], commit: commits } satisfies ThreadReply));
  } catch (err) {
    if (requests.length > 1 && isSqliteRecordError(err)) return requests.forEach((request) => commitRequests([request]));
    const error = err instanceof Error ? err.message : String(err);
    const code = err instanceof RangeError || err instanceof TypeError ? err.name : (err as { code?: unknown }).code;
    for (const { seq } of requests)
      port.postMessage({ seq, error, code: typeof code === 'string' ? code : undefined } satisfies ThreadReply);
  }
}

const port = parentPort!;
let commits = 0;
port.on('message', (first: ThreadRequest | 'close') => {
  // Everything that queued while the last commit ran is committed together: one fsync for all.
  const requests: ThreadRequest[] = [];
  let close = false;
  for (let m: unknown = first; m !== undefined; m = receiveMessageOnPort(port)?.message) {
    if (m === 'close') close = true;
    else requests.push(m as ThreadRequest);
  }
  if (requests.length > 0) commitRequests(requests);
  if (close) {
    db.close();
    port.close();
  }
});
port.postMessage('ready');

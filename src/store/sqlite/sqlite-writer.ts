// The main side of a SQLite writer thread (sqlite-writer-thread.ts): a connection of the thread's own to
// the store's file, so that better-sqlite3's synchronous inserts and the commit's fsync block that thread
// only. Posts each request (its writes, as data) and resolves when the thread has committed it. A thread that dies fails its
// requests and the next request starts a new one.
import { Worker } from 'node:worker_threads';
import type { Committed, DurableWriter, RowsWrite } from '../types.js';

/** What the thread is told: the file. */
export interface WriterThreadData {
  file: string;
}

export interface ThreadRequest {
  seq: number;
  writes: readonly RowsWrite[];
}

/** `code`: the SQLite error code (or RangeError / TypeError), so the caller can tell bad data from a failing store. */
export type ThreadReply = ({ seq: number } & Committed<number>) | { seq: number; error: string; code?: string };

interface Pending {
  resolve: (committed: Committed<number>) => void;
  reject: (err: Error) => void;
}

export async function startSqliteWriter(file: string): Promise<DurableWriter> {
  const pending = new Map<number, Pending>();
  let seq = 0;
  let closed = false;
  const data: WriterThreadData = { file };
  let thread: Promise<Worker> | undefined = spawn();
  await thread;

  function spawn(): Promise<Worker> {
    const worker = new Worker(THREAD_ENTRY, { workerData: data });
    const started: Promise<Worker> = new Promise((resolve, reject) => {
      let ready = false;
      const gone = (err: Error) => {
        if (thread === started) thread = undefined;
        if (!ready) return reject(err);
        for (const p of pending.values()) p.reject(err);
        pending.clear();
      };
      worker.on('message', (reply: ThreadReply | 'ready') => {
        if (reply === 'ready') {
          ready = true;
          return resolve(worker);
        }
        const p = pending.get(reply.seq);
        pending.delete(reply.seq);
        if ('error' in reply) p?.reject(threadError(reply.error, reply.code));
        else p?.resolve(reply);
      });
      worker.on('error', gone);
      worker.on('exit', (code) => gone(new Error(`the SQLite writer thread exited (code ${code})`)));
    });
    return started;
  }

  return {
    // Each call is posted at once: the thread commits together whatever queued meanwhile.
    maxInFlight: Infinity,
    async write(writes) {
      if (closed) throw new Error('the SQLite writer is closed');
      const worker = await (thread ??= spawn());
      const req: ThreadRequest = { seq: ++seq, writes };
      return new Promise((resolve, reject) => {
        pending.set(req.seq, { resolve, reject });
        worker.postMessage(req);
      });
    },
    async close(): Promise<void> {
      closed = true;
      const worker = await thread?.catch(() => undefined);
      thread = undefined;
      if (!worker) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}

/**
 * The thread's entry, compiled like this file (dist/) or TypeScript (tests, `npm run demo`). A worker does
 * not get the loader the main thread was started with (`--import`), so a process that runs this file from
 * TypeScript gives its workers one (scripts/ts-threads.cjs, a `--require` preload, which Node runs in each
 * worker): the store knows no loader.
 */
const THREAD_ENTRY = new URL(`./sqlite-writer-thread.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

/** The thread's error as the caller classifies it (storage-errors.ts reads `code`, or the JS error type). */
function threadError(message: string, code: string | undefined): Error {
  if (code === 'RangeError') return new RangeError(message);
  if (code === 'TypeError') return new TypeError(message);
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

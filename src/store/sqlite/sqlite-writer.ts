// The main side of a SQLite writer thread (sqlite-writer-thread.ts): a connection of the thread's own to
// the store's file, so that better-sqlite3's synchronous inserts and the commit's fsync block that thread
// only. Posts each request and resolves when the thread has committed it. A thread that dies fails its
// requests and the next request starts a new one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ThreadCommitted, ThreadWriter } from '../types.js';

/** What the thread is told: the file, and the module whose `writeRequest` it runs (types.ts, WriterTask). */
export interface WriterThreadData {
  file: string;
  task: string;
}

export interface ThreadRequest {
  seq: number;
  request: unknown;
}

/** `code`: the SQLite error code (or RangeError / TypeError), so the caller can tell bad data from a failing store. */
export type ThreadReply = ({ seq: number } & ThreadCommitted<unknown>) | { seq: number; error: string; code?: string };

interface Pending {
  resolve: (committed: ThreadCommitted<unknown>) => void;
  reject: (err: Error) => void;
}

export async function startSqliteWriter<Req, Res>(file: string, task: URL): Promise<ThreadWriter<Req, Res>> {
  const pending = new Map<number, Pending>();
  let seq = 0;
  let closed = false;
  const data: WriterThreadData = { file, task: task.href };
  let thread: Promise<Worker> | undefined = spawn();
  await thread;

  function spawn(): Promise<Worker> {
    const worker = new Worker(bootstrap(), { eval: true, workerData: data });
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
    async write(request: Req): Promise<ThreadCommitted<Res>> {
      if (closed) throw new Error('the SQLite writer is closed');
      const worker = await (thread ??= spawn());
      const req: ThreadRequest = { seq: ++seq, request };
      return new Promise((resolve, reject) => {
        pending.set(req.seq, { resolve: resolve as Pending['resolve'], reject });
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
 * The thread's entry, compiled like this file (dist/) or TypeScript (tests, `npm run demo`): a worker
 * does not inherit the loader tsx put on the main thread, so from TypeScript it registers tsx's (found
 * through tsx's own exports map, a development dependency) before importing the entry.
 */
function bootstrap(): string {
  const compiled = import.meta.url.endsWith('.js');
  const entry = new URL(`./sqlite-writer-thread.${compiled ? 'js' : 'ts'}`, import.meta.url).href;
  if (compiled) return `import(${JSON.stringify(entry)});`;
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  const api = (JSON.parse(readFileSync(pkg, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api'];
  const tsx = new URL(api.import.default, pathToFileURL(pkg)).href;
  return `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
}

/** The thread's error as the caller classifies it (storage-errors.ts reads `code`, or the JS error type). */
function threadError(message: string, code: string | undefined): Error {
  if (code === 'RangeError') return new RangeError(message);
  if (code === 'TypeError') return new TypeError(message);
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

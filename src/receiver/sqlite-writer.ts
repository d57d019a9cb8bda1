// The HTTP side of the SQLite writer thread (sqlite-writer-thread.ts): posts each group as compact
// tuples and resolves when the thread has committed it. A thread that dies fails its group (503,
// the sender retries) and the next group starts a new one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AcceptedDelivery } from './delivery-rows.js';
import type { Committed, DeliveryWriter } from './delivery-writer.js';

/** One group: [raw body, signed, received at] per delivery; the thread builds the rows. */
export interface ThreadRequest {
  seq: number;
  deliveries: [string, boolean, string][];
}

/** `code`: the SQLite error code (or RangeError / TypeError), so the committer can tell bad data from a failing store. */
export type ThreadReply = ({ seq: number } & Committed) | { seq: number; error: string; code?: string };

interface Pending {
  resolve: (committed: Committed) => void;
  reject: (err: Error) => void;
}

export async function startSqliteWriter(file: string): Promise<DeliveryWriter> {
  const pending = new Map<number, Pending>();
  let seq = 0;
  let closed = false;
  let thread: Promise<Worker> | undefined = spawn();
  await thread;

  function spawn(): Promise<Worker> {
    const worker = new Worker(bootstrap(), { eval: true, workerData: { file } });
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
    // Each group is posted as soon as it forms: the thread commits together whatever queued meanwhile.
    maxInFlight: Infinity,
    async write(group: readonly AcceptedDelivery[]): Promise<Committed> {
      if (closed) throw new Error('the SQLite writer is closed');
      const worker = await (thread ??= spawn());
      const req: ThreadRequest = { seq: ++seq, deliveries: group.map((d) => [d.body, d.signed, d.receivedAt]) };
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

/** The thread's error as the committer classifies it (storage-errors.ts reads `code`, or the JS error type). */
function threadError(message: string, code: string | undefined): Error {
  if (code === 'RangeError') return new RangeError(message);
  if (code === 'TypeError') return new TypeError(message);
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

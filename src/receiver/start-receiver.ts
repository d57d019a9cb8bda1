// The webhook receiver: a node:http server that verifies, validates and durably appends
// `monitoring_event` deliveries, answering 2xx only once the delivery's group has committed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { ConfigError } from '../errors.js';
import { describeStoreError } from '../store/storage-errors.js';
import type { Store } from '../store/types.js';
import { openDeliveryWriter } from './delivery-writer.js';
import { GroupCommitter, UnstorableDeliveryError } from './group-committer.js';
import { parseEnvelope } from './parse-envelope.js';
import { createSignatureVerifier } from './verify-signature.js';

export interface ReceiverOptions {
  store: Store;
  port: number;
  host?: string;
  path?: string;
  secrets: readonly string[];
  /** View ids whose deliveries may arrive without a signature (views configured without a secret). */
  allowUnsignedViews?: readonly string[];
  toleranceSec?: number;
  maxBodyBytes?: number;
  logger?: Logger;
  /** Current time in ms; tests move it to check the timestamp tolerance. */
  now?: () => number;
}

export interface ReceiverStats {
  received: number;
  duplicates: number;
  /** Group commits made: received / commits is the mean group size. */
  commits: number;
  refused: Record<string, number>;
}

export interface Receiver {
  /** Full URL of the webhook path. */
  url: string;
  stats(): ReceiverStats;
  /** Stops accepting, finishes in-flight requests and their commits. The caller closes the store. */
  close(): Promise<void>;
}

export const RECEIVER_DEFAULTS = { host: '127.0.0.1', path: '/webhooks', toleranceSec: 300, maxBodyBytes: 1024 * 1024 } as const;

// The sender gives each attempt one minute; a request still open after that is abandoned anyway.
const REQUEST_TIMEOUT_MS = 60_000;
// Connections still busy this long after close() are cut (their deliveries were not acknowledged).
const CLOSE_GRACE_MS = 10_000;

interface Outcome {
  reason?: string;
  detail?: string;
  delivery?: string;
  view?: string;
}

export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const host = opts.host ?? RECEIVER_DEFAULTS.host;
  const path = opts.path ?? RECEIVER_DEFAULTS.path;
  const toleranceSec = opts.toleranceSec ?? RECEIVER_DEFAULTS.toleranceSec;
  const maxBodyBytes = opts.maxBodyBytes ?? RECEIVER_DEFAULTS.maxBodyBytes;
  const allowUnsigned = new Set(opts.allowUnsignedViews ?? []);
  checkOptions(opts, path, toleranceSec, maxBodyBytes, allowUnsigned.size);

  const now = opts.now ?? Date.now;
  const log = (opts.logger ?? pino()).child({ component: 'receiver' });
  const verifier = createSignatureVerifier(opts.secrets, toleranceSec);
  const stats: ReceiverStats = { received: 0, duplicates: 0, commits: 0, refused: {} };
  const writer = await openDeliveryWriter(opts.store);
  let lastCommit = 0;
  const committer = new GroupCommitter(writer, ({ inserted, commit, deliveries, ms }) => {
    stats.received += deliveries.length;
    stats.duplicates += deliveries.length - inserted;
    // Groups committed together share a commit number and are answered one after the other.
    if (commit !== lastCommit) stats.commits++;
    lastCommit = commit;
    if (log.isLevelEnabled('debug')) {
      log.debug({ deliveries: deliveries.map((d) => d.envelope.id), new: inserted, ms: Math.round(ms) }, 'webhook deliveries committed');
    }
  });
  let closing = false;

  function reply(res: ServerResponse, out: Outcome, status: number, body: object, headers: Record<string, string> = {}): void {
    if (out.reason !== undefined) stats.refused[out.reason] = (stats.refused[out.reason] ?? 0) + 1;
    const text = JSON.stringify(body);
    // While closing, ask the client not to reuse the connection so the server can finish.
    if (closing) headers.connection = 'close';
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  }

  function refuse(res: ServerResponse, out: Outcome, status: number, reason: string, detail?: string, headers?: Record<string, string>): void {
    out.reason = reason;
    out.detail = detail;
    reply(res, out, status, { error: reason }, headers);
  }

  function onBody(res: ServerResponse, out: Outcome, sigHeader: string | undefined, body: Buffer): void {
    let signed = false;
    if (sigHeader !== undefined) {
      const sig = verifier.verify(sigHeader, body, now());
      if (!sig.ok) return refuse(res, out, 401, sig.reason);
      signed = true;
    } else if (allowUnsigned.size === 0) {
      return refuse(res, out, 401, 'missing_signature');
    }
    const parsed = parseEnvelope(body);
    // 422: well-formed but no store can hold it; like every 4xx it tells the sender not to retry.
    if (!parsed.ok) return refuse(res, out, parsed.reason === 'unstorable' ? 422 : 400, parsed.reason, parsed.detail);
    const { envelope } = parsed;
    out.delivery = envelope.id;
    out.view = envelope.data.view.id;
    if (!signed && !allowUnsigned.has(envelope.data.view.id)) return refuse(res, out, 401, 'missing_signature');

    const receivedAt = new Date(now()).toISOString();
    committer.submit({ envelope, body: parsed.text, signed, receivedAt }).then(
      () => reply(res, out, 200, { ok: true }),
      (err: unknown) => {
        if (err instanceof UnstorableDeliveryError) return refuse(res, out, 422, 'unstorable', err.message);
        // The log line names the cause first when the store itself fails (disk full, read-only, ...).
        const detail = describeStoreError(err, opts.store.location);
        // A 5xx makes the sender retry; nothing was acknowledged, so nothing is lost.
        refuse(res, out, 503, 'storage_unavailable', detail, { 'retry-after': '1' });
      },
    ).catch((err: unknown) => failed(res, out, err));
  }

  /** Whatever a handler throws ends that request with a 500, never the process (the daemon runs in it too). */
  function failed(res: ServerResponse, out: Outcome, err: unknown): void {
    out.detail = err instanceof Error ? err.message : String(err);
    try {
      if (!res.headersSent) refuse(res, out, 500, 'internal_error', out.detail);
      else res.destroy();
    } catch {
      res.destroy();
    }
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const out: Outcome = {};
    try {
      handle(req, res, out);
    } catch (err) {
      failed(res, out, err);
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse, out: Outcome): void {
    const started = performance.now();
    const reqPath = (req.url ?? '/').split('?', 1)[0];
    res.on('close', () => {
      // Access log, a line per request (about 4 of the HTTP thread's ~30 µs per delivery, kept: it is what
      // an operator reads first): never the body, never the signature header.
      const line = { method: req.method, path: reqPath, status: res.statusCode, ms: Math.round(performance.now() - started), ...out };
      if (!res.writableFinished) log.warn({ ...line, status: undefined }, 'client went away before the answer');
      else if (res.statusCode >= 500) log.error(line, 'webhook request failed');
      else if (res.statusCode >= 400) log.warn(line, 'webhook request refused');
      else log.info(line, 'request');
    });

    if (reqPath === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      return reply(res, out, closing ? 503 : 200, { ok: !closing });
    }
    if (reqPath !== path) return refuse(res, out, 404, 'not_found');
    if (req.method !== 'POST') return refuse(res, out, 405, 'method_not_allowed', undefined, { allow: 'POST' });

    const sigHeader = req.headers['x-webhook-signature'];
    if (Array.isArray(sigHeader)) return refuse(res, out, 401, 'malformed_signature');
    // Refused before reading; `connection: close` lets the server drop the rest of the body.
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) {
      return refuse(res, out, 413, 'body_too_large', undefined, { connection: 'close' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBodyBytes) {
        over = true;
        chunks.length = 0;
        refuse(res, out, 413, 'body_too_large', undefined, { connection: 'close' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        if (!over) onBody(res, out, sigHeader, Buffer.concat(chunks, size));
      } catch (err) {
        failed(res, out, err);
      }
    });
    req.on('error', () => {}); // a client that hangs up mid-body: the close handler logs it
  }

  const server = createServer(onRequest);
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      const hint = err.code === 'EADDRINUSE' ? 'is in use: choose another --port' : `cannot be opened (${err.code ?? err.message})`;
      reject(new ConfigError(`${host}:${opts.port} ${hint}`));
    };
    server.once('error', failed);
    server.listen(opts.port, host, () => {
      server.off('error', failed);
      resolve();
    });
  }).catch(async (err: unknown) => {
    await writer.close();
    throw err;
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}${path}`;
  log.info({ url, secretCount: opts.secrets.length, unsignedViews: allowUnsigned.size }, 'webhook receiver listening');

  let closed: Promise<void> | undefined;
  async function shutdown(): Promise<void> {
    closing = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections that go idle after close() began are closed as they appear.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.closeIdleConnections();
    await stopped;
    clearInterval(sweep);
    clearTimeout(deadline);
    await committer.idle();
    await writer.close();
    log.info({ ...stats }, 'webhook receiver closed');
  }

  return {
    url,
    stats: () => ({ ...stats, refused: { ...stats.refused } }),
    close: () => (closed ??= shutdown()),
  };
}

function checkOptions(opts: ReceiverOptions, path: string, toleranceSec: number, maxBodyBytes: number, unsignedViews: number): void {
  if (opts.secrets.length === 0 && unsignedViews === 0) {
    throw new ConfigError('no webhook secret configured: set DS_WEBHOOK_SECRETS or a secrets file, or allow unsigned deliveries for a view');
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new ConfigError(`invalid port ${opts.port}: use 0..65535`);
  if (!path.startsWith('/')) throw new ConfigError(`invalid webhook path "${path}": it must start with /`);
  if (!(toleranceSec > 0)) throw new ConfigError(`invalid signature tolerance ${toleranceSec}: use a positive number of seconds`);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes <= 0) throw new ConfigError(`invalid body size limit ${maxBodyBytes}: use a positive number of bytes`);
}

// The webhook receiver: a node:http server that verifies, validates and durably appends
// `monitoring_event` deliveries, answering 2xx only once the delivery's group has committed
// (webhook-requests.ts handles the requests; this file starts and stops the server).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { ConfigError } from '../errors.js';
import type { Store } from '../store/types.js';
import { GroupCommitter, type GroupResult } from './group-committer.js';
import { openDeliveryWriter } from './open-delivery-writer.js';
import type { WebhookSecrets } from './load-secrets.js';
import { createSignatureVerifier } from './verify-signature.js';
import { unresolvedViewLine, ViewRules } from './view-rules.js';
import { WebhookRequests, type ReceiverStats } from './webhook-requests.js';

export type { ReceiverStats } from './webhook-requests.js';

export interface ReceiverOptions {
  store: Store;
  port: number;
  host?: string;
  path?: string;
  /** Shared secrets, or shared ones and each view's own (loadSecrets). */
  secrets: readonly string[] | WebhookSecrets;
  /** The configured monitoring views (ids or slugs): deliveries for any other view are refused. None: any view. */
  views?: readonly string[];
  /** View ids whose deliveries may arrive without a signature (views configured without a secret). */
  allowUnsignedViews?: readonly string[];
  toleranceSec?: number;
  maxBodyBytes?: number;
  logger?: Logger;
  /** Current time in ms; tests move it to check the timestamp tolerance. */
  now?: () => number;
}

export interface Receiver {
  /** Full URL of the webhook path. */
  url: string;
  stats(): ReceiverStats;
  /** The configured views that do not resolve (as last read): every delivery for them is refused. */
  unresolvedViews(): string[];
  /** Stops accepting, finishes in-flight requests and their commits. The caller closes the store. */
  close(): Promise<void>;
}

export const RECEIVER_DEFAULTS = { host: '127.0.0.1', path: '/webhooks', toleranceSec: 300, maxBodyBytes: 1024 * 1024 } as const;

// The sender gives each attempt one minute; a request still open after that is abandoned anyway.
const REQUEST_TIMEOUT_MS = 60_000;
// Connections still busy this long after close() are cut (their deliveries were not acknowledged).
const CLOSE_GRACE_MS = 10_000;

/** The options with their defaults applied, checked. */
interface ReceiverSettings {
  host: string;
  path: string;
  toleranceSec: number;
  maxBodyBytes: number;
  allowUnsigned: ReadonlySet<string>;
}

export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const settings = receiverSettings(opts);
  const secrets = flatSecrets(opts.secrets);
  const log = (opts.logger ?? pino()).child({ component: 'receiver' });
  const stats: ReceiverStats = { received: 0, duplicates: 0, commits: 0, setAside: 0, refused: {} };
  const views = new ViewRules(opts.store, { views: opts.views ?? [], secretViews: secrets.views, now: opts.now });
  await views.read();
  for (const name of views.unresolved()) log.warn({ view: name }, unresolvedViewLine(name));
  const writer = await openDeliveryWriter(opts.store);
  const committer = new GroupCommitter(writer, countCommits(stats, log));
  const requests = new WebhookRequests({
    path: settings.path,
    maxBodyBytes: settings.maxBodyBytes,
    allowUnsigned: settings.allowUnsigned,
    verifier: createSignatureVerifier(secrets.values, settings.toleranceSec),
    views,
    committer,
    stats,
    log,
    now: opts.now ?? Date.now,
    storeLocation: opts.store.location,
  });
  const server = createServer(requests.listener);
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  await listen(server, settings.host, opts.port).catch(async (err: unknown) => {
    await writer.close();
    throw err;
  });
  const url = serverUrl(server, settings.path);
  log.info({ url, secretCount: secrets.values.length, unsignedViews: settings.allowUnsigned.size }, 'webhook receiver listening');

  let closed: Promise<void> | undefined;
  const shutdown = async () => {
    requests.closing = true;
    await closeServer(server);
    await committer.idle();
    await writer.close();
    log.info({ ...stats }, 'webhook receiver closed');
  };
  return {
    url,
    stats: () => ({ ...stats, refused: { ...stats.refused } }),
    unresolvedViews: () => views.unresolved(),
    close: () => (closed ??= shutdown()),
  };
}

function receiverSettings(opts: ReceiverOptions): ReceiverSettings {
  const settings: ReceiverSettings = {
    host: opts.host ?? RECEIVER_DEFAULTS.host,
    path: opts.path ?? RECEIVER_DEFAULTS.path,
    toleranceSec: opts.toleranceSec ?? RECEIVER_DEFAULTS.toleranceSec,
    maxBodyBytes: opts.maxBodyBytes ?? RECEIVER_DEFAULTS.maxBodyBytes,
    allowUnsigned: new Set(opts.allowUnsignedViews ?? []),
  };
  checkOptions(opts, settings.path, settings.toleranceSec, settings.maxBodyBytes, settings.allowUnsigned.size);
  return settings;
}

/** Counts each committed group's deliveries, duplicates and commits. */
function countCommits(stats: ReceiverStats, log: Logger): (group: GroupResult) => void {
  let lastCommit = 0;
  return ({ inserted, commit, deliveries, ms }) => {
    stats.received += deliveries.length;
    stats.duplicates += deliveries.length - inserted;
    // Groups committed together share a commit number and are answered one after the other.
    if (commit !== lastCommit) stats.commits++;
    lastCommit = commit;
    if (log.isLevelEnabled('debug')) {
      log.debug(
        { deliveries: deliveries.map((d) => d.envelope?.id ?? d.setAside?.id ?? null), new: inserted, ms: Math.round(ms) },
        'webhook deliveries committed',
      );
    }
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      const hint = err.code === 'EADDRINUSE' ? 'is in use: choose another --port' : `cannot be opened (${err.code ?? err.message})`;
      reject(new ConfigError(`${host}:${port} ${hint}`));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** Every secret, in the verifier's order, beside the view each is bound to (null: shared). */
function flatSecrets(given: readonly string[] | WebhookSecrets): { values: string[]; views: (string | null)[] } {
  const s: WebhookSecrets = Array.isArray(given) ? { shared: [...given], byView: {} } : (given as WebhookSecrets);
  const bound = Object.entries(s.byView).flatMap(([view, own]) => own.map((secret) => [view, secret] as const));
  return {
    values: [...s.shared, ...bound.map(([, secret]) => secret)],
    views: [...s.shared.map(() => null), ...bound.map(([view]) => view)],
  };
}

function serverUrl(server: Server, path: string): string {
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${urlHost}:${address.port}${path}`;
}

/** Stops accepting and waits for the open requests; connections still busy after the grace are cut. */
async function closeServer(server: Server): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections that go idle after close() began are closed as they appear.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
  server.closeIdleConnections();
  await stopped;
  clearInterval(sweep);
  clearTimeout(deadline);
}

function checkOptions(opts: ReceiverOptions, path: string, toleranceSec: number, maxBodyBytes: number, unsignedViews: number): void {
  if (flatSecrets(opts.secrets).values.length === 0 && unsignedViews === 0) {
    throw new ConfigError(
      'no webhook secret configured: set DS_WEBHOOK_SECRETS or a secrets file, or allow unsigned deliveries for a view',
    );
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new ConfigError(`invalid port ${opts.port}: use 0..65535`);
  if (!path.startsWith('/')) throw new ConfigError(`invalid webhook path "${path}": it must start with /`);
  if (!(toleranceSec > 0)) throw new ConfigError(`invalid signature tolerance ${toleranceSec}: use a positive number of seconds`);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes <= 0)
    throw new ConfigError(`invalid body size limit ${maxBodyBytes}: use a positive number of bytes`);
}

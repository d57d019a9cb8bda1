// The daemon's HTTP door, opened before anything else it does: while the start waits (on a database that
// refuses or does not answer, on its migrations), /healthz answers `starting` with what it waits for, and
// `stopping` once told to stop; the daemon hands it its own answers when it runs (`open`).
import type { Logger } from 'pino';
import type { HttpCredential } from '../config.js';
import { ConfigError } from '../errors.js';
import { startHealthServer, type HealthServer, type HealthServerOptions } from './health-server.js';

/** What the running daemon answers with. */
export type DoorAnswers = Pick<HealthServerOptions, 'health' | 'metrics' | 'statusPage' | 'budget'>;

export interface DaemonDoor extends HealthServer {
  /** /healthz until `open`: `starting`, waiting for `what`. */
  waiting(what: string): void;
  /** /healthz until `open`: `stopping` (503). */
  stopping(): void;
  /** From now on the daemon's own answers. */
  open(answers: DoorAnswers): void;
}

export interface DoorOptions {
  port: number;
  host: string;
  auth?: HttpCredential;
  logger: Logger;
  now?: () => number;
}

export async function openDoor(opts: DoorOptions): Promise<DaemonDoor> {
  const now = opts.now ?? Date.now;
  const startedAt = now();
  let waitingFor = 'the start';
  let stopping = false;
  let answers: DoorAnswers | null = null;
  const starting = () => ({
    ok: !stopping,
    body: {
      status: stopping ? 'stopping' : 'starting',
      waitingFor,
      reasons: [],
      holds: [],
      startedAt: new Date(startedAt).toISOString(),
      uptimeSeconds: Math.round((now() - startedAt) / 1000),
      jobs: [],
      refused: [],
      receiver: null,
      next: null,
      startup: [],
    },
  });
  const server = await startHealthServer({
    port: opts.port,
    host: opts.host,
    auth: opts.auth,
    logger: opts.logger,
    health: () => (answers ? answers.health() : starting()),
    budget: () => answers?.budget?.() ?? { alarms: [], month: [] },
    metrics: {
      get contentType() {
        return answers?.metrics.contentType ?? 'text/plain; version=0.0.4';
      },
      // Nothing to count yet: an empty exposition, which a scraper takes as "no series".
      render: () => answers?.metrics.render() ?? Promise.resolve(''),
    },
    statusPage: () =>
      answers?.statusPage?.() ?? Promise.reject(new Error(`the daemon is starting (waiting for ${waitingFor}): try /healthz`)),
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE')
      throw new ConfigError(`port ${opts.port} on ${opts.host} is in use: choose another with --metrics-port or "metricsPort"`);
    throw err;
  });
  return {
    url: server.url,
    close: server.close,
    waiting: (what) => void (waitingFor = what),
    stopping: () => void (stopping = true),
    open: (given) => void (answers = given),
  };
}

// `ds-mirror daemon` as a user starts it: the compiled CLI as a child process, its /healthz polled over
// loopback, its log kept, its exit awaited. The test builds the arguments (store, config); this adds the
// port and the stop bound.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'undici';
import type { DaemonHealth } from '../../src/mirror/index.js';
import { LAUNCHER_FLAGS } from './launcher.js';

export interface SpawnedDaemon {
  child: ChildProcess;
  url: string;
  /** stdout and stderr so far. */
  logs(): string;
  /** /healthz, or null while nothing listens (or the answer is not JSON). */
  probe(): Promise<{ status: number; body: DaemonHealth } | null>;
  /** The exit code (null for a signal) and the time of the exit (performance.now()). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** SIGKILL if still running (a test's cleanup). */
  kill(): void;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Spawns `bin/ds-mirror.js <args> daemon --metrics-port <free> --stop-timeout <s> <daemonArgs>`. */
export async function spawnDaemon(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  opts: { stopTimeoutS: number; daemonArgs?: readonly string[] },
): Promise<SpawnedDaemon> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const argv = [
    ...LAUNCHER_FLAGS,
    'bin/ds-mirror.js',
    ...args,
    'daemon',
    '--metrics-port',
    String(port),
    '--stop-timeout',
    String(opts.stopTimeoutS),
    ...(opts.daemonArgs ?? []),
  ];
  const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stdout.on('data', (d) => (logs += String(d)));
  child.stderr.on('data', (d) => (logs += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  return {
    child,
    url,
    logs: () => logs,
    exited,
    async probe() {
      try {
        const res = await request(`${url}/healthz`);
        return { status: res.statusCode, body: (await res.body.json()) as DaemonHealth };
      } catch {
        return null;
      }
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

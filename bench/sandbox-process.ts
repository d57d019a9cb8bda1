// The sandbox in its own process for benchmarks, so its CPU and memory are not counted as the sync's.
// Driven through its control endpoints (--control).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface SandboxProcess {
  url: string;
  apiKey: string;
  advance(body: { seconds: number; updateFraction?: number; addFraction?: number; removeFraction?: number }): Promise<{
    resources: Record<string, { updated: unknown[]; added: unknown[]; removed: unknown[] }>;
    monitoring: Record<string, unknown>;
  }>;
  /** Adds this much latency to every request (0: none). */
  setLatency(ms: number): Promise<void>;
  /** CPU seconds the sandbox has used so far (user + system; Linux's /proc, NaN elsewhere). */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** Linux's USER_HZ, 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

export async function startSandboxProcess(scale: number, seed = 42): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--scale', String(scale), '--seed', String(seed), '--control'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  let url = '';
  let apiKey = '';
  for await (const line of lines) {
    url ||= /listening on (\S+)/.exec(line)?.[1] ?? '';
    apiKey ||= /API key: (\S+)/.exec(line)?.[1] ?? '';
    if (url && apiKey) break;
  }
  if (!url || !apiKey) throw new Error('the sandbox did not print its URL and key');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    apiKey,
    async advance(body) {
      const res = await fetch(`${url}/_sandbox/advance`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`advance: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as never;
    },
    async setLatency(ms) {
      const res = await fetch(`${url}/_sandbox/chaos`, {
        method: ms > 0 ? 'PUT' : 'DELETE',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: ms > 0 ? JSON.stringify({ latencyMs: ms }) : undefined,
      });
      if (!res.ok) throw new Error(`chaos: HTTP ${res.status} ${await res.text()}`);
    },
    cpuSeconds() {
      try {
        // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): utime and stime, in clock ticks.
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
      } catch {
        return Number.NaN;
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// Reads the daemon's /healthz and /metrics the way a monitor does, over loopback HTTP.
import { request } from 'undici';
import type { DaemonHealth } from '../../src/mirror/index.js';

export async function healthz(baseUrl: string): Promise<{ status: number; body: DaemonHealth }> {
  const res = await request(`${baseUrl}/healthz`);
  return { status: res.statusCode, body: (await res.body.json()) as DaemonHealth };
}

/** Prometheus text → `name{labels}` → value (labels as written by prom-client). */
export async function metrics(baseUrl: string): Promise<Map<string, number>> {
  const res = await request(`${baseUrl}/metrics`);
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
  return parseMetrics(await res.body.text());
}

/** Prometheus text → `name{labels}` → value. */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** Polls `check` until it returns a value (not undefined), or fails after `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

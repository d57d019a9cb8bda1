// @end-to-end
// Seeded fuzzing of the receiver over real HTTP: thousands of random bodies (bytes, JSON, valid envelopes
// mutated at random paths with NUL, deep nesting, wrong types, long strings), signature headers (missing,
// garbled, wrong secret, stale) and paths, mixed with valid deliveries. The receiver must answer every one
// with a 2xx or a 4xx (never a 5xx, never a crash) and every valid delivery must land.
import { pino } from 'pino';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';

const SECRET = 'whsec-fuzz-0123456789';
/**
 * Per store (1,500 in all). The kinds are few: of 750 cases some 225 are valid deliveries, 300 mutated
 * envelopes (each of the 12 hostile values placed some 30 times), 75 random bytes, 150 junk texts, and
 * each of the 10 kinds of signature header comes some 50 times; 1,500 a store spent twice the CPU on them.
 */
const CASES = 750;
const SEED = 0x5eed14;

/** mulberry32: a small seeded PRNG, so a failure replays exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  path: string;
  body: Buffer | string;
  headers: Record<string, string>;
  valid?: string; // the delivery id of a valid delivery
}

function generator(random: () => number) {
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const ascii = (n: number) => Array.from({ length: n }, () => String.fromCharCode(32 + int(95))).join('');
  const nowSec = () => Math.floor(Date.now() / 1000);
  const hostileValue = (): unknown =>
    pick<() => unknown>([
      () => null,
      () => int(1e9) - 5e8,
      () => random() * 1e300,
      () => true,
      () => ascii(int(50)),
      () => `nul\u0000${ascii(5)}`,
      () => `half\ud800pair`,
      () => 'x'.repeat(int(200_000)),
      () => `@@DEEP${50 + int(5000)}@@`,
      () => ({ [ascii(8)]: ascii(8) }),
      () => [ascii(3), int(9)],
      () => ({ '\u0000key': 1 }),
    ])();
  // Deep values travel as text: JSON.stringify itself overflows near 5,000 levels.
  const deepText = (depth: number) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
  const withDeep = (text: string) => text.replace(/"@@DEEP(\d+)@@"/g, (_, depth: string) => deepText(Number(depth)));
  const paths = [
    ['id'],
    ['type'],
    ['timestamp'],
    ['data'],
    ['data', 'view'],
    ['data', 'view', 'id'],
    ['data', 'event', 'title'],
    ['data', 'latest_development'],
    ['data', 'latest_development', 'summary'],
    ['data', 'latest_development', 'title'],
    ['data', 'latest_development', 'category'],
    ['data', 'latest_development', 'nest'],
    ['data', 'latest_development', 'nest'],
    ['data', 'latest_development', 'importance'],
    ['data', 'assets'],
    ['extra'],
  ];

  function mutate(env: Record<string, any>): void {
    for (let m = 1 + int(3); m > 0; m--) {
      const path = pick(paths);
      let target: any = env;
      for (const part of path.slice(0, -1)) target = target?.[part];
      if (target === null || typeof target !== 'object') continue;
      const last = path[path.length - 1]!;
      if (random() < 0.2) delete target[last];
      else target[last] = random() < 0.15 ? `@@DEEP${100 + int(30_000)}@@` : hostileValue();
    }
  }

  return (): Case => {
    const kind = int(10);
    const env = makeEnvelope();
    if (kind < 3) {
      const body = JSON.stringify(env);
      return { path: '/webhooks', body, headers: { 'x-webhook-signature': sign(SECRET, body, nowSec()) }, valid: env.id };
    }
    let body: Buffer | string;
    if (kind < 7) {
      mutate(env);
      body = withDeep(JSON.stringify(env));
    } else if (kind < 8) {
      body = Buffer.from(Array.from({ length: int(2000) }, () => int(256)));
    } else {
      body = pick([ascii(int(300)), '{', '[]', 'null', '"\\u0000"', `{"id":${'['.repeat(int(100_000))}`, deepText(1 + int(20_000))]);
    }
    const signature = pick<() => string | undefined>([
      () => sign(SECRET, body, nowSec()),
      () => sign(SECRET, body, nowSec()),
      () => sign(SECRET, body, nowSec()),
      () => sign('wrong-secret', body, nowSec()),
      () => sign(SECRET, body, nowSec() - 3600),
      () => undefined,
      () => ascii(int(120)),
      () => `t=${ascii(5)},v1=${ascii(64)}`,
      () => `t=${nowSec()},v1=`,
      () => 't=,v1=,v1=,v1=',
    ])();
    const headers: Record<string, string> = signature === undefined ? {} : { 'x-webhook-signature': signature };
    return {
      path: random() < 0.95 ? '/webhooks' : pick(['/', '/healthz', '/webhooks/x', `/${ascii(10).replace(/[^a-z]/gi, '')}`]),
      body,
      headers,
    };
  };
}

for (const dialect of dialects) {
  describe(`receiver fuzz (${dialect})`, () => {
    let t: TestStore;
    let receiver: Receiver;
    const agent = new Agent({ connections: 16 });

    beforeAll(async () => {
      t = await openTestStore(dialect);
      receiver = await startReceiver({ store: t.store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
    });
    afterAll(async () => {
      await agent.close();
      await receiver?.close();
      await t?.cleanup();
    });

    it(`answers ${CASES} seeded random requests with 2xx/4xx, stays up, and stores every valid delivery`, async () => {
      const next = generator(prng(SEED + (dialect === 'postgres' ? 1 : 0)));
      const origin = new URL(receiver.url).origin;
      const statuses = new Map<number, number>();
      const valid: string[] = [];
      const refusedValid: string[] = [];
      const cases = Array.from({ length: CASES }, next);
      let at = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (at < cases.length) {
            const c = cases[at++]!;
            const res = await request(`${origin}${c.path}`, {
              method: 'POST',
              body: c.body,
              dispatcher: agent,
              headers: { 'content-type': 'application/json', ...c.headers },
            });
            await res.body.dump();
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (c.valid) (res.statusCode === 200 ? valid : refusedValid).push(c.valid);
          }
        }),
      );
      const fiveHundreds = [...statuses].filter(([s]) => s >= 500);
      expect(fiveHundreds).toEqual([]);
      expect(refusedValid).toEqual([]);
      expect(valid.length).toBeGreaterThan(CASES / 5);
      const stored = await t.store.db.selectFrom('webhook_deliveries').select('id').where('id', 'in', valid).execute();
      expect(stored).toHaveLength(valid.length);
      const health = await request(receiver.url.replace('/webhooks', '/healthz'), { dispatcher: agent });
      expect(health.statusCode).toBe(200);
      await health.body.dump();
    });
  });
}

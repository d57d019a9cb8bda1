// One mirror, one service, in the library itself: runSync (what the CLI, the daemon and the demo all use)
// refuses to write another service's records into a mirror, before writing anything, unless told to switch.
// The service is recorded at its first successful answer: a wrong address claims nothing.
import { createServer } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { createClient } from '../../src/client/index.js';
import { requireService } from '../../src/config.js';
import { runSync } from '../../src/sync/engine.js';
import { normaliseBaseUrl } from '../../src/sync/mirrored-service.js';
import { syncSettings } from '../../src/sync/settings.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let a: Sandbox;
let b: Sandbox;
beforeAll(async () => {
  [a, b] = await Promise.all([
    startSandbox({ start: PINNED_START, scale: 0.1, seed: 1 }),
    startSandbox({ start: PINNED_START, scale: 0.1, seed: 2 }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

/** A port nothing listens on: one the system gave, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the base URL', () => {
  it('is compared normalised: trailing slash, default port, scheme and host case', () => {
    expect(normaliseBaseUrl('HTTPS://Api.Example.COM:443/')).toBe('https://api.example.com');
    expect(normaliseBaseUrl('http://api.example.com:80//')).toBe('http://api.example.com');
    expect(normaliseBaseUrl('http://user:pw@api.example.com:8080/base/?q=1#x')).toBe('http://api.example.com:8080/base');
  });

  it('ending in /v1 is refused as the likely mistake it is, naming the address to use', () => {
    for (const baseUrl of ['https://api.example.com/v1', 'https://api.example.com/v1/', 'http://127.0.0.1:4010/V1']) {
      expect(() => requireService({ baseUrl, apiKey: 'k' } as never)).toThrow(/ends in \/v1, which ds-mirror adds itself.*use http/);
    }
    expect(() => requireService({ baseUrl: 'https://api.example.com/v1x', apiKey: 'k' } as never)).not.toThrow();
  });
});

for (const dialect of dialects) {
  describe(`the mirrored service (${dialect})`, () => {
    it('a wrong address that never answers (closed port, https on http, wrong key) claims nothing; the corrected one just works', async () => {
      const t = await openTestStore(dialect);
      const logger = pino({ level: 'silent' });
      const sync = async (baseUrl: string, apiKey = a.apiKey) => {
        const client = createClient({ baseUrl, apiKey, retries: 0, timeoutMs: 10_000 });
        try {
          return await runSync({ client, store: t.store, logger, settings: syncSettings({}), streams: resolveStreams(['chains']) });
        } finally {
          await client.close();
        }
      };
      const held = async () => (await t.store.db.selectFrom('mirrored_service').select('base_url').execute()).map((r) => r.base_url);
      try {
        const wrong = [`http://127.0.0.1:${await closedPort()}`, a.url.replace(/^http:/, 'https:')];
        for (const url of wrong) {
          expect((await sync(url)).outcome).toBe('failed');
          expect(await held()).toEqual([]);
        }
        expect((await sync(a.url, 'not-the-key')).outcome).toBe('failed'); // an answer, but not a successful one
        expect(await held()).toEqual([]);
        expect((await sync(`${a.url.toUpperCase()}/`)).outcome).toBe('success');
        expect(await held()).toEqual([normaliseBaseUrl(a.url)]);
      } finally {
        await t.cleanup();
      }
    });

    it('localhost after 127.0.0.1 is refused, with the address to use when it is the same service', async () => {
      const t = await openTestStore(dialect);
      const logger = pino({ level: 'silent' });
      const sync = async (baseUrl: string) => {
        const client = createClient({ baseUrl, apiKey: a.apiKey, retries: 0 });
        try {
          return await runSync({ client, store: t.store, logger, settings: syncSettings({}), streams: resolveStreams(['chains']) });
        } finally {
          await client.close();
        }
      };
      try {
        expect((await sync(a.url)).outcome).toBe('success');
        const local = a.url.replace('127.0.0.1', 'localhost');
        await expect(sync(local)).rejects.toThrow(
          new RegExp(
            `localhost may be the same machine.*if it is, use --base-url ${normaliseBaseUrl(a.url).replace(/\./g, '\\.')}\\).*--force`,
          ),
        );
      } finally {
        await t.cleanup();
      }
    });

    it('a run against another service is refused and writes nothing; switching is explicit', async () => {
      const t = await openTestStore(dialect);
      const logger = pino({ level: 'silent' });
      const sync = async (sb: Sandbox, switchService?: boolean) => {
        const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
        try {
          return await runSync({
            client,
            store: t.store,
            logger,
            settings: syncSettings({}),
            streams: resolveStreams(['chains']),
            switchService,
          });
        } finally {
          await client.close();
        }
      };
      try {
        expect((await sync(a)).outcome).toBe('success');
        const runs = async () => (await t.store.db.selectFrom('sync_runs').selectAll().execute()).length;
        const before = await runs();
        await expect(sync(b)).rejects.toThrow(/this mirror holds http:\/\/127\.0\.0\.1:\d+, not/);
        expect(await runs()).toBe(before); // refused before the run was even recorded
        expect((await sync(b, true)).outcome).toBe('success');
        const held = await t.store.db.selectFrom('mirrored_service').select('base_url').execute();
        expect(held.map((r) => r.base_url)).toEqual([b.url.replace(/\/+$/, '')]);
      } finally {
        await t.cleanup();
      }
    });
  });
}

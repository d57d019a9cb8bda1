// /_sandbox/*: the clock, chaos, quotas, request counter, records and monitoring views over HTTP, for
// tests in another process and for users looking for view ids.
// Off unless the sandbox starts with control on; guarded by the same x-api-key as /v1.
import { timingSafeEqual } from 'node:crypto';
import { parseChaos, type ChaosOptions } from './chaos.js';
import { parseQuota, type QuotaLimit, type QuotaReport } from '../quota/index.js';
import type { ControlHandler } from './server.js';

export interface ControlTarget {
  now(): Date;
  advance(opts: { seconds: number; updateFraction?: number; addFraction?: number; removeFraction?: number }): Promise<unknown>;
  setChaos(opts: ChaosOptions | null): void;
  chaos(): ChaosOptions | null;
  setQuota(limits: QuotaLimit[] | null): void;
  clearQuota(): void;
  quota(): QuotaReport;
  requestCount(): number;
  resetRequestCount(): void;
  records(resource: string): unknown[];
  /** The monitoring views a client can name in DS_MONITORING_VIEWS. */
  views(): Array<{ id: string; slug: string; name: string }>;
  /** The truth an asset crosswalk guesses at (partner UUID → live `/v1` id or null). */
  assetLinks(): Array<{ partnerId: string; v1AssetId: number | null }>;
}

export function controlHandler(target: ControlTarget, apiKey: string): ControlHandler {
  const key = Buffer.from(apiKey);
  return async (method, path, body, headers) => {
    const given = Buffer.from(String(headers['x-api-key'] ?? ''));
    if (given.length !== key.length || !timingSafeEqual(given, key)) {
      return { status: 401, body: { statusCode: 401, message: 'Invalid API key' } };
    }
    const route = `${method} ${path}`;
    if (route === 'GET /_sandbox/clock') return ok({ now: target.now().toISOString() });
    if (route === 'POST /_sandbox/advance') {
      const b = (body ?? {}) as { seconds?: number };
      if (typeof b.seconds !== 'number') return bad('body needs {"seconds": number} (and optional fractions)');
      return ok(await target.advance(b as { seconds: number }));
    }
    if (route === 'GET /_sandbox/chaos') return ok(target.chaos());
    if (route === 'PUT /_sandbox/chaos') {
      const b = body as (ChaosOptions & { spec?: string }) | null | undefined;
      target.setChaos(b?.spec !== undefined ? parseChaos(b.spec) : (b ?? null));
      return ok(target.chaos());
    }
    if (route === 'DELETE /_sandbox/chaos') {
      target.setChaos(null);
      return ok(null);
    }
    if (route === 'GET /_sandbox/quota') return ok(target.quota());
    if (route === 'PUT /_sandbox/quota') {
      const b = body as { spec?: string; limits?: QuotaLimit[] } | undefined;
      if (typeof b?.spec !== 'string' && !Array.isArray(b?.limits)) {
        return bad('body needs {"spec": "v1=2500/month,monitoring=200/min"} or {"limits": [{family, limit, period}]}');
      }
      try {
        target.setQuota(typeof b.spec === 'string' ? parseQuota(b.spec) : b.limits!);
      } catch (err) {
        return bad((err as Error).message);
      }
      return ok(target.quota());
    }
    if (route === 'DELETE /_sandbox/quota') {
      target.clearQuota();
      return ok(target.quota());
    }
    if (route === 'GET /_sandbox/requests') return ok({ count: target.requestCount() });
    if (route === 'DELETE /_sandbox/requests') {
      target.resetRequestCount();
      return ok({ count: 0 });
    }
    if (route === 'GET /_sandbox/views') return ok(target.views());
    if (route === 'GET /_sandbox/asset-links') return ok(target.assetLinks());
    const m = /^GET \/_sandbox\/records\/([a-z-]+)$/.exec(route);
    if (m) return ok(target.records(m[1]));
    return { status: 404, body: { statusCode: 404, message: `no control endpoint ${route}` } };
  };
}

function ok(body: unknown) {
  return { status: 200, body };
}

function bad(message: string) {
  return { status: 400, body: { statusCode: 400, message: [message], error: 'Bad Request' } };
}

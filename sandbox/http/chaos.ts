// Faults on demand, drawn from a seeded stream: 500/503, 429 with Retry-After, connection resets,
// truncated bodies (a Content-Length, then the socket closes early), a proxy's 200 HTML page and added
// latency. The HTML page can also be aimed: the next N requests under one path get it, the rest do not.
import { Rng } from '../core/prng.js';
import { type Lies, tellLies, validateLies } from './lies.js';
import { changePayload, changeRecord, changeShape, changesShape, type ShapeChange, validateShapeChanges } from './shape-changes.js';

export interface ChaosOptions {
  /** Share of requests answered 500 or 503 (half each). */
  rate5xx?: number;
  /** Share of requests answered 429 with Retry-After. */
  rate429?: number;
  /** Share of requests whose connection is destroyed before any response. */
  rateReset?: number;
  /** Share of requests whose body stops half-way (Content-Length promises the whole body). */
  rateTruncate?: number;
  /** Share of requests answered 200 with an HTML page, as a proxy or captive portal in between does. */
  rateHtml?: number;
  /** The next `times` requests whose path starts with `path` (every API path when absent) get the HTML page. */
  html?: { times: number; path?: string };
  /**
   * Requests under `path` for page `fromPage` or later get no answer until the chaos is changed: a client
   * held mid-list, as a test that stops it there needs (a stall, not a time-out race).
   */
  hold?: { path: string; fromPage: number };
  /** Lists that answer 200 with a lie (lies.ts): empty, cut short, a key twice, renamed keys, offset drift. */
  lies?: Lies;
  /** The service changes its shape (shape-changes.ts): every record of the lists under a change's path rewritten. */
  shape?: ShapeChange[];
  /** Added to every faulted and served request. */
  latencyMs?: number;
  /** Retry-After value of a 429, in seconds (default 1). */
  retryAfterSeconds?: number;
  seed?: number;
}

export type Fault = 'none' | '500' | '503' | '429' | 'reset' | 'truncate' | 'html';

const KEYS: Record<string, Exclude<keyof ChaosOptions, 'html' | 'hold' | 'lies' | 'shape'>> = {
  '5xx': 'rate5xx',
  '429': 'rate429',
  reset: 'rateReset',
  truncate: 'rateTruncate',
  html: 'rateHtml',
  latency: 'latencyMs',
  'retry-after': 'retryAfterSeconds',
  seed: 'seed',
};

/** Parses `5xx=0.05,429=0.02,reset=0.01,truncate=0.01,html=0.01,latency=20ms,retry-after=1,seed=7`. */
export function parseChaos(spec: string): ChaosOptions {
  const out: ChaosOptions = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, raw = ''] = part.split('=');
    const key = KEYS[name.trim()];
    const text = raw.trim();
    const seconds = key === 'latencyMs' && /\ds$/.test(text); // latency=2s means 2000 ms
    const value = Number(text.replace(/m?s$/, ''));
    if (!key || text === '' || !Number.isFinite(value)) {
      throw new Error(`bad chaos setting "${part}": use ${Object.keys(KEYS).join('|')}=<number>, e.g. 5xx=0.05,latency=20ms`);
    }
    out[key] = seconds ? value * 1000 : value;
  }
  return validateChaos(out);
}

export function validateChaos(o: ChaosOptions): ChaosOptions {
  const rates = [o.rate5xx, o.rate429, o.rateReset, o.rateTruncate, o.rateHtml].map((r) => r ?? 0);
  if (rates.some((r) => !(r >= 0 && r <= 1))) throw new Error('chaos rates must be between 0 and 1');
  if (rates.reduce((a, b) => a + b, 0) > 1) throw new Error('chaos rates must add up to at most 1');
  if ((o.latencyMs ?? 0) < 0 || (o.retryAfterSeconds ?? 1) < 0) throw new Error('chaos latency and retry-after must be >= 0');
  if (o.html && !(Number.isInteger(o.html.times) && o.html.times >= 0)) throw new Error('chaos html.times must be a whole number >= 0');
  if (o.hold && !(Number.isInteger(o.hold.fromPage) && o.hold.fromPage >= 1))
    throw new Error('chaos hold.fromPage must be a whole number >= 1');
  return {
    ...o,
    html: o.html && { ...o.html },
    hold: o.hold && { ...o.hold },
    lies: o.lies && validateLies(o.lies),
    shape: o.shape && validateShapeChanges(o.shape),
  };
}

export class Chaos {
  private opts: ChaosOptions | null = null;
  private rng = new Rng(0);

  constructor(opts: ChaosOptions | null = null) {
    this.set(opts);
  }

  set(opts: ChaosOptions | null): void {
    this.opts = opts && validateChaos(opts);
    this.rng = new Rng('chaos', opts?.seed ?? 0);
  }

  current(): ChaosOptions | null {
    return this.opts && validateChaos(this.opts);
  }

  /** Whether a request for `path` with query `search` is held (see ChaosOptions.hold). */
  holds(path: string, search: string): boolean {
    const hold = this.opts?.hold;
    if (!hold || !path.startsWith(hold.path)) return false;
    return Number(new URLSearchParams(search).get('page') ?? 1) >= hold.fromPage;
  }

  /** Whether a lie or a change of shape is aimed at lists under `path`. */
  lying(path: string): boolean {
    return (
      Object.values(this.opts?.lies ?? {}).some((lie: { path: string }) => path.startsWith(lie.path)) ||
      changesShape(this.opts?.shape, path)
    );
  }

  /** The list page a lying or changed service serves instead of `body` (see lies.ts, shape-changes.ts). */
  lie<T extends { data: unknown[] }>(path: string, search: string, body: T, pageOf: (page: number) => T | null): T {
    const told = this.opts?.lies ? (tellLies(this.opts.lies, path, search, body, pageOf) as T) : body;
    return this.opts?.shape ? changeShape(this.opts.shape, path, told) : told;
  }

  /** A per-item record (not a list) as the changed service serves it (shape-changes.ts). */
  record(path: string, body: unknown): unknown {
    return this.opts?.shape ? changeRecord(this.opts.shape, path, body) : body;
  }

  /** A webhook payload as the changed service sends it (changes aimed at `/webhook`). */
  payload(envelope: unknown): unknown {
    return this.opts?.shape ? changePayload(this.opts.shape, envelope) : envelope;
  }

  get latencyMs(): number {
    return this.opts?.latencyMs ?? 0;
  }

  get retryAfterSeconds(): number {
    return this.opts?.retryAfterSeconds ?? 1;
  }

  /** The aimed HTML page first (it counts down), then one draw per request decides its fault (the bands never overlap). */
  decide(path: string): Fault {
    const o = this.opts;
    if (!o) return 'none';
    if (o.html && o.html.times > 0 && path.startsWith(o.html.path ?? '/')) {
      o.html.times--;
      return 'html';
    }
    const r = this.rng.next();
    let edge = o.rate5xx ?? 0;
    if (r < edge) return r < edge / 2 ? '500' : '503';
    if (r < (edge += o.rate429 ?? 0)) return '429';
    if (r < (edge += o.rateReset ?? 0)) return 'reset';
    if (r < (edge += o.rateTruncate ?? 0)) return 'truncate';
    if (r < (edge += o.rateHtml ?? 0)) return 'html';
    return 'none';
  }
}

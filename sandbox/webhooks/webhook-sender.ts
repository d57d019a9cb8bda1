// Sends webhook deliveries with the spec's retry policy and keeps a log of every attempt.
// undici `request` over a dedicated Agent: one POST per attempt, no retries inside the transport.
import { Agent, request } from 'undici';
import { MAX_ATTEMPTS, classify, retryTimings, type RetryTimings } from './retry-policy.js';
import { signatureHeader } from './signature.js';
import type { DeliveryAttempt, DeliveryLog, DeliveryRequest } from './types.js';

export interface WebhookSenderOptions {
  /** Scales back-off intervals and time-outs (e.g. 0.01 in tests); 1 = the spec's durations. */
  timeFactor?: number;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Deliveries kept in the log (oldest dropped first), so a long-running sandbox stays bounded. */
  logLimit?: number;
  /** Wall-clock milliseconds for signature timestamps (receivers check them against their clock). */
  wallClock?: () => number;
}

interface Job {
  log: DeliveryLog;
  secret?: string;
  timer?: NodeJS.Timeout;
  controller?: AbortController;
}

function describe(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  return [e?.code ?? e?.name ?? 'Error', e?.message].filter(Boolean).join(': ');
}

export class WebhookSender {
  private readonly timings: RetryTimings;
  private readonly concurrency: number;
  private readonly logLimit: number;
  private readonly wallClock: () => number;
  private readonly agent: Agent;
  private readonly log: DeliveryLog[] = [];
  private readonly pending = new Set<Job>(); // scheduled or in flight
  private readonly ready: Job[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(opts: WebhookSenderOptions = {}) {
    this.timings = retryTimings(opts.timeFactor ?? 1);
    this.concurrency = opts.concurrency ?? 16;
    this.logLimit = opts.logLimit ?? 100_000;
    this.wallClock = opts.wallClock ?? Date.now;
    const t = this.timings.transportTimeoutMs;
    this.agent = new Agent({ connect: { timeout: t }, headersTimeout: t, bodyTimeout: t });
  }

  /** Queues a delivery; its first attempt starts as soon as a slot is free. */
  enqueue(req: DeliveryRequest): DeliveryLog {
    const log: DeliveryLog = { id: req.id, viewId: req.viewId, url: req.url, body: req.body, signed: !!req.secret, attempts: [], state: 'scheduled' };
    this.log.push(log);
    if (this.log.length > this.logLimit) this.log.splice(0, this.log.length - this.logLimit);
    if (this.closed) {
      log.state = 'aborted';
      return log;
    }
    const job: Job = { log, secret: req.secret };
    this.pending.add(job);
    this.ready.push(job);
    this.pump();
    return log;
  }

  /** Snapshot of every delivery so far, in enqueue order. */
  deliveries(): DeliveryLog[] {
    return this.log.map((l) => ({ ...l, attempts: l.attempts.map((a) => ({ ...a })) }));
  }

  /** Resolves when no delivery is in flight or scheduled for a retry. */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Cancels scheduled retries, aborts attempts in flight and closes the connection pool. */
  async close(): Promise<void> {
    this.closed = true;
    this.ready.length = 0;
    for (const job of this.pending) {
      if (job.timer) clearTimeout(job.timer);
      job.controller?.abort(new Error('sender closed'));
      if (job.log.state === 'scheduled') job.log.state = 'aborted';
    }
    await Promise.allSettled([...this.inFlight]);
    this.pending.clear();
    this.settle();
    await this.agent.destroy();
  }

  private pump(): void {
    while (!this.closed && this.inFlight.size < this.concurrency && this.ready.length > 0) {
      const job = this.ready.shift()!;
      const run: Promise<void> = this.attempt(job).finally(() => {
        this.inFlight.delete(run);
        this.pump();
        this.settle();
      });
      this.inFlight.add(run);
    }
  }

  private async attempt(job: Job): Promise<void> {
    const { log } = job;
    log.state = 'in-flight';
    const number = log.attempts.length + 1;
    const started = Date.now();
    const controller = new AbortController();
    job.controller = controller;
    const deadline = setTimeout(() => controller.abort(new Error('attempt time-out')), this.timings.attemptTimeoutMs);
    let status: number | undefined;
    let error: string | undefined;
    try {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'ServiceCNS/1.0' };
      // Signed per attempt: `t` is the time of this attempt, the body bytes never change.
      if (job.secret) headers['X-Webhook-Signature'] = signatureHeader(job.secret, Math.floor(this.wallClock() / 1000), log.body);
      const t = this.timings.transportTimeoutMs;
      const res = await request(log.url, {
        method: 'POST', headers, body: log.body, dispatcher: this.agent, signal: controller.signal, headersTimeout: t, bodyTimeout: t,
      });
      status = res.statusCode;
      await res.body.dump().catch(() => undefined); // the status decides; the answer's body is not needed
    } catch (err) {
      error = describe(err);
    } finally {
      clearTimeout(deadline);
      job.controller = undefined;
    }
    const record: DeliveryAttempt = { number, at: new Date(started).toISOString(), durationMs: Date.now() - started };
    if (status !== undefined) record.status = status;
    if (error !== undefined) record.error = error;
    log.attempts.push(record);
    this.decide(job, classify(status), number);
  }

  private decide(job: Job, outcome: ReturnType<typeof classify>, attempts: number): void {
    const { log } = job;
    if (this.closed) log.state = 'aborted';
    else if (outcome === 'delivered') log.state = 'delivered';
    else if (outcome === 'permanent') log.state = 'failed';
    else if (attempts >= MAX_ATTEMPTS) log.state = 'exhausted';
    else {
      log.state = 'scheduled';
      job.timer = setTimeout(() => {
        job.timer = undefined;
        this.ready.push(job);
        this.pump();
      }, this.timings.delayAfter(attempts));
      return;
    }
    this.pending.delete(job);
  }

  private settle(): void {
    if (this.pending.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

// Sends webhook deliveries with the spec's retry policy and keeps a log of every attempt.
// undici `request` over a dedicated Agent: one POST per attempt, no retries and no timers inside the
// transport; back-off and time-outs run on the injected clock (the sandbox clock), never on the
// machine's, so what is sent does not depend on how busy the machine is.
import { Agent, request } from 'undici';
import { MAX_ATTEMPTS, classify, retryTimings, type RetryTimings } from './retry-policy.js';
import type { SenderClock } from './sender-clock.js';
import { signatureHeader } from './signature.js';
import type { DeliveryAttempt, DeliveryLog, DeliveryRequest } from './types.js';

export interface WebhookSenderOptions {
  /** Back-off and time-outs are measured on this clock. */
  clock: SenderClock;
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
  cancelRetry?: () => void;
  controller?: AbortController;
}

function describe(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  return [e?.code ?? e?.name ?? 'Error', e?.message].filter(Boolean).join(': ');
}

export class WebhookSender {
  private readonly clock: SenderClock;
  private readonly timings: RetryTimings;
  private readonly concurrency: number;
  private readonly logLimit: number;
  private readonly wallClock: () => number;
  private readonly agent: Agent;
  private readonly log: DeliveryLog[] = [];
  private readonly pending = new Set<Job>(); // waiting for a retry, ready or in flight
  private readonly ready: Job[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(opts: WebhookSenderOptions) {
    this.clock = opts.clock;
    this.timings = retryTimings(opts.timeFactor ?? 1);
    this.concurrency = opts.concurrency ?? 16;
    this.logLimit = opts.logLimit ?? 100_000;
    this.wallClock = opts.wallClock ?? Date.now;
    // 0 turns undici's own (wall-clock) timers off: the clock's time-outs below replace them.
    this.agent = new Agent({ connect: { timeout: 0 }, headersTimeout: 0, bodyTimeout: 0 });
  }

  /** Queues a delivery; its first attempt starts as soon as a slot is free. */
  enqueue(req: DeliveryRequest): DeliveryLog {
    const log: DeliveryLog = {
      id: req.id,
      viewId: req.viewId,
      url: req.url,
      body: req.body,
      signed: !!req.secret,
      attempts: [],
      state: 'scheduled',
    };
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

  /**
   * Resolves when no attempt is in flight or ready to start. A delivery waiting for its retry
   * (state `scheduled`) waits for the clock, not for this: move the clock, then wait again.
   */
  idle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Cancels scheduled retries, aborts attempts in flight and closes the connection pool. */
  async close(): Promise<void> {
    this.closed = true;
    this.ready.length = 0;
    for (const job of this.pending) {
      job.cancelRetry?.();
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
    const started = Date.now(); // wall clock, for the log only
    const controller = new AbortController();
    job.controller = controller;
    // Transport: until the answer's headers; attempt: the whole exchange.
    const cancelTransport = this.clock.after(this.timings.transportTimeoutMs, () => controller.abort(new Error('transport time-out')));
    const cancelAttempt = this.clock.after(this.timings.attemptTimeoutMs, () => controller.abort(new Error('attempt time-out')));
    let status: number | undefined;
    let error: string | undefined;
    try {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'ServiceCNS/1.0' };
      // Signed per attempt: `t` is the time of this attempt, the body bytes never change.
      if (job.secret) headers['X-Webhook-Signature'] = signatureHeader(job.secret, Math.floor(this.wallClock() / 1000), log.body);
      const res = await request(log.url, { method: 'POST', headers, body: log.body, dispatcher: this.agent, signal: controller.signal });
      cancelTransport();
      status = res.statusCode;
      await res.body.dump().catch(() => undefined); // the status decides; the answer's body is not needed
    } catch (err) {
      error = describe(err);
    } finally {
      cancelTransport();
      cancelAttempt();
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
      job.cancelRetry = this.clock.after(this.timings.delayAfter(attempts), () => {
        job.cancelRetry = undefined;
        this.ready.push(job);
        this.pump();
      });
      return;
    }
    this.pending.delete(job);
  }

  private busy(): boolean {
    return this.inFlight.size > 0 || this.ready.length > 0;
  }

  private settle(): void {
    if (this.busy()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

// The receiver's request handling: a POST to the webhook path is read (within the size limit),
// verified, validated and handed to the group committer; the answer is 2xx only once its group has
// committed. Every refusal is counted by reason and logged with one access line per request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { describeStoreError } from '../store/storage-errors.js';
import { UnstorableDeliveryError, type GroupCommitter } from './group-committer.js';
import { setAsideRow, ShapeTally } from './delivery-changes.js';
import type { AcceptedDelivery } from './delivery-rows.js';
import type { DeliveryChange } from './delivery-shape.js';
import { type EnvelopeResult, parseEnvelope } from './parse-envelope.js';
import type { SignatureVerifier } from './verify-signature.js';
import { unresolvedViewLine, type ViewRules } from './view-rules.js';

export interface ReceiverStats {
  received: number;
  duplicates: number;
  /** Group commits made: received / commits is the mean group size. */
  commits: number;
  /** Signed deliveries stored whole but not read as an alert (webhook_set_aside). */
  setAside: number;
  refused: Record<string, number>;
}

/** What a request ended with, for its access log line (never the body, never the signature). */
interface Outcome {
  reason?: string;
  detail?: string;
  delivery?: string;
  view?: string;
  /** Why a delivery was set aside (stored whole, acknowledged). */
  setAside?: string;
  /** The changes of shape a delivery showed. */
  shape?: string;
}

export interface WebhookRequestsOptions {
  path: string;
  maxBodyBytes: number;
  /** View ids whose deliveries may arrive without a signature. */
  allowUnsigned: ReadonlySet<string>;
  verifier: SignatureVerifier;
  /** Which views a delivery may be for, and with which secret. */
  views: ViewRules;
  committer: GroupCommitter;
  stats: ReceiverStats;
  log: Logger;
  now: () => number;
  /** Where the store is, for the log line of a failed commit. */
  storeLocation: string;
}

type InvalidEnvelope = Extract<EnvelopeResult, { reason: 'invalid_envelope' }>;

export class WebhookRequests {
  /** Set by close(): /healthz answers 503 and every answer asks the client to close its connection. */
  closing = false;
  private readonly tally = new ShapeTally();

  constructor(private readonly opts: WebhookRequestsOptions) {}

  /** The server's request listener: whatever a handler throws ends that request with a 500, never the process. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    const out: Outcome = {};
    try {
      this.handle(req, res, out);
    } catch (err) {
      this.failed(res, out, err);
    }
  };

  private handle(req: IncomingMessage, res: ServerResponse, out: Outcome): void {
    const reqPath = (req.url ?? '/').split('?', 1)[0];
    this.logWhenClosed(req, res, reqPath, out);
    if (reqPath === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      // Up, but refusing every delivery of a configured view that does not resolve: named, with why.
      const unresolved = this.opts.views.unresolved();
      const named = unresolved.length > 0 ? { unresolvedViews: unresolved, reasons: unresolved.map(unresolvedViewLine) } : {};
      return this.reply(res, out, this.closing ? 503 : 200, { ok: !this.closing, ...named });
    }
    if (reqPath !== this.opts.path) return this.refuse(res, out, 404, 'not_found');
    if (req.method !== 'POST') return this.refuse(res, out, 405, 'method_not_allowed', undefined, { allow: 'POST' });

    const sigHeader = req.headers['x-webhook-signature'];
    if (Array.isArray(sigHeader)) return this.refuse(res, out, 401, 'malformed_signature');
    // A compressed body cannot be verified as sent (the signature covers the bytes as written): refused for good.
    const encoding = String(req.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    if (encoding !== 'identity' && encoding !== '') {
      return this.refuse(res, out, 415, 'unsupported_encoding', `content-encoding ${encoding.slice(0, 40)}`, { connection: 'close' });
    }
    // Refused before reading; `connection: close` lets the server drop the rest of the body.
    if (Number(req.headers['content-length'] ?? 0) > this.opts.maxBodyBytes) {
      return this.refuse(res, out, 413, 'body_too_large', undefined, { connection: 'close' });
    }
    this.readBody(req, res, out, (body) => this.onBody(res, out, sigHeader, body));
  }

  /** Access log, a line per request (about 4 of the HTTP thread's ~30 µs per delivery, kept: it is what an operator reads first). */
  private logWhenClosed(req: IncomingMessage, res: ServerResponse, reqPath: string, out: Outcome): void {
    const started = performance.now();
    const { log } = this.opts;
    res.on('close', () => {
      const line = { method: req.method, path: reqPath, status: res.statusCode, ms: Math.round(performance.now() - started), ...out };
      if (!res.writableFinished) log.warn({ ...line, status: undefined }, 'client went away before the answer');
      else if (res.statusCode >= 500) log.error(line, 'webhook request failed');
      else if (res.statusCode >= 400) log.warn(line, 'webhook request refused');
      else if (out.setAside) log.warn(line, 'webhook delivery of another shape set aside (stored whole, acknowledged)');
      else log.info(line, 'request');
    });
  }

  /** The whole body, unless it grows past the limit (then a 413 and the rest is dropped). */
  private readBody(req: IncomingMessage, res: ServerResponse, out: Outcome, onBody: (body: Buffer) => void): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > this.opts.maxBodyBytes) {
        over = true;
        chunks.length = 0;
        this.refuse(res, out, 413, 'body_too_large', undefined, { connection: 'close' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        if (!over) onBody(Buffer.concat(chunks, size));
      } catch (err) {
        this.failed(res, out, err);
      }
    });
    req.on('error', () => {}); // a client that hangs up mid-body: the close handler logs it
  }

  private onBody(res: ServerResponse, out: Outcome, sigHeader: string | undefined, body: Buffer): void {
    const { allowUnsigned } = this.opts;
    let signedBy: number[] | null = null;
    if (sigHeader !== undefined) {
      const sig = this.opts.verifier.verify(sigHeader, body, this.opts.now());
      if (!sig.ok) return this.refuse(res, out, 401, sig.reason);
      signedBy = sig.signedBy;
    } else if (allowUnsigned.size === 0) {
      return this.refuse(res, out, 401, 'missing_signature');
    }
    const parsed = parseEnvelope(body);
    const receivedAt = new Date(this.opts.now()).toISOString();
    if (!parsed.ok && parsed.reason === 'invalid_envelope') return this.setAside(res, out, signedBy, parsed, receivedAt);
    // 422: well-formed but no store can hold it; like every 4xx it tells the sender not to retry.
    if (!parsed.ok) return this.refuse(res, out, parsed.reason === 'unstorable' ? 422 : 400, parsed.reason, parsed.detail);
    const { envelope, changes } = parsed;
    out.delivery = envelope.id;
    out.view = envelope.data.view.id;
    if (signedBy === null && !allowUnsigned.has(envelope.data.view.id)) return this.refuse(res, out, 401, 'missing_signature');
    const delivery: AcceptedDelivery = {
      envelope,
      body: parsed.text,
      signed: signedBy !== null,
      receivedAt,
      changes: changes.length === 0 ? [] : this.tally.rows(changes, false, receivedAt),
      setAside: null,
      coerced: changes.some((c) => c.coerced),
    };
    if (changes.length > 0) this.logChanges(out, changes);
    this.commit(res, out, envelope.data.view.id.toLowerCase(), signedBy, delivery);
  }

  /**
   * A delivery whose signature verifies but that the receiver cannot read as an alert: stored whole with its
   * reason and acknowledged (2xx: the sender must not drop or retry it), its alert left to the next re-read
   * of the view's events. Unsigned, only for a view allowed unsigned deliveries, as any delivery.
   */
  private setAside(res: ServerResponse, out: Outcome, signedBy: number[] | null, parsed: InvalidEnvelope, receivedAt: string): void {
    const row = setAsideRow(parsed.json, parsed.text, signedBy !== null, receivedAt, parsed.changes, parsed.detail);
    const viewId = typeof row.view_id === 'string' ? row.view_id : null;
    out.delivery = (row.id as string | null) ?? undefined;
    out.view = viewId ?? undefined;
    if (signedBy === null && !(viewId !== null && this.opts.allowUnsigned.has(viewId)))
      return this.refuse(res, out, 401, 'missing_signature');
    out.setAside = String(row.reason);
    this.opts.stats.setAside++;
    const delivery: AcceptedDelivery = {
      envelope: null,
      body: parsed.text,
      signed: signedBy !== null,
      receivedAt,
      changes: this.tally.rows(parsed.changes, true, receivedAt),
      setAside: row,
      coerced: false,
    };
    this.commit(res, out, viewId?.toLowerCase() ?? null, signedBy, delivery);
  }

  /** The view's rules, then the group commit; 2xx once it is durable. A delivery naming no view passes on its signature alone. */
  private commit(res: ServerResponse, out: Outcome, viewId: string | null, signedBy: number[] | null, delivery: AcceptedDelivery): void {
    const refusal = viewId === null ? Promise.resolve(null) : this.opts.views.refusal(viewId, signedBy);
    refusal
      .then((refused) => {
        if (refused === 'view_not_configured') return this.refuse(res, out, 403, refused);
        if (refused !== null) return this.refuse(res, out, 401, refused);
        return this.opts.committer.submit(delivery).then(
          () => this.reply(res, out, 200, { ok: true }),
          (err: unknown) => this.commitFailed(res, out, err),
        );
      })
      .catch((err: unknown) => this.failed(res, out, err));
  }

  /** A change of shape is said on the request's line (once per delivery; `v_schema_changes` keeps the count). */
  private logChanges(out: Outcome, changes: readonly DeliveryChange[]): void {
    out.shape = changes
      .slice(0, 4)
      .map((c) => (c.kind === 'new' ? `new field ${c.path}` : c.kind === 'missing' ? `${c.path} missing` : `${c.path} came as ${c.seen}`))
      .join(', ');
  }

  private commitFailed(res: ServerResponse, out: Outcome, err: unknown): void {
    if (err instanceof UnstorableDeliveryError) return this.refuse(res, out, 422, 'unstorable', err.message);
    // The log line names the cause first when the store itself fails (disk full, read-only, ...).
    const detail = describeStoreError(err, this.opts.storeLocation);
    // A 5xx makes the sender retry; nothing was acknowledged, so nothing is lost.
    this.refuse(res, out, 503, 'storage_unavailable', detail, { 'retry-after': '1' });
  }

  private failed(res: ServerResponse, out: Outcome, err: unknown): void {
    out.detail = err instanceof Error ? err.message : String(err);
    try {
      if (!res.headersSent) this.refuse(res, out, 500, 'internal_error', out.detail);
      else res.destroy();
    } catch {
      res.destroy();
    }
  }

  private refuse(
    res: ServerResponse,
    out: Outcome,
    status: number,
    reason: string,
    detail?: string,
    headers?: Record<string, string>,
  ): void {
    out.reason = reason;
    out.detail = detail;
    this.reply(res, out, status, { error: reason }, headers);
  }

  private reply(res: ServerResponse, out: Outcome, status: number, body: object, headers: Record<string, string> = {}): void {
    const { refused } = this.opts.stats;
    if (out.reason !== undefined) refused[out.reason] = (refused[out.reason] ?? 0) + 1;
    const text = JSON.stringify(body);
    // While closing, ask the client not to reuse the connection so the server can finish.
    if (this.closing) headers.connection = 'close';
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  }
}

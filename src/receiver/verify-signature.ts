// The spec's Signature section: `X-Webhook-Signature: t=<unix seconds>,v1=<64 hex>`, where v1 is
// HMAC-SHA256(secret, `<t>.<raw body bytes>`). Compared in constant time against every configured
// secret; a missing or malformed component fails, and so does a `t` outside the tolerance.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export type SignatureFailure = 'missing_signature' | 'malformed_signature' | 'bad_signature' | 'stale_timestamp' | 'future_timestamp';

/** `signedBy`: the indices, in the verifier's secrets, of the secrets the signature matched. */
export type SignatureResult = { ok: true; signedBy: number[] } | { ok: false; reason: SignatureFailure };

const MAX_HEADER_LENGTH = 1024;
const TIMESTAMP = /^\d{1,12}$/;
const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;

interface ParsedHeader {
  t: string;
  v1: Buffer[];
}

/** Parses `t=...,v1=...`; unknown keys (a future `v2`) are ignored, a repeated `t` is malformed. */
export function parseSignatureHeader(header: string): ParsedHeader | null {
  if (header.length > MAX_HEADER_LENGTH) return null;
  let t: string | undefined;
  const v1: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !TIMESTAMP.test(value)) return null;
      t = value;
    } else if (key === 'v1') {
      if (!HEX_DIGEST.test(value)) return null;
      v1.push(Buffer.from(value, 'hex'));
    }
  }
  if (t === undefined || v1.length === 0) return null;
  return { t, v1 };
}

export interface SignatureVerifier {
  verify(header: string | undefined, rawBody: Buffer, nowMs: number): SignatureResult;
}

/** Keys are built once; the secrets themselves stay inside this closure and are never returned or logged. */
export function createSignatureVerifier(secrets: readonly string[], toleranceSec: number): SignatureVerifier {
  const keys: KeyObject[] = secrets.map((s) => createSecretKey(Buffer.from(s, 'utf8')));
  return {
    verify(header, rawBody, nowMs) {
      if (header === undefined || header === '') return { ok: false, reason: 'missing_signature' };
      const parsed = parseSignatureHeader(header);
      if (parsed === null) return { ok: false, reason: 'malformed_signature' };
      // Every key is tried and every candidate compared, so timing does not tell which one matched.
      const signedBy: number[] = [];
      keys.forEach((key, i) => {
        const expected = createHmac('sha256', key).update(`${parsed.t}.`).update(rawBody).digest();
        let matched = false;
        for (const candidate of parsed.v1) {
          if (timingSafeEqual(expected, candidate)) matched = true;
        }
        if (matched) signedBy.push(i);
      });
      if (signedBy.length === 0) return { ok: false, reason: 'bad_signature' };
      // Checked after the HMAC so the logged reason tells a replay from a forgery.
      const skew = Number(parsed.t) - Math.floor(nowMs / 1000);
      if (skew < -toleranceSec) return { ok: false, reason: 'stale_timestamp' };
      if (skew > toleranceSec) return { ok: false, reason: 'future_timestamp' };
      return { ok: true, signedBy };
    },
  };
}

import { describe, expect, it } from 'vitest';
import { createSignatureVerifier, parseSignatureHeader } from '../../src/receiver/verify-signature.js';
import { sign } from './webhook-fixtures.js';

const body = Buffer.from('{"id":"x","b":[1,2]}');
const nowMs = 1_800_000_000_000;
const t = nowMs / 1000;

describe('verifySignature', () => {
  const verifier = createSignatureVerifier(['old-secret', 'new-secret'], 300);

  it('accepts a signature made with any configured secret', () => {
    expect(verifier.verify(sign('old-secret', body, t), body, nowMs)).toEqual({ ok: true, signedBy: [0] });
    expect(verifier.verify(sign('new-secret', body, t), body, nowMs)).toEqual({ ok: true, signedBy: [1] });
  });

  it('refuses an unknown secret and a tampered body', () => {
    expect(verifier.verify(sign('other', body, t), body, nowMs)).toEqual({ ok: false, reason: 'bad_signature' });
    const tampered = Buffer.from('{"id":"x","b":[1,3]}');
    expect(verifier.verify(sign('new-secret', body, t), tampered, nowMs)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('signs the raw bytes, not re-serialized JSON', () => {
    const spaced = Buffer.from('{ "id": "x", "b": [1, 2] }');
    expect(verifier.verify(sign('new-secret', body, t), spaced, nowMs)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a timestamp outside the tolerance, in either direction, and keeps the edge', () => {
    expect(verifier.verify(sign('new-secret', body, t - 301), body, nowMs)).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifier.verify(sign('new-secret', body, t + 301), body, nowMs)).toEqual({ ok: false, reason: 'future_timestamp' });
    expect(verifier.verify(sign('new-secret', body, t - 300), body, nowMs)).toEqual({ ok: true, signedBy: [1] });
    expect(verifier.verify(sign('new-secret', body, t + 300), body, nowMs)).toEqual({ ok: true, signedBy: [1] });
  });

  it('refuses a timestamp that was changed after signing', () => {
    const header = sign('new-secret', body, t).replace(`t=${t}`, `t=${t + 1}`);
    expect(verifier.verify(header, body, nowMs)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('fails on a missing or malformed component', () => {
    const good = sign('new-secret', body, t);
    const v1 = good.split('v1=')[1];
    expect(verifier.verify(undefined, body, nowMs)).toEqual({ ok: false, reason: 'missing_signature' });
    for (const header of [
      `v1=${v1}`,
      `t=${t}`,
      `t=,v1=${v1}`,
      `t=abc,v1=${v1}`,
      `t=${t},v1=${v1.slice(2)}`,
      `t=${t},v1=${v1.slice(0, 62)}zz`,
      `t=${t},t=${t},v1=${v1}`,
      `t=${t};v1=${v1}`,
      `${t},${v1}`,
      'garbage',
    ]) {
      expect(verifier.verify(header, body, nowMs), header).toEqual({ ok: false, reason: 'malformed_signature' });
    }
  });

  it('accepts uppercase hex, spaces after commas and an unknown extra scheme', () => {
    const good = sign('new-secret', body, t);
    const v1 = good.split('v1=')[1];
    expect(verifier.verify(`t=${t}, v1=${v1.toUpperCase()}`, body, nowMs)).toEqual({ ok: true, signedBy: [1] });
    expect(verifier.verify(`t=${t},v1=${v1},v2=whatever`, body, nowMs)).toEqual({ ok: true, signedBy: [1] });
  });

  it('parses every v1 candidate', () => {
    const parsed = parseSignatureHeader(`t=12,v1=${'a'.repeat(64)},v1=${'b'.repeat(64)}`);
    expect(parsed?.t).toBe('12');
    expect(parsed?.v1.map((b) => b.toString('hex'))).toEqual(['a'.repeat(64), 'b'.repeat(64)]);
  });

  it('with no secrets verifies nothing', () => {
    expect(createSignatureVerifier([], 300).verify(sign('x', body, t), body, nowMs)).toEqual({ ok: false, reason: 'bad_signature' });
  });
});

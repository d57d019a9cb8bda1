// A delivery's signature: the secrets the receiver checks it with (the environment and a secrets file, each
// secret shared or bound to its view) and the check itself (any configured secret, the raw bytes, the
// timestamp's tolerance, the header's forms).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { loadSecrets } from '../../src/receiver/load-secrets.js';
import { createSignatureVerifier, parseSignatureHeader } from '../../src/receiver/verify-signature.js';
import { sign } from './webhook-fixtures.js';

describe('loadSecrets', () => {
  it('reads comma-separated secrets from the environment, trimmed, without empties', () => {
    expect(loadSecrets({ DS_WEBHOOK_SECRETS: ' a1 ,b2,, c3' })).toEqual({ shared: ['a1', 'b2', 'c3'], byView: {} });
    expect(loadSecrets({})).toEqual({ shared: [], byView: {} });
  });

  it('adds one secret per line from a file, skipping comments and blank lines, deduplicated', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ds-secrets-')), 'secrets');
    writeFileSync(file, '# view A (rotating)\nold-a\r\nnew-a\n\n  # view B\nb2\n');
    expect(loadSecrets({ DS_WEBHOOK_SECRETS: 'b2,env-only' }, file).shared).toEqual(['b2', 'env-only', 'old-a', 'new-a']);
  });

  it("binds a secret to its view when the line or item names the view first (a base64 secret's '=' stays its own)", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ds-secrets-')), 'secrets');
    writeFileSync(file, 'shared-1\nsecurity-alerts  whsec_abc==\nsecurity-alerts whsec_new\n');
    expect(loadSecrets({ DS_WEBHOOK_SECRETS: '0b5e6a56-0000-4000-8000-000000000001 whsec_x=,shared-2' }, file)).toEqual({
      shared: ['shared-2', 'shared-1'],
      byView: { '0b5e6a56-0000-4000-8000-000000000001': ['whsec_x='], 'security-alerts': ['whsec_abc==', 'whsec_new'] },
    });
  });

  it('names an unreadable file without quoting anything from it', () => {
    const missing = join(tmpdir(), 'ds-no-such-dir', 'secrets');
    expect(() => loadSecrets({}, missing)).toThrow(ConfigError);
    expect(() => loadSecrets({}, missing)).toThrow(/cannot read the webhook secrets file .*: no such file/);
  });

  it('reads a secret file with a bound: /dev/zero (or any file past 64 KiB) is refused unread, in one line', () => {
    expect(() => loadSecrets({}, '/dev/zero')).toThrow(/the webhook secrets file \/dev\/zero is larger than 64 KiB: not a secret file/);
    const config = join(mkdtempSync(join(tmpdir(), 'ds-secrets-')), 'config.json');
    writeFileSync(config, JSON.stringify({ apiKeyFile: '/dev/zero' }));
    expect(() => loadConfig({ config }, {})).toThrow(/apiKeyFile \/dev\/zero is larger than 64 KiB/);
  });
});

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

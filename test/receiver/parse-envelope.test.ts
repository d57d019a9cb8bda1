import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../../src/receiver/parse-envelope.js';
import { makeEnvelope } from './webhook-fixtures.js';

const parse = (value: unknown) => parseEnvelope(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)));

describe('parseEnvelope', () => {
  it('accepts a spec envelope and keeps the text byte for byte', () => {
    const text = JSON.stringify(makeEnvelope(), null, 1).replace('"type"', '"type" ');
    const result = parseEnvelope(Buffer.from(text));
    expect(result.ok && result.text).toBe(text);
  });

  it('accepts the optional fields omitted', () => {
    const env = makeEnvelope();
    delete env.data.assets;
    for (const k of ['category', 'subcategory', 'importance']) delete env.data.latest_development[k];
    expect(parse(env).ok).toBe(true);
  });

  it('keeps unknown extra fields at every level', () => {
    const env = makeEnvelope();
    env.extra = 1;
    env.data.view.color = 'red';
    env.data.latest_development.sentiment = 'negative';
    const result = parse(env);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((result.envelope as any).extra).toBe(1);
    expect((result.envelope.data.view as any).color).toBe('red');
    expect((result.envelope.data.latest_development as any).sentiment).toBe('negative');
  });

  it.each([
    ['id not a UUID', (e: any) => (e.id = 'abc')],
    ['another type', (e: any) => (e.type = 'other_event')],
    ['timestamp not RFC 3339', (e: any) => (e.timestamp = 'yesterday')],
    ['missing view', (e: any) => delete e.data.view],
    ['missing event id', (e: any) => delete e.data.event.id],
    ['missing latest_development', (e: any) => delete e.data.latest_development],
    ['actionable missing', (e: any) => delete e.data.latest_development.actionable],
    ['importance unknown', (e: any) => (e.data.latest_development.importance = 'urgent')],
    ['optional sent as null', (e: any) => (e.data.latest_development.ended_at = null)],
    ['category not an array', (e: any) => (e.data.latest_development.category = 'x')],
  ])('refuses an envelope with %s', (_name, mutate) => {
    const env = makeEnvelope();
    mutate(env);
    const result = parse(env);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe('invalid_envelope');
  });

  it('refuses non-JSON, a JSON array and invalid UTF-8 with distinct reasons', () => {
    expect(parse('not json')).toMatchObject({ ok: false, reason: 'invalid_json' });
    expect(parse('[1,2]')).toMatchObject({ ok: false, reason: 'invalid_envelope' });
    expect(parseEnvelope(Buffer.from([0x7b, 0xff, 0x7d]))).toMatchObject({ ok: false, reason: 'invalid_utf8' });
  });
});

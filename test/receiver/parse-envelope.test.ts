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

describe('the changes of shape a delivery shows', () => {
  const changesOf = (mutate: (e: any) => void) => {
    const env = makeEnvelope();
    mutate(env);
    const result = parse(env);
    return { result, changes: result.ok || result.reason === 'invalid_envelope' ? result.changes : [] };
  };

  it('none for the spec envelope, optional fields omitted or not', () => {
    expect(changesOf(() => {}).changes).toEqual([]);
    expect(changesOf((e) => delete e.data.assets).changes).toEqual([]);
  });

  it('a new field at any depth, a new object once; the delivery is read as before', () => {
    const { result, changes } = changesOf((e) => {
      e.data.latest_development.sentiment = 'negative';
      e.data.severity = { level: 3, source: 'model' };
    });
    expect(result.ok).toBe(true);
    expect(changes.map((c) => [c.path, c.kind, c.seen, c.example])).toEqual([
      ['data.latest_development.sentiment', 'new', 'string', '"negative"'],
      ['data.severity', 'new', 'object', '{level, source}'],
    ]);
  });

  it('a time as Unix seconds and a boolean as text are taken without loss', () => {
    const { result, changes } = changesOf((e) => {
      e.timestamp = 1767225600;
      e.data.latest_development.actionable = 'false';
    });
    expect(result.ok && [result.envelope.timestamp, result.envelope.data.latest_development.actionable]).toEqual([
      '2026-01-01T00:00:00.000Z',
      false,
    ]);
    expect(changes.map((c) => [c.path, c.kind, c.coerced])).toEqual([
      ['timestamp', 'other type', true],
      ['data.latest_development.actionable', 'other type', true],
    ]);
    // The body stays as received.
    expect(result.ok && JSON.parse(result.text).timestamp).toBe(1767225600);
  });

  it('a required field gone, an object as a list, a value of the right type but not the form: the envelope is refused, each said', () => {
    const { result, changes } = changesOf((e) => {
      delete e.data.event.title;
      e.data.view = [e.data.view.id, e.data.view.name];
      e.data.latest_development.importance = 'urgent';
      e.timestamp = 1.5e-4; // a fraction of a millisecond: no exact ISO time
      e.data.latest_development.started_at = 1e300; // beyond any date
    });
    expect(!result.ok && result.reason).toBe('invalid_envelope');
    expect(changes.map((c) => [c.path, c.kind, c.seen, c.expected, c.coerced])).toEqual([
      ['timestamp', 'other type', 'number', 'string (RFC 3339 time)', false],
      ['data.view', 'other type', 'array', 'object', false],
      ['data.event.title', 'missing', '', 'string', false],
      ['data.latest_development.started_at', 'other type', 'number', 'string (RFC 3339 time)', false],
      // Said by the envelope check: the right JSON type, not a value it takes.
      ['data.latest_development.importance', 'other type', 'string', 'string (low|medium|high)', false],
    ]);
  });

  it('a body that is no object is one change of its root', () => {
    expect(parse('[1,2]')).toMatchObject({ ok: false, changes: [{ path: '(root)', kind: 'other type', seen: 'array' }] });
  });
});

// The `monitoring_event` envelope (spec, Events > Envelope). Unknown extra fields are kept (loose
// objects): the service may add fields, and the raw body is stored whole anyway. Optional fields are
// omitted when empty, so they are `.optional()`, not nullable.
import { z } from 'zod';
import { jsonTypeOf, exampleOf } from '../json-types.js';
import { jsonProblem } from '../store/storable.js';
import { type DeliveryChange, deliveryChanges, expectedText } from './delivery-shape.js';

// Format-only UUID check: the spec promises UUID strings, not a version or variant.
const id = z.guid();
const rfc3339 = z.iso.datetime({ offset: true });

const latestDevelopment = z.looseObject({
  id,
  title: z.string(),
  summary: z.string(),
  category: z.array(z.string()).optional(),
  subcategory: z.array(z.string()).optional(),
  importance: z.enum(['low', 'medium', 'high']).optional(),
  actionable: z.boolean(),
  created_at: rfc3339,
  started_at: rfc3339,
  ended_at: rfc3339.optional(),
});

export const envelopeSchema = z.looseObject({
  id,
  type: z.literal('monitoring_event'),
  timestamp: rfc3339,
  data: z.looseObject({
    view: z.looseObject({ id, name: z.string() }),
    event: z.looseObject({ id, title: z.string() }),
    assets: z.array(z.looseObject({ id, name: z.string(), logo_url: z.string().optional() })).optional(),
    latest_development: latestDevelopment,
  }),
});

export type Envelope = z.infer<typeof envelopeSchema>;

export type EnvelopeResult =
  | {
      ok: true;
      /** With the loss-free coercions taken (the changes say which); `text` is the body as received. */
      envelope: Envelope;
      text: string;
      changes: DeliveryChange[];
    }
  | { ok: false; reason: 'invalid_utf8' | 'invalid_json' | 'unstorable'; detail: string }
  /** JSON the envelope check refuses: what it is, and why, for a signed one to be set aside whole. */
  | { ok: false; reason: 'invalid_envelope'; detail: string; text: string; json: unknown; changes: DeliveryChange[] };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes the raw bytes (kept exactly as text: no BOM stripping), checks it can be stored and validates the envelope. */
export function parseEnvelope(raw: Buffer): EnvelopeResult {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { ok: false, reason: 'invalid_utf8', detail: 'body is not valid UTF-8' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not the parser's message: V8 quotes a piece of the body in it, and bodies are never logged.
    return { ok: false, reason: 'invalid_json', detail: 'body is not valid JSON' };
  }
  // Before anything recurses into it: no store can hold it, so the sender must stop (a 4xx), not retry.
  const problem = jsonProblem(json);
  if (problem) return { ok: false, reason: 'unstorable', detail: `the delivery cannot be stored: ${problem}` };
  const changes = deliveryChanges(json);
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    return { ok: false, reason: 'invalid_envelope', detail, text, json, changes: withIssues(changes, json, parsed.error.issues) };
  }
  return { ok: true, envelope: parsed.data, text, changes };
}

/** A value the check refuses that is not a change of JSON type (an id that is no UUID, an unknown importance) is one all the same. */
function withIssues(changes: DeliveryChange[], json: unknown, issues: readonly { path: readonly PropertyKey[] }[]): DeliveryChange[] {
  const said = new Set(changes.map((c) => c.path));
  const out = [...changes];
  for (const issue of issues) {
    const path = listedPath(issue.path);
    if (said.has(path)) continue;
    said.add(path);
    const value = valueAt(json, path);
    const missing = value === undefined;
    out.push({
      path,
      kind: missing ? 'missing' : 'other type',
      seen: missing ? '' : jsonTypeOf(value),
      expected: expectedText(path),
      coerced: false,
      example: missing ? null : exampleOf(path, value),
    });
  }
  return out;
}

/** The issue's path up to the envelope's field it is in (an array's item is its array). */
function listedPath(path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  for (const part of path) {
    if (typeof part !== 'string') break;
    parts.push(part);
  }
  return parts.join('.') || '(root)';
}

function valueAt(json: unknown, path: string): unknown {
  if (path === '(root)') return json;
  let value = json;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

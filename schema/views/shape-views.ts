// The service's shape as the mirror saw it change: one row per change (a new field, a field gone, a field
// of another type), from the first pass that saw it to the last, with what the mirror did about it.
import { isoColumn } from './lift.js';
import type { ViewSpec } from './view.js';

export const shapeViews: readonly ViewSpec[] = [
  {
    name: 'v_schema_changes',
    description:
      'Each change of the service’s shape the mirror saw, once per change (a pass that sees it again moves last_seen_at): ' +
      'a new field (kept in raw), a field missing, or a field of another type (coerced when that loses nothing, else its ' +
      'records quarantined), with the share of records and one example.',
    columns: [
      { name: 'stream', kind: 'text', description: 'The stream whose records changed (`ds-mirror streams`).' },
      { name: 'path', kind: 'text', description: "The field's dotted path in the record (`price.usd`)." },
      { name: 'kind', kind: 'text', description: "'new', 'missing' or 'other type'." },
      {
        name: 'seen_type',
        kind: 'text',
        description: "The JSON type it came in: 'string', 'number', 'boolean', 'object', 'array' ('' when missing).",
      },
      { name: 'expected_type', kind: 'text', description: "The JSON type(s) the mirror knew it in, `|`-separated ('' for a new field)." },
      {
        name: 'outcome',
        kind: 'text',
        description:
          "What the mirror did: 'reported' (kept as received), 'coerced' (taken without loss), 'quarantined' (records set aside), " +
          "'failed' (the stream failed: most of a page), 'accepted' (written as it came: contract accept), 'held' (rows kept as they " +
          "were), 'emptied' (written as gone), 'returned' (a held field came back), 'set aside' (webhook deliveries stored whole in " +
          'webhook_set_aside).',
      },
      {
        name: 'records',
        kind: 'integer',
        description: 'Records of the last pass that saw it with the change (webhook-deliveries: deliveries since the receiver started).',
      },
      { name: 'share', kind: 'double', description: "Their share of that pass's records (0 to 1; webhook-deliveries: of its deliveries)." },
      { name: 'example', kind: 'text', description: 'One example value as received, cut short (never a field named like a secret).' },
      { name: 'first_seen_at', kind: 'timestamp', description: 'The first pass that saw the change.' },
      { name: 'last_seen_at', kind: 'timestamp', description: 'The last pass that saw it.' },
    ],
    sql: (d) => `select c.stream, c.path, c.kind, c.seen_type, c.expected_type, c.outcome, c.records, c.share, c.example,
  ${isoColumn(d, 'c.first_seen_at')} as first_seen_at, ${isoColumn(d, 'c.last_seen_at')} as last_seen_at
from schema_changes c`,
  },
];

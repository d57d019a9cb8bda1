// Builds deliveries the way the spec's sender does: a monitoring_event envelope, signed with
// node:crypto as HMAC-SHA256 over `<t>.<raw body>` in the `t=...,v1=...` header.
import { createHmac, randomUUID } from 'node:crypto';

export function sign(secret: string, body: string | Buffer, tSec: number): string {
  const v1 = createHmac('sha256', secret).update(`${tSec}.`).update(body).digest('hex');
  return `t=${tSec},v1=${v1}`;
}

export interface EnvelopeIds {
  id?: string;
  viewId?: string;
  viewName?: string;
  eventId?: string;
  developmentId?: string;
}

export function makeEnvelope(ids: EnvelopeIds = {}): Record<string, any> {
  const startedAt = '2026-11-20T10:15:00Z';
  return {
    id: ids.id ?? randomUUID(),
    type: 'monitoring_event',
    timestamp: '2026-11-20T10:16:02.125Z',
    data: {
      view: { id: ids.viewId ?? randomUUID(), name: ids.viewName ?? 'Security alerts' },
      event: { id: ids.eventId ?? randomUUID(), title: 'Bridge exploit on chain X' },
      assets: [{ id: randomUUID(), name: 'Token X', logo_url: 'https://example.test/x.png' }],
      latest_development: {
        id: ids.developmentId ?? randomUUID(),
        title: 'Exploit confirmed',
        summary: 'The team **confirmed** the exploit.',
        category: ['security_and_hacks'],
        subcategory: ['protocol_exploit'],
        importance: 'high',
        actionable: true,
        created_at: startedAt,
        started_at: startedAt,
      },
    },
  };
}

// The `monitoring_event` envelope, as the spec's Events section lists it. Optional fields that are
// unset are left out of the object (never null), so JSON.stringify omits them.

export interface AlertInput {
  deliveryId: string;
  /** RFC 3339: when the alert was created. */
  timestamp: string;
  view: { id: string; name: string };
  event: { id: string; title: string };
  assets: { id: string; name: string; logo_url: string }[];
  development: {
    id: string;
    title: string;
    summary: string;
    categories: string[];
    subcategories: string[];
    /** `not-important` counts as not classified for alerts (the alert enum is low/medium/high). */
    importance: string;
    actionable: boolean;
    startedAt: string;
    /** Undefined while the development is ongoing. */
    endedAt?: string;
  };
}

export interface MonitoringEventEnvelope {
  id: string;
  type: 'monitoring_event';
  timestamp: string;
  data: {
    view: { id: string; name: string };
    event: { id: string; title: string };
    assets?: { id: string; name: string; logo_url: string }[];
    latest_development: {
      id: string;
      title: string;
      summary: string;
      category?: string[];
      subcategory?: string[];
      importance?: 'low' | 'medium' | 'high';
      actionable: boolean;
      created_at: string;
      started_at: string;
      ended_at?: string;
    };
  };
}

const CLASSIFIED = new Set(['low', 'medium', 'high']);

export function buildEnvelope(input: AlertInput): MonitoringEventEnvelope {
  const d = input.development;
  const latest: MonitoringEventEnvelope['data']['latest_development'] = {
    id: d.id,
    title: d.title,
    summary: d.summary,
    actionable: d.actionable,
    created_at: d.startedAt, // the spec: same value as started_at
    started_at: d.startedAt,
  };
  if (d.categories.length > 0) latest.category = d.categories;
  if (d.subcategories.length > 0) latest.subcategory = d.subcategories;
  if (CLASSIFIED.has(d.importance)) latest.importance = d.importance as 'low' | 'medium' | 'high';
  if (d.endedAt !== undefined) latest.ended_at = d.endedAt;
  const data: MonitoringEventEnvelope['data'] = { view: input.view, event: input.event, latest_development: latest };
  if (input.assets.length > 0) data.assets = input.assets;
  return { id: input.deliveryId, type: 'monitoring_event', timestamp: input.timestamp, data };
}

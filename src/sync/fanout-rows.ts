// How a fan-out's response becomes rows, by the mapping its catalog entry names: the parent's key goes
// into the rows' first key column, so a parent's rows can be replaced whole.
import { toRow } from './row-mapping.js';
import type { FanoutParent, FanoutStream } from '../catalog/types.js';
import type { Row } from '../store/types.js';

type Mapping = (response: any, parent: FanoutParent, stream: FanoutStream) => Row[];

const mappings: Readonly<Record<FanoutStream['mapping'], Mapping>> = {
  /** One record for the parent, mapped by the entry's columns. */
  record: (record, p, stream) => [{ [stream.key[0]!]: p.key, ...toRow(record, stream.columns ?? {}) }],
  /** A list of records: the parent's key beside each one's id (a project's chains). */
  'linked-ids': (page: { data?: unknown[] }, p) =>
    (page.data ?? []).map((chain: any) => ({ project_id: p.key, chain_id: chain.id, raw: chain })),
  /** `{project: [{date, value}]}`: a row per project and date. */
  'series-by-project': (byProject: Record<string, any[]>, p) =>
    Object.entries(byProject ?? {}).flatMap(([project, points]) =>
      (points ?? []).map((pt) => ({ metric: p.key, project, date: pt?.date ?? null, value: pt?.value ?? null, raw: pt })),
    ),
  /** Rows numbered in the order served (they have no key of their own). */
  'numbered-rows': (page: { data?: unknown[] }, p) => (page.data ?? []).map((data, i) => ({ chart_id: p.key, row_number: i, data })),
};

export function fanoutRows(stream: FanoutStream, response: unknown, parent: FanoutParent): Row[] {
  return mappings[stream.mapping](response, parent, stream);
}

/**
 * The records a response's rows are made from, as the shape watches them: the record itself, a project's
 * chains, a metric's points. A chart's rows are none: each chart has columns of its own, not one shape.
 */
export function fanoutItems(stream: FanoutStream, response: any): readonly unknown[] {
  switch (stream.mapping) {
    case 'record':
      return [response];
    case 'linked-ids':
      return Array.isArray(response?.data) ? response.data : [];
    case 'series-by-project':
      return Object.values((response ?? {}) as Record<string, unknown>).flatMap((points) => (Array.isArray(points) ? points : []));
    case 'numbered-rows':
      return [];
  }
}

// Every analyst view, in creation order (a view comes after the views it reads), and the statements
// that (re)create them. Views hold no data: they are repeatable objects (schema/repeatables.ts), made
// again after the migrations whenever their definition changes.
import { sql, type Kysely } from 'kysely';
import { catalogViews } from './catalog-views.js';
import { joinedViews } from './joined-views.js';
import type { ViewDialect } from './lift.js';
import { mirrorViews } from './mirror-views.js';
import { monitoringViews } from './monitoring-views.js';
import { shapeViews } from './shape-views.js';
import { tableHistoryViews } from './table-history-views.js';
import type { ViewCatalog, ViewSpec } from './view.js';

export type { ViewSpec, ViewColumn, ViewCatalog } from './view.js';
export type { ValueKind, ViewDialect } from './lift.js';

export const ANALYST_VIEWS: readonly ViewSpec[] = [
  ...catalogViews,
  ...monitoringViews,
  ...joinedViews,
  ...tableHistoryViews,
  ...mirrorViews,
  ...shapeViews,
];

export function createViewSql(view: ViewSpec, d: ViewDialect, catalog: ViewCatalog): string {
  return `create view ${view.name} as\n${d.typedView(view.sql(d, catalog), view.columns)}`;
}

/** Drops every analyst view, newest first (a view may read an older one). */
export async function dropViews(db: Kysely<unknown>): Promise<void> {
  for (const view of [...ANALYST_VIEWS].reverse()) await sql.raw(`drop view if exists ${view.name}`).execute(db);
}

/** Drops (newest first) and creates every analyst view, in one round trip where the store allows. */
export async function recreateViews(db: Kysely<unknown>, d: ViewDialect, catalog: ViewCatalog): Promise<void> {
  const statements = [
    ...[...ANALYST_VIEWS].reverse().map((view) => `drop view if exists ${view.name}`),
    ...ANALYST_VIEWS.map((view) => createViewSql(view, d, catalog)),
  ];
  await d.runAll(db, statements);
}

// Versions views of the mirrored tables that no lifted view covers: every kept version of the
// table with its own typed columns (as the table types them) and the runs that wrote and ended it (its
// raw record: v_changes). Previous versions read their columns from row_history.typed_row, kept since
// migration 0039 (null before it: raw alone holds them). Tables with a lifted view have `<view>_history`.
// test/analyst/typed-history.test.ts checks these columns against the tables of a migrated store.
import type { ValueKind, ViewDialect } from './lift.js';
import { VERSION_COLUMNS, versionColumns, versionRows, type ViewSpec } from './view.js';

/** Each table's own columns (not raw and the bookkeeping), in the table's order, with their kinds. */
const TABLES: Readonly<Record<string, Readonly<Record<string, ValueKind>>>> = {
  asset_market_cap: { asset_id: 'integer' },
  asset_markets: {
    asset_id: 'integer',
    volume_24h: 'double',
    ath: 'double',
    ath_date: 'timestamp',
    ath_change_percentage: 'double',
    total_open_interest: 'double',
    total_liquidations: 'double',
    updated_at: 'timestamp',
    asset_code: 'text',
    asset_slug: 'text',
  },
  asset_ohlcv: {
    asset_id: 'integer',
    open: 'double',
    high: 'double',
    low: 'double',
    close: 'double',
    volume: 'double',
    updated_at: 'timestamp',
    asset_code: 'text',
    asset_slug: 'text',
  },
  asset_price: { asset_id: 'integer' },
  asset_supply: { asset_id: 'integer' },
  asset_transparency: { asset_id: 'integer', rating_id: 'integer' },
  chains: { id: 'integer', slug: 'text', title: 'text', updated_at: 'timestamp' },
  charts: { id: 'integer', title: 'text', dashboards: 'json' },
  glossary: { id: 'integer', slug: 'text', title: 'text', updated_at: 'timestamp' },
  groups: { slug: 'text', id: 'integer', title: 'text', updated_at: 'timestamp' },
  industries: { slug: 'text', id: 'integer', title: 'text', updated_at: 'timestamp' },
  metrics: { identifier: 'text', title: 'text', data_type: 'text' },
  monitoring_categories: { slug: 'text', name: 'text', description: 'text' },
  monitoring_subcategories: { category_slug: 'text', slug: 'text', name: 'text', description: 'text' },
  sectors: { slug: 'text', id: 'integer', title: 'text', updated_at: 'timestamp' },
  transparency_ratings: {
    id: 'integer',
    asset_id: 'integer',
    summary: 'text',
    created_at: 'timestamp',
    updated_at: 'timestamp',
    asset_code: 'text',
    asset_title: 'text',
    asset_slug: 'text',
    asset_image_url: 'text',
    project_team_rating: 'double',
    project_team_max: 'double',
    token_allocation_rating: 'double',
    token_allocation_max: 'double',
    market_structure_rating: 'double',
    market_structure_max: 'double',
    financial_disclosure_rating: 'double',
    financial_disclosure_max: 'double',
    download_url: 'text',
  },
};

function tableHistoryView(table: string, columns: Readonly<Record<string, ValueKind>>): ViewSpec {
  const names = Object.keys(columns);
  // Times in the store's one form (live rows and kept versions alike).
  const select = (d: ViewDialect) =>
    names.map((c) => (columns[c] === 'timestamp' ? `${d.time(`u.${c}`)} as ${c}` : `u.${c} as ${c}`)).join(', ');
  const sources = names.map((name) => ({ name, kind: columns[name]!, live: `r.${name}` }));
  const sql = (d: ViewDialect) => `select ${select(d)},\n  ${versionColumns(d)}\nfrom (\n${versionRows(d, table, sources)}\n) u`;
  return {
    name: `v_${table}_history`,
    versionsOf: table,
    description:
      `Every kept version of ${table} with the table's own typed columns: the live rows (valid_to null) and the previous ` +
      'versions kept in row_history. As of a time T: valid_from <= T and (valid_to is null or valid_to > T).',
    columns: [
      ...names.map((name) => ({ name, kind: columns[name]!, description: `${table}.${name} in this version.` })),
      ...VERSION_COLUMNS,
    ],
    sql,
  };
}

export const tableHistoryViews: readonly ViewSpec[] = Object.entries(TABLES).map(([table, columns]) => tableHistoryView(table, columns));

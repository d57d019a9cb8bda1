// The real service's sizes, for estimates before the mirror holds anything: the published figures
// (about 133,000 assets, 1,100 projects, 26 chains, 3,200 charts, 400 metrics), split and completed
// as the sandbox's `--profile real` serves them (measured there: assets per class, rows per day of the
// date-window lists, events per week, developments per event).

/** Records of each list, per variant where a list has variants. */
export const PUBLISHED_ROWS: Readonly<Record<string, number | Readonly<Record<string, number>>>> = {
  assets: { token: 73_824, equity: 39_450, tokenizedStock: 19_726 },
  transparency: 500,
  projects: 1_100,
  chains: 26,
  sectors: 24,
  groups: 12,
  industries: 60,
  glossary: 300,
  'market-stats': 10_417,
  metrics: 400,
  'sec-filings': 1_000,
  charts: 3_200,
};

/** New records a day of the date-window lists (what an incremental window holds beyond its lookback). */
export const PUBLISHED_ROWS_PER_DAY: Readonly<Record<string, number>> = {
  'market-stats': 1,
  'sec-filings': 1.1,
};

export const PUBLISHED_MONITORING = Object.freeze({
  tokenUnlockAssets: 450,
  events: 20_000,
  /** Events that started in the last 7 days (the default lookback of an incremental events run). */
  eventsPerWeek: 392,
  developments: 109_626,
  /** Pending details the default backlog covers on a first sync (high importance, last 30 days). */
  detailsInScope: 1_073,
  /** New developments a day, and the share the default backlog covers (high importance). */
  developmentsPerDay: 300,
  highImportanceShare: 0.1,
});

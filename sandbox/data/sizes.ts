// How many records each resource starts with. `default` grows linearly with --scale; `real` is about
// the size of the real service, from the examples in its documentation.
export type Profile = 'default' | 'real';

export interface Sizes {
  assets: number;
  projects: number;
  chains: number;
  glossary: number;
  transparency: number;
  secFilings: number;
  marketStatsDays: number;
  metrics: number;
  charts: number;
  sectors: number;
  groups: number;
  industries: number;
}

const SCALE_ONE: Sizes = {
  assets: 2000,
  projects: 1000,
  chains: 200,
  glossary: 300,
  transparency: 500,
  secFilings: 1000,
  marketStatsDays: 365,
  metrics: 100,
  charts: 50,
  sectors: 24,
  groups: 12,
  industries: 60,
};

// 250,000 market-stats rows: hourly rows over about 28.5 years (10,417 days x 24).
const REAL: Sizes = {
  ...SCALE_ONE,
  assets: 133_000,
  projects: 1_100,
  chains: 26,
  charts: 3_200,
  metrics: 400,
  marketStatsDays: 10_417,
};

/** Taxonomies (sectors, groups, industries) are reference lists: they do not grow with scale. */
export function sizesFor(profile: Profile, scale: number): Sizes {
  if (profile === 'real') return REAL;
  const s = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    assets: s(SCALE_ONE.assets),
    projects: Math.min(s(SCALE_ONE.projects), s(SCALE_ONE.assets)),
    chains: s(SCALE_ONE.chains),
    glossary: s(SCALE_ONE.glossary),
    transparency: Math.min(s(SCALE_ONE.transparency), s(SCALE_ONE.projects)),
    secFilings: s(SCALE_ONE.secFilings),
    marketStatsDays: s(SCALE_ONE.marketStatsDays),
    metrics: s(SCALE_ONE.metrics),
    charts: s(SCALE_ONE.charts),
    sectors: SCALE_ONE.sectors,
    groups: SCALE_ONE.groups,
    industries: SCALE_ONE.industries,
  };
}

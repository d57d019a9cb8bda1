// The spec's monitoring category taxonomy, exactly: category slugs and their subcategory slugs.
// Subcategories are numbered in table order; the number is the bit used in the event columns.
export interface Subcategory {
  slug: string;
  name: string;
  description: string;
}

export interface Category extends Subcategory {
  subcategories: Subcategory[];
}

const TABLE: readonly [slug: string, description: string, subcategories: readonly string[]][] = [
  [
    'component_management',
    'Changes to the components a protocol or index is built from.',
    ['component_adjustment', 'onboarding_or_expansion', 'component_upgrade'],
  ],
  [
    'launches_and_releases',
    'New networks, products, tokens and software releases.',
    [
      'mainnet_launch',
      'new_product_or_feature',
      'testnet_launch',
      'new_token',
      'developer_tooling',
      'software_release',
      'third_party_tooling',
    ],
  ],
  [
    'legal_and_regulatory',
    'Regulation, enforcement and legal proceedings.',
    [
      'approvals_licenses_and_registrations',
      'enforcement_actions',
      'investigations_and_inquiries',
      'financial_instruments',
      'statutes_and_executive_actions',
      'agency_rulemaking_guidance_or_policy',
    ],
  ],
  [
    'performance',
    'Outages, halts, bugs and other operational incidents.',
    ['bug_disclosure', 'service_disruption', 'blockchain_halt', 'node_outage', 'protocol_or_smart_contract_halt', 'chain_split'],
  ],
  [
    'protocol_management',
    'Upgrades, governance and strategy of a protocol.',
    [
      'network_upgrade',
      'governance_update',
      'protocol_parameter_change',
      'project_strategy',
      'protocol_fee_adjustment',
      'migration_or_swap',
      'discontinuation',
      'integration_or_partnership',
      'protocol_upgrade',
    ],
  ],
  [
    'security_and_hacks',
    'Exploits, vulnerabilities and losses of funds.',
    [
      'protocol_exploit',
      'frontend_exploit',
      'vulnerability_disclosure',
      'custodian_loss_of_funds',
      'consensus_related_exploit',
      'other_hack_or_attack',
    ],
  ],
  [
    'team_and_operations',
    'The organisation behind a project: people, funding, reports.',
    [
      'new_brand_or_rebrand',
      'centralized_funding_initiatives',
      'organization_change',
      'mergers_acquisitions_or_fundraising',
      'personnel_change',
      'official_report_or_update',
    ],
  ],
  ['token_listing', 'Listings and delistings on trading venues.', ['spot_listing', 'delisting', 'other_listing']],
  [
    'tokenomics',
    'Supply, distribution and utility of a token.',
    [
      'airdrop',
      'token_buybacks',
      'token_utility',
      'revenue_distribution',
      'token_supply',
      'other_tokenomics_update',
      'native_token_allocation',
    ],
  ],
  [
    'treasury_management',
    'How a project manages and spends its treasury.',
    ['strategic_investment', 'treasury_expense', 'other_treasury_operations'],
  ],
  ['no_category', 'Developments that fit no other category.', ['no_subcategory']],
];

const titleCase = (slug: string): string =>
  slug
    .split('_')
    .map((w) => (w === 'or' || w === 'and' ? w : w[0].toUpperCase() + w.slice(1)))
    .join(' ');

export const CATEGORIES: readonly Category[] = TABLE.map(([slug, description, subs]) => ({
  slug,
  name: titleCase(slug),
  description,
  subcategories: subs.map((s) => ({ slug: s, name: titleCase(s), description: `${titleCase(s)} (${titleCase(slug)}).` })),
}));

/** Flat subcategory list; `category` is the index into CATEGORIES. */
export const SUBCATEGORIES: readonly { slug: string; name: string; category: number }[] = CATEGORIES.flatMap((c, category) =>
  c.subcategories.map((s) => ({ slug: s.slug, name: s.name, category })),
);

const categoryBySlug = new Map(CATEGORIES.map((c, i) => [c.slug, i]));
const subcategoryBySlug = new Map(SUBCATEGORIES.map((s, i) => [s.slug, i]));

export const categoryIndex = (slug: string): number | undefined => categoryBySlug.get(slug.toLowerCase());
export const subcategoryIndex = (slug: string): number | undefined => subcategoryBySlug.get(slug.toLowerCase());

/** Subcategory sets are two 32-bit words (58 subcategories). */
export function subcategoryBit(index: number): { lo: number; hi: number } {
  return index < 32 ? { lo: (1 << index) >>> 0, hi: 0 } : { lo: 0, hi: (1 << (index - 32)) >>> 0 };
}

export function subcategorySlugs(lo: number, hi: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < SUBCATEGORIES.length; i++) {
    const word = i < 32 ? lo : hi;
    if ((word >>> (i % 32)) & 1) out.push(SUBCATEGORIES[i].slug);
  }
  return out;
}

export function categorySlugs(mask: number): string[] {
  return CATEGORIES.filter((_, i) => (mask >>> i) & 1).map((c) => c.slug);
}

export const IMPORTANCE = ['not-important', 'low', 'medium', 'high'] as const;
export type Importance = (typeof IMPORTANCE)[number];

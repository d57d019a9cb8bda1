// Word lists the generators draw from. Plain data; the only function is slugify.

/** The first assets of every universe; the first ten are the ecosystem networks. */
export const WELL_KNOWN_ASSETS: readonly [name: string, symbol: string][] = [
  ['Bitcoin', 'BTC'],
  ['Ethereum', 'ETH'],
  ['Solana', 'SOL'],
  ['BNB Chain', 'BNB'],
  ['Cardano', 'ADA'],
  ['Avalanche', 'AVAX'],
  ['Polkadot', 'DOT'],
  ['Cosmos', 'ATOM'],
  ['Arbitrum', 'ARB'],
  ['Optimism', 'OP'],
  ['Uniswap', 'UNI'],
  ['Aave', 'AAVE'],
  ['Chainlink', 'LINK'],
  ['Lido', 'LDO'],
  ['Maker', 'MKR'],
  ['Tether', 'USDT'],
  ['USD Coin', 'USDC'],
  ['Celestia', 'TIA'],
  ['Filecoin', 'FIL'],
  ['Render', 'RENDER'],
];
export const NETWORK_COUNT = 10;
/** Sector and subsector (names in SECTORS) of the well-known assets after the networks, in order. */
export const WELL_KNOWN_SECTORS: readonly [sector: string, subsector: string][] = [
  ['Financial Services', 'Decentralized Exchanges'],
  ['Financial Services', 'Lending'],
  ['Infrastructure', 'Oracles'],
  ['Financial Services', 'Asset Management'],
  ['Financial Services', 'Lending'],
  ['Financial Services', 'Stablecoins'],
  ['Financial Services', 'Stablecoins'],
  ['Infrastructure', 'Data Availability'],
  ['Infrastructure', 'Storage'],
  ['Artificial Intelligence', 'Compute'],
];

// One consonant and one vowel each, so a run of syllables splits one way only: generated names are unique.
export const SYLLABLES: readonly string[] = [
  'ra',
  'ko',
  'mi',
  'ta',
  'lu',
  'no',
  'si',
  'de',
  'ba',
  've',
  'zo',
  'fu',
  'ga',
  'hi',
  'ju',
  'ke',
  'la',
  'mo',
  'ni',
  'pe',
  'ru',
  'so',
  'ti',
  'vu',
  'xa',
  'ze',
  'bo',
  'da',
  'fe',
  'gi',
  'ho',
  'ka',
];

export const NAME_SUFFIXES: readonly string[] = ['', '', '', ' Protocol', ' Network', ' Finance', ' Labs', ' Chain', ' DAO'];

export const SECTORS: readonly { name: string; subsectors: readonly string[] }[] = [
  { name: 'Networks', subsectors: ['Layer 1', 'Layer 2', 'Interoperability'] },
  { name: 'Financial Services', subsectors: ['Lending', 'Decentralized Exchanges', 'Derivatives', 'Stablecoins', 'Asset Management'] },
  { name: 'Infrastructure', subsectors: ['Oracles', 'Data Availability', 'Storage', 'Developer Tools'] },
  { name: 'Consumer', subsectors: ['Gaming', 'Social', 'NFTs'] },
  { name: 'Artificial Intelligence', subsectors: ['Compute', 'Agents'] },
];

export const UNLOCK_TAGS: readonly string[] = [
  'Layer 1',
  'Layer 2',
  'DeFi',
  'Staking',
  'Oracles',
  'Gaming',
  'AI',
  'Restaking',
  'Bridges',
  'DEX',
  'Real World Assets',
];

export const INDUSTRIES: readonly string[] = ['Crypto', 'Crypto', 'Crypto', 'Decentralized Finance', 'Traditional Finance'];

export const QUALIFIERS: readonly string[] = ['announced', 'reported', 'confirmed', 'proposed', 'completed', 'under review', 'expected'];

export const SOURCES: readonly string[] = [
  'Official blog',
  'Governance forum',
  'Press release',
  'Regulator filing',
  'Team on X',
  'GitHub release',
];

export const SENTENCES: readonly string[] = [
  'The team published details and a timeline.',
  'Community members discussed the impact on users and liquidity.',
  'Several exchanges acknowledged the change.',
  'Analysts expect limited short-term market impact.',
  'The proposal passed with a clear majority.',
  'Further updates are expected in the coming days.',
  'On-chain data confirms the activity.',
];

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

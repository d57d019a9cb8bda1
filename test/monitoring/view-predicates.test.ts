// The view's predicates against one development: every predicate alone (pass, fail, no restriction,
// unchecked), and every combination of them against a grid of developments, where the verdict must be
// the conjunction of the single verdicts and the unchecked list their union in one fixed order.
import { describe, expect, it } from 'vitest';
import { evaluateDevelopment, isSet, VIEW_PREDICATES } from '../../src/sync/monitoring/view-predicates.js';

const ASSETS = [
  { id: 'a-1', slug: 'bitcoin', name: 'Bitcoin', symbol: 'BTC', class: 'primary' },
  { id: 'a-2', slug: 'ether', name: 'Ether', symbol: 'ETH', class: 'secondary' },
];

const dev = (over: Record<string, unknown> = {}) => ({
  id: 'd-1',
  startedAt: '2026-05-01T10:00:00Z',
  importance: 'medium',
  verified: true,
  actionable: false,
  governance: false,
  intelCategories: ['security_and_hacks'],
  intelSubcategories: ['protocol_exploit'],
  ...over,
});

describe('each predicate alone', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, boolean, string[]][] = [
    ['no predicate at all', {}, {}, true, []],
    ['an empty view field is no restriction', { intelCategories: [], minimumImportance: '', verified: null }, {}, true, []],
    ['evaluationStartAt before the start', { evaluationStartAt: '2026-01-01T00:00:00Z' }, {}, true, []],
    ['evaluationStartAt at the start (inclusive)', { evaluationStartAt: '2026-05-01T10:00:00Z' }, {}, true, []],
    ['evaluationStartAt after the start', { evaluationStartAt: '2026-05-01T10:00:01Z' }, {}, false, []],
    ['a development with no start', { evaluationStartAt: '2026-01-01T00:00:00Z' }, { startedAt: undefined }, true, ['evaluationStartAt']],
    ['minimum below', { minimumImportance: 'low' }, {}, true, []],
    ['minimum equal (inclusive)', { minimumImportance: 'medium' }, {}, true, []],
    ['minimum above', { minimumImportance: 'high' }, {}, false, []],
    ['minimum not-important takes all', { minimumImportance: 'not-important' }, { importance: 'not-important' }, true, []],
    ['importance missing', { minimumImportance: 'low' }, { importance: undefined }, true, ['minimumImportance']],
    ['importance unknown to the spec', { minimumImportance: 'low' }, { importance: 'critical' }, true, ['minimumImportance']],
    ['category any-of', { intelCategories: ['tokenomics', 'security_and_hacks'] }, {}, true, []],
    ['category none', { intelCategories: ['tokenomics'] }, {}, false, []],
    ['category list missing', { intelCategories: ['tokenomics'] }, { intelCategories: undefined }, true, ['intelCategories']],
    ['subcategory any-of', { intelSubcategories: ['protocol_exploit'] }, {}, true, []],
    ['subcategory none', { intelSubcategories: ['airdrop'] }, {}, false, []],
    ['verified true', { verified: true }, {}, true, []],
    ['verified false wanted', { verified: false }, {}, false, []],
    ['actionable wanted, not actionable', { actionable: true }, {}, false, []],
    ['not actionable wanted', { actionable: false }, {}, true, []],
    ['governance wanted', { governance: true }, { governance: true }, true, []],
    ['governance flag missing', { governance: true }, { governance: undefined }, true, ['governance']],
    ['asset by id', { assetIds: ['a-2'] }, {}, true, []],
    ['asset by slug, any case', { assetIds: ['Bitcoin'] }, {}, true, []],
    ['asset not in the event', { assetIds: ['a-9'] }, {}, false, []],
    ['sectors cannot be checked', { assetSectors: ['DeFi'] }, {}, true, ['assetSectors']],
    ['subsectors cannot be checked', { assetSubsectors: ['Lending'] }, {}, true, ['assetSubsectors']],
    ['pre-TGE false is still a restriction', { assetPreTge: false }, {}, true, ['assetPreTge']],
    ['networks cannot be checked', { assetEcosystemNetworkIds: ['n-1'] }, {}, true, ['assetEcosystemNetworkIds']],
  ];
  it.each(cases)('%s', (_, view, over, matches, unchecked) => {
    expect(evaluateDevelopment(view, dev(over), ASSETS)).toEqual({ matches, unchecked });
  });

  it('assetIds cannot be checked without the event assets', () => {
    expect(evaluateDevelopment({ assetIds: ['a-9'] }, dev(), null)).toEqual({ matches: true, unchecked: ['assetIds'] });
  });

  it('reads only the predicates: identity and statistics fields of a view restrict nothing', () => {
    const view = { id: 'v', slug: 'v-x', name: 'X', configurationType: 'custom', teamShared: true, isOwner: true, matchCount24h: 3 };
    expect(evaluateDevelopment(view, dev(), ASSETS)).toEqual({ matches: true, unchecked: [] });
  });
});

// Each predicate with a value that passes the grid development, one that fails it, or unset.
const OPTIONS: Record<string, [unknown, unknown]> = {
  evaluationStartAt: ['2026-04-01T00:00:00Z', '2026-06-01T00:00:00Z'],
  minimumImportance: ['low', 'high'],
  intelCategories: [['security_and_hacks'], ['tokenomics']],
  intelSubcategories: [['protocol_exploit'], ['airdrop']],
  verified: [true, false],
  actionable: [false, true],
  governance: [false, true],
  assetIds: [['a-1'], ['a-9']],
};
const UNCHECKABLE: Record<string, unknown> = {
  assetSectors: ['DeFi'],
  assetSubsectors: ['Lending'],
  assetPreTge: true,
  assetEcosystemNetworkIds: ['n-1'],
};

describe('every combination', () => {
  it('is the conjunction of the predicates that can be checked, naming the others in order', () => {
    const names = Object.keys(OPTIONS);
    const uncheckable = Object.keys(UNCHECKABLE);
    let combinations = 0;
    let matched = 0;
    // 3^8 settings of the checkable predicates (pass, fail, unset) times 2^4 subsets of the others.
    for (let code = 0; code < 3 ** names.length; code++) {
      const view: Record<string, unknown> = {};
      let expected = true;
      let c = code;
      for (const name of names) {
        const choice = c % 3;
        c = Math.floor(c / 3);
        if (choice < 2) view[name] = OPTIONS[name]![choice];
        if (choice === 1) expected = false;
      }
      for (let mask = 0; mask < 2 ** uncheckable.length; mask++) {
        const full = { ...view };
        const want = uncheckable.filter((_, i) => (mask >> i) & 1);
        for (const name of want) full[name] = UNCHECKABLE[name];
        const verdict = evaluateDevelopment(full, dev(), ASSETS);
        // expect() only on a mismatch: 100k calls of it would take seconds.
        if (verdict.matches !== expected || verdict.unchecked.join() !== want.join())
          expect(verdict, JSON.stringify(full)).toEqual({ matches: expected, unchecked: want });
        combinations++;
        if (verdict.matches) matched++;
      }
    }
    expect(combinations).toBe(3 ** 8 * 16);
    expect(matched).toBe(2 ** 8 * 16);
  });

  it('names unchecked predicates in one order whatever order the view lists its fields', () => {
    const view = { assetEcosystemNetworkIds: ['n'], assetSectors: ['s'], minimumImportance: 'low' };
    expect(evaluateDevelopment(view, dev({ importance: null }), ASSETS).unchecked).toEqual(VIEW_PREDICATES.filter((p) => p in view));
  });

  it('takes empty arrays, null and empty strings as no restriction', () => {
    expect([[], null, undefined, ''].map(isSet)).toEqual([false, false, false, false]);
    expect([[1], false, true, 'low'].map(isSet)).toEqual([true, true, true, true]);
  });
});

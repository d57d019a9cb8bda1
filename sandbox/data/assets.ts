// Asset identity (stable for the life of a record) and market values (new with every version).
import { Rng, sig } from '../core/prng.js';
import { indexedSlug, paragraph, properName, sentence, tickerCode } from '../core/text.js';
import { marketCapRank, marketCapUsd } from './market-cap.js';
import { taxonomyIndexFor, taxonomyTitle } from './taxonomy.js';
import type { World } from './world.js';

export type AssetClass = 'token' | 'equity' | 'tokenizedStock';

const TOKEN_CATEGORIES = ['Layer 1', 'DeFi', 'Stablecoin', 'Meme', 'Gaming', 'Oracle', 'Exchange Token', 'Privacy', 'Storage', 'Payments'];
const EQUITY_CATEGORIES = ['Technology', 'Financials', 'Health Care', 'Energy', 'Consumer', 'Industrials'];
const TOKEN_SUFFIXES = ['', ' Protocol', ' Network', ' Finance', ' Chain', ' Labs'];
const EQUITY_SUFFIXES = [' Inc.', ' Corp.', ' Holdings', ' Group', ' Industries'];

export interface AssetIdentity {
  index: number;
  id: number;
  code: string;
  title: string;
  slug: string;
  assetClass: AssetClass;
  tagLine: string | null;
  description: string | null;
  imageUrl: string | null;
  category: string | null;
  isPreview: boolean | null;
  type: 'Infrastructure' | 'Application' | null;
  sector: string | null;
  /** Index of the linked project (same index), or null. */
  projectIndex: number | null;
  created: number;
  baseUpdated: number | null;
  price0: number;
  /** Spread of a version's price around price0 (log scale). */
  volatility: number;
}

/** Generated assets below the project count are the projects' tokens; the rest are drawn by class. */
export function assetClassOf(w: World, i: number): AssetClass {
  if (i < w.projects.baseCount) return 'token';
  const r = new Rng(w.seed, 'asset-class', i).next();
  return r < 0.55 ? 'token' : r < 0.85 ? 'equity' : 'tokenizedStock';
}

export function assetIdentity(w: World, i: number): AssetIdentity {
  const rng = new Rng(w.seed, 'asset', i);
  const assetClass = assetClassOf(w, i);
  const equityLike = assetClass !== 'token';
  const name = properName(rng);
  const generatedTitle =
    name + rng.pick(equityLike ? EQUITY_SUFFIXES : TOKEN_SUFFIXES) + (assetClass === 'tokenizedStock' ? ' (Tokenized)' : '');
  const generatedCode = tickerCode(name, rng) + (assetClass === 'tokenizedStock' ? 'x' : '');
  // A partner service's asset (or an unrelated one sharing its ticker or name) is named as they name it.
  const listed = w.listings.override(i);
  const known = w.listings.wellKnown(i);
  const title = listed?.title ?? generatedTitle;
  const code = listed?.code ?? generatedCode;
  const projectIndex = i < w.projects.baseCount ? i : null;
  const sectorOwner = projectIndex ?? i;
  const sectorIdx = taxonomyIndexFor(w, 'sectors', projectIndex === null ? 'asset' : 'project', sectorOwner);
  const times = w.baseTimes(rng);
  return {
    index: i,
    id: w.ids.assets.idOf(i),
    code,
    title,
    slug: listed?.slug ?? indexedSlug(title, i),
    assetClass,
    tagLine: rng.orNull(0.1, sentence(rng, 4, 9)),
    description: rng.orNull(0.1, paragraph(rng, 1 + rng.int(4))),
    imageUrl: rng.orNull(0.05, `https://img.sandbox.invalid/assets/${i}.png`),
    category: rng.orNull(0.05, rng.pick(equityLike ? EQUITY_CATEGORIES : TOKEN_CATEGORIES)),
    isPreview: rng.chance(0.05) ? null : rng.chance(0.03),
    type: rng.chance(0.2) ? null : rng.chance(0.6) ? 'Infrastructure' : 'Application',
    sector: rng.orNull(0.08, taxonomyTitle(w, 'sectors', sectorIdx)),
    projectIndex,
    created: w.assets.bornAt(i) ?? times.created,
    baseUpdated: rng.orNull(0.03, times.updated),
    price0: known?.priceUsd ?? Math.exp(rng.between(-6, 10)),
    volatility: known?.volatility ?? 0.05,
  };
}

export interface AssetValues {
  updatedAt: number | null;
  sparkline: string;
  price: { usd: number | null; btc: number | null; eth: number | null; updated_at: number | null };
  marketCap: Record<string, number | null>;
  equity: Record<string, number | null>;
  ohlcv: {
    open: number | null;
    high: number | null;
    low: number | null;
    close: number | null;
    volume: number | null;
    updated_at: number | null;
  };
  markets: Record<string, number | null>;
  supply: { circulating: number | null; total: number | null; max: number | null; updated_at: number | null };
  fdv: number;
}

const BTC_USD = 64_000;
const ETH_USD = 3_100;

export function assetValues(w: World, a: AssetIdentity): AssetValues {
  const v = w.assets.version(a.index);
  const r = new Rng(w.seed, 'asset-v', a.index, v);
  const n = (p = 0.03) => r.chance(p);
  const updatedAt = w.assets.changedAt(a.index) || a.baseUpdated;
  const usd = a.price0 * Math.exp(a.volatility * r.normal());
  const mcUsd = marketCapUsd(w, a.index);
  const circulating = mcUsd / usd;
  const total = circulating * r.between(1, 1.5);
  const pct = (scale: number) => (n() ? null : sig(r.normal() * scale, 6));
  const volume = mcUsd * r.between(0.005, 0.2);
  const ath = usd * r.between(1, 5);
  const equityLike = a.assetClass !== 'token';
  const earnings = mcUsd * r.between(-0.02, 0.08);
  const revenue = mcUsd * r.between(0.05, 0.6);
  const shares = mcUsd / usd;
  const spark: string[] = [];
  for (let d = 0; d < 7; d++) spark.push(String(sig(usd * Math.exp(0.04 * r.normal()), 6)));
  return {
    updatedAt,
    sparkline: spark.join(','),
    price: {
      usd: n() ? null : sig(usd),
      btc: n() ? null : sig(usd / BTC_USD),
      eth: n() ? null : sig(usd / ETH_USD),
      updated_at: updatedAt,
    },
    marketCap: {
      rank: marketCapRank(w, a.index),
      usd: n() ? null : sig(mcUsd),
      dominance: n() ? null : sig((mcUsd / 3e12) * 100, 6),
      percent_change_btc_1h: pct(1),
      percent_change_btc_24h: pct(4),
      percent_change_usd_1h: pct(1),
      percent_change_usd_24h: pct(5),
      percent_change_usd_7d: pct(10),
      percent_change_usd_30d: pct(20),
      percent_change_usd_ytd: pct(40),
      percent_change_eth_1h: pct(1),
      percent_change_eth_24h: pct(4),
      updated_at: updatedAt,
    },
    equity: {
      market_cap: equityLike && !n() ? sig(mcUsd, 6) : null,
      shares_outstanding: equityLike && !n() ? Math.round(shares) : null,
      avg_daily_volume_30d: equityLike && !n() ? sig(volume / usd, 6) : null,
      ttm_revenue: equityLike && !n() ? sig(revenue, 6) : null,
      ttm_earnings: equityLike && !n() ? sig(earnings, 6) : null,
      price_to_sales: equityLike && !n() ? sig(mcUsd / revenue, 4) : null,
      price_to_earnings: equityLike && earnings > 0 && !n() ? sig(mcUsd / earnings, 4) : null,
      earnings_per_share: equityLike && !n() ? sig(earnings / shares, 4) : null,
      updated_at: equityLike ? updatedAt : null,
    },
    ohlcv: {
      open: n() ? null : sig(usd * Math.exp(0.02 * r.normal())),
      high: n() ? null : sig(usd * r.between(1, 1.08)),
      low: n() ? null : sig(usd * r.between(0.92, 1)),
      close: n() ? null : sig(usd),
      volume: n() ? null : sig(volume),
      updated_at: updatedAt,
    },
    markets: {
      volume_24h: n() ? null : sig(volume),
      ath: n() ? null : sig(ath),
      ath_change_percentage: n() ? null : sig((usd / ath - 1) * 100, 6),
      total_open_interest: n(0.5) ? null : sig(volume * r.between(0.1, 2)),
      total_liquidations: n(0.5) ? null : sig(volume * r.between(0.001, 0.05)),
      ath_date: n() ? null : a.created + r.int(90 * 86400),
      updated_at: updatedAt,
    },
    supply: {
      circulating: n() ? null : sig(circulating),
      total: n() ? null : sig(total),
      max: n(0.4) ? null : sig(total * r.between(1, 2)),
      updated_at: updatedAt,
    },
    fdv: sig(usd * total),
  };
}

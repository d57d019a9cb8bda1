// API shapes of the token-unlock and monitoring families, as the spec lists them, and the
// sandbox-only types (options, change sets).
import type { AssetRef } from './asset-universe.js';
import type { Category, Importance } from './taxonomy.js';
import type { AlertPolicy } from '../webhooks/types.js';

export type { AssetRef, Category, Importance, AlertPolicy };

export interface TokenUnlockAsset {
  id: string;
  serialId: number;
  symbol: string;
  name: string;
  genesisDate: string;
  projectedEndDate: string;
  slug: string;
  category: string;
  sector: string;
  tags: string[] | null;
  otherInfo: string | null;
}

export interface DevelopmentSummary {
  id: string;
  title: string;
  summary: string;
  startedAt: string;
  endedAt: string;
  importance: Importance;
  verified: boolean;
  actionable: boolean;
  governance: boolean;
  intelCategories: string[];
  intelSubcategories: string[];
  slug: string;
}

export interface MonitoringEvent {
  id: string;
  slug: string;
  title: string;
  summary: string;
  industry: string;
  developmentCount: number;
  documentCount: number;
  startedAt: string;
  endedAt: string;
  createdAt: string;
  updatedAt: string;
  intelCategories: string[];
  intelSubcategories: string[];
  importance: Importance;
  verified: boolean;
  actionable: boolean;
  governance: boolean;
  assets: AssetRef[];
  developments: DevelopmentSummary[];
}

export interface Development {
  id: string;
  title: string;
  summary: string;
  industry: string;
  verified: boolean;
  intelCategories: string[];
  intelSubcategories: string[];
  importance: Importance;
  actionable: boolean;
  governance: boolean;
  documents: { url: string; title: string }[];
  startedAt: string;
  endedAt: string;
  createdAt: string;
  updatedAt: string;
  assets: AssetRef[];
  event: { id: string; slug: string; title: string; developmentCount: number };
}

export interface MonitoringView {
  id: string;
  slug: string;
  name: string;
  configurationType: string;
  teamShared: boolean;
  isOwner: boolean;
  matchCount24h: number;
  lastMatchAt: string;
  evaluationStartAt: string;
  assetIds: string[];
  assetSectors: string[];
  assetSubsectors: string[];
  assetPreTge: boolean | null;
  verified: boolean | null;
  actionable: boolean | null;
  governance: boolean | null;
  assetEcosystemNetworkIds: string[];
  intelCategories: string[];
  intelSubcategories: string[];
  minimumImportance: Importance | '';
}

/** Ids per kind touched by one `advance`; an id appears in at most one list of its kind. */
export interface IdChanges {
  added: string[];
  updated: string[];
  removed: string[];
}

export interface MonitoringChange {
  at: string;
  events: IdChanges;
  developments: IdChanges;
  tokenUnlockAssets: IdChanges;
  /** Webhook deliveries queued by the new developments (one per matching view). */
  deliveries: { id: string; viewId: string; developmentId: string }[];
}

export interface AdvanceOptions {
  updateFraction: number;
  addFraction: number;
  removeFraction: number;
}

export type Profile = 'default' | 'real';

export interface HandleRequest {
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
}

export interface HandleResult {
  status: number;
  body: unknown;
}

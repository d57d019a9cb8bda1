// The asset crosswalk scored against the sandbox's truth (sb.assetLinks()): per confidence threshold,
// the links kept, how many are right (precision) and how many of the assets truly on `/v1` they link
// rightly (recall). Used by the crosswalk test and by bench/crosswalk.ts.
export const THRESHOLDS = [0.95, 0.9, 0.6, 0.4, 0.2, 0] as const;

export interface CrosswalkLink {
  source: string;
  source_asset_id: string;
  v1_asset_id: number | string | null;
  confidence: number | string | null;
}

export interface Score {
  threshold: number;
  links: number;
  right: number;
  precision: number;
  recall: number;
}

/** `truth`: partner UUID → the live `/v1` asset id that is the same asset, or null. */
export function scoreCrosswalk(links: readonly CrosswalkLink[], truth: ReadonlyMap<string, number | null>): Score[] {
  const onV1 = links.filter((l) => truth.get(l.source_asset_id) != null).length;
  return THRESHOLDS.map((threshold) => {
    const kept = links.filter((l) => l.v1_asset_id !== null && Number(l.confidence) >= threshold);
    const right = kept.filter((l) => truth.get(l.source_asset_id) === Number(l.v1_asset_id)).length;
    return { threshold, links: kept.length, right, precision: kept.length ? right / kept.length : 1, recall: onV1 ? right / onV1 : 1 };
  });
}

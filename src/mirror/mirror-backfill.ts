// `backfill alerts`: the monitoring views' stream over every match (or the developments since a date),
// filling alert_history where the webhook receiver missed some. It is a run as a sync is (its lease,
// its record, its client through the quota gate, the same preflight of the service the mirror holds);
// it is asked for by name, so no schedule refuses it.
import { viewsStream } from '../catalog/monitoring.js';
import { ConfigError } from '../errors.js';
import { boundMillis } from '../requests/time-bound.js';
import type { Progress } from '../sync/context.js';
import { emptyViewCounts, type ViewMatchCounts } from '../sync/monitoring/views-sync.js';
import type { MirrorParts } from './mirror-parts.js';
import { runOn, type SyncRun } from './mirror-sync.js';
import { preflight } from './preflight.js';
import { syncSettings } from '../sync/settings.js';

export type { ViewMatchCounts };

export interface BackfillRequest {
  /** View ids or slugs (default: the configured views). */
  views?: readonly string[];
  /** Only developments started at or after this date, of events started since then (default: every match). */
  since?: string;
  /** Where the views were named, for the lines that name a bad one (`--view`); default: the configuration. */
  source?: string;
  /** Backfill though the mirror holds another service (it then records this one). */
  force?: boolean;
  progress?: Progress;
}

export interface BackfillRun extends SyncRun {
  /** Every record read and every development of the views' events, accounted for. */
  viewMatches: ViewMatchCounts;
}

export async function backfillMirror(mirror: MirrorParts, request: BackfillRequest = {}): Promise<BackfillRun> {
  // Said before anything is opened or asked of the service, as a flag the command line refuses.
  if (request.since !== undefined && boundMillis(request.since) === null) {
    throw new ConfigError(`--since must be RFC 3339, YYYY-MM-DD or Unix seconds; got "${request.since}"`);
  }
  const { config, logger } = mirror;
  const settings = syncSettings(config);
  const check = preflight({ config, logger, force: request.force });
  const store = await mirror.store();
  await check.admit(store, new Date());
  const views = request.views ?? settings.monitoring.views;
  const stream = viewsStream({ views, since: request.since, full: request.since === undefined, source: request.source });
  const run = await runOn(store, mirror, request, { settings, streams: [stream] });
  return { ...run, viewMatches: run.viewMatches ?? emptyViewCounts() };
}

// Alert history the receiver missed (down, misconfigured, a delivery the sender gave up on) is filled
// from each configured view's matches, every hour: the stream `ds-mirror backfill alerts` runs, reading
// the matches since its last pass, and every match once per monitoring.fullPassEveryHours.
import type { JobDef } from '../job-def.js';

export const alertBackfill: JobDef = {
  name: 'alert-backfill',
  description: 'Alert history of the configured monitoring views (the stream of `ds-mirror backfill alerts`)',
  schedule: '35 * * * *',
  streams: ['monitoring-views'],
  mode: 'incremental',
};

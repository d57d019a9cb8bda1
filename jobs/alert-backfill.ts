// Alert history the receiver missed (down, misconfigured, a delivery the sender gave up on) is filled
// from each configured view's matches, every hour.
import type { JobDef } from '../src/scheduler/job-def.js';

export const alertBackfill: JobDef = {
  name: 'alert-backfill',
  description: 'Alert history of the configured monitoring views (what `ds-mirror backfill alerts` does)',
  schedule: '35 * * * *',
  streams: ['monitoring-views'],
  mode: 'incremental',
};

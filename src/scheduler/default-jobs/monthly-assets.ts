// Once a month, on the day the /v1 allowance renews, a complete pass over every asset (about 1,330
// requests at real sizes, half the month's quota): the only way to see every asset's change and
// removal, since /v1/assets has no change filter. Incremental mode, so a pass stopped by a quota
// resumes at its checkpoint instead of starting over.
import type { JobDef } from '../job-def.js';

export const monthlyAssets: JobDef = {
  name: 'monthly-assets',
  description: 'A complete pass over every asset of every class (detects removals), once a month',
  schedule: '30 4 1 * *',
  streams: ['assets'],
  mode: 'incremental',
};

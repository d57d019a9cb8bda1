// Twice a day, the top of each asset class by market_cap.rank (topAssets, default 100 per class): three
// /v1 requests where the prices that matter move. Partial: it never soft-deletes.
import type { JobDef } from '../job-def.js';

export const assetsTopJob: JobDef = {
  name: 'assets-top',
  description: 'The top assets of each class by market cap rank, twice a day',
  schedule: '20 0,12 * * *',
  streams: ['assets-top'],
  mode: 'incremental',
};

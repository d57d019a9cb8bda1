// Once a day, the /v1 lists that fit in a page or a date window (about 9 /v1 requests at real sizes),
// incremental: a page served again byte for byte is not even parsed, date windows read their last days.
import type { JobDef } from '../job-def.js';

export const dailyCatalog: JobDef = {
  name: 'daily-catalog',
  description: 'The one-page /v1 lists, SEC filings and market stats (date windows), once a day',
  schedule: '10 3 * * *',
  streams: ['transparency', 'projects', 'chains', 'sectors', 'groups', 'industries', 'glossary', 'metrics', 'sec-filings', 'market-stats'],
  mode: 'incremental',
};

// Every hour, the one-request monitoring lists: token-unlock coverage and the category taxonomy.
import type { JobDef } from '../job-def.js';

export const monitoringLists: JobDef = {
  name: 'monitoring-lists',
  description: 'Token-unlock coverage and the monitoring categories, every hour',
  schedule: '15 * * * *',
  streams: ['token-unlocks', 'monitoring-categories'],
  mode: 'incremental',
};

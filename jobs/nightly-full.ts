// Once a night, a complete pass over every /v1 list and the token-unlock coverage: checkpoints and date
// windows are ignored, so rows the service no longer serves are soft-deleted.
import type { JobDef } from '../src/scheduler/job-def.js';

export const nightlyFull: JobDef = {
  name: 'nightly-full',
  description: 'Full mirror of /v1 and token unlocks (detects deletions)',
  schedule: '30 2 * * *',
  streams: ['v1', 'token-unlocks'],
  mode: 'full',
};

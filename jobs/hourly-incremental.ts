// Every hour, an incremental pass over every default stream: resumes checkpoints, reads date-window
// streams from their high-water mark, writes only what changed.
import type { JobDef } from '../src/scheduler/job-def.js';

export const hourlyIncremental: JobDef = {
  name: 'hourly-incremental',
  description: 'Incremental sync of every default stream',
  schedule: '5 * * * *',
  streams: ['all'],
  mode: 'incremental',
};

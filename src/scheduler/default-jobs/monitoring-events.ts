// Monitoring events move fastest: every five minutes, the window since the high-water mark (minus the
// lookback) is read again.
import type { JobDef } from '../job-def.js';

export const monitoringEvents: JobDef = {
  name: 'monitoring-events',
  description: 'Monitoring events (with their assets and developments) every five minutes',
  schedule: '*/5 * * * *',
  streams: ['monitoring-events'],
  mode: 'incremental',
};

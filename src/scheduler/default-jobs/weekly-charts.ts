// Once a week, the chart list (33 pages at real sizes): charts change rarely.
import type { JobDef } from '../job-def.js';

export const weeklyCharts: JobDef = {
  name: 'weekly-charts',
  description: 'The chart list, once a week',
  schedule: '40 3 * * 0',
  streams: ['charts'],
  mode: 'incremental',
};

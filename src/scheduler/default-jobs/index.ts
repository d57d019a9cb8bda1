// The jobs the daemon runs unless configured otherwise, in the order `ds-mirror jobs` lists them. The
// schedule fits the standard plans at real sizes: about 1,960 of /v1's 2,500 requests a month (see
// `ds-mirror budget` and the README's budget arithmetic); monitoring well inside 200 a minute.
import type { JobDef } from '../job-def.js';
import { alertBackfill } from './alert-backfill.js';
import { assetsTopJob } from './assets-top.js';
import { dailyCatalog } from './daily-catalog.js';
import { monitoringEvents } from './monitoring-events.js';
import { monitoringLists } from './monitoring-lists.js';
import { monthlyAssets } from './monthly-assets.js';
import { weeklyCharts } from './weekly-charts.js';

export const defaultJobs: readonly JobDef[] = [
  dailyCatalog,
  assetsTopJob,
  weeklyCharts,
  monthlyAssets,
  monitoringLists,
  monitoringEvents,
  alertBackfill,
];

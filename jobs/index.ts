// The jobs the daemon runs unless configured otherwise, in the order `ds-mirror jobs` lists them.
import type { JobDef } from '../src/scheduler/job-def.js';
import { alertBackfill } from './alert-backfill.js';
import { hourlyIncremental } from './hourly-incremental.js';
import { monitoringEvents } from './monitoring-events.js';
import { nightlyFull } from './nightly-full.js';

export const defaultJobs: readonly JobDef[] = [nightlyFull, hourlyIncremental, monitoringEvents, alertBackfill];

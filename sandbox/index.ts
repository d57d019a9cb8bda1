// The sandbox's public surface: start one, drive its clock and chaos, read what it serves.
export { startSandbox, DEFAULT_FRACTIONS } from './sandbox.js';
export type { Sandbox, SandboxOptions, AdvanceOptions, ChangeReport } from './sandbox.js';
export type { ResourceChanges, RecordKey } from './data/advance.js';
export { parseChaos } from './http/chaos.js';
export type { ChaosOptions } from './http/chaos.js';
export { parseQuota, QUOTA_FAMILIES } from './quota/index.js';
export type { QuotaLimit, QuotaFamily, QuotaReport, FamilyReport, Period } from './quota/index.js';
export { RESOURCE_NAMES } from './records.js';
export type { MonitoringService, MonitoringChange } from './monitoring/index.js';
export type { Route, RouteContext } from './routes/route.js';

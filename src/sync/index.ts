// Public surface of sync for the rooms above it: a run's settings and where it reports, what each
// stream's runner plans for a run (the budget prices it), and what a run leaves for the operator to read
// (deletions held back, changes of the service's shape). A run itself is put together by the mirror
// (src/mirror/), which alone reaches the engine.
export type { Progress, SyncSettings } from './context.js';
export { syncSettings, type SettingsFlags } from './settings.js';
export { allHolds, type Hold } from './held-deletions.js';
export { changeLine, readSchemaChanges, type SchemaChange } from './shape/read-changes.js';
export { plannerOf } from './runners.js';
export type { StreamPlan, StreamPlanner } from './stream-runner.js';
export { resumePoints } from './list-plan.js';
// The development details waiting (monitoring events' backlog), which `status` reports.
export { DEFAULT_DETAILS, detailsBacklog } from '../requests/details-backlog.js';

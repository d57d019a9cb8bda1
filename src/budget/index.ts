// Request economy: the plan's quotas, the usage ledger in the store, the client's gate to it, and the
// projection of what a schedule costs and buys.
export { planQuotas, type PlanLimits } from './plan-quotas.js';
export { QuotaError, quotaMessage } from './quota-error.js';
export { QuotaGate, quotaGate } from './quota-gate.js';
export { budgetReport, usageOf, type BudgetReport, type FamilyUsage } from './budget-report.js';
export { periodFits, fitFigures, budgetAlarms, type PeriodFit, type BudgetAlarm } from './period-fit.js';
export { projectSchedule, type Projection, type ScheduleEntry } from './projection.js';
export { runCost, familyOf, type StreamCost } from './cost-model.js';
export { planRun, type RunPlan } from './run-plan.js';
export type { StreamReading } from './stream-readings.js';
export { FAMILY_NAMES, QUOTA_FAMILIES, STANDARD_PLAN, quotaFamilyOf, type QuotaFamily, type Quotas } from './quotas.js';
export { UsageLedger } from './usage-ledger.js';

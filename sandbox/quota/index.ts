// Quotas the sandbox enforces when asked: limits per family per minute, day and month of its clock.
export { parseQuota, validateQuota, formatQuota, QUOTA_FAMILIES, PERIODS } from './quota-spec.js';
export type { QuotaFamily, QuotaLimit, Period } from './quota-spec.js';
export { QuotaMeter } from './quota-meter.js';
export type { QuotaReport, FamilyReport, WindowStatus, Decision } from './quota-meter.js';
export { quotaFamily } from './quota-family.js';
export { quotaRefusal, rateLimitHeaders } from './quota-response.js';

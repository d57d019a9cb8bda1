// The budget's tables as Kysely sees them (Kysely<BudgetTables>): the usage ledger by day and by month, the
// quotas as last configured, the holds a spent allowance set, and the pace the workers of one database share.
import type { Counter } from '../store/index.js';

export interface UsageLedgerTable {
  family: string;
  day: string;
  requests: Counter;
}

export interface UsageMonthsTable {
  family: string;
  /** YYYY-MM, UTC. */
  month: string;
  requests: Counter;
}

export interface QuotaHoldsTable {
  family: string;
  until: string;
  reason: string;
  set_at: string;
}

export interface UsageQuotasTable {
  family: string;
  day: string;
  per_day: number | null;
  per_month: number | null;
  /** 0046 */
  per_minute: number | null;
  set_at: string;
}

export interface PaceSlotsTable {
  family: string;
  next_at: string;
}

/** The budget's tables (schema/migrations/0009, 0022, 0035, 0046, 0056). */
export interface BudgetTables {
  usage_ledger: UsageLedgerTable;
  usage_months: UsageMonthsTable;
  quota_holds: QuotaHoldsTable;
  usage_quotas: UsageQuotasTable;
  pace_slots: PaceSlotsTable;
}

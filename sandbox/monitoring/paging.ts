// Monitoring paging: the page size is coerced, never an error (default 10, capped at 100).
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

const POSITIVE_INT = /^\+?\d+$/;

export function pageSize(raw: string | null): number {
  if (raw === null || !POSITIVE_INT.test(raw.trim())) return DEFAULT_PAGE_SIZE;
  const n = Number(raw.trim());
  if (n <= 0) return DEFAULT_PAGE_SIZE;
  return Math.min(n, MAX_PAGE_SIZE);
}

/** 1-indexed; anything that is not a positive integer reads as page 1. */
export function pageNumber(raw: string | null): number {
  if (raw === null || !POSITIVE_INT.test(raw.trim())) return 1;
  const n = Number(raw.trim());
  return n >= 1 && Number.isSafeInteger(n) ? n : 1;
}

export interface PageMetadata {
  limit: number;
  page: number;
  totalRows: number;
  totalPages: number;
}

export function paginate<T>(rows: readonly T[], limit: number, page: number): { rows: T[]; metadata: PageMetadata } {
  const start = (page - 1) * limit;
  return {
    rows: start < rows.length ? rows.slice(start, start + limit) : [],
    metadata: { limit, page, totalRows: rows.length, totalPages: Math.ceil(rows.length / limit) },
  };
}

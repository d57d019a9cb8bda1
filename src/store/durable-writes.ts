// What the store's durable writer (Store.openDurableWriter) takes and answers: writes as data, which its
// SQLite writer thread (sharing no objects with the caller) and a transaction of the store run alike.

/**
 * Rows of one table written as data, so that a writer thread (which shares no objects with the caller) and
 * a transaction write them alike: each row is inserted, or, where its key is held already, kept as stored
 * (the first row of a key wins) or updated as `update` says.
 */
export interface RowsWrite {
  table: string;
  /** The conflict key (a primary key or unique index); unique among `rows`. */
  key: readonly string[];
  /** The same columns in each row. */
  rows: readonly Record<string, unknown>[];
  /** A key held already: these columns take the new row's values, and with `whereNull`, only while the stored row's is null. */
  update?: { columns: readonly string[]; whereNull?: string };
  /** Whether the rows this inserts (or updates) count toward the write's result. */
  counted?: boolean;
}

/** A write's result, and the number of the commit that made it durable (writes committed together share it). */
export interface Committed<Res> {
  result: Res;
  commit: number;
}

/**
 * Commits writes that acknowledge something to the outside (a webhook delivery): each call's writes in one
 * transaction that survives power loss, whose result is the rows written by its `counted` writes.
 */
export interface DurableWriter {
  /** Calls it takes before the first has committed (a writer thread commits together what queued meanwhile). */
  readonly maxInFlight: number;
  write(writes: readonly RowsWrite[]): Promise<Committed<number>>;
  close(): Promise<void>;
}

// The store's public surface: open a mirror database, and the contract types.
export { openStore } from './open-store.js';
export { DEFAULT_STORE_BOUNDS, type StoreBounds } from './store-bounds.js';
export type { OpenStoreOptions } from './open-store.js';
export { LeaseHeldError } from './store-lease.js';
export { describeLocation, locationFile, parseStoreUrl, redactUrl, sameLocation } from './store-url.js';
export type { StoreLocation } from './store-url.js';
export type { Migrations, Repeatable } from './migrations.js';
export { DEFERRED_INDEXES } from './deferred-indexes.js';
export { keyString } from './types.js';
export type { Counter, StoredBoolean } from './database.js';
export { describeStoreError, mayAnswerLater, storageCause } from './storage-errors.js';
export type {
  ColumnTypes,
  Dialect,
  Lease,
  LeaseHolder,
  Row,
  RowsWrite,
  Store,
  StoreTx,
  StreamRunStats,
  StreamState,
  WriteCounts,
} from './types.js';

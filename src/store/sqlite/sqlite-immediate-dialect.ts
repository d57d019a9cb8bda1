// Kysely's SQLite dialect, changed in two ways that matter when several processes share one file:
// transactions start with BEGIN IMMEDIATE (take the write lock up front, so busy_timeout applies
// instead of failing with SQLITE_BUSY when a reader upgrades), and migrations run inside one
// transaction (SQLite's DDL is transactional), so two processes never apply the same migration.
import { CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver } from 'kysely';
import type { DatabaseConnection, DialectAdapter, Driver, SqliteDialectConfig } from 'kysely';

/** What the connection's own state needs around a transaction's end (sqlite-idle-triggers.ts). */
export interface TransactionHooks {
  beforeCommit(): void;
  afterRollback(): void;
}

class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly hooks?: TransactionHooks,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  // SQLite rolls a transaction back by itself on some errors (disk full, I/O): a second rollback would
  // fail with "no transaction is active" and hide the error that matters.
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (err) {
      if (!/no transaction is active/.test((err as Error).message)) throw err;
    } finally {
      this.hooks?.afterRollback();
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.hooks?.beforeCommit();
    await super.commitTransaction(connection);
  }
}

class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  readonly #hooks: TransactionHooks | undefined;

  constructor(config: SqliteDialectConfig, hooks?: TransactionHooks) {
    super(config);
    this.#config = config;
    this.#hooks = hooks;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#hooks);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

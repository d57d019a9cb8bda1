// Objects made after the numbered migrations, whenever their definition changed: the analyst views,
// (on PostgreSQL) the data dictionary's comments, the history triggers, and the catalog's streams (rows
// of catalog_streams). Their definitions are today's code, so no numbered migration may create them (a migration replayed years later would run
// today's views against that day's tables): a hash of the definition is stored in `schema_objects`, and
// a new hash recreates them. They are dropped before pending migrations run, so no migration works
// around them (and none of its writes is kept as history). A fresh install and an upgrade from any
// release thus end with the same objects.
import { dropHistoryTriggers, historyTriggerMissing, historyTriggersSql, recreateHistoryTriggers } from '../../schema/history/triggers.js';
import { ANALYST_VIEWS, createViewSql, dropViews, recreateViews } from '../../schema/views/index.js';
import { liftedFromRaw, streamTables, type StreamDef } from '../catalog/index.js';
import { applyComments } from '../dictionary/comments.js';
import { DICTIONARY } from '../dictionary/index.js';
import { analystSql } from '../store/dialects.js';
import { DEFERRED_INDEXES, type Repeatable } from '../store/index.js';
import { definitionFromCode } from './code-definition.js';
import { streamCatalog } from './stream-catalog.js';

/**
 * The repeatable objects of a mirror of `streams` (the catalog's; a test hands a catalog with a stream of its
 * own): the views count the live rows of the tables they fill, the triggers keep their versions, and
 * catalog_streams lists them, so that a stream added to the catalog needs no change here nor in schema/.
 */
export function repeatables(streams: readonly StreamDef[]): readonly Repeatable[] {
  const catalog = { streamTables: streamTables(streams) };
  return [
    // The views and their comments are one object: dropping a view drops its comments.
    {
      name: 'analyst-layer',
      ...definitionFromCode(streams, (dialect) => {
        const d = analystSql(dialect);
        const views = ANALYST_VIEWS.map((v) => createViewSql(v, d, catalog));
        return [...views, d.commentable ? JSON.stringify(DICTIONARY) : ''].join(';\n');
      }),
      async apply(db, dialect) {
        const d = analystSql(dialect);
        await recreateViews(db, d, catalog);
        if (d.commentable) await applyComments(db, DICTIONARY, await d.commentable(db));
      },
      drop: (db) => dropViews(db),
    },
    // Made from every mirrored table's columns of now: a column a migration adds changes the definition.
    // Which tables' versions keep no typed_row is the catalog's word (a stream's versionsFromRaw).
    {
      name: 'history-triggers',
      definition: async (db, dialect) => (await historyTriggersSql(db, dialect, liftedFromRaw(streams))).join(';\n'),
      missing: historyTriggerMissing,
      apply: (db, dialect) => recreateHistoryTriggers(db, dialect, liftedFromRaw(streams)),
      drop: dropHistoryTriggers,
    },
    // The catalog's streams as rows of catalog_streams (v_streams lists them before any sync).
    streamCatalog(streams),
    // The indexes a first load into an empty table left out and a killed process never built (src/store/deferred-indexes.ts).
    DEFERRED_INDEXES,
  ];
}

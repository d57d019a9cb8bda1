// SQLite's own floor for the sync's ratio: the rows a first sync wrote, inserted again with plain
// prepared INSERTs into unindexed tables of a fresh file with the store's pragmas, one transaction per
// page. No sync that writes the same rows to SQLite can take less time than this.
import { openSqlite } from '../src/store/sqlite/sqlite-connection.js';

export function sqliteFloor(
  mirrorPath: string,
  floorPath: string,
  lists: readonly { table: string; pageSize: number }[],
): { rows: number; seconds: number } {
  const db = openSqlite(floorPath);
  db.prepare('attach database ? as mirror').run(mirrorPath);
  const data = lists.map(({ table, pageSize }) => {
    db.exec(`create table main."${table}" as select * from mirror."${table}" where 0`);
    return { table, pageSize, rows: db.prepare(`select * from mirror."${table}"`).raw().all() as unknown[][] };
  });
  db.exec('detach database mirror');
  const started = performance.now();
  let rows = 0;
  for (const { table, pageSize, rows: all } of data) {
    if (all.length === 0) continue;
    const insert = db.prepare(`insert into "${table}" values (${all[0].map(() => '?').join(', ')})`);
    const page = db.transaction((slice: unknown[][]) => {
      for (const row of slice) insert.run(row);
    });
    for (let i = 0; i < all.length; i += pageSize) page(all.slice(i, i + pageSize));
    rows += all.length;
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return { rows, seconds };
}

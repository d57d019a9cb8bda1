// PostgreSQL's fastest load, for the sync's ratio: COPY of the same rows the first sync wrote into
// unindexed copies of the mirrored tables, in the same run; the median of three loads. The copies
// take the server's default compression unless `sameCompression` gives them the mirror's (lz4).
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

/** COPY text format: backslash, tab, newline and carriage return escaped; null as \N. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** Reads every row of the tables, then times COPY of them into unindexed copies. Returns rows and seconds. */
export async function copyBaseline(url: string, schema: string, tables: readonly string[], sameCompression = false): Promise<{ rows: number; seconds: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set search_path to "${schema}"`);
    const data: { table: string; columns: string[]; lines: string[] }[] = [];
    for (const table of tables) {
      const result = await client.query({ text: `select * from "${table}"`, rowMode: 'array' });
      data.push({ table, columns: result.fields.map((f) => f.name), lines: result.rows.map((r: unknown[]) => `${r.map(field).join('\t')}\n`) });
    }
    const like = `including defaults${sameCompression ? ' including compression' : ''}`;
    const loads: number[] = [];
    let rows = 0;
    for (let load = 0; load < 3; load++) {
      for (const { table } of data) await client.query(`drop table if exists "copy_${table}"; create table "copy_${table}" (like "${table}" ${like})`);
      const started = performance.now();
      rows = 0;
      for (const { table, columns, lines } of data) {
        const stream = client.query(copyFrom(`copy "copy_${table}" (${columns.map((c) => `"${c}"`).join(',')}) from stdin`));
        await pipeline(Readable.from(lines), stream);
        rows += lines.length;
      }
      loads.push((performance.now() - started) / 1000);
    }
    for (const { table } of data) await client.query(`drop table "copy_${table}"`);
    return { rows, seconds: loads.sort((a, b) => a - b)[1]! };
  } finally {
    await client.end();
  }
}

// PostgreSQL's fastest load, for the sync's ratio: COPY of the same rows the first sync wrote into
// unindexed copies of the mirrored tables, in the same run; the median of three loads, into copies with
// the server's default compression and into copies with the mirror's own (lz4).
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

interface Timed {
  rows: number;
  seconds: number;
}

/**
 * Reads every row of the tables once, then times COPY of them into unindexed copies: with the
 * server's default compression (`plain`) and with the mirror's own (`sameCompression`).
 */
export async function copyBaselines(
  url: string,
  schema: string,
  tables: readonly string[],
): Promise<{ plain: Timed; sameCompression: Timed }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set search_path to "${schema}"`);
    const data: { table: string; columns: string[]; lines: string[] }[] = [];
    for (const table of tables) {
      const result = await client.query({ text: `select * from "${table}"`, rowMode: 'array' });
      data.push({
        table,
        columns: result.fields.map((f) => f.name),
        lines: result.rows.map((r: unknown[]) => `${r.map(field).join('\t')}\n`),
      });
    }
    /** The median of three loads into fresh copies made `like` the tables. */
    const load = async (like: string): Promise<Timed> => {
      const seconds: number[] = [];
      let rows = 0;
      for (let run = 0; run < 3; run++) {
        for (const { table } of data)
          await client.query(`drop table if exists "copy_${table}"; create table "copy_${table}" (like "${table}" ${like})`);
        const started = performance.now();
        rows = 0;
        for (const { table, columns, lines } of data) {
          const stream = client.query(copyFrom(`copy "copy_${table}" (${columns.map((c) => `"${c}"`).join(',')}) from stdin`));
          await pipeline(Readable.from(lines), stream);
          rows += lines.length;
        }
        seconds.push((performance.now() - started) / 1000);
      }
      for (const { table } of data) await client.query(`drop table "copy_${table}"`);
      return { rows, seconds: seconds.sort((a, b) => a - b)[1]! };
    };
    return { plain: await load('including defaults'), sameCompression: await load('including defaults including compression') };
  } finally {
    await client.end();
  }
}

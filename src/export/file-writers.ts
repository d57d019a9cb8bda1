// The two export formats behind one interface: rows in, a file out, a batch at a time.
// CSV (RFC 4180, header row) through a file stream; Parquet through hyparquet-writer, one row group per
// batch, its file flushed as it grows (so neither keeps more than a batch in memory).
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import type { ValueKind } from '../../schema/views/index.js';
import type { ExportColumn } from './export-columns.js';
import { csvText, typedValue } from './export-values.js';

export interface BatchWriter {
  write(rows: readonly Record<string, unknown>[]): Promise<void>;
  close(): Promise<void>;
}

export type ExportFormat = 'csv' | 'parquet';

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvWriter(file: string, columns: readonly ExportColumn[]): BatchWriter {
  const out: WriteStream = createWriteStream(file);
  const failed = once(out, 'error').then(([err]) => Promise.reject(err as Error));
  failed.catch(() => {});
  const write = async (text: string) => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  };
  let headerDone = false;
  return {
    async write(rows) {
      if (!headerDone) {
        await write(`${columns.map((c) => csvField(c.name)).join(',')}\r\n`);
        headerDone = true;
      }
      const lines = rows.map((row) => columns.map((c) => csvField(csvText(c.kind, row[c.name]))).join(','));
      if (lines.length > 0) await write(`${lines.join('\r\n')}\r\n`);
    },
    async close() {
      if (!headerDone) await this.write([]);
      out.end();
      await Promise.race([once(out, 'finish'), failed]);
    },
  };
}

// Parquet types of each kind: times as UTC milliseconds, dates as days, JSON as annotated UTF-8.
const PARQUET: Record<
  ValueKind,
  { type: 'BYTE_ARRAY' | 'INT64' | 'INT32' | 'DOUBLE' | 'BOOLEAN'; converted_type?: string; logical_type?: object }
> = {
  text: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  json: { type: 'BYTE_ARRAY', converted_type: 'JSON' },
  integer: { type: 'INT64' },
  double: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
  timestamp: {
    type: 'INT64',
    converted_type: 'TIMESTAMP_MILLIS',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
  },
  date: { type: 'INT32', converted_type: 'DATE' },
};

export function parquetWriter(file: string, columns: readonly ExportColumn[]): BatchWriter {
  const schema = [
    { name: 'root', num_children: columns.length },
    ...columns.map((c) => ({ name: c.name, repetition_type: 'OPTIONAL', ...PARQUET[c.kind] })),
  ];
  const writer = new ParquetWriter({ writer: fileWriter(file), schema: schema as never });
  return {
    async write(rows) {
      if (rows.length === 0) return;
      const columnData = columns.map((c) => ({ name: c.name, data: rows.map((row) => typedValue(c.kind, row[c.name])) }));
      await writer.write({ columnData: columnData as never, rowGroupSize: rows.length });
    },
    async close() {
      await writer.finish();
    },
  };
}

export function batchWriter(format: ExportFormat, file: string, columns: readonly ExportColumn[]): BatchWriter {
  return format === 'csv' ? csvWriter(file, columns) : parquetWriter(file, columns);
}

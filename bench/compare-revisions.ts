// Old against new, same hour: runs one benchmark alternately in another checkout (the old revision) and
// in this one, then prints, per row of the benchmark's tables, the median of each numeric column for
// both and their ratio. For "did this change make a phase slower": interleaving spreads the machine's
// noise over both sides.
//   npx tsx bench/compare-revisions.ts --base /path/to/old/checkout [--runs 3] -- bench/sync.ts --scale 10
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';

const run = promisify(execFile);
const { values, positionals } = parseArgs({
  options: { base: { type: 'string' }, runs: { type: 'string', default: '3' } },
  allowPositionals: true,
});
if (!values.base || positionals.length === 0) {
  process.stderr.write('usage: npx tsx bench/compare-revisions.ts --base <old checkout> [--runs n] -- <bench script> [args...]\n');
  process.exit(2);
}
const [script, ...args] = positionals;
const sides = { old: resolve(values.base), new: process.cwd() } as const;
type Side = keyof typeof sides;

/** Numeric cells by "table heading › row label › column". */
type Cells = Map<string, number>;

function numericCells(markdown: string): Cells {
  const cells: Cells = new Map();
  let header: string[] = [];
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      header = [];
      continue;
    }
    const row = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (row.every((c) => /^:?-+:?$/.test(c))) continue;
    if (header.length === 0) {
      header = row;
      continue;
    }
    // A row is named by its first cell and the text cells after it ("0 ms", "first sync"), so rows that
    // share a first cell stay apart.
    let named = 1;
    while (named < row.length && numberIn(row[named]!) === null) named++;
    const label = row.slice(0, named).join(' ');
    row.slice(named).forEach((cell, i) => {
      const n = numberIn(cell);
      if (n !== null) cells.set(`${label} › ${header[named + i]}`, n);
    });
  }
  return cells;
}

/** The number a cell starts with ("1,234", "0.81×", "4.5 s"), or null for text and empty cells. */
function numberIn(cell: string): number | null {
  const n = Number(cell.replace(/[*×]/g, '').replace(/,/g, '').replace(/ .*$/, ''));
  return cell !== '' && Number.isFinite(n) ? n : null;
}

const samples: Record<Side, Cells[]> = { old: [], new: [] };
for (let i = 0; i < Number(values.runs); i++) {
  for (const side of ['old', 'new'] as const) {
    process.stderr.write(`run ${i + 1}, ${side}: ${script} ${args.join(' ')}\n`);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: sides[side],
      maxBuffer: 64 * 1024 * 1024,
      timeout: 30 * 60_000,
    });
    samples[side].push(numericCells(stdout));
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const lines = [
  `\`npx tsx ${script} ${args.join(' ')}\`, ${values.runs} interleaved runs per side, medians`,
  '',
  '| row › column | old | new | new / old |',
  '|---|---:|---:|---:|',
];
for (const key of samples.new[0]?.keys() ?? []) {
  const old = samples.old.map((c) => c.get(key)).filter((n): n is number => n !== undefined);
  const now = samples.new.map((c) => c.get(key)).filter((n): n is number => n !== undefined);
  if (old.length === 0) continue;
  const [o, n] = [median(old), median(now)];
  lines.push(`| ${key} | ${o} | ${n} | ${o === 0 ? '–' : (n / o).toFixed(2)} |`);
}
process.stdout.write(`${lines.join('\n')}\n`);

// @end-to-end
// The figures a newcomer reads in README.md and docs/budgets.md are the code's: what `sync --plan` and
// `budget` print on an empty mirror (the real service's published sizes), not numbers typed once.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
let dir: string;

async function cli(args: string[]): Promise<string> {
  const env = { ...process.env, DS_DB: `sqlite:${join(dir, 'empty.db')}`, DS_LOG_LEVEL: 'warn', DS_CONFIG: '', DS_BASE_URL: '' };
  try {
    return (await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args], { env, timeout: 120_000 })).stdout;
  } catch (error) {
    return (error as { stdout: string }).stdout; // budget exits 1 on a day the month cannot fit; its figures still count
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-readme-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the documentation's request figures", () => {
  it("README's first-sync figure is what sync --plan says on an empty mirror", async () => {
    const plan = await cli(['sync', '--plan']);
    const v1 = /^\/v1 \(and charts\): (~[\d,]+) requests/m.exec(plan)?.[1];
    expect(v1).toBeDefined();
    expect(readFileSync('README.md', 'utf8')).toContain(`(the first: ${v1} /v1 requests at real sizes)`);
  });

  it("docs/budgets.md's schedule table and total are what budget projects", async () => {
    const budget = await cli(['budget']);
    const doc = readFileSync('docs/budgets.md', 'utf8');
    const total = /^\/v1 \(and charts\): ~([\d,]+) a month of 2,500 \((\d+)%\)/m.exec(budget);
    expect(total).not.toBeNull();
    expect(doc).toContain(`**${total![1]} of 2,500 (${total![2]}%)**`);
    for (const job of ['daily-catalog', 'assets-top', 'weekly-charts', 'monthly-assets']) {
      // budget: job, schedule, runs, requests a run, v1 a month, ...; the doc: | job | schedule | streams | a run | runs | a month |
      const row = new RegExp(`^${job}\\s+\\S+ \\S+ \\S+ \\S+ \\S+\\s+(\\d+)\\s+~?([\\d,]+)\\S*(?: \\(.*?\\))?\\s+([\\d,]+)\\s`, 'm').exec(
        budget,
      );
      const cells = doc
        .split('\n')
        .find((l) => l.startsWith(`| \`${job}\``))
        ?.split('|')
        .map((c) => c.trim());
      expect({ job, row: row?.slice(1, 4) }).toEqual({ job, row: [cells?.[5], expect.any(String), cells?.[6]] });
    }
    expect(doc).toContain(`costs ${/^monthly-assets\s+\S+ \S+ \S+ \S+ \S+\s+\d+\s+~?([\d,]+)/m.exec(budget)![1]} requests`);
  });
});

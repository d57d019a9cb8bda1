// Runs store-child.mjs (the compiled store: `npm run build` first) in a separate Node process against a test
// store's database.
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestStore } from '../helpers/stores.js';

const CHILD = fileURLToPath(new URL('./store-child.mjs', import.meta.url));

export interface ChildOutcome {
  opened?: boolean;
  taken?: boolean;
  code?: string;
  message?: string;
}

export function runStoreChild(t: TestStore, leaseName = '', owner = ''): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const args = [CHILD, t.url, t.schema ?? '', leaseName, owner];
    execFile(process.execPath, args, { timeout: 240_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`store child failed: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}

/** One child that tries the lease, waits for `between` (the parent's move), then tries it again: both outcomes. */
export function tryLeaseTwiceInChild(
  t: TestStore,
  leaseName: string,
  owner: string,
  between: (first: ChildOutcome) => Promise<void>,
): Promise<[ChildOutcome, ChildOutcome]> {
  const child = spawn(process.execPath, [CHILD, t.url, t.schema ?? '', leaseName, owner, 'again'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 240_000,
  });
  let stdout = '';
  let stderr = '';
  const lines: ChildOutcome[] = [];
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      for (let at = stdout.indexOf('\n'); at >= 0; at = stdout.indexOf('\n')) {
        lines.push(JSON.parse(stdout.slice(0, at)));
        stdout = stdout.slice(at + 1);
        if (lines.length === 1) between(lines[0]!).then(() => child.stdin.end('go\n'), reject);
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && lines.length === 2) resolve([lines[0]!, lines[1]!]);
      else reject(new Error(`store child failed (exit ${code}, ${lines.length} outcomes): ${stderr}`));
    });
  });
}

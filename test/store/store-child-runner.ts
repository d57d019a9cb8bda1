// Runs store-child.mjs (the compiled store: `npm run build` first) in a separate Node process against a test
// store's database.
import { execFile } from 'node:child_process';
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

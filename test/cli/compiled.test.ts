// @end-to-end
// The shipped JavaScript: bin/ds-mirror.js runs dist/ (built by `npm ci` and before `npm test`), with no
// TypeScript loader. The receiver's SQLite writer thread must start from the compiled file too.
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestedCommand } from '../../src/cli/command-word.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-compiled-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the compiled CLI', () => {
  // --version prints the package's version: test/cli/packed-install.test.ts, from the installed package
  // (the same bundle, started from outside the checkout).

  // The command list from the light bundle, a command's help from the full one (src/cli/cached-start.ts);
  // the help of `views` and `jobs`, main()'s text, in test/cli/cli.test.ts ('prints each command's own help').
  it("lists every command in --help without loading them, and a command's own help in full", async () => {
    const { stdout } = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', '--help']);
    for (const command of ['sync [streams...]', 'status', 'views', 'receive', 'backfill', 'jobs', 'daemon', 'copy', 'migrate', 'streams'])
      expect(stdout).toContain(command);
    const sync = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', 'sync', '--help']);
    expect(sync.stdout).toMatch(/all, v1, monitoring, fanouts/);
    expect(sync.stdout).toContain('--max-requests');
    expect(sync.stdout).toContain('--plan');
    expect(sync.stdout).not.toMatch(/default: \[\]|\(default 1\)/);
  });

  it('finds the command named on the command line past the global options', () => {
    expect(requestedCommand(['--db', 'sqlite:a.db', '-c', 'c.json', 'sync', 'v1'])).toBe('sync');
    expect(requestedCommand(['--db=sqlite:a.db', 'status'])).toBe('status');
    expect(requestedCommand(['help', 'jobs'])).toBe('jobs');
    expect(requestedCommand(['--help'])).toBeNull();
  });

  // The bundle runs as a vm.Script (src/cli/cached-start.ts): the migrations it imports by name at run time
  // (a new PostgreSQL mirror; SQLite starts from its prepared schema) load through the start's import().
  for (const dialect of dialects) {
    it(`migrates a new mirror (${dialect}) and says nothing on stderr`, { timeout: 120_000 }, async () => {
      const t = await openTestStore(dialect, { migrate: false });
      try {
        const db = ['--db', t.url, ...(t.schema ? ['--db-schema', t.schema] : [])];
        const { stdout, stderr } = await run(process.execPath, [
          ...LAUNCHER_FLAGS,
          'bin/ds-mirror.js',
          ...db,
          '--log-level',
          'warn',
          'migrate',
        ]);
        expect(stderr).toBe('');
        expect(stdout).toMatch(/^Success\s+0001-/m);
      } finally {
        await t.cleanup();
      }
    });
  }

  it('starts the receiver, whose writer thread commits a signed delivery', async () => {
    const db = join(dir, 'mirror.db');
    let id = '';
    const child = spawn(
      process.execPath,
      [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', '--db', `sqlite:${db}`, '--log-level', 'warn', 'receive', '--port', '0'],
      {
        env: { ...process.env, DS_WEBHOOK_SECRETS: 'compiled-secret' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          const found = /receiving webhooks at (\S+)/.exec(line);
          if (found) resolve(found[1]);
        });
        child.once('exit', (code) => reject(new Error(`the receiver exited with code ${code}`)));
      });
      id = randomUUID();
      const body = JSON.stringify(makeEnvelope({ id }));
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-webhook-signature': sign('compiled-secret', body, Math.floor(Date.now() / 1000)),
        },
        body,
      });
      expect(response.status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    const rows = new Database(db, { readonly: true }).prepare('select id from webhook_deliveries').all();
    expect(rows).toEqual([{ id }]);
  });
});

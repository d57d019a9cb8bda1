// @end-to-end
// `ds-mirror receive` as the CLI runs it: options and secrets from the edge, a delivery lands, and
// SIGTERM shuts down gracefully with the database closed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/main.js';
import { receiveCommand } from '../../src/cli/receive-command.js';
import { openStore } from '../../src/store/index.js';
import { makeEnvelope, sign } from './webhook-fixtures.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

const dir = mkdtempSync(join(tmpdir(), 'ds-receive-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('receive command', () => {
  it('receives until SIGTERM, then closes', async () => {
    const db = `sqlite:${join(dir, 'mirror.db')}`;
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (c) => (printed += String(c)));
    const io = { stdout, stderr: new PassThrough(), env: { DS_WEBHOOK_SECRETS: 'cmd-secret' } } as unknown as CliIo;
    const program = new Command('ds-mirror').option('--db <url>').option('--log-level <level>').exitOverride();
    receiveCommand(program, io);
    const running = program.parseAsync(['receive', '--db', db, '--log-level', 'silent', '--port', '0', '--path', '/hooks'], {
      from: 'user',
    });

    while (!printed.includes('receiving webhooks at')) await new Promise((resolve) => setTimeout(resolve, 20));
    const url = /at (\S+)/.exec(printed)![1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
    const env = makeEnvelope();
    const body = JSON.stringify(env);
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'x-webhook-signature': sign('cmd-secret', body, Math.floor(Date.now() / 1000)) },
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();

    process.emit('SIGTERM');
    await running;
    const store = await openStore({ migrations: MIRROR_SCHEMA, url: db });
    try {
      const rows = await store.db.selectFrom('webhook_deliveries').select('id').execute();
      expect(rows.map((r) => r.id)).toEqual([env.id]);
    } finally {
      await store.close();
    }
  });

  it('refuses to start without any secret, saying what to set', async () => {
    const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {} } as unknown as CliIo;
    const program = new Command('ds-mirror').option('--db <url>').option('--log-level <level>').exitOverride();
    receiveCommand(program, io);
    await expect(
      program.parseAsync(['receive', '--db', `sqlite:${join(dir, 'other.db')}`, '--log-level', 'silent', '--port', '0'], { from: 'user' }),
    ).rejects.toThrow(/no webhook secret configured/);
  });
});

// A run through the library's door (openMirror) on the configuration a spawned `ds-mirror` is given (its
// config file, --db, the sandbox's address and key): the CLI's preflight, quota gate and ledger in the
// test's own process, for the runs whose outcome a test reads from what they return rather than from
// what the CLI prints.
import pino from 'pino';
import { loadConfig, openMirror, type SyncRequest, type SyncRun } from '../../src/index.js';

export interface LibraryFlags {
  config: string;
  db: string;
  dbSchema?: string;
}

/** The run `request` asks for; a refused run throws, saying why. */
export async function libraryRun(flags: LibraryFlags, sandbox: { url: string; apiKey: string }, request: SyncRequest): Promise<SyncRun> {
  const config = loadConfig(flags, { DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey });
  const mirror = openMirror(config, { logger: pino({ level: 'silent' }) });
  try {
    const run = await mirror.sync(request);
    if (run.refused !== null) throw new Error(`the run was refused: ${JSON.stringify(run.refused)}`);
    return run;
  } finally {
    await mirror.close();
  }
}

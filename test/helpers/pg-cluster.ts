// A throwaway PostgreSQL cluster from the installed server binaries: a temp dir, loopback only,
// trust auth, durability off (tests never need it), stopped and deleted afterwards.
import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const DIR_PREFIX = 'ds-mirror-pg-';
const OWNER_FILE = 'owner.pid';

export interface PgCluster {
  url: string;
  /** The postmaster's process id (its first line of postmaster.pid): its CPU is the server's. */
  pid: number;
  stop(): Promise<void>;
}

/** The bin folder of the newest /usr/lib/postgresql/<version>, else of `initdb` on PATH. */
export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? dirname(realpathSync(found.stdout.trim())) : null;
}

/** `settings`: more `-c name=value` server settings, after the defaults. */
export async function startPgCluster(settings: readonly string[] = []): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error('no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin or on PATH');
  // initdb refuses to run as root: run the server tools as the postgres user in a folder it owns.
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? ['runuser', '-u', 'postgres', '--'] : [];
  await stopAbandonedClusters(bin, prefix);
  const dir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  if (asRoot) {
    const ids = spawnSync('id', ['postgres'], { encoding: 'utf8' });
    const uid = /uid=(\d+)/.exec(ids.stdout)?.[1];
    const gid = /gid=(\d+)/.exec(ids.stdout)?.[1];
    if (!uid || !gid) throw new Error('running as root, but there is no "postgres" user to run initdb as');
    chownSync(dir, Number(uid), Number(gid));
  }
  const data = join(dir, 'data');
  const tool = (name: string, args: string[]) => run([...prefix, join(bin, name), ...args]);
  try {
    await tool('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const server = [
        `-h 127.0.0.1 -p ${port} -k ${dir}`,
        '-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300',
        ...settings.map((setting) => `-c ${setting}`),
      ].join(' ');
      try {
        await tool('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', server, 'start']);
        return {
          url: `postgres://postgres@127.0.0.1:${port}/postgres`,
          pid: Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]),
          async stop() {
            await tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
            rmSync(dir, { recursive: true, force: true });
          },
        };
      } catch (err) {
        if (attempt >= 3) throw err; // the free port may have been taken in between: try another
      }
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** A run killed before its teardown leaves its server running: stop those whose owner process is gone. */
async function stopAbandonedClusters(bin: string, prefix: string[]): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(DIR_PREFIX))) {
    const dir = join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue; // not ours to judge
    }
    if (isAlive(owner)) continue;
    await run([...prefix, join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

function run(argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(argv[0], argv.slice(1), { timeout: 240_000 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`${argv.join(' ')} failed: ${stderr.trim() || err.message}`));
      else resolve();
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

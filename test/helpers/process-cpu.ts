// CPU-seconds of a process (its own, and its reaped children's) and of the whole machine, read from /proc:
// the per-file log (file-cpu.ts) and the run's hidden costs (global-setup.ts: vitest's main process, the
// PostgreSQL server) are measured alike.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

export interface ProcessCpu {
  own: number;
  children: number;
}

/** utime + stime and cutime + cstime of `pid` in seconds; null once the process is gone. */
export function processCpu(pid: number | 'self'): ProcessCpu | null {
  const fields = statFields(pid);
  if (!fields) return null;
  const at = (field: number) => Number(fields[field - 3]) / TICKS_PER_SECOND; // fields numbered from pid = 1
  return { own: at(14) + at(15), children: at(16) + at(17) };
}

/**
 * A server's CPU so far: its own, its finished children's (a PostgreSQL backend ends with its connection
 * and is reaped by the postmaster) and its live children's (checkpointer, writers, open connections).
 */
export function serverCpu(pid: number): number | null {
  const server = processCpu(pid);
  if (!server) return null;
  let live = 0;
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const fields = statFields(Number(name));
    if (fields && Number(fields[1]) === pid) live += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  }
  return server.own + server.children + live;
}

/**
 * The server's CPU so far by process: the postmaster's own, its ended children's (the backends of closed
 * connections: their start-up, statements and exit) and each live child's by its title ('checkpointer',
 * 'walwriter', a live backend as 'postgres ... idle').
 */
export function serverCpuParts(pid: number): Record<string, number> | null {
  const server = processCpu(pid);
  if (!server) return null;
  const parts: Record<string, number> = { postmaster: server.own, 'ended backends': server.children };
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const fields = statFields(Number(name));
    if (!fields || Number(fields[1]) !== pid) continue;
    let title = 'live child';
    try {
      title = readFileSync(`/proc/${name}/cmdline`, 'utf8')
        .replace(/\0/g, ' ')
        .replace(/^postgres: /, '')
        .trim();
    } catch {
      // gone meanwhile
    }
    const kind =
      /^(checkpointer|background writer|walwriter|autovacuum launcher|logical replication launcher)/.exec(title)?.[1] ?? 'live backends';
    parts[kind] = (parts[kind] ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  }
  return parts;
}

export interface MachineProcess {
  name: string;
  ppid: number;
  /** Its own CPU-seconds and its reaped children's. */
  cpu: number;
}

/**
 * Every live process of the machine by `pid:start time` (a pid taken again by a later process is another
 * key): its name, parent and CPU, its own and its reaped children's (so a process that ran and ended
 * within a run is counted in whichever live ancestor reaped it: its shell, or pid 1 for an orphan).
 */
export function machineProcesses(): Map<string, MachineProcess & { pid: number }> {
  const all = new Map<string, MachineProcess & { pid: number }>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = (field: number) => Number(fields[field - 3]) / TICKS_PER_SECOND;
    all.set(`${name}:${fields[22 - 3]}`, {
      pid: Number(name),
      name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      ppid: Number(fields[4 - 3]),
      cpu: at(14) + at(15) + at(16) + at(17),
    });
  }
  return all;
}

/** CPU-seconds every process of the machine has spent (not idle, not waiting on I/O) since boot. */
export function machineCpu(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

/** The fields of /proc/<pid>/stat after the command's name (field 3, the state, first). */
function statFields(pid: number | 'self'): string[] | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

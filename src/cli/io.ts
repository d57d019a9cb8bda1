// What every command shares with the entry point: where it writes, what it reads, and how it exits.
export const EXIT = { ok: 0, failed: 1, usage: 2, stopped: 3, held: 4 } as const;

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** How a command reports its exit code to the entry point. */
export type SetExit = (code: number) => void;

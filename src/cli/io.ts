// What every command shares with the entry point: where it writes, what it reads, and how it exits.
/** 5: every stream that failed, failed because the service changed shape (DS_DRIFT, docs/operations.md). */
export const EXIT = { ok: 0, failed: 1, usage: 2, stopped: 3, held: 4, drift: 5 } as const;

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** How a command reports its exit code to the entry point. */
export type SetExit = (code: number) => void;

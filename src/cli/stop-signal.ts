// SIGINT/SIGTERM for the long-running commands (sync, daemon): the first asks for a clean stop and starts
// the stop bound; if the process is still there when it passes (a request that will not end, a database
// that does not answer), it exits anyway; a second signal exits at once. The checkpoints already committed
// stay, and the next run closes this one's record as interrupted and takes its leases back.
import type { Logger } from 'pino';

/**
 * Time for closing the store and the client once the work itself has stopped within the bound: as long as
 * the bound, between 1 and 5 s. An operator who asks for a short bound (a container stopped within seconds)
 * is answered within about twice it, not 5 s past it.
 */
export function closingGraceMs(boundMs: number): number {
  return Math.min(5_000, Math.max(1_000, boundMs));
}

export interface StopSignal {
  /** Resolves with the first signal. */
  requested: Promise<NodeJS.Signals>;
  /** Aborted by the first signal. */
  signal: AbortSignal;
  /** No longer listens (the command ended by itself). */
  release(): void;
}

/** `boundMs` after the first signal (plus the closing grace), or at a second signal, the process exits with `exitCode`. */
export function onStopSignal(logger: Logger, boundMs: number, exitCode: number, stopping: string): StopSignal {
  const stop = new AbortController();
  let signals = 0;
  let timer: NodeJS.Timeout | undefined;
  let resolve: (signal: NodeJS.Signals) => void = () => {};
  const requested = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) return exit(logger, exitCode, 'second signal: exiting now; the next run resumes from the last checkpoint');
    logger.warn({ signal, boundSeconds: boundMs / 1000 }, stopping);
    // The line names the time really waited (the bound and its grace), and the bound the operator set.
    const waitedMs = boundMs + closingGraceMs(boundMs);
    timer = setTimeout(
      () =>
        exit(
          logger,
          exitCode,
          `still running ${waitedMs / 1000} s after the signal (stop bound ${boundMs / 1000} s): exiting; the next run resumes from the last checkpoint`,
        ),
      waitedMs,
    );
    timer.unref();
    stop.abort();
    resolve(signal);
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return {
    requested,
    signal: stop.signal,
    release: () => {
      clearTimeout(timer);
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    },
  };
}

function exit(logger: Logger, code: number, why: string): never {
  logger.error(why);
  process.exit(code);
}

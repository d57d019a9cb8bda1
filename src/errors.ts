// One base error with a stable `code` (for messages, run records and exit output), and the classes
// that say what an error means. Nothing decides by `code`: `errorAction` below is the one place that
// turns an error into retry / skip / stop / fail, and the client's retry loop, the engine's stream
// outcome, the fan-out's skip and the CLI's exit code all ask it.

export class DsMirrorError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** May succeed if tried again unchanged: a network blip, a 5xx, a body cut short or a proxy's page. */
export class RetriableError extends DsMirrorError {}

/** Not a failure: a quota or budget is spent, or another worker holds the lease; the run stops at its checkpoint. */
export class StopError extends DsMirrorError {}

/** The one item is gone (a 404 on a detail or child list): skip it, keep the rest. */
export class SkipError extends DsMirrorError {}

/** Bad flags, environment or config file: the CLI prints the message on one line and exits 2. */
export class ConfigError extends DsMirrorError {
  constructor(message: string) {
    super('DS_CONFIG', message);
  }
}

/**
 * The service changed its shape under the mirror (a required field gone, most of a page in a type that
 * cannot be taken without loss, or any change under the `fail` contract): the stream fails naming the
 * field, the mirror's rows stay as they were, and `sync` exits 5.
 */
export class DriftError extends DsMirrorError {
  constructor(message: string) {
    super('DS_DRIFT', message);
  }
}

/** What to do about an error: anything not classed otherwise (a bug, a storage failure, a 400) fails. */
export type ErrorAction = 'retry' | 'skip' | 'stop' | 'fail';

export function errorAction(error: unknown): ErrorAction {
  if (error instanceof RetriableError) return 'retry';
  if (error instanceof SkipError) return 'skip';
  if (error instanceof StopError) return 'stop';
  return 'fail';
}

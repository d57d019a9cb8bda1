// One base error with a stable code, split the way the Singer SDK splits them: a retriable error
// may succeed if tried again, a fatal one stops the run, a skippable one loses one record or item.
export type ErrorKind = 'retriable' | 'fatal' | 'skippable';

export class DsMirrorError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;

  constructor(code: string, message: string, kind: ErrorKind = 'fatal', options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.kind = kind;
  }
}

/** Bad flags, environment or config file: the CLI prints the message on one line and exits 2. */
export class ConfigError extends DsMirrorError {
  constructor(message: string) {
    super('DS_CONFIG', message, 'fatal');
  }
}

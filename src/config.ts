// Configuration is read once, at the edge: defaults < config file < environment < command-line flags.
// Secrets (the API key, webhook secrets) come from the environment or files only, never from flags.
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import type { z } from 'zod';
import { fileSchema, overridesSchema, TOP, type FileConfig } from './config-schema.js';
import { ConfigError } from './errors.js';

export type { FileConfig } from './config-schema.js';

export interface Config extends FileConfig {
  baseUrl: string;
  apiKey: string | null;
  /** Where the key came from, for a message that must name it without showing it: `DS_API_KEY` or `apiKeyFile <path>`. */
  apiKeySource: string | null;
  db: string;
  logLevel: NonNullable<FileConfig['logLevel']>;
  configFile: string | null;
}

export const DEFAULT_DB = 'sqlite:data/mirror.db';
export const DEFAULT_CONFIG_FILE = 'ds-mirror.config.json';

/** Flags that can override the file and environment (the CLI's global options). */
export interface ConfigFlags {
  config?: string;
  db?: string;
  dbSchema?: string;
  baseUrl?: string;
  logLevel?: string;
}

export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): Readonly<Config> {
  const configFile = flags.config ?? env.DS_CONFIG ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : null);
  const file = configFile ? readConfigFile(configFile) : {};
  // An empty variable is an unset one (`DS_BASE_URL= ds-mirror ...`).
  const overrides = overridesSchema();
  const fromEnv = parse(
    overrides,
    'environment',
    {
      baseUrl: env.DS_BASE_URL || undefined,
      db: env.DS_DB || undefined,
      dbSchema: env.DS_DB_SCHEMA || undefined,
      logLevel: env.DS_LOG_LEVEL || undefined,
      timezone: env.DS_TIMEZONE || undefined,
      jobsDir: env.DS_JOBS_DIR || undefined,
      ...(env.DS_MONITORING_VIEWS ? { monitoring: { views: splitList(env.DS_MONITORING_VIEWS) } } : {}),
    },
    ENV_NAMES,
  );
  const fromFlags = parse(
    overrides,
    'command line',
    {
      baseUrl: flags.baseUrl,
      db: flags.db,
      dbSchema: flags.dbSchema,
      logLevel: flags.logLevel,
    },
    FLAG_NAMES,
  );
  // DS_MONITORING_VIEWS replaces the file's views, not the rest of its "monitoring".
  const monitoring = fromEnv.monitoring ? { monitoring: { ...file.monitoring, ...fromEnv.monitoring } } : {};
  const merged: FileConfig = { ...file, ...defined(fromEnv), ...monitoring, ...defined(fromFlags) };
  // An empty DS_API_KEY (`DS_API_KEY=` in a .env or a compose file) is unset, as every DS_ variable is:
  // it does not hide the key of "apiKeyFile".
  const envKey = env.DS_API_KEY || undefined;
  const apiKey = envKey ?? (merged.apiKeyFile ? readSecretFile(merged.apiKeyFile, 'apiKeyFile') : null);
  const apiKeySource = envKey !== undefined ? 'DS_API_KEY' : merged.apiKeyFile ? `apiKeyFile ${merged.apiKeyFile}` : null;
  return Object.freeze({
    ...merged,
    baseUrl: merged.baseUrl ?? '',
    apiKey: apiKey && apiKey.length > 0 ? apiKey : null,
    apiKeySource,
    db: merged.db ?? DEFAULT_DB,
    logLevel: merged.logLevel ?? 'info',
    configFile,
  });
}

/** The base URL and key a command that talks to the service needs, or one clear line on what to set. */
export function requireService(config: Config): { baseUrl: string; apiKey: string } {
  if (!config.baseUrl) throw new ConfigError('no service URL: set DS_BASE_URL, --base-url or "baseUrl" in the config file');
  if (!config.apiKey) throw new ConfigError('no API key: set DS_API_KEY (or "apiKeyFile" in the config file)');
  const v1 = /\/v1\/*$/i;
  if (v1.test(config.baseUrl.split(/[?#]/)[0])) {
    throw new ConfigError(
      `the service URL ${config.baseUrl} ends in /v1, which ds-mirror adds itself (as it adds /monitoring and /token-unlocks): ` +
        `use ${config.baseUrl.split(/[?#]/)[0].replace(v1, '') || 'the address without /v1'}`,
    );
  }
  return { baseUrl: config.baseUrl, apiKey: config.apiKey };
}

/** What the daemon's HTTP endpoints require: a bearer token, or a user and password (basic auth). */
export type HttpCredential = { bearer: string } | { basic: { user: string; password: string } };

/** The configured `metricsAuth`, read from its file (secrets live in files, never in the config). */
export function httpCredential(config: Config): HttpCredential | null {
  const auth = config.metricsAuth;
  if (!auth) return null;
  if ('bearerTokenFile' in auth) {
    const token = readSecretFile(auth.bearerTokenFile, 'metricsAuth.bearerTokenFile');
    if (token.length < 16)
      throw new ConfigError(`metricsAuth.bearerTokenFile ${auth.bearerTokenFile}: the token is shorter than 16 characters`);
    return { bearer: token };
  }
  const pair = readSecretFile(auth.basicAuthFile, 'metricsAuth.basicAuthFile');
  const colon = pair.indexOf(':');
  if (colon < 1 || colon === pair.length - 1)
    throw new ConfigError(`metricsAuth.basicAuthFile ${auth.basicAuthFile}: expected one line user:password`);
  return { basic: { user: pair.slice(0, colon), password: pair.slice(colon + 1) } };
}

/** `all`, `top:N` or a list of ids/slugs → a fan-out selection. */
/** Which parents a fan-out reads: every one, the first N by rank, or these ids or slugs. */
export type Selection = { all: true } | { top: number } | { ids: readonly string[] };

export function toSelection(value: string | readonly string[]): Selection {
  if (Array.isArray(value)) return { ids: value };
  if (value === 'all') return { all: true };
  const top = TOP.exec(value as string);
  if (top) return { top: Number(top[1]) };
  if ((value as string).startsWith('top:')) throw new ConfigError(`"${value as string}": top:N takes a whole number N of at least 1`);
  return { ids: splitList(value as string) };
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function readConfigFile(path: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read the config file ${path}: ${fileProblem(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`the config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parse(fileSchema(), `config file ${path}`, json);
}

export function readSecretFile(path: string, what: string): string {
  return readBoundedFile(path, what).trim();
}

/** A secret file is small: one bigger than this (or a device that never ends, /dev/zero) is refused unread. */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;

/** Reads at most MAX_SECRET_FILE_BYTES of a file; a longer one is refused with one line. */
export function readBoundedFile(path: string, what: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new ConfigError(`cannot read ${what} ${path}: ${fileProblem(error)}`);
  }
  try {
    const buffer = Buffer.alloc(MAX_SECRET_FILE_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > MAX_SECRET_FILE_BYTES) throw new ConfigError(`${what} ${path} is larger than 64 KiB: not a secret file`);
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read ${what} ${path}: ${fileProblem(error)}`);
  } finally {
    closeSync(fd);
  }
}

/** Why a file could not be read, in words. */
export function fileProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  return (error as Error).message;
}

/** Where a bad value came from, named as the user wrote it: DS_BASE_URL, --base-url, or the file's key. */
const ENV_NAMES: Record<string, string> = {
  baseUrl: 'DS_BASE_URL',
  db: 'DS_DB',
  dbSchema: 'DS_DB_SCHEMA',
  logLevel: 'DS_LOG_LEVEL',
  timezone: 'DS_TIMEZONE',
  jobsDir: 'DS_JOBS_DIR',
  'monitoring.views': 'DS_MONITORING_VIEWS',
};
const FLAG_NAMES: Record<string, string> = { baseUrl: '--base-url', db: '--db', dbSchema: '--db-schema', logLevel: '--log-level' };

function parse<T>(schema: z.ZodType<T>, where: string, value: unknown, names?: Record<string, string>): T {
  // Once per process: zod's generated parser (new Function per object schema) would cost more to compile than it saves.
  const result = schema.safeParse(value, { jitless: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.join('.') || '(root)';
  const named = names?.[path] ?? names?.[issue.path.slice(0, 2).join('.')];
  // What was given, beside what is expected: "limits.v1.requestsPerMonth: got 0; too small: ...".
  const given = issue.path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k as PropertyKey], value);
  const got = given === undefined || typeof given === 'object' ? '' : `got ${JSON.stringify(given)}; `;
  const said = `${got}${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
  throw new ConfigError(named ? `${named}: ${said}` : `${where}: ${path}: ${said}`);
}

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// What a configuration may say, as zod schemas: the config file's keys, and the few the environment and
// the command line also set, checked alike (the same line when one is wrong). Built when first asked for:
// building zod's schemas is about 20 ms of CPU, which every command paid at its start, and the whole
// file's is needed only where there is a config file.
import { z } from 'zod';

export const TOP = /^top:([1-9]\d*)$/;

/** An http or https URL with a host: what the client can send to (checked before any file is touched). */
function isServiceUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

/** The keys the environment and the command line also set. */
function overridable() {
  return {
    baseUrl: z.string().refine(isServiceUrl, 'expected http(s)://host[:port][/path], e.g. https://api.example.com'),
    db: z.string().min(1),
    dbSchema: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a plain SQL identifier'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    timezone: z.string(),
    jobsDir: z.string().min(1),
  };
}

const stringList = () => z.array(z.string().min(1));

/** What the environment and the command line set: those keys, and DS_MONITORING_VIEWS's list. */
export function overridesSchema() {
  const { baseUrl, db, dbSchema, logLevel, timezone, jobsDir } = overridable();
  const monitoring = z.object({ views: stringList() }).partial().strict();
  // In the file's order: with two wrong, the same one is said.
  return z.object({ baseUrl, db, dbSchema, logLevel, monitoring, timezone, jobsDir }).partial().strict();
}

/** Each API family's pace and quotas. */
function limitsSchema() {
  const pace = { requestsPerMinute: z.number().positive(), concurrency: z.number().int().min(1) };
  // A quota of the plan: null removes the standard plan's (a plan without that quota).
  const quota = z.number().int().positive().nullable();
  const limits = z
    .object({ ...pace, requestsPerDay: quota, requestsPerMonth: quota })
    .partial()
    .strict();
  // Charts are on the /v1 service and count against its quota: a pace of their own, no quota.
  const charts = z.object(pace).partial().strict();
  return z.object({ v1: limits, charts, tokenUnlocks: limits, monitoring: limits, open: limits }).partial().strict();
}

function selectionSchema() {
  const selection = z.union([
    z.literal('all'),
    z.string().regex(TOP, 'all, top:N with N at least 1, or a list of ids'),
    z.array(z.string().min(1)),
  ]);
  return z.object({ assets: selection, projects: selection, metrics: selection, charts: selection }).partial().strict();
}

function monitoringSchema() {
  const details = z
    .object({
      minimumImportance: z.enum(['not-important', 'low', 'medium', 'high']),
      maxAgeDays: z.number().positive().nullable(),
      maxPerRun: z.number().int().min(0),
    })
    .partial()
    .strict();
  const queryParams = z
    .object({
      events: z.record(z.string(), z.string()),
      viewEvents: z.record(z.string(), z.string()),
      tokenUnlocks: z.record(z.string(), z.string()),
    })
    .partial()
    .strict();
  return z
    .object({
      views: stringList(),
      fullPassEveryHours: z.number().positive(),
      details,
      events: z.record(z.string(), z.union([z.string(), z.boolean(), z.number(), stringList()])),
      tokenUnlocks: z.record(z.string(), z.union([z.string(), stringList()])),
      queryParams,
    })
    .partial()
    .strict();
}

function receiverSchema() {
  return z
    .object({
      port: z.number().int().min(0).max(65535),
      host: z.string(),
      path: z.string().startsWith('/'),
      toleranceSec: z.number().positive(),
      maxBodyBytes: z.number().int().positive(),
      allowUnsignedViews: stringList(),
      secretsFile: z.string(),
    })
    .partial()
    .strict();
}

/** The config file (JSON): every key optional, in the order its keys are checked. */
function buildFileSchema() {
  const { baseUrl, db, dbSchema, logLevel, timezone, jobsDir } = overridable();
  // What a change of the service's shape does to a stream (docs/operations.md, "When the service changes").
  const contract = z.enum(['hold', 'accept', 'fail']);
  return z
    .object({
      baseUrl,
      apiKeyFile: z.string(),
      db,
      dbSchema,
      logLevel,
      timeoutMs: z.number().int().positive(),
      retries: z.number().int().min(0),
      limits: limitsSchema(),
      pageWindow: z.number().int().min(1).max(64),
      topAssets: z.number().int().min(1).max(10_000),
      fanoutConcurrency: z.number().int().min(1).max(256),
      lookbackDays: z.record(z.string(), z.number().min(0)),
      selection: selectionSchema(),
      metricProjects: stringList(),
      monitoring: monitoringSchema(),
      receiver: receiverSchema(),
      timezone,
      jobs: z.record(z.string(), z.object({ schedule: z.string(), enabled: z.boolean() }).partial().strict()),
      jobsDir,
      metricsPort: z.number().int().min(0).max(65535),
      // The credential /healthz, /metrics and /status require; a daemon bound beyond loopback needs one.
      metricsAuth: z.union([z.object({ bearerTokenFile: z.string() }).strict(), z.object({ basicAuthFile: z.string() }).strict()]),
      maxResponseBytes: z.number().int().min(1024),
      maxPagesPerList: z.number().int().min(1),
      maxDeleteShare: z.number().min(0).max(1),
      confirmDeletionsAfterHours: z.number().min(0),
      // How long the store waits on its database (store-bounds.ts); 0 lifts a statement bound.
      dbStatementTimeoutMs: z.number().int().min(0),
      dbMigrationTimeoutMs: z.number().int().min(0),
      dbConnectTimeoutMs: z.number().int().min(1),
      dbBusyTimeoutMs: z.number().int().min(0),
      // What a change of the service's shape does (src/sync/shape/): `default` for every stream, then per stream.
      schemaChanges: z
        .object({ default: contract, streams: z.record(z.string(), contract) })
        .partial()
        .strict(),
    })
    .partial()
    .strict();
}

export type FileConfig = z.infer<ReturnType<typeof buildFileSchema>>;

let built: ReturnType<typeof buildFileSchema> | undefined;

/** The config file's schema, built at its first use. */
export function fileSchema(): ReturnType<typeof buildFileSchema> {
  return (built ??= buildFileSchema());
}

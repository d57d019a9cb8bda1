// `npm run sandbox -- --port 4010 --scale 1 --seed 42 [--chaos ...]`: runs the sandbox until stopped.
// Configuration is read here and only here: flags, plus SANDBOX_API_KEY and SANDBOX_WEBHOOK_SECRET
// from the environment (secrets are never flags and never printed, except the sandbox's own key).
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseChaos } from './http/chaos.js';
import { formatQuota, parseQuota, type QuotaLimit } from './quota/index.js';
import { startSandbox } from './sandbox.js';

function number(name: string, check: (n: number) => boolean) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!Number.isFinite(n) || !check(n)) throw new InvalidArgumentError(`${name} must be a valid number (got "${raw}")`);
    return n;
  };
}

function chaosSpec(raw: string) {
  try {
    return parseChaos(raw);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function quotaSpec(raw: string) {
  try {
    return parseQuota(raw);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

const program = new Command('sandbox')
  .description('A local, seeded implementation of the Data Service API for tests, benchmarks and demos.')
  .option(
    '--port <n>',
    'port to listen on (0 = any free port)',
    number('--port', (n) => Number.isInteger(n) && n >= 0 && n < 65536),
    4010,
  )
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option(
    '--scale <n>',
    'data size: 1 = about 2,000 assets, grows linearly',
    number('--scale', (n) => n > 0),
    1,
  )
  .option('--seed <n>', 'seed of the generated data', number('--seed', Number.isInteger), 42)
  .addOption(
    new Option(
      '--profile <name>',
      "data sizes; real: the real service's sizes and allowances (v1 2,500 a month, 200 a minute for monitoring and token unlocks) unless --quota",
    )
      .choices(['default', 'real'])
      .default('default'),
  )
  .option('--chaos <spec>', 'faults, e.g. "5xx=0.05,429=0.02,reset=0.01,truncate=0.01,latency=20ms"', chaosSpec)
  .option(
    '--quota <spec>',
    'refuse requests beyond these limits (429), on the sandbox clock, e.g. "v1=2500/month,monitoring=200/min"',
    quotaSpec,
  )
  .option('--control', 'enable the /_sandbox/* control endpoints (clock, chaos, counters, records)', false)
  .option(
    '--tick <seconds>',
    'advance the sandbox clock by this much every this many real seconds',
    number('--tick', (n) => n > 0),
  )
  .option('--start <iso>', 'sandbox time at start (default: now; pin it, with --seed, to serve the same bytes again)')
  .option('--webhook-url <url>', 'POST monitoring alerts to this URL (secret: env SANDBOX_WEBHOOK_SECRET)')
  .option(
    '--webhook-time-factor <n>',
    'scale webhook retry back-off and time-outs (measured on the sandbox clock) by this factor',
    number('--webhook-time-factor', (n) => n > 0),
  )
  .showHelpAfterError()
  // Bad flags exit 2, like ds-mirror's own commands.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

program.parse();
const o = program.opts<{
  port: number;
  host: string;
  scale: number;
  seed: number;
  profile: 'default' | 'real';
  chaos?: ReturnType<typeof parseChaos>;
  quota?: QuotaLimit[];
  control: boolean;
  tick?: number;
  start?: string;
  webhookUrl?: string;
  webhookTimeFactor?: number;
}>();

const start = o.start === undefined ? undefined : new Date(o.start);
if (start && Number.isNaN(start.getTime()))
  program.error('--start must be an ISO 8601 date-time, e.g. 2025-06-01T12:00:00Z', { exitCode: 2 });
if (o.webhookUrl && !/^https?:\/\//.test(o.webhookUrl)) program.error('--webhook-url must be an http:// or https:// URL', { exitCode: 2 });

const secret = process.env.SANDBOX_WEBHOOK_SECRET || undefined;
const sandbox = await startSandbox({
  port: o.port,
  host: o.host,
  scale: o.scale,
  seed: o.seed,
  profile: o.profile,
  apiKey: process.env.SANDBOX_API_KEY || undefined,
  chaos: o.chaos,
  quota: o.quota,
  control: o.control,
  start,
  tickSeconds: o.tick,
  webhooks: {
    timeFactor: o.webhookTimeFactor,
    defaultPolicy: o.webhookUrl
      ? { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: o.webhookUrl, webhook_secret: secret }
      : undefined,
  },
});

console.log(`sandbox listening on ${sandbox.url}`);
console.log(`API key: ${sandbox.apiKey}`);
console.log(
  `seed ${o.seed}, ${o.profile === 'real' ? 'profile real' : `scale ${o.scale}`}, clock ${sandbox.now().toISOString()}` +
    `${o.chaos ? ', chaos on' : ''}${o.quota?.length ? `, quota ${formatQuota(o.quota)}` : ''}${o.control ? ', control on' : ''}${o.tick ? `, tick ${o.tick}s` : ''}` +
    `${o.webhookUrl ? `, webhooks to ${o.webhookUrl}${secret ? ' (signed)' : ' (unsigned)'}` : ''}`,
);

// The API has no list of views: this is where a user finds the ids to put in DS_MONITORING_VIEWS.
const views = sandbox.monitoring.views();
const SHOWN = 25;
console.log(`monitoring views (${views.length}; DS_MONITORING_VIEWS takes ids or slugs, comma-separated):`);
for (const v of views.slice(0, SHOWN)) console.log(`  ${v.id}  ${v.slug}  ${v.name}`);
if (views.length > SHOWN) {
  console.log(`  … and ${views.length - SHOWN} more${o.control ? '' : ' (start with --control to list them)'}: GET /_sandbox/views`);
}

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await sandbox.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

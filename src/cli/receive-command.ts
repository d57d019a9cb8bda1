// `ds-mirror receive`: runs the webhook receiver until SIGINT/SIGTERM, then shuts down gracefully
// (stop accepting, finish in-flight deliveries, close the database). Secrets never come from flags.
import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { commandContext, openConfiguredStore, wholeNumber } from './context.js';
import { DEFAULT_RECEIVER_PORT } from '../mirror/configured.js';
import { loadSecrets } from '../receiver/load-secrets.js';
import { startReceiver } from '../receiver/start-receiver.js';

interface ReceiveFlags {
  port?: number;
  host?: string;
  path?: string;
  secretsFile?: string;
  allowUnsignedView?: string[];
  tolerance?: number;
  maxBody?: number;
}

export function receiveCommand(program: Command, io: CliIo): void {
  program
    .command('receive')
    .description('Receive signed webhook deliveries (monitoring alerts) and append them to the mirror')
    .option('--port <n>', `port to listen on (default ${DEFAULT_RECEIVER_PORT})`, wholeNumber('--port'))
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .option('--path <path>', 'URL path of the webhook (default /webhooks)')
    .option(
      '--secrets-file <file>',
      'webhook secrets, one per line, or "<view id or slug> <secret>" for a view\'s own (env DS_WEBHOOK_SECRETS adds comma-separated ones)',
    )
    .option('--allow-unsigned-view <viewId...>', 'accept unsigned deliveries for this view (one configured without a secret)')
    .option('--tolerance <seconds>', 'largest signature timestamp skew accepted (default 300)', wholeNumber('--tolerance'))
    .option('--max-body <bytes>', 'largest body accepted; larger gets 413 (default 1048576)', wholeNumber('--max-body'))
    .action(async (flags: ReceiveFlags, command: Command) => {
      const ctx = commandContext(command, io);
      const file = ctx.config.receiver ?? {};
      const secrets = loadSecrets(io.env, flags.secretsFile ?? file.secretsFile);
      const store = await openConfiguredStore(ctx);
      try {
        const receiver = await startReceiver({
          store,
          port: flags.port ?? file.port ?? DEFAULT_RECEIVER_PORT,
          host: flags.host ?? file.host,
          path: flags.path ?? file.path,
          secrets,
          views: ctx.config.monitoring?.views,
          allowUnsignedViews: flags.allowUnsignedView ?? file.allowUnsignedViews,
          toleranceSec: flags.tolerance ?? file.toleranceSec,
          maxBodyBytes: flags.maxBody ?? file.maxBodyBytes,
          logger: ctx.logger,
        });
        io.stdout.write(`receiving webhooks at ${receiver.url} (health: GET /healthz)\n`);
        ctx.logger.info({ signal: await stopSignal() }, 'stopping the webhook receiver');
        await receiver.close();
      } finally {
        await store.close();
      }
    });
}

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

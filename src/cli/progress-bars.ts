// Progress of a run: one bar per stream on a terminal, one log line per finished stream otherwise.
import cliProgress from 'cli-progress';
import type { Logger } from 'pino';
import type { StreamRunStats } from '../store/types.js';
import type { Progress } from '../sync/context.js';

export function terminalProgress(stream: NodeJS.WriteStream): Progress & { stop(): void } {
  const multibar = new cliProgress.MultiBar(
    {
      stream,
      clearOnComplete: false,
      hideCursor: true,
      format: ' {stream} |{bar}| {value} rows {detail}',
      barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  const detail = (s: Readonly<StreamRunStats>) => `+${s.inserted} ~${s.updated} =${s.unchanged} -${s.deleted}`;
  return {
    start(name, expected) {
      const payload = { stream: name.padEnd(22), detail: '' };
      const bar = bars.get(name);
      if (bar) bar.setTotal(expected ?? 0);
      else bars.set(name, multibar.create(expected ?? 0, 0, payload));
    },
    advance(name, s) {
      const bar = bars.get(name);
      if (!bar) return;
      // An unknown total (a first sync) stays an empty bar with a count; a known one may still grow.
      if (bar.getTotal() > 0 && bar.getTotal() < s.fetched) bar.setTotal(s.fetched);
      bar.update(s.fetched, { detail: detail(s) });
    },
    finish(name, s) {
      const bar = bars.get(name);
      if (!bar) return;
      bar.setTotal(Math.max(s.fetched, 1));
      bar.update(s.fetched, { detail: `${detail(s)} ${s.outcome}` });
    },
    stop: () => multibar.stop(),
  };
}

export function logProgress(logger: Logger): Progress {
  return {
    start(name) {
      logger.debug({ stream: name }, 'stream started');
    },
    advance(name, s) {
      logger.debug({ stream: name, fetched: s.fetched }, 'page written');
    },
    finish(name, s) {
      logger.info({ ...s }, 'stream finished');
    },
  };
}

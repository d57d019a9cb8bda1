// Logs: one human line each on a terminal, pino's JSON lines elsewhere; both redacted.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandContext } from '../../src/cli/context.js';
import { createLogger } from '../../src/logger.js';

function stderr(isTTY: boolean) {
  const lines: string[] = [];
  return {
    lines,
    stream: {
      isTTY,
      write: (text: string) => {
        lines.push(text);
        return true;
      },
    },
  };
}

function logTo(isTTY: boolean) {
  const err = stderr(isTTY);
  const io = { stdout: process.stdout, stderr: err.stream as unknown as NodeJS.WriteStream, env: { DS_LOG_LEVEL: 'info' } };
  const { logger } = commandContext(new Command('test'), io);
  logger.warn({ signal: 'SIGTERM', job: 'monthly-assets', err: 'connect ECONNREFUSED 127.0.0.1:1', apiKey: 'sk-123' }, 'signal received');
  logger.debug('not at info');
  return err.lines;
}

describe('the logs', () => {
  it('on a terminal: the time, the level, the message, then key=value, redacted', () => {
    const lines = logTo(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}signal received signal=SIGTERM job=monthly-assets err="connect ECONNREFUSED 127\.0\.0\.1:1" apiKey=\[redacted\]\n$/,
    );
  });

  it("elsewhere: pino's JSON lines on file descriptor 2, redacted", () => {
    expect(logTo(false)).toEqual([]); // not the human lines: straight to fd 2
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.warn({ signal: 'SIGTERM', apiKey: 'sk-123' }, 'signal received');
    expect(JSON.parse(lines[0])).toMatchObject({ level: 40, msg: 'signal received', signal: 'SIGTERM', apiKey: '[redacted]' });
  });
});

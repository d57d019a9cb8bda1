// The CLI's `main` run in this process, as bin/ds-mirror.js runs it (argv in, exit code out, stdout and
// stderr kept): for input the CLI refuses before it opens a file, sends a request or starts a thread (bad
// flags, a bad configuration), where a spawned process would cost a Node start per case and prove nothing
// more. The files that use it keep a spawned case of the same contract (the exit code through a process).
import { main } from '../../src/cli/main.js';
import type { CliResult } from './cli-user.js';

/** Runs `ds-mirror <args>` in this process with `env` as its whole environment. */
export async function cliInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (sink: string[]) => ({ write: (s: string) => sink.push(s) > 0, isTTY: false }) as unknown as NodeJS.WriteStream;
  const code = await main(['node', 'ds-mirror', ...args], { stdout: stream(out), stderr: stream(err), env });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

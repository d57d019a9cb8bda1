// Webhook secrets come from the environment or a file, never from the command line (where `ps` and
// shell history would show them). Several may be active at once: one per monitoring view, and an
// old and a new one while a secret is being rotated.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';

/** `DS_WEBHOOK_SECRETS` is comma-separated; the file holds one secret per line, `#` starts a comment line. */
export function loadSecrets(env: { DS_WEBHOOK_SECRETS?: string }, file?: string): string[] {
  const found = (env.DS_WEBHOOK_SECRETS ?? '').split(',');
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new ConfigError(`cannot read the webhook secrets file ${file} (${code}): check the path and its permissions`);
    }
    found.push(...text.split(/\r?\n/).filter((line) => !line.trimStart().startsWith('#')));
  }
  return [...new Set(found.map((s) => s.trim()).filter((s) => s.length > 0))];
}

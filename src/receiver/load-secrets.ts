// Webhook secrets come from the environment or a file, never from the command line (where `ps` and
// shell history would show them). Several may be active at once: one per monitoring view, and an
// old and a new one while a secret is being rotated.
import { readBoundedFile } from '../config.js';

/** `DS_WEBHOOK_SECRETS` is comma-separated; the file holds one secret per line, `#` starts a comment line. */
export function loadSecrets(env: { DS_WEBHOOK_SECRETS?: string }, file?: string): string[] {
  const found = (env.DS_WEBHOOK_SECRETS ?? '').split(',');
  if (file !== undefined) {
    const text = readBoundedFile(file, 'the webhook secrets file');
    found.push(...text.split(/\r?\n/).filter((line) => !line.trimStart().startsWith('#')));
  }
  return [...new Set(found.map((s) => s.trim()).filter((s) => s.length > 0))];
}

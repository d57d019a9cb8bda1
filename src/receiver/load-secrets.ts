// Webhook secrets come from the environment or a file, never from the command line (where `ps` and
// shell history would show them). Several may be active at once: one per monitoring view, and an
// old and a new one while a secret is being rotated. A secret may be bound to its view, so that a
// delivery signed with one view's secret cannot pass as another view's.
import { readBoundedFile } from '../config.js';

export interface WebhookSecrets {
  /** Secrets any configured view may sign with. */
  shared: string[];
  /** Secrets of one view only, by the view's id or slug. */
  byView: Record<string, string[]>;
}

/**
 * `DS_WEBHOOK_SECRETS` is comma-separated; the file holds one per line, `#` starts a comment line.
 * Each item is a secret, or `<view id or slug> <secret>` (separated by spaces) for one view's own.
 */
export function loadSecrets(env: { DS_WEBHOOK_SECRETS?: string }, file?: string): WebhookSecrets {
  const found = (env.DS_WEBHOOK_SECRETS ?? '').split(',');
  if (file !== undefined) {
    const text = readBoundedFile(file, 'the webhook secrets file');
    found.push(...text.split(/\r?\n/).filter((line) => !line.trimStart().startsWith('#')));
  }
  const shared = new Set<string>();
  const byView: Record<string, string[]> = {};
  for (const item of found) {
    const fields = item.trim().split(/\s+/).filter(Boolean);
    if (fields.length === 1) shared.add(fields[0]!);
    else if (fields.length >= 2) {
      const [view, secret] = fields as [string, string];
      const own = (byView[view] ??= []);
      if (!own.includes(secret)) own.push(secret);
    }
  }
  return { shared: [...shared], byView };
}

/** How many secrets in all (the receiver refuses to start with none and no unsigned view). */
export function secretCount(s: WebhookSecrets): number {
  return s.shared.length + Object.values(s.byView).reduce((n, v) => n + v.length, 0);
}

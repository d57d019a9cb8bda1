// `ds-mirror views`: the monitoring views the mirror is configured for, with their names. The API has
// no list endpoint, so the ids come from the user (the view's URL in the service's web application);
// this shows what each one is, from the mirror (after a sync) or from the service with --fetch.
import type { Command } from 'commander';
import { MONITORING_PATHS } from '../catalog/monitoring.js';
import { NotFoundError } from '../client/index.js';
import { alertsPerView } from '../receiver/index.js';
import { syncSettings } from '../sync/index.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { commandContext, mirrorExists, openMirrorToRead, type CommandContext, configuredClient } from './context.js';
import { formatTable } from './table.js';

interface ViewRow {
  configured: string | null;
  id: string | null;
  slug: string | null;
  name: string | null;
  matches24h: number | null;
  alerts: number | null;
  note: string | null;
}

export function viewsCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('views')
    .description(
      'List the configured monitoring views (DS_MONITORING_VIEWS / monitoring.views) with their names, ' +
        'as last mirrored, or asked of the service with --fetch; views mirrored earlier but no longer configured are listed too',
    )
    .option('--fetch', 'ask the service for each configured view (one request each) instead of reading the mirror')
    .option('--json', 'print JSON instead of a table')
    .action(async (flags: { fetch?: boolean; json?: boolean }, command: Command) => {
      const ctx = commandContext(command, io);
      const tokens = syncSettings(ctx.config).monitoring.views;
      // With no view configured and no mirror, there is nothing to read: the hint below says what to set.
      const nothing = tokens.length === 0 && !mirrorExists(ctx);
      const rows = flags.fetch ? await fetchViews(ctx, tokens) : nothing ? [] : await mirroredViews(ctx, tokens);
      if (flags.json) {
        io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      } else if (rows.length === 0) {
        io.stdout.write(
          'no monitoring view is configured: set DS_MONITORING_VIEWS (or "monitoring.views" in the config file) to view ids; ' +
            "a view's id (or slug) is in its URL in the service's web application\n",
        );
      } else {
        io.stdout.write(
          `${formatTable(
            ['configured as', 'id', 'name', 'slug', 'matches 24h', 'alerts mirrored', 'note'],
            rows.map((r) => [r.configured, r.id, r.name, r.slug, r.matches24h, r.alerts, r.note]),
          )}\n`,
        );
      }
      if (rows.some((r) => r.note?.startsWith('unknown'))) setExit(EXIT.failed);
    });
}

/** Each configured view as the mirror holds it, then the mirrored views no longer configured. */
async function mirroredViews(ctx: CommandContext, tokens: readonly string[]): Promise<ViewRow[]> {
  const store = await openMirrorToRead(ctx);
  try {
    const views = (await store.db
      .selectFrom('monitoring_views')
      .select(['id', 'slug', 'name', 'match_count_24h', 'deleted_at'])
      .execute()) as { id: string; slug: string | null; name: string | null; match_count_24h: number | null; deleted_at: string | null }[];
    const alerts = await alertsPerView(store);
    const alertsOf = (id: string) => alerts.get(id) ?? 0;
    const used = new Set<string>();
    const rows: ViewRow[] = tokens.map((token) => {
      const view = views.find((v) => sameView(v, token));
      if (!view)
        return {
          configured: token,
          id: null,
          slug: null,
          name: null,
          matches24h: null,
          alerts: null,
          note: 'not mirrored yet: run `ds-mirror sync monitoring-views`, or `views --fetch`',
        };
      used.add(view.id);
      return {
        configured: token,
        id: view.id,
        slug: view.slug,
        name: view.name,
        matches24h: view.match_count_24h,
        alerts: alertsOf(view.id),
        note: view.deleted_at ? 'no longer served' : null,
      };
    });
    for (const view of views.filter((v) => !used.has(v.id))) {
      rows.push({
        configured: null,
        id: view.id,
        slug: view.slug,
        name: view.name,
        matches24h: view.match_count_24h,
        alerts: alertsOf(view.id),
        note: 'mirrored earlier, not configured now',
      });
    }
    return rows;
  } finally {
    await store.close();
  }
}

/** Each configured view as the service serves it now (nothing is written). */
async function fetchViews(ctx: CommandContext, tokens: readonly string[]): Promise<ViewRow[]> {
  if (tokens.length === 0) return [];
  const client = configuredClient(ctx);
  try {
    const rows: ViewRow[] = [];
    for (const token of tokens) {
      try {
        const body = await client.get<{ data?: Record<string, unknown> }>(MONITORING_PATHS.view(token));
        const v = body?.data ?? {};
        rows.push({
          configured: token,
          id: text(v.id),
          slug: text(v.slug),
          name: text(v.name),
          matches24h: typeof v.matchCount24h === 'number' ? v.matchCount24h : null,
          alerts: null,
          note: null,
        });
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        rows.push({
          configured: token,
          id: null,
          slug: null,
          name: null,
          matches24h: null,
          alerts: null,
          note: "unknown to the service: check the id (or slug) in the view's URL",
        });
      }
    }
    return rows;
  } finally {
    await client.close();
  }
}

/** A view given by its UUID or by its slug (which starts with the id). */
function sameView(view: { id: string; slug: string | null }, token: string): boolean {
  const t = token.toLowerCase();
  return view.id.toLowerCase() === t || view.slug?.toLowerCase() === t;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

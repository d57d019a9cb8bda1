// The status page, whole: a summary of the operator's three questions (is every table fresh, will the
// month's allowance last, did anything fail or get quarantined), then the sections. A pure function of
// the data; the page loads nothing and runs no script (its policy says so); the daemon's copy refreshes
// itself.
import { alertsSection } from './alerts-section.js';
import { budgetSection, stat } from './budget-section.js';
import { count, relative, utcTime } from './format.js';
import { html, raw, type SafeHtml } from './html.js';
import { PAGE_STYLE } from './page-style.js';
import { jobsSection, runsSection } from './runs-section.js';
import type { StatusData } from './status-data.js';
import { shapeSection } from './shape-section.js';
import { streamsSection } from './streams-section.js';

/** How often the daemon's page reloads itself. */
export const REFRESH_SECONDS = 60;

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; script-src 'none'; form-action 'none'; base-uri 'none'";

export function renderStatusPage(data: StatusData): string {
  const now = data.generatedAt;
  const refresh = data.source === 'daemon' ? html`<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : null;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
${refresh}<title>ds-mirror status</title>
<style>${raw(PAGE_STYLE)}</style></head>
<body><header><h1>ds-mirror status</h1>
<span class="muted">${utcTime(now)} · ${data.source === 'daemon' ? `refreshes every ${REFRESH_SECONDS} s` : 'written by ds-mirror status --html'}</span></header>
<main>${summary(data)}
${streamsSection(data.streams, now)}
${shapeSection(data.schemaChanges, now)}
${budgetSection(data.families, data.problems, now)}
${runsSection(data.runs, now)}
${alertsSection(data.alerts, data.deliveries, data.unresolvedViews)}
${jobsSection(data.jobs, now)}
</main></body></html>
`;
  return page.text;
}

/** The first names, and how many more. */
function few(names: readonly string[]): string {
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/** One card per question; the colour says whether to look further down. */
function summary(data: StatusData): SafeHtml {
  const scheduled = data.streams.filter((s) => s.maxAgeMs !== null);
  const behind = scheduled.filter((s) => s.freshness !== 'fresh');
  const stale = scheduled.filter((s) => s.freshness === 'stale' || s.freshness === 'never');
  const held = data.families.filter((f) => f.hold !== null);
  const over = data.families.filter((f) => f.quota.perMonth !== undefined && f.projectedAtRenewal > f.quota.perMonth);
  const failed = data.runs.filter((r) => r.outcome === 'failed' || r.outcome === 'interrupted');
  const quarantined = data.streams.reduce((n, s) => n + s.quarantined, 0);
  const alerts = data.alerts.views.reduce((n, v) => n + v.total, 0);
  const next = data.jobs.filter((j) => j.enabled && j.nextRunAt !== null).sort((a, b) => a.nextRunAt!.localeCompare(b.nextRunAt!))[0];
  return html`<div class="stats summary" id="summary">
${stat('fresh streams', `${scheduled.length - behind.length}/${scheduled.length}`, behind.length === 0 ? 'all on schedule' : `behind: ${few(behind.map((s) => s.stream))}`, stale.length > 0 ? 'bad' : behind.length > 0 ? 'warn' : 'ok')}
${stat('budget', held.length > 0 ? 'held' : over.length > 0 ? 'over' : 'fits', held.length > 0 ? `held: ${held.map((f) => f.label).join(', ')}` : over.length > 0 ? `projected over: ${over.map((f) => f.label).join(', ')}` : 'projected within the allowances', held.length > 0 ? 'bad' : over.length > 0 ? 'warn' : 'ok')}
${stat('failed runs', count(failed.length), `of the last ${data.runs.length}`, failed.length > 0 ? 'bad' : 'ok')}
${stat('quarantined', count(quarantined), 'records set aside', quarantined > 0 ? 'warn' : 'ok')}
${stat('alerts', count(alerts), data.unresolvedViews.length > 0 ? `views not resolved: ${few(data.unresolvedViews)}` : 'last 30 days', data.unresolvedViews.length > 0 ? 'bad' : 'ok')}
${stat('next run', next ? relative(next.nextRunAt, data.generatedAt) : 'none', next ? next.name : 'no enabled job', next ? 'ok' : 'muted')}
</div>`;
}

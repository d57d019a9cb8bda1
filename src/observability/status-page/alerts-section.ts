// Alerts per monitoring view per day over the last 30 days, one small chart per view, each bar split
// by how the alerts arrived: by webhook, by a backfill, or both.
import { unresolvedViewLine } from '../../receiver/index.js';
import { count, shortDay } from './format.js';
import { html, type SafeHtml } from './html.js';
import type { AlertsData, Arrival, ViewAlerts } from './status-data.js';
import { barChart } from './svg-chart.js';

const MAX_VIEWS = 12;
const ARRIVALS: readonly Arrival[] = ['webhook', 'both', 'backfill'];

export function alertsSection(
  alerts: AlertsData,
  deliveries: { received: number; lastReceivedAt: string | null },
  unresolvedViews: readonly string[],
): SafeHtml {
  const shown = alerts.views.slice(0, MAX_VIEWS);
  const rest = alerts.views.slice(MAX_VIEWS);
  return html`<section id="alerts"><h2>Alerts, last 30 days</h2>
${unresolvedViews.map((name) => html`<p class="banner bad unresolved-view">${unresolvedViewLine(name)}</p>`)}
<p class="legend"><span class="key webhook"></span>webhook <span class="key both"></span>webhook and backfill <span class="key backfill"></span>backfill only · ${count(deliveries.received)} webhook deliveries received in all</p>
${shown.length === 0 ? html`<p class="muted">No alert in the last 30 days.</p>` : html`<div class="grid small">${shown.map((v) => viewPanel(v, alerts.days))}</div>`}
${rest.length > 0 ? html`<p class="muted">${rest.length} more views: ${rest.map((v) => `${v.viewName} (${v.total})`).join(', ')}</p>` : null}
</section>`;
}

function viewPanel(view: ViewAlerts, days: readonly string[]): SafeHtml {
  const sum = (a: Arrival) => view.perDay.reduce((n, d) => n + d[a], 0);
  return html`<article class="panel view" data-view="${view.viewId}">
<h3 class="view-name">${view.viewName}</h3>
<p class="muted">${count(view.total)} alerts: ${ARRIVALS.map((a) => `${count(sum(a))} ${a}`).join(', ')}</p>
${barChart({
  title: `${view.viewName}: alerts per day`,
  labels: days.map(shortDay),
  series: ARRIVALS.map((a) => ({ name: a, className: a, values: view.perDay.map((d) => d[a]) })),
})}
</article>`;
}

// The recent runs (every worker's, from sync_runs) and the configured jobs with their next run times.
import { count, duration, relative, utcTime } from './format.js';
import { html, type SafeHtml } from './html.js';
import type { JobLine, RunLine } from './status-data.js';

const OUTCOME_TONE: Record<string, string> = { success: 'ok', partial: 'warn', failed: 'bad', interrupted: 'bad', stopped: 'warn' };

export function runsSection(runs: readonly RunLine[], now: string): SafeHtml {
  return html`<section id="runs"><h2>Recent runs</h2>
${
  runs.length === 0
    ? html`<p class="muted">No run yet.</p>`
    : html`<div class="scroll"><table>
<thead><tr><th class="num">run</th><th>job</th><th>started</th><th>streams</th><th class="num">requests</th><th class="num">rows written</th><th class="num">duration</th><th>outcome</th></tr></thead>
<tbody>${runs.map((r) => runRow(r, now))}</tbody>
</table></div>`
}
</section>`;
}

function runRow(r: RunLine, now: string): SafeHtml {
  const outcome = r.outcome ?? 'running';
  return html`<tr data-run="${r.id}">
<td class="num">${r.id}</td>
<td>${r.job ?? html`<span class="muted">manual</span>`} <span class="muted">${r.mode}</span></td>
<td class="when" title="${utcTime(r.startedAt)}">${relative(r.startedAt, now)}</td>
<td class="streams">${r.streams.join(', ')}</td>
<td class="num">${count(r.requests)}</td>
<td class="num">${count(r.rowsWritten)}</td>
<td class="num">${duration(r.durationMs)}</td>
<td><span class="badge ${OUTCOME_TONE[outcome] ?? 'muted'}">${outcome}</span>${r.error ? html`<div class="message bad-text">${r.error}</div>` : null}</td>
</tr>`;
}

export function jobsSection(jobs: readonly JobLine[], now: string): SafeHtml {
  const ordered = [...jobs].sort((a, b) => Number(b.enabled) - Number(a.enabled) || (a.nextRunAt ?? '~').localeCompare(b.nextRunAt ?? '~'));
  return html`<section id="jobs"><h2>Jobs</h2>
<div class="scroll"><table>
<thead><tr><th>job</th><th>schedule</th><th>next run</th><th>last run</th><th>streams</th></tr></thead>
<tbody>${ordered.map((j) => jobRow(j, now))}</tbody>
</table></div>
</section>`;
}

function jobRow(j: JobLine, now: string): SafeHtml {
  const next = !j.enabled
    ? html`<span class="badge muted">disabled</span>`
    : j.running
      ? html`<span class="badge info">running</span>`
      : null;
  return html`<tr data-job="${j.name}">
<td class="name">${j.name} <span class="muted">${j.mode}</span></td>
<td><code>${j.schedule}</code>${j.timeZone ? html` <span class="muted">${j.timeZone}</span>` : null}</td>
<td class="when" title="${utcTime(j.nextRunAt)}">${next}${j.enabled && j.nextRunAt ? html` ${relative(j.nextRunAt, now)}` : null}</td>
<td class="when" title="${utcTime(j.lastFinishedAt)}">${j.lastOutcome ? html`<span class="badge ${OUTCOME_TONE[j.lastOutcome] ?? 'muted'}">${j.lastOutcome}</span> ${relative(j.lastFinishedAt, now)}` : html`<span class="muted">not yet</span>`}</td>
<td class="streams">${j.streams.join(', ')}</td>
</tr>`;
}

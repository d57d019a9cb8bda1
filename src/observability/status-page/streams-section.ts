// Per stream: is it fresh against its schedule, how many rows it holds, when it last succeeded, what
// went wrong last, and what it quarantined. Streams neither scheduled nor ever synced are only counted.
import { count, relative, span, utcTime } from './format.js';
import { html, type SafeHtml } from './html.js';
import type { Freshness, StreamLine } from './status-data.js';

const TONE: Record<Freshness, string> = { fresh: 'ok', late: 'warn', stale: 'bad', never: 'bad', unscheduled: 'muted' };

export function streamsSection(streams: readonly StreamLine[], now: string): SafeHtml {
  const shown = streams.filter((s) => s.freshness !== 'never' || s.maxAgeMs !== null);
  const hidden = streams.length - shown.length;
  return html`<section id="streams"><h2>Streams</h2>
<div class="scroll"><table>
<thead><tr><th>stream</th><th>state</th><th class="num">rows</th><th>last success</th><th>age / at most</th><th class="num">quarantined</th><th>last error or notice</th></tr></thead>
<tbody>${shown.map((s) => streamRow(s, now))}</tbody>
</table></div>
${hidden > 0 ? html`<p class="muted">${hidden} more streams of the catalog are neither scheduled nor synced.</p>` : null}
</section>`;
}

function streamRow(s: StreamLine, now: string): SafeHtml {
  const message = s.lastError ?? (s.lastNotice ? `notice: ${s.lastNotice}` : null);
  return html`<tr data-stream="${s.stream}">
<td class="name">${s.stream}${s.resumes ? html` <span class="tag">resumes</span>` : null}</td>
<td><span class="badge ${TONE[s.freshness]}">${s.freshness}</span></td>
<td class="num">${count(s.rows)}</td>
<td class="when" title="${utcTime(s.lastSuccessAt)}">${relative(s.lastSuccessAt, now)}</td>
<td>${s.ageMs === null ? '—' : span(s.ageMs)} / ${s.maxAgeMs === null ? 'not scheduled' : html`<span title="${s.jobs.join(', ')}">${span(s.maxAgeMs)}</span>`}</td>
<td class="num${s.quarantined > 0 ? ' warn-text' : ''}">${count(s.quarantined)}</td>
<td class="message${s.lastError ? ' bad-text' : ''}">${errorCode(s)}${message ?? ''}</td>
</tr>`;
}

/** The last error's code, said as `status` says it (`the service changed shape (DS_DRIFT)`), before its message. */
function errorCode(s: StreamLine): SafeHtml | null {
  if (!s.lastError || !s.lastErrorCode) return null;
  const said = s.lastErrorCode === 'DS_DRIFT' ? 'the service changed shape ' : '';
  return html`<span class="code" data-error-code="${s.lastErrorCode}">${said}(${s.lastErrorCode})</span>: `;
}

// The changes of the service's shape the mirror saw (v_schema_changes): a field new, missing or of another
// type, what the mirror did, since when. Shown only when there is one.
import { count, relative } from './format.js';
import { html, type SafeHtml } from './html.js';
import type { SchemaChange } from '../../sync/shape/read-changes.js';

const SHOWN = 20;
const TONE: Record<string, string> = { failed: 'bad', held: 'bad', quarantined: 'warn', emptied: 'warn' };

export function shapeSection(changes: readonly SchemaChange[], now: string): SafeHtml | null {
  if (changes.length === 0) return null;
  return html`<section id="schema-changes"><h2>Changes of the service's shape</h2>
<div class="scroll"><table>
<thead><tr><th>stream</th><th>field</th><th>change</th><th>what the mirror did</th><th class="num">records</th><th>example</th><th>last seen</th></tr></thead>
<tbody>${changes.slice(0, SHOWN).map((c) => row(c, now))}</tbody>
</table></div>
${changes.length > SHOWN ? html`<p class="muted">${changes.length - SHOWN} more: ds-mirror schema --changes.</p>` : null}
</section>`;
}

function row(c: SchemaChange, now: string): SafeHtml {
  const change = c.kind === 'other type' ? `${c.seenType} (was ${c.expectedType})` : c.kind;
  return html`<tr data-stream="${c.stream}">
<td class="name">${c.stream}</td><td>${c.path}</td><td>${change}</td>
<td><span class="badge ${TONE[c.outcome] ?? 'muted'}">${c.outcome}</span></td>
<td class="num">${count(c.records)}</td><td>${c.example ?? ''}</td><td class="when">${relative(c.lastSeenAt, now)}</td>
</tr>`;
}

// Per quota family: this month's requests by day (each day's bar on top of the month so far), the
// allowance, where the schedule takes the month by its renewal, the per-minute pace, and a hold.
import { count, relative, shortDay, utcTime } from './format.js';
import { html, type SafeHtml } from './html.js';
import type { FamilyLine } from './status-data.js';
import { barChart } from './svg-chart.js';

export function budgetSection(families: readonly FamilyLine[], problems: readonly string[], now: string): SafeHtml {
  return html`<section id="budget"><h2>Budget this month</h2>
<div class="grid">${families.map((f) => familyPanel(f, now))}</div>
${problems.length > 0 ? html`<div class="banner warn"><strong>The schedule does not fit the quotas:</strong><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : null}
</section>`;
}

/** Green under 80% of the allowance, amber to 100%, red beyond. */
function level(value: number, limit: number | undefined): string {
  if (limit === undefined) return 'ok';
  return value > limit ? 'bad' : value > 0.8 * limit ? 'warn' : 'ok';
}

function familyPanel(f: FamilyLine, now: string): SafeHtml {
  const today = now.slice(0, 10);
  const todayIndex = Math.max(
    0,
    f.days.findIndex((d) => d.day === today),
  );
  const allowance = f.quota.perMonth;
  return html`<article class="panel family${f.hold ? ' held' : ''}" data-family="${f.family}">
<h3>${f.label}</h3>
${f.hold ? html`<div class="banner bad hold"><strong>Held until ${utcTime(f.hold.until)}</strong> (${relative(f.hold.until, now)}): the service said “${f.hold.reason}”. Runs of this family wait for the renewal.</div>` : null}
<div class="stats">
${stat('this month', count(f.month), allowance === undefined ? 'no monthly quota' : `of ${count(allowance)}`, level(f.month, allowance))}
${stat('at renewal', `~${count(f.projectedAtRenewal)}`, `by the schedule, ${shortDay(f.monthRenewsAt.slice(0, 10))}${spareText(f.spareAtRenewal)}`, level(f.projectedAtRenewal, allowance))}
${stat('today', count(f.today), f.quota.perDay === undefined ? 'no daily quota' : `of ${count(f.quota.perDay)}`, level(f.today, f.quota.perDay))}
${stat('pace', f.quota.perMinute === undefined ? 'none' : `${count(f.quota.perMinute)}/min`, 'per-minute pace in use', 'ok')}
</div>
${usageChart(f, todayIndex)}
</article>`;
}

/** With a monthly allowance, the month so far against it; without one, each day against the daily quota. */
function usageChart(f: FamilyLine, todayIndex: number): SafeHtml {
  return f.quota.perMonth === undefined ? dailyChart(f, todayIndex) : monthChart(f, f.quota.perMonth, todayIndex);
}

/** Each day's bar stands on the month's total before it, so the bar tops trace the month so far. */
function monthChart(f: FamilyLine, allowance: number, todayIndex: number): SafeHtml {
  const earlier: number[] = [];
  let total = 0;
  for (const d of f.days) {
    earlier.push(total);
    total += d.requests;
  }
  const past = (i: number) => i <= todayIndex;
  const monthSoFar = earlier[todayIndex]! + f.days[todayIndex]!.requests;
  return html`${barChart({
    title: `${f.label}: requests this month, by day`,
    labels: f.days.map((d) => shortDay(d.day)),
    series: [
      { name: 'month before', className: 'earlier', values: earlier.map((v, i) => (past(i) ? v : 0)) },
      { name: 'requests', className: 'day', values: f.days.map((d, i) => (past(i) ? d.requests : 0)) },
    ],
    rules: [{ value: allowance, className: 'rule', label: `allowance ${count(allowance)}` }],
    projection: {
      fromSlot: todayIndex,
      fromValue: monthSoFar,
      toValue: f.projectedAtRenewal,
      label: `projected ~${count(f.projectedAtRenewal)} at renewal`,
    },
  })}
<p class="legend"><span class="key day"></span>that day <span class="key earlier"></span>month before it <span class="key rule"></span>allowance ${count(allowance)} <span class="key projection"></span>schedule’s projection (${count(f.scheduledPerMonth)} a month)</p>`;
}

/** Each day's requests, the daily quota if there is one, and what the schedule uses in an average day. */
function dailyChart(f: FamilyLine, todayIndex: number): SafeHtml {
  const perDay = f.scheduledPerMonth / Math.max(1, f.days.length);
  const quota = f.quota.perDay;
  return html`${barChart({
    title: `${f.label}: requests per day this month`,
    labels: f.days.map((d) => shortDay(d.day)),
    series: [{ name: 'requests', className: 'day', values: f.days.map((d) => d.requests) }],
    rules: quota === undefined ? [] : [{ value: quota, className: 'rule', label: `daily quota ${count(quota)}` }],
    projection: { fromSlot: todayIndex, fromValue: perDay, toValue: perDay, label: `the schedule: ~${count(perDay)} a day` },
  })}
<p class="legend"><span class="key day"></span>requests that day ${quota === undefined ? null : html`<span class="key rule"></span>daily quota ${count(quota)} `}<span class="key projection"></span>schedule, ~${count(perDay)} a day</p>`;
}

/** What the allowance keeps at the renewal, as `budget` says it. */
function spareText(spare: number | null): string {
  if (spare === null) return '';
  return spare >= 0 ? `; ${count(spare)} to spare` : `; ${count(-spare)} over`;
}

export function stat(label: string, value: string, note: string, tone: string): SafeHtml {
  return html`<div class="stat ${tone}"><span class="label">${label}</span><span class="value">${value}</span><span class="note">${note}</span></div>`;
}

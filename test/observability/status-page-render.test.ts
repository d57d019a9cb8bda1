// The status page's pure parts: the one escape and its template helper, the freshness rule, the SVG
// chart, the alerts' grouping, and the whole page over data whose every text is markup.
import { describe, expect, it } from 'vitest';
import { freshnessOf } from '../../src/observability/status-page/freshness.js';
import { escapeHtml, html, raw } from '../../src/observability/status-page/html.js';
import { alertsByDay } from '../../src/observability/status-page/read-status-data.js';
import { renderStatusPage } from '../../src/observability/status-page/render-status-page.js';
import type { StatusData } from '../../src/observability/status-page/status-data.js';
import { barChart, chartMax } from '../../src/observability/status-page/svg-chart.js';

const HOSTILE = `<img src=x onerror=alert(1)>"'&`;
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;';
const HOUR = 3_600_000;

describe('escapeHtml and html``', () => {
  it('escapes the five characters that can open markup or leave an attribute', () => {
    expect(escapeHtml(HOSTILE)).toBe(ESCAPED);
    expect(escapeHtml('plain 1,234')).toBe('plain 1,234');
  });

  it('escapes every value, keeps its own markup, joins lists and drops nothing-values', () => {
    const inner = html`<b>${HOSTILE}</b>`;
    expect(html`<p title="${HOSTILE}">${inner}${[HOSTILE, inner]}${null}${undefined}${false}${0}</p>`.text).toBe(
      `<p title="${ESCAPED}"><b>${ESCAPED}</b>${ESCAPED}<b>${ESCAPED}</b>0</p>`,
    );
    expect(html`${raw('<hr>')}`.text).toBe('<hr>');
  });
});

describe('freshnessOf', () => {
  it('is fresh within a gap and its grace, late up to three gaps, stale beyond', () => {
    const day = 24 * HOUR;
    const cases: [number | null, number | null, string][] = [
      [null, day, 'never'],
      [null, null, 'never'],
      [HOUR, null, 'unscheduled'],
      [0, day, 'fresh'],
      [day, day, 'fresh'],
      [day * 1.25, day, 'fresh'],
      [day * 1.26, day, 'late'],
      [day * 3, day, 'late'],
      [day * 3 + 1, day, 'stale'],
      // A job every minute: five minutes' grace for the run itself.
      [5 * 60_000, 60_000, 'fresh'],
      [7 * 60_000, 60_000, 'stale'],
    ];
    for (const [age, gap, want] of cases) expect(freshnessOf(age, gap), `${age} of ${gap}`).toBe(want);
  });
});

describe('barChart', () => {
  const spec = {
    title: 'test',
    labels: ['a', 'b', 'c', 'd'],
    series: [
      { name: 'low', className: 'earlier', values: [0, 10, 20, 0] },
      { name: 'high', className: 'day', values: [5, 10, 0, 0] },
    ],
    rules: [{ value: 50, className: 'rule', label: 'allowance' }],
  };

  it('stacks the series, draws nothing for zero, and leaves room above the highest mark', () => {
    expect(chartMax(spec)).toBeCloseTo(54);
    const svg = barChart(spec).text;
    const rects = [...svg.matchAll(/<rect class="(\w+)" x="([\d.]+)" y="([\d.]+)" width="7" height="([\d.]+)">/g)].map((m) => ({
      cls: m[1],
      x: Number(m[2]),
      y: Number(m[3]),
      h: Number(m[4]),
    }));
    expect(rects.map((r) => r.cls)).toEqual(['day', 'earlier', 'day', 'earlier']);
    const [a, bLow, bHigh] = rects;
    expect(a!.h).toBeCloseTo((5 / 54) * 100, 1);
    expect(bLow!.y + bLow!.h).toBeCloseTo(100, 1);
    expect(bHigh!.y + bHigh!.h).toBeCloseTo(bLow!.y, 1); // on top of the lower series
    expect(svg).toMatch(new RegExp(`<line class="rule" x1="0" x2="40" y1="${Math.round((100 - (50 / 54) * 100) * 100) / 100}"`));
    expect(svg).toContain('<title>b high: 10</title>');
  });

  it('escapes its labels and title', () => {
    const svg = barChart({ ...spec, title: HOSTILE, labels: [HOSTILE, 'b', 'c', 'd'] }).text;
    expect(svg).not.toContain('<img');
    expect(svg).toContain(ESCAPED);
  });
});

describe('alertsByDay', () => {
  it('counts per view and day how the alerts arrived, over the last 30 days', () => {
    const at = new Date('2026-11-26T10:00:00Z');
    const row = (viewId: string, day: string, webhook: boolean, backfill: boolean, viewName: string | null = null) => ({
      viewId,
      viewName,
      at: `${day}T08:00:00.000Z`,
      webhook,
      backfill,
    });
    const data = alertsByDay(
      [
        row('v1', '2026-11-26', true, false, 'First'),
        row('v1', '2026-11-26', true, true),
        row('v1', '2026-10-28', false, true),
        row('v1', '2026-10-27', true, false), // 31 days back: outside
        row('v2', '2026-11-01', true, false),
      ],
      at,
    );
    expect(data.days).toHaveLength(30);
    expect([data.days[0], data.days[29]]).toEqual(['2026-10-28', '2026-11-26']);
    expect(data.views.map((v) => [v.viewId, v.viewName, v.total])).toEqual([
      ['v1', 'First', 3],
      ['v2', 'v2', 1],
    ]);
    expect(data.views[0]!.perDay[29]).toEqual({ webhook: 1, backfill: 0, both: 1 });
    expect(data.views[0]!.perDay[0]).toEqual({ webhook: 0, backfill: 1, both: 0 });
  });
});

/** A page whose every text field is markup. */
function hostileData(): StatusData {
  const now = '2026-11-26T10:00:00.000Z';
  return {
    generatedAt: now,
    source: 'daemon',
    streams: [
      {
        stream: HOSTILE,
        rows: 3,
        lastSuccessAt: now,
        ageMs: 1000,
        maxAgeMs: HOUR,
        freshness: 'fresh',
        jobs: [HOSTILE],
        lastError: HOSTILE,
        lastErrorCode: HOSTILE,
        lastNotice: HOSTILE,
        quarantined: 2,
        resumes: true,
      },
    ],
    families: [
      {
        family: 'v1',
        label: HOSTILE,
        quota: { perMonth: 2500, perMinute: 600 },
        today: 3,
        month: 30,
        days: Array.from({ length: 30 }, (_, i) => ({ day: `2026-11-${String(i + 1).padStart(2, '0')}`, requests: i < 26 ? 1 : 0 })),
        scheduledPerMonth: 900,
        projectedAtRenewal: 150,
        spareAtRenewal: 2_350,
        monthRenewsAt: '2026-12-01T00:00:00.000Z',
        hold: { until: '2026-11-28T00:00:00.000Z', reason: HOSTILE },
      },
    ],
    runs: [
      {
        id: 1,
        job: HOSTILE,
        mode: HOSTILE,
        streams: [HOSTILE],
        startedAt: now,
        durationMs: 10,
        requests: 1,
        rowsWritten: 2,
        outcome: HOSTILE,
        error: HOSTILE,
      },
    ],
    alerts: {
      days: ['2026-11-26'],
      views: [{ viewId: HOSTILE, viewName: HOSTILE, total: 1, perDay: [{ webhook: 1, backfill: 0, both: 0 }] }],
    },
    jobs: [
      {
        name: HOSTILE,
        enabled: true,
        schedule: HOSTILE,
        timeZone: HOSTILE,
        mode: HOSTILE,
        streams: [HOSTILE],
        running: false,
        nextRunAt: now,
        lastOutcome: HOSTILE,
        lastFinishedAt: now,
        lastSuccessAt: now,
      },
    ],
    deliveries: { received: 1, lastReceivedAt: now },
    problems: [HOSTILE],
    unresolvedViews: [HOSTILE],
    schemaChanges: [
      {
        stream: HOSTILE,
        path: HOSTILE,
        kind: 'other type',
        seenType: HOSTILE,
        expectedType: HOSTILE,
        outcome: HOSTILE,
        records: 1,
        share: 1,
        example: HOSTILE,
        firstSeenAt: now,
        lastSeenAt: now,
      },
    ],
  };
}

describe('renderStatusPage', () => {
  it('writes every text as text: no value becomes markup', () => {
    const page = renderStatusPage(hostileData());
    expect(page).not.toContain('<img');
    expect(page).not.toContain(`"'&`);
    // Each field shows up, escaped: the streams, the family, the hold, the runs, the alerts, the jobs, the problems,
    // the views that do not resolve, the changes of the service's shape (stream, field, types, outcome, example).
    expect(page.split(ESCAPED).length - 1).toBeGreaterThanOrEqual(22);
  });

  it('loads nothing and runs nothing: a policy that forbids it, no external address', () => {
    const page = renderStatusPage(hostileData());
    expect(page).toContain('content="default-src &#39;none&#39;;'); // escaped in the attribute, read back as 'none'
    expect(page).not.toMatch(/<script|<link|@import|url\(|https?:\/\//);
  });

  it('refreshes itself when the daemon serves it, not when it is a file', () => {
    expect(renderStatusPage(hostileData())).toContain('<meta http-equiv="refresh" content="60">');
    expect(renderStatusPage({ ...hostileData(), source: 'file' })).not.toContain('http-equiv="refresh"');
  });
});

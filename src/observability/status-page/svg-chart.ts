// A bar chart as inline SVG: stacked series per slot, horizontal rules (an allowance), and a dashed
// projection line. Pure: plain numbers in, markup out, through the escaping `html` helper. The SVG
// stretches to its box (the page sets the size); the axis labels are HTML around it, so they keep
// their size on a phone.
import { html, type SafeHtml } from './html.js';
import { count } from './format.js';

export interface BarSeries {
  name: string;
  /** CSS class of its bars (the colour). */
  className: string;
  values: readonly number[];
}

export interface ChartSpec {
  /** One per slot, in the bars' tooltips. */
  labels: readonly string[];
  series: readonly BarSeries[];
  rules?: readonly { value: number; className: string; label: string }[];
  /** A dashed line from the top of slot `fromSlot` at `fromValue` to the chart's right edge at `toValue`. */
  projection?: { fromSlot: number; fromValue: number; toValue: number; label: string };
  /** What a screen reader says the chart shows. */
  title: string;
  /** Axis labels under the chart: first, middle and last slot by default. */
  ticks?: readonly string[];
}

const SLOT = 10;
const BAR = 7;
const HEIGHT = 100;
/** Two decimals are finer than a pixel: shorter markup. */
const r2 = (v: number) => Math.round(v * 100) / 100;

/** The highest value drawn, with headroom, so the tallest bar or rule stays inside. */
export function chartMax(spec: ChartSpec): number {
  const stacks = spec.labels.map((_, i) => spec.series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
  const marks = [...stacks, ...(spec.rules ?? []).map((r) => r.value), spec.projection?.toValue ?? 0];
  return Math.max(1, ...marks) * 1.08;
}

export function barChart(spec: ChartSpec): SafeHtml {
  const width = Math.max(1, spec.labels.length) * SLOT;
  const max = chartMax(spec);
  const y = (v: number) => r2(HEIGHT - (v / max) * HEIGHT);
  const bars = spec.labels.map((label, i) => {
    let base = 0;
    return spec.series.map((s) => {
      const v = s.values[i] ?? 0;
      if (v <= 0) return null;
      const rect = html`<rect class="${s.className}" x="${i * SLOT + (SLOT - BAR) / 2}" y="${y(base + v)}" width="${BAR}" height="${r2((v / max) * HEIGHT)}"><title>${label} ${s.name}: ${count(v)}</title></rect>`;
      base += v;
      return rect;
    });
  });
  const rules = (spec.rules ?? []).map(
    (r) =>
      html`<line class="${r.className}" x1="0" x2="${width}" y1="${y(r.value)}" y2="${y(r.value)}" vector-effect="non-scaling-stroke"><title>${r.label}</title></line>`,
  );
  const p = spec.projection;
  const projection = p
    ? html`<line class="projection" x1="${(p.fromSlot + 0.5) * SLOT}" x2="${width}" y1="${y(p.fromValue)}" y2="${y(p.toValue)}" vector-effect="non-scaling-stroke"><title>${p.label}</title></line>`
    : null;
  const ticks = spec.ticks ?? defaultTicks(spec.labels);
  return html`<figure class="chart"><div class="plot"><span class="ymax">${count(max / 1.08)}</span><svg viewBox="0 0 ${width} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${spec.title}"><line class="axis" x1="0" x2="${width}" y1="${HEIGHT}" y2="${HEIGHT}" vector-effect="non-scaling-stroke"/>${bars}${rules}${projection}</svg></div><div class="ticks">${ticks.map((t) => html`<span>${t}</span>`)}</div></figure>`;
}

function defaultTicks(labels: readonly string[]): string[] {
  if (labels.length <= 2) return [...labels];
  return [labels[0]!, labels[Math.floor(labels.length / 2)]!, labels[labels.length - 1]!];
}

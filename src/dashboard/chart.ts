/**
 * Server-rendered SVG plots: a time line chart with one series per key and a horizontal bar
 * chart. No script, no library, no request: the page's CSP forbids all three, and an SVG written
 * here is the whole plot. Colours are presentation attributes (CSP blocks inline style).
 * Every point is a `<circle class="pt">` with a `<title>`, so hovering shows its value.
 *
 * Two rules keep a plot honest. Each y tick is drawn at the value its label says (ticks come from
 * yTicks, a 1-2-5 step; counts get whole steps), so a label never names a value its gridline is
 * not at. And series are dodged sideways by a few pixels each, so two series with the same value in
 * the same bucket show two dots instead of one covering the other.
 */
import { escapeHtml } from "./html.ts";

const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];
const W = 760;
const H = 240;
const PAD = { left: 64, right: 16, top: 16, bottom: 40 };

export interface Point {
  x: number;
  y: number;
}

export interface Series {
  key: string;
  points: Point[];
}

export interface LineChartSpec {
  title: string;
  /** Counts (calls): whole-number ticks. */
  integer?: boolean;
  series: Series[];
  /** The window shown, ms. */
  from: number;
  to: number;
  formatY: (y: number) => string;
  /** Slug for the plot's id, used by tests and links. */
  id: string;
}

export function colourOf(index: number): string {
  return PALETTE[index % PALETTE.length] ?? "#4b5563";
}

/** The y axis: ticks from 0 at a 1, 2 or 5 × 10^k step, the last one at or above `max`. */
export function yTicks(max: number, opts: { integer?: boolean; count?: number } = {}): number[] {
  const count = opts.count ?? 4;
  const top = max > 0 ? max : 1;
  const raw = top / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  let step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  // A count axis has no 1.25: its step is a whole number.
  if (opts.integer) step = Math.max(1, Math.ceil(step));
  const n = Math.max(1, Math.ceil(top / step - 1e-9));
  // Rounded through toPrecision so 0.1 × 3 is 0.3, the value its label will print.
  return Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** Horizontal offset of series `index` of `count`, centred on the bucket, so equal values stay visible. */
export function dodge(index: number, count: number): number {
  return (index - (count - 1) / 2) * DODGE_PX;
}

const DODGE_PX = 5;

function scale(from: number, to: number, a: number, b: number): (v: number) => number {
  const span = to - from || 1;
  return (v) => a + ((v - from) / span) * (b - a);
}

function axisDate(ms: number, span: number): string {
  const iso = new Date(ms).toISOString();
  return span <= 2 * 86_400_000 ? iso.slice(11, 16) : iso.slice(5, 10);
}

function axes(spec: LineChartSpec, ticks: number[], x: (v: number) => number, y: (v: number) => number): string[] {
  const out: string[] = [];
  for (const value of ticks) {
    const py = y(value).toFixed(1);
    out.push(`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${py}" y2="${py}" stroke="#e5e7eb" data-value="${value}"/>`);
    out.push(
      `<text class="tick y" x="${PAD.left - 6}" y="${py}" text-anchor="end" dominant-baseline="middle" font-size="11" fill="#6b7280" data-value="${value}">${escapeHtml(spec.formatY(value))}</text>`,
    );
  }
  const span = spec.to - spec.from;
  for (let i = 0; i <= 5; i++) {
    const t = spec.from + (span * i) / 5;
    out.push(
      `<text class="tick" x="${x(t).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="11" fill="#6b7280">${escapeHtml(axisDate(t, span))}</text>`,
    );
  }
  return out;
}

function seriesMarkup(s: Series, colour: string, spec: LineChartSpec, x: (v: number) => number, y: (v: number) => number, shift: number): string {
  const sorted = [...s.points].sort((a, b) => a.x - b.x);
  const coords = sorted.map((p) => `${(x(p.x) + shift).toFixed(1)},${y(p.y).toFixed(1)}`);
  const line = sorted.length > 1 ? `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${coords.join(" ")}"/>` : "";
  const dots = sorted
    .map((p, i) => {
      const [cx, cy] = (coords[i] ?? "0,0").split(",");
      const label = `${s.key} · ${new Date(p.x).toISOString().slice(0, 16).replace("T", " ")} · ${spec.formatY(p.y)}`;
      return `<circle class="pt" cx="${cx}" cy="${cy}" r="3" fill="${colour}" data-series="${escapeHtml(s.key)}" data-y="${p.y}"><title>${escapeHtml(label)}</title></circle>`;
    })
    .join("");
  return `<g class="series" data-key="${escapeHtml(s.key)}">${line}${dots}</g>`;
}

function legend(series: Series[]): string {
  return series
    .map((s, i) => {
      const lx = PAD.left + (i % 6) * 115;
      const ly = H - 8 - Math.floor(i / 6) * 0;
      return `<g class="legend"><rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${colourOf(i)}"/><text x="${lx + 14}" y="${ly}" font-size="11" fill="#374151">${escapeHtml(s.key.slice(0, 16))}</text></g>`;
    })
    .join("");
}

export function lineChart(spec: LineChartSpec): string {
  const ticks = yTicks(Math.max(0, ...spec.series.flatMap((s) => s.points.map((p) => p.y))), { integer: spec.integer === true });
  const yMax = ticks[ticks.length - 1] ?? 1;
  const x = scale(spec.from, spec.to, PAD.left, W - PAD.right);
  const y = scale(0, yMax, H - PAD.bottom, PAD.top);
  const n = spec.series.length;
  const body = spec.series.map((s, i) => seriesMarkup(s, colourOf(i), spec, x, y, dodge(i, n))).join("");
  const empty = spec.series.length === 0 ? `<text x="${W / 2}" y="${H / 2}" text-anchor="middle" fill="#9ca3af">no data in this window</text>` : "";
  return [
    `<svg class="plot" id="plot-${escapeHtml(spec.id)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(spec.title)}" xmlns="http://www.w3.org/2000/svg">`,
    `<title>${escapeHtml(spec.title)}</title>`,
    ...axes(spec, ticks, x, y),
    body,
    empty,
    legend(spec.series),
    "</svg>",
  ].join("");
}

export interface Bar {
  label: string;
  value: number;
  /** What the bar's title says, e.g. "3 of 40 calls failed". */
  detail: string;
}

/** A failure rate's colour: green only at none, amber up to one in five, red above. */
export function failureColour(rate: number): string {
  if (!(rate > 0)) return "#16a34a";
  return rate <= 0.2 ? "#d97706" : "#dc2626";
}

/** Horizontal bars, value in 0..max (rates use max = 1); `colour` colours a bar by its value (default: by position). */
export function barChart(spec: {
  id: string;
  title: string;
  bars: Bar[];
  max: number;
  formatValue: (v: number) => string;
  colour?: (value: number) => string;
}): string {
  const rowH = 22;
  const height = PAD.top + spec.bars.length * rowH + 8;
  const x = scale(0, spec.max || 1, 160, W - 80);
  const rows = spec.bars.map((b, i) => {
    const top = PAD.top + i * rowH;
    const width = Math.max(1, x(b.value) - 160).toFixed(1);
    return [
      `<g class="bar">`,
      `<text x="152" y="${top + 11}" text-anchor="end" dominant-baseline="middle" font-size="12" fill="#374151">${escapeHtml(b.label.slice(0, 22))}</text>`,
      `<rect class="pt" x="160" y="${top + 3}" width="${width}" height="16" fill="${spec.colour ? spec.colour(b.value) : colourOf(i)}" data-y="${b.value}"><title>${escapeHtml(`${b.label}: ${b.detail}`)}</title></rect>`,
      `<text x="${(x(b.value) + 6).toFixed(1)}" y="${top + 11}" dominant-baseline="middle" font-size="12" fill="#374151">${escapeHtml(spec.formatValue(b.value))}</text>`,
      `</g>`,
    ].join("");
  });
  const empty = spec.bars.length === 0 ? `<text x="${W / 2}" y="${PAD.top + 12}" text-anchor="middle" fill="#9ca3af">no calls in this window</text>` : "";
  return `<svg class="plot" id="plot-${escapeHtml(spec.id)}" viewBox="0 0 ${W} ${Math.max(height, 40)}" width="${W}" height="${Math.max(height, 40)}" role="img" aria-label="${escapeHtml(spec.title)}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(spec.title)}</title>${rows.join("")}${empty}</svg>`;
}

export interface Span {
  label: string;
  start: number;
  end: number;
  ok: boolean;
  detail: string;
}

/** The run's stored events on one axis: each attempt as a span from its start to its end. */
export function timeline(spec: { id: string; title: string; from: number; to: number; spans: Span[] }): string {
  const rowH = 24;
  const height = PAD.top + spec.spans.length * rowH + 28;
  const x = scale(spec.from, Math.max(spec.to, spec.from + 1), 160, W - 40);
  const rows = spec.spans.map((s, i) => {
    const top = PAD.top + i * rowH;
    const x0 = x(s.start);
    const width = Math.max(2, x(s.end) - x0);
    return `<g class="span"><text x="152" y="${top + 11}" text-anchor="end" dominant-baseline="middle" font-size="12" fill="#374151">${escapeHtml(s.label.slice(0, 22))}</text><rect class="pt" x="${x0.toFixed(1)}" y="${top + 3}" width="${width.toFixed(1)}" height="16" fill="${s.ok ? "#16a34a" : "#dc2626"}" data-y="${s.end - s.start}"><title>${escapeHtml(`${s.label}: ${s.detail}`)}</title></rect></g>`;
  });
  const total = spec.to - spec.from;
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (f) =>
        `<text x="${x(spec.from + total * f).toFixed(1)}" y="${height - 8}" text-anchor="middle" font-size="11" fill="#6b7280">+${((total * f) / 1000).toFixed(total < 10_000 ? 2 : 0)} s</text>`,
    )
    .join("");
  return `<svg class="plot" id="plot-${escapeHtml(spec.id)}" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="${escapeHtml(spec.title)}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(spec.title)}</title>${rows.join("")}${ticks}</svg>`;
}

/** `/usage`: tokens, cost and latency over time per agent / tier / backend; fallback and failure rates. */
import { SERIES_DIMENSIONS, type EstimatedCost, type SeriesDimension, type UsagePoint } from "../../store/index.ts";
import { barChart, failureColour, lineChart, type Series } from "../chart.ts";
import type { DashboardContext } from "../context.ts";
import { duration, percent, tokens, usd } from "../format.ts";
import { html, trusted, type Html } from "../html.ts";
import { page, table } from "../layout.ts";

const HOUR = 3_600_000;
/** Each window with a bucket that keeps a plot at a few dozen points. */
export const RANGES: Readonly<Record<string, { ms: number; bucketMs: number; label: string }>> = {
  "24h": { ms: 24 * HOUR, bucketMs: HOUR, label: "last 24 hours, hourly" },
  "7d": { ms: 7 * 24 * HOUR, bucketMs: 6 * HOUR, label: "last 7 days, per 6 hours" },
  "30d": { ms: 30 * 24 * HOUR, bucketMs: 24 * HOUR, label: "last 30 days, daily" },
  "90d": { ms: 90 * 24 * HOUR, bucketMs: 72 * HOUR, label: "last 90 days, per 3 days" },
};

type Metric = (p: UsagePoint) => number;

/** Money on an axis: as many digits as the tick has (usd() rounds $0.015 to $0.01, off its gridline). */
const axisUsd = (y: number): string => (y === 0 ? "$0" : `$${Number(y.toPrecision(3))}`);

function seriesOf(points: UsagePoint[], metric: Metric): Series[] {
  const byKey = new Map<string, Series>();
  for (const p of points) {
    const s = byKey.get(p.key) ?? { key: p.key, points: [] };
    s.points.push({ x: p.bucket, y: metric(p) });
    byKey.set(p.key, s);
  }
  return [...byKey.values()];
}

function links(current: { range: string; by: SeriesDimension }): Html {
  const rangeLinks = Object.keys(RANGES).map(
    (r) => html`<a href="/usage?range=${r}&amp;by=${current.by}"${r === current.range ? html` aria-current="page"` : ""}>${r}</a> `,
  );
  const byLinks = SERIES_DIMENSIONS.map(
    (d) => html`<a href="/usage?range=${current.range}&amp;by=${d}"${d === current.by ? html` aria-current="page"` : ""}>per ${d}</a> `,
  );
  return html`<p class="switch">${rangeLinks} · ${byLinks}</p>`;
}

/** Which lines of the cost plot hold estimates: a CLI that reports tokens but no cost, priced from the catalog or the config (docs/cost.md). */
function estimatedNote(estimated: readonly EstimatedCost[]): Html {
  if (estimated.length === 0) return html``;
  const items = estimated.map((e) => html`<li><code>${e.key}</code>: ${usd(e.costUsd)} over ${String(e.calls)} call(s) estimated</li>`);
  return html`<p class="why" id="cost-estimated">Estimated, not reported: these CLIs report tokens but no cost, so their cost is the tokens at the model's API price (the config's prices:, else the bundled catalog) — an API-equivalent, not a bill.</p><ul>${items}</ul>`;
}

function totalsTable(points: UsagePoint[], by: SeriesDimension): Html {
  const sums = new Map<string, { calls: number; inT: number; outT: number; cost: number | null; latency: number }>();
  for (const p of points) {
    const s = sums.get(p.key) ?? { calls: 0, inT: 0, outT: 0, cost: null, latency: 0 };
    s.calls += p.calls;
    s.inT += p.inputTokens;
    s.outT += p.outputTokens;
    s.cost = p.costUsd === null ? s.cost : (s.cost ?? 0) + p.costUsd;
    s.latency += p.latencyMsAvg * p.calls;
    sums.set(p.key, s);
  }
  const rows = [...sums.entries()].map(([key, s]) => [
    html`<code>${key}</code>`,
    String(s.calls),
    tokens(s.inT),
    tokens(s.outT),
    usd(s.cost),
    duration(s.calls ? s.latency / s.calls : null),
  ]);
  return table([by, "calls", "tokens in", "tokens out", "cost", "avg latency"], rows, "usage-totals");
}

export function usagePage(ctx: DashboardContext, params: URLSearchParams): Html {
  const range = RANGES[params.get("range") ?? ""] ? (params.get("range") as string) : "7d";
  const spec = RANGES[range] ?? { ms: 7 * 24 * HOUR, bucketMs: 6 * HOUR, label: "" };
  const by = SERIES_DIMENSIONS.find((d) => d === params.get("by")) ?? "agent";
  const to = ctx.rt.now();
  const from = to - spec.ms;
  const window = { since: from, bucketMs: spec.bucketMs };
  const points = ctx.rt.store.series.usage({ ...window, by });
  const plot = (id: string, title: string, metric: Metric, formatY: (y: number) => string, integer = false) =>
    trusted(lineChart({ id, title, series: seriesOf(points, metric), from, to, formatY, integer }));
  const rates = ctx.rt.store.series.rates(window);
  const rateSeries: Series[] = rates.length
    ? [
        { key: "failed %", points: rates.map((r) => ({ x: r.bucket, y: r.runs ? (100 * r.failed) / r.runs : 0 })) },
        { key: "fell back %", points: rates.map((r) => ({ x: r.bucket, y: r.runs ? (100 * r.fellBack) / r.runs : 0 })) },
      ]
    : [];
  const agentRates = ctx.rt.store.series.agentRates({ since: from });
  const estimated = ctx.rt.store.series.estimatedCost({ since: from, by });
  const body = html`${links({ range, by })}
<p class="why">${spec.label}; one point per bucket per ${by}. Calls are route attempts, consult turns, reviewers' runs and asks (per agent an ask counts under its capability, per backend under http). Cost is what each CLI or provider reported (or an ask deployment's configured prices); a CLI that reports tokens but no cost (codex) adds an estimate from the model's price, listed under the cost plot; one that reports neither adds nothing.</p>
<h2>Calls</h2>${plot(
    "calls",
    `Calls per ${by}`,
    (p) => p.calls,
    (y) => y.toFixed(0),
    true,
  )}
<h2>Tokens (in + out)</h2>${plot("tokens", `Tokens per ${by}`, (p) => p.inputTokens + p.outputTokens, tokens)}
<h2>Cost</h2>${plot("cost", `Cost per ${by}${estimated.length ? " (reported, some estimated)" : " (reported)"}`, (p) => p.costUsd ?? 0, axisUsd)}${estimatedNote(estimated)}
<h2>Latency</h2>${plot("latency", `Average latency per ${by}`, (p) => p.latencyMsAvg, duration)}
<h2>Fallback and failure rates (runs)</h2>${trusted(lineChart({ id: "rates", title: "Share of runs that failed or fell back", series: rateSeries, from, to, formatY: (y) => `${Number(y.toPrecision(3))}%` }))}
<h2>Failure rate per agent (attempts, consult turns and asks: an ask under its capability)</h2>${trusted(
    barChart({
      id: "agent-failures",
      title: "Failure rate per agent",
      bars: agentRates.map((r) => ({ label: r.agentId, value: r.calls ? r.failures / r.calls : 0, detail: `${r.failures} of ${r.calls} calls failed` })),
      max: 1,
      formatValue: (v) => percent(v, 1),
      colour: failureColour,
    }),
  )}
<h2>Totals</h2>${totalsTable(points, by)}`;
  return page({ title: "Usage", section: "/usage", body, editable: ctx.managedPath !== undefined });
}

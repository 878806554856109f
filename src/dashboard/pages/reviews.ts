/** `/reviews` (newest activity first, 50 a page) and `/reviews/:id`: each review's reviewers, findings by severity and their dispositions. */
import type { FindingRecord, ReviewStatus } from "../../store/index.ts";
import type { DashboardContext } from "../context.ts";
import { duration, tokens, usd, when } from "../format.ts";
import { html, query, type Html } from "../html.ts";
import { badge, empty, page, table } from "../layout.ts";
import { select } from "./runs.ts";

const STATUSES: readonly ReviewStatus[] = [
  "planned",
  "approving",
  "running",
  "awaiting_synthesis",
  "incomplete",
  "finalized",
  "declined",
  "cancelled",
  "stale",
  "expired",
];

const severityBadge = (s: string) => badge(s, s === "critical" ? "failed" : s === "important" ? "unknown" : "ok");

export function reviewsPage(ctx: DashboardContext, params: URLSearchParams): Html {
  const status = STATUSES.find((s) => s === params.get("status"));
  const before = params.get("before") || undefined;
  const result = ctx.rt.store.browse.reviews({ ...(status ? { status } : {}), ...(before ? { before } : {}), limit: 50 });
  const rows = result.rows.map((r) => [
    html`<a href="/reviews/${r.id}">${r.id}</a>`,
    r.mode,
    badge(r.status, r.status === "finalized" ? "ok" : r.status === "running" ? "running" : "unknown"),
    r.reviewers.join(", "),
    // Critical first and always shown: "0 critical" is what a reader scans this column for.
    r.findings.critical ? severityBadge(String(r.findings.critical)) : "0",
    String(r.findings.important),
    String(r.findings.minor),
    when(r.updatedAt),
  ]);
  const form = html`<form class="filters" method="get" action="/reviews">${select("status", status, STATUSES)} <button type="submit">Filter</button> <a href="/reviews">clear</a></form>`;
  const next = result.next ? html`<p class="pager"><a id="older" href="/reviews${query({ status, before: result.next })}">Older →</a></p>` : "";
  const body = html`${form}${rows.length ? table(["review", "mode", "status", "reviewers", "critical", "important", "minor", "updated"], rows, "reviews") : empty("No reviews stored (reviews need a consult.review block).")}${next}`;
  return page({ title: "Reviews", section: "/reviews", body, editable: ctx.managedPath !== undefined });
}

function findingRows(findings: FindingRecord[]): Html {
  const order = { critical: 0, important: 1, minor: 2 };
  const sorted = [...findings].sort((a, b) => order[a.severity] - order[b.severity]);
  return table(
    ["finding", "from", "severity", "location", "claim", "evidence", "disposition"],
    sorted.map((f) => [
      html`<code>${f.id}</code>`,
      f.source === "host" ? "host" : (f.agentId ?? "—"),
      severityBadge(f.severity),
      f.location ?? "—",
      f.claim ?? html`<span class="why">not stored</span>`,
      html`<span class="why">${f.evidence ?? ""}</span>`,
      html`${badge(f.disposition, f.disposition === "open" ? (f.severity === "critical" ? "failed" : "unknown") : "ok")}${f.dispositionReason ? html` <span class="why">${f.dispositionReason}</span>` : ""}`,
    ]),
    "findings",
  );
}

export function reviewPage(ctx: DashboardContext, id: string): Html | undefined {
  const r = ctx.rt.store.reviews.get(id);
  if (!r) return undefined;
  const openCritical = r.findings.filter((f) => f.severity === "critical" && f.disposition === "open").length;
  const facts: [string, string | Html][] = [
    ["goal", r.goal ?? "—"],
    ["mode · status", html`${r.mode} · ${badge(r.status, r.status === "finalized" ? "ok" : "unknown")}`],
    ["approval", r.approval ?? "not yet"],
    ["open criticals", openCritical ? severityBadge(`${openCritical} open`) : "none"],
    ["created · updated", `${when(r.createdAt)} · ${when(r.updatedAt)}`],
  ];
  const reviewers = table(
    ["reviewer", "backend · model", "status", "model check", "latency", "tokens in/out", "cost", "error"],
    r.reviewers.map((v) => [
      html`<code>${v.agentId}</code>`,
      `${v.backend} · ${v.model ?? "CLI default"}`,
      badge(v.status, v.status === "answered" ? "ok" : v.status === "running" ? "running" : "failed"),
      v.modelVerified ? badge(v.modelVerified, v.modelVerified === "verified" ? "ok" : v.modelVerified === "mismatch" ? "failed" : "unknown") : "—",
      duration(v.latencyMs),
      `${tokens(v.usage?.inputTokens)} / ${tokens(v.usage?.outputTokens)}`,
      usd(v.usage?.costUsd),
      v.errorCode ? html`<code>${v.errorCode}</code> ${v.errorMessage ?? ""}` : "—",
    ]),
    "reviewers",
  );
  const body = html`<dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
<h2>Reviewers</h2>${reviewers}
<h2>Findings</h2>${r.findings.length ? findingRows(r.findings) : empty("No findings recorded.")}
<h2>Synthesis</h2>${r.synthesis ? html`<pre class="content" id="synthesis">${JSON.stringify(r.synthesis, null, 2)}</pre>` : empty("Not finalized yet.")}`;
  return page({ title: `Review ${r.id}`, section: "/reviews", body, editable: ctx.managedPath !== undefined });
}

/**
 * `/asks` and `/asks/:id`: seed 002's direct HTTP asks — which capability, which model served,
 * how long, what it spent — and each ask's legs (every deployment tried, how each ended) with the
 * redacted prompt and answer when they are stored.
 */
import type { FailureClass } from "../../backends/contract.ts";
import { failureWords } from "../../services/shared/failure-words.ts";
import { ASK_STATUSES, type AskLegRecord, type AskListRow, type AskRecord } from "../../store/index.ts";
import type { DashboardContext } from "../context.ts";
import { duration, tokens, usd, when } from "../format.ts";
import { html, query, type Html } from "../html.ts";
import { badge, empty, page, table } from "../layout.ts";
import { content } from "./run.ts";
import { select } from "./runs.ts";

function tokensOf(a: { inputTokens: number | null; outputTokens: number | null }): string {
  return `${tokens(a.inputTokens)} / ${tokens(a.outputTokens)}`;
}

function askRows(rows: AskListRow[]): Html {
  return table(
    ["ask", "capability", "status", "model", "legs", "prompt", "latency", "tokens in/out", "cost", "at"],
    rows.map((a) => [
      html`<a href="/asks/${a.id}">${a.id}</a>`,
      html`<code>${a.capability}</code>`,
      html`${badge(a.status)}${a.errorCode ? html` <span class="why">${a.errorCode}</span>` : ""}`,
      html`${a.model ?? "—"}${a.fallbackUsed ? html` ${badge("fallback", "unknown")}` : ""}`,
      String(a.legs),
      html`<span class="head">${a.promptHead ?? `(${a.promptLength} chars, not stored)`}</span>`,
      duration(a.latencyMs),
      tokensOf(a),
      usd(a.costUsd),
      when(a.createdAt),
    ]),
    "asks",
  );
}

export function asksPage(ctx: DashboardContext, params: URLSearchParams): Html {
  const status = ASK_STATUSES.find((s) => s === params.get("status"));
  const capability = params.get("capability") || undefined;
  const before = params.get("before") || undefined;
  const result = ctx.rt.store.browse.asks({ ...(status ? { status } : {}), ...(capability ? { capability } : {}), ...(before ? { before } : {}), limit: 50 });
  // The configured capabilities; an older one still filters when it is in the URL.
  const capabilities = [...new Set([...Object.keys(ctx.rt.config.ask.capabilities), ...(capability ? [capability] : [])])].sort();
  const form = html`<form class="filters" method="get" action="/asks">${select("status", status, ASK_STATUSES)} ${select("capability", capability, capabilities)} <button type="submit">Filter</button> <a href="/asks">clear</a></form>`;
  const next = result.next ? html`<p class="pager"><a id="older" href="/asks${query({ status, capability, before: result.next })}">Older →</a></p>` : "";
  const body = html`${form}${result.rows.length ? askRows(result.rows) : empty("No ask matches these filters.")}${next}`;
  return page({ title: "Asks", section: "/asks", body, editable: ctx.managedPath !== undefined });
}

export function askPage(ctx: DashboardContext, id: string): Html | undefined {
  const a = ctx.rt.store.asks.get(id);
  if (!a) return undefined;
  const system = a.system !== null || a.systemLength !== null ? html`<h2>System</h2>${content(a.system, a.systemLength, "system")}` : "";
  const context = a.context !== null || a.contextLength !== null ? html`<h2>Context</h2>${content(a.context, a.contextLength, "context")}` : "";
  const body = html`${facts(a)}
<h2>Legs</h2>
${a.legs.length ? legsTable(a.legs) : empty("No leg: the ask was refused before any provider was called.")}
${system}
<h2>Prompt</h2>
${content(a.prompt, a.promptLength, "prompt")}
${context}
<h2>Answer</h2>
${content(a.answer, a.answerLength, "answer")}`;
  return page({ title: `Ask ${a.id}`, section: "/asks", body, editable: ctx.managedPath !== undefined });
}

function facts(a: AskRecord): Html {
  const rows: [string, Html | string][] = [
    ["status", html`${badge(a.status)}${a.errorCode ? html` <code>${a.errorCode}</code>` : ""}`],
    ["capability", html`<code>${a.capability}</code>`],
    [
      "served by",
      a.model
        ? html`${a.model}${a.host ? html` <span class="why">at ${a.host}</span>` : ""}${a.fallbackUsed ? html` ${badge("fallback", "unknown")}` : ""}`
        : "—",
    ],
    ["finish reason", a.finishReason ?? "—"],
    ["latency", duration(a.latencyMs)],
    ["tokens in / out", tokensOf(a)],
    ["cost", usd(a.costUsd)],
    ["at", when(a.createdAt)],
  ];
  const error = a.errorMessage ? html`<p class="error">${a.errorMessage}</p>` : "";
  return html`<dl class="facts">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>${error}`;
}

/**
 * A deployment failure as the class a route attempt's would have (services/ask/cooling.ts cools
 * deployments by the same classes), worded as the run page words an attempt's
 * (services/shared/failure-words.ts): "not signed in", "rate-limited", "provider error 503",
 * "timed out". The CLI fixes there do not apply to a deployment, so only the words are shown. A
 * refused request, a reply that is not an answer, a failed schema or a misconfigured deployment
 * keep their code, which already says what happened.
 */
const LEG_CLASS: Readonly<Record<string, FailureClass>> = {
  auth: "auth",
  rate_limited: "capacity",
  server: "capacity",
  transport: "transport",
  timeout: "timeout",
};

function legError(leg: AskLegRecord): Html | string {
  const code = leg.errorCode;
  if (!code) return "—";
  const cls = Object.hasOwn(LEG_CLASS, code) ? LEG_CLASS[code] : undefined;
  const evidence = leg.statusCode === null ? (code === "rate_limited" ? "rate limit" : undefined) : `HTTP ${leg.statusCode}`;
  return html`<span class="why">${cls ? failureWords(cls, evidence, undefined).words : code}</span>`;
}

function legsTable(legs: AskLegRecord[]): Html {
  return table(
    ["#", "capability", "model", "host", "outcome", "error", "HTTP", "latency", "retry"],
    legs.map((l) => [
      String(l.n),
      html`<code>${l.capability}</code>`,
      l.model,
      l.host ?? "—",
      badge(l.outcome, l.outcome === "ok" ? "ok" : l.outcome === "rejected" ? "unknown" : "failed"),
      legError(l),
      l.statusCode === null ? "—" : String(l.statusCode),
      duration(l.latencyMs),
      String(l.retry),
    ]),
    "legs",
  );
}

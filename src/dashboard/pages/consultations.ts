/** `/consultations` and `/consultations/:id`: who was asked, every turn, the model check, the envelope. */
import type { ConsultationStatus, ModelVerification, TurnRecord } from "../../store/index.ts";
import type { DashboardContext } from "../context.ts";
import { duration, tokens, usd, when } from "../format.ts";
import { html, query, type Html } from "../html.ts";
import { badge, empty, page, table } from "../layout.ts";
import { select } from "./runs.ts";
import { content } from "./run.ts";

const STATUSES: readonly ConsultationStatus[] = ["open", "failed", "closed"];

function verificationBadge(v: ModelVerification | null): Html | string {
  if (!v) return "—";
  return badge(v, v === "verified" ? "ok" : v === "mismatch" ? "failed" : "unknown");
}

export function consultationsPage(ctx: DashboardContext, params: URLSearchParams): Html {
  const agent = params.get("agent") || undefined;
  const status = STATUSES.find((s) => s === params.get("status"));
  const before = params.get("before") || undefined;
  const result = ctx.rt.store.browse.consultations({ ...(agent ? { agent } : {}), ...(status ? { status } : {}), ...(before ? { before } : {}), limit: 50 });
  const agents = [...new Set([...Object.keys(ctx.rt.config.agents), ...(agent ? [agent] : [])])].sort();
  const form = html`<form class="filters" method="get" action="/consultations">${select("agent", agent, agents)} ${select("status", status, STATUSES)} <button type="submit">Filter</button> <a href="/consultations">clear</a></form>`;
  const rows = result.rows.map((c) => [
    html`<a href="/consultations/${c.id}">${c.id}</a>`,
    html`<code>${c.agentId}</code>`,
    `${c.backend}${c.model ? ` · ${c.model}` : ""}`,
    html`${badge(c.status, c.status === "open" ? "ok" : c.status)}${c.lastError ? html` <span class="why">${c.lastError}</span>` : ""}`,
    verificationBadge(c.lastVerification),
    String(c.turns),
    html`<span class="head">${c.promptHead ?? ""}</span>`,
    duration(c.lastLatencyMs),
    when(c.updatedAt),
  ]);
  const next = result.next ? html`<p class="pager"><a id="older" href="/consultations${query({ agent, status, before: result.next })}">Older →</a></p>` : "";
  const body = html`${form}${rows.length ? table(["consultation", "agent", "backend · model", "status", "model check", "turns", "first prompt", "last latency", "updated"], rows, "consultations") : empty("No consultation matches.")}${next}`;
  return page({ title: "Consultations", section: "/consultations", body, editable: ctx.managedPath !== undefined });
}

export function consultationPage(ctx: DashboardContext, id: string): Html | undefined {
  const c = ctx.rt.store.consultations.get(id);
  if (!c) return undefined;
  const facts: [string, string | Html][] = [
    ["agent", html`<code>${c.agentId}</code>`],
    ["backend · model", `${c.backend} · ${c.model ?? "CLI default"}`],
    ["host runtime", c.hostRuntime ?? "—"],
    ["native session", c.nativeSessionId ? html`<code>${c.nativeSessionId}</code>` : "—"],
    ["status", badge(c.status, c.status === "open" ? "ok" : c.status)],
    ["created · updated", `${when(c.createdAt)} · ${when(c.updatedAt)}`],
  ];
  const body = html`<dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>${c.turns.map(turn)}`;
  return page({ title: `Consultation ${c.id}`, section: "/consultations", body, editable: ctx.managedPath !== undefined });
}

function turn(t: TurnRecord): Html {
  const meta = table(
    ["model check", "model reported", "latency", "tokens in/out", "cost", "error"],
    [
      [
        verificationBadge(t.modelVerified),
        t.modelReported ?? "—",
        duration(t.latencyMs),
        `${tokens(t.usage?.inputTokens)} / ${tokens(t.usage?.outputTokens)}`,
        usd(t.usage?.costUsd),
        t.errorCode ? html`<code>${t.errorCode}</code> ${t.errorMessage ?? ""}` : "—",
      ],
    ],
  );
  const answer =
    t.answer === undefined || t.answer === null
      ? content(null, t.answerLength, `answer-${t.n}`)
      : html`<pre class="content" id="answer-${t.n}">${JSON.stringify(t.answer, null, 2)}</pre>`;
  const context = t.context !== null ? html`<h4>Context</h4>${content(t.context, t.contextLength, `context-${t.n}`)}` : "";
  return html`<section class="turn"><h2>Turn ${t.n} · ${when(t.createdAt)}</h2>${meta}<h4>Prompt</h4>${content(t.prompt, t.promptLength, `prompt-${t.n}`)}${context}<h4>Answer</h4>${answer}</section>`;
}

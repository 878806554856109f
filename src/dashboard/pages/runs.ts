/** `/runs`: every route run, newest first, filtered by status, tool, tier and agent, paged by keyset. */
import type { RunListFilter, RunListRow, RunStatus, RunTool } from "../../store/index.ts";
import { TIERS } from "../../config/types.ts";
import type { DashboardContext } from "../context.ts";
import { duration, when } from "../format.ts";
import { html, query, type Html } from "../html.ts";
import { badge, empty, page, table } from "../layout.ts";

const STATUSES: readonly RunStatus[] = ["running", "ok", "failed", "cancelled"];
const TOOLS: readonly RunTool[] = ["route", "run-cli", "consult"];

function pick<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === value);
}

export function runFilterFrom(params: URLSearchParams): RunListFilter {
  const agent = params.get("agent");
  const before = params.get("before");
  const status = pick(params.get("status"), STATUSES);
  const tool = pick(params.get("tool"), TOOLS);
  const tier = pick(params.get("tier"), TIERS);
  return { ...(status ? { status } : {}), ...(tool ? { tool } : {}), ...(tier ? { tier } : {}), ...(agent ? { agent } : {}), ...(before ? { before } : {}) };
}

export function runRows(rows: RunListRow[]): Html {
  return table(
    ["run", "status", "tier", "served by", "attempts", "prompt", "started", "took"],
    rows.map((r) => [
      html`<a href="/runs/${r.id}">${r.id}</a>`,
      html`${badge(r.status)}${r.errorCode ? html` <span class="why">${r.errorCode}</span>` : ""}`,
      r.tier ?? "—",
      r.servedBy ?? "—",
      html`${r.attempts}${r.fellBack ? html` ${badge("fell back", "unknown")}` : ""}`,
      html`<span class="head">${r.promptHead ?? `(${r.promptLength} chars, not stored)`}</span>`,
      when(r.startedAt),
      r.endedAt ? duration(r.endedAt - r.startedAt) : badge("running"),
    ]),
    "runs",
  );
}

export function select(name: string, current: string | undefined, options: readonly string[]): Html {
  return html`<label>${name} <select name="${name}"><option value="">any</option>${options.map((o) => html`<option${o === current ? html` selected` : ""}>${o}</option>`)}</select></label>`;
}

export function runsPage(ctx: DashboardContext, params: URLSearchParams): Html {
  const filter = runFilterFrom(params);
  const result = ctx.rt.store.browse.runs({ ...filter, limit: 50 });
  // The configured agents; an older id still filters when it is in the URL.
  const agents = [...new Set([...Object.keys(ctx.rt.config.agents), ...(filter.agent ? [filter.agent] : [])])].sort();
  const { before: _before, ...kept } = filter;
  const form = html`<form class="filters" method="get" action="/runs">
${select("status", filter.status, STATUSES)} ${select("tool", filter.tool, TOOLS)} ${select("tier", filter.tier, TIERS)} ${select("agent", filter.agent, agents)}
<button type="submit">Filter</button> <a href="/runs">clear</a></form>`;
  const next = result.next ? html`<p class="pager"><a id="older" href="/runs${query({ ...kept, before: result.next })}">Older →</a></p>` : "";
  const body = html`${form}${result.rows.length ? runRows(result.rows) : empty("No run matches these filters.")}${next}`;
  return page({ title: "Runs", section: "/runs", body, editable: ctx.managedPath !== undefined });
}

/** `/`: agents with readiness, versions and cooldowns; the tier map; the last day at a glance. */
import type { CliReport } from "../../doctor/checks.ts";
import { agentStatuses, type AgentStatus, type QuotaHeadline } from "../../services/dashboard/index.ts";
import { TIERS } from "../../config/types.ts";
import type { DashboardContext } from "../context.ts";
import { duration, homeRelative, percent, until, usd, when } from "../format.ts";
import { html, type Html } from "../html.ts";
import { badge, empty, page, table } from "../layout.ts";
import { runRows } from "./runs.ts";

const DAY_MS = 86_400_000;

export function overviewPage(ctx: DashboardContext): Html {
  const { rt } = ctx;
  const now = rt.now();
  const totals = rt.store.series.totals({ since: now - DAY_MS });
  const recent = rt.store.browse.runs({ limit: 10 });
  const running = rt.store.browse.jobs({ status: "running", limit: 20 });
  const attention = rt.store.browse.workflowsNeedingAttention();
  const body = html`
<section class="cards">
  <div class="card"><b id="card-running">${totals.running}</b><span>running now</span></div>
  <div class="card"><b id="card-runs">${totals.runs}</b><span>runs, last 24 h</span></div>
  <div class="card"><b>${percent(totals.failed, totals.runs)}</b><span>failed</span></div>
  <div class="card"><b>${percent(totals.fellBack, totals.runs)}</b><span>fell back</span></div>
  <div class="card"><b>${totals.consultations}</b><span>consultations, 24 h</span></div>
  <div class="card"><b>${usd(totals.costUsd)}</b><span>cost, 24 h (reported or estimated)</span></div>
  <div class="card"><b id="card-attention"><a href="/workflows?status=needs_attention">${attention}</a></b><span>workflows need attention</span></div>
</section>
<h2>Agents</h2>
${agentsTable(ctx, agentStatuses(rt), now)}
<h2>Tier map</h2>
${tierMap(ctx)}
<h2>Running jobs</h2>
${
  running.rows.length
    ? table(
        ["job", "kind", "progress", "started"],
        running.rows.map((j) => [html`<a href="/jobs/${j.id}">${j.id}</a>`, j.kind, j.progress ?? "", when(j.createdAt)]),
      )
    : empty("Nothing is running.")
}
<h2>Latest runs</h2>
${recent.rows.length ? runRows(recent.rows) : empty("No runs stored yet.")}
<p><a href="/runs">All runs →</a> · <a href="/consultations">Consultations →</a> · <a href="/workflows">Workflows →</a> · <a href="/usage">Usage plots →</a></p>`;
  return page({ title: "Overview", section: "/", body, editable: ctx.managedPath !== undefined });
}

function cliFor(ctx: DashboardContext, backend: string): CliReport | undefined {
  return ctx.doctor.current()?.clis.find((c) => c.backend === backend);
}

/** The CLI cell of the agents table: red only for a problem that keeps the agent from running. */
export function readiness(cli: CliReport | undefined, probing: boolean): Html {
  if (!cli) return badge(probing ? "probing" : "unknown", "unknown");
  if (!cli.path) return badge("not installed", "failed");
  // Only a problem that keeps the agent from running is red; a probe that timed out is no verdict.
  const blocking = cli.problems.find((p) => p.blocks);
  if (blocking) return html`${badge(cli.readiness === "not_ready" ? "not signed in" : "problem", "failed")} <span class="why">${blocking.problem}</span>`;
  const unchecked = cli.problems[0];
  if (unchecked) return html`${badge("unchecked", "unknown")} <span class="why">${unchecked.problem}</span>`;
  return badge(cli.readiness === "ready" ? "ready" : "installed", cli.readiness === "ready" ? "ok" : "unknown");
}

function agentsTable(ctx: DashboardContext, statuses: AgentStatus[], now: number): Html {
  if (statuses.length === 0) return empty("No agents configured. Run `orchestrate init` in a terminal.");
  const probing = ctx.doctor.current() === undefined;
  const rows = statuses.map(({ agent, tiers, slots, cooldown, quota }) => {
    const cli = cliFor(ctx, agent.backend);
    return [
      html`<code>${agent.id}</code>${agent.enabled ? "" : html` ${badge("disabled", "unknown")}`}${agent.advisory ? html` ${badge("advisory", "unknown")}` : ""}`,
      agent.backend,
      agent.model ?? html`<span class="why">CLI default</span>`,
      agent.provider,
      cli?.version ?? "—",
      html`<span class="path">${cli?.path ? homeRelative(cli.path, ctx.rt.env.HOME) : ""}</span>`,
      readiness(cli, probing),
      cooldown ? html`${badge("cooling", "failed")} ${until(cooldown.until, now)}` : badge("available", "ok"),
      quotaCell(quota, now),
      [...tiers, ...slots.map((s) => `cap:${s}`)].join(", ") || "—",
    ];
  });
  return table(["agent", "backend", "model", "provider", "version", "path", "readiness", "cooldown", "quota", "tiers"], rows, "agents");
}

const QUOTA_BADGE: Record<QuotaHeadline["state"], string> = { ok: "ok", warning: "warning", exhausted: "failed" };

/** Its last reported quota: state, window, used %, resets in — what the router reads (a warned agent goes later, an exhausted one is skipped). */
function quotaCell(quota: QuotaHeadline | undefined, now: number): Html {
  if (!quota) return html`<span class="why">none reported</span>`;
  const used = quota.usedPercent !== undefined ? ` ${quota.usedPercent} % used` : "";
  const resets = quota.resetsAt !== undefined ? html` <span class="why">resets in ${duration(quota.resetsAt - now)}</span>` : "";
  return html`${badge(quota.state, QUOTA_BADGE[quota.state])} ${quota.window}${used}${resets}`;
}

function tierMap(ctx: DashboardContext): Html {
  const { config } = ctx.rt;
  const rows = TIERS.map((tier) => {
    const ids = config.tiers[tier];
    const fallback = config.fallbacks[tier];
    return [
      html`<b>${tier}</b>`,
      ids ? ids.map((id, i) => html`${i ? " → " : ""}<code>${id}</code>`) : html`<span class="why">unconfigured</span>`,
      fallback ? `then ${fallback}` : "—",
    ];
  });
  const slots = Object.entries(config.capabilitySlots).map(([slot, ids]) => [
    html`<b>cap:${slot}</b>`,
    ids.map((id, i) => html`${i ? " → " : ""}<code>${id}</code>`),
    "—",
  ]);
  const note = html`<p class="why">Cross-provider fallback is ${config.allowCrossProviderFallback ? "allowed" : "off"}; default budget ${duration(config.defaults.timeoutSec * 1000)}.</p>`;
  return html`${table(["tier", "agents in order", "fallback"], [...rows, ...slots], "tiers")}${note}`;
}

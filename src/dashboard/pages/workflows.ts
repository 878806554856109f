/**
 * `/workflows` and `/workflows/:id`: each workflow's goal, status and round; on its page the
 * bindings it was started with, where the loop stands (loop_done's checks, computed from the rows
 * as workflow_status computes them — they are never stored), and every step with what it produced.
 */
import { WORKFLOW_STATUSES } from "../../store/browse/index.ts";
import type { WorkflowRecord, WorkflowStatus } from "../../store/index.ts";
import { workflowView } from "../../services/workflow/views.ts";
import type { DashboardContext } from "../context.ts";
import { homeRelative, when } from "../format.ts";
import { html, query, type Html } from "../html.ts";
import { badge, empty, page, table } from "../layout.ts";
import { select } from "./runs.ts";
import { field, isObject, strings, text } from "./stored.ts";
import { stepBadge, stepSection, stepsTable } from "./workflow-step.ts";

export function workflowBadge(status: WorkflowStatus): Html {
  const kind =
    status === "completed" ? "ok" : status === "active" ? "running" : status === "failed" ? "failed" : status === "cancelled" ? "cancelled" : "unknown";
  return badge(status.replace("_", " "), kind);
}

export function workflowsPage(ctx: DashboardContext, params: URLSearchParams): Html {
  const status = WORKFLOW_STATUSES.find((s) => s === params.get("status"));
  const before = params.get("before") || undefined;
  const result = ctx.rt.store.browse.workflows({ ...(status ? { status } : {}), ...(before ? { before } : {}), limit: 50 });
  const form = html`<form class="filters" method="get" action="/workflows">${select("status", status, WORKFLOW_STATUSES)} <button type="submit">Filter</button> <a href="/workflows">clear</a></form>`;
  const rows = result.rows.map((w) => [
    html`<a href="/workflows/${w.id}">${w.id}</a>`,
    workflowBadge(w.status),
    html`<span class="head">${w.goalHead}</span>`,
    String(w.round),
    html`${w.steps}${w.failedSteps ? html` <span class="why">(${w.failedSteps} failed)</span>` : ""}`,
    w.lastStep ? html`${w.lastStep.step} ${stepBadge(w.lastStep.status)}` : "—",
    html`<span class="path">${homeRelative(w.workdir, ctx.rt.env.HOME)}</span>`,
    when(w.updatedAt),
  ]);
  const next = result.next ? html`<p class="pager"><a id="older" href="/workflows${query({ status, before: result.next })}">Older →</a></p>` : "";
  const none = empty(status ? "No workflow matches." : "No workflows stored (workflows need a consult.workflow block).");
  const body = html`${form}${rows.length ? table(["workflow", "status", "goal", "round", "steps", "last step", "workdir", "updated"], rows, "workflows") : none}${next}`;
  return page({ title: "Workflows", section: "/workflows", body, editable: ctx.managedPath !== undefined });
}

export function workflowPage(ctx: DashboardContext, id: string): Html | undefined {
  const wf = ctx.rt.store.workflows.get(id);
  if (!wf) return undefined;
  const steps = ctx.rt.store.workflows.steps(id);
  const body = html`${facts(ctx, wf)}
<h2>Steps</h2>${steps.length ? stepsTable(steps) : empty("No step planned yet.")}
<h2>Bindings (snapshot at start)</h2>${bindings(wf.snapshot)}
${steps.filter((s) => s.status !== "cancelled" || s.result !== null).map((s) => stepSection(s, ctx.rt.env.HOME))}`;
  return page({ title: `Workflow ${wf.id}`, section: "/workflows", body, editable: ctx.managedPath !== undefined });
}

function facts(ctx: DashboardContext, wf: WorkflowRecord): Html {
  const view = workflowView(ctx.rt, wf);
  const cap = view.max_fix_rounds === null ? "" : ` of ${view.max_fix_rounds}`;
  const rows: [string, Html | string][] = [
    ["goal", html`<span id="goal">${wf.goal}</span>`],
    ["workdir", html`<code>${homeRelative(wf.workdir, ctx.rt.env.HOME)}</code>`],
    ["status", workflowBadge(wf.status)],
    ["fix round", `${wf.round}${cap}`],
    ["next", view.next],
    ["baseline · current", html`<code>${wf.baselineCommit.slice(0, 12)}</code> · <code>${wf.currentCommit.slice(0, 12)}</code>`],
    ["created · updated", `${when(wf.createdAt)} · ${when(wf.updatedAt)}`],
  ];
  const checks = Object.entries(view.checks).map(([name, passed]) => [name.replaceAll("_", " "), passed ? badge("yes", "ok") : badge("no", "failed")]);
  return html`<dl class="facts">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
<h2>Loop done: ${view.loop_done ? badge("yes", "ok") : badge("no", "unknown")}</h2>
<p class="why">Computed from the stored steps and review as workflow_status does; the reasons are not stored separately.</p>
${table(["check", "holds"], checks, "loop-checks")}`;
}

/** The snapshot's bindings: host, one agent in a mode, or the review's agents, per step. */
function bindings(snapshot: unknown): Html {
  const b = field(snapshot, "bindings");
  if (!isObject(b)) return empty("No bindings snapshot stored.");
  const rows = Object.entries(b).map(([step, binding]) => {
    const kind = text(binding, "kind");
    const who =
      kind === "agent"
        ? html`<code>${text(binding, "agent") ?? "?"}</code> <span class="why">${text(binding, "backend") ?? ""}${text(binding, "model") ? ` · ${text(binding, "model")}` : ""}</span>`
        : kind === "agents"
          ? html`${(strings(binding, "agents") ?? []).map((a, i) => html`${i ? ", " : ""}<code>${a}</code>`)}`
          : "host";
    return [html`<b>${step}</b>`, kind ?? "?", who, kind === "agent" ? (text(binding, "execution") ?? "?") : "—"];
  });
  const policy = field(snapshot, "policy");
  const note = isObject(policy)
    ? html`<p class="why">Policy: ${Object.entries(policy).map(([k, v], i) => html`${i ? " · " : ""}${k} ${JSON.stringify(v)}`)}</p>`
    : "";
  return html`${table(["step", "executor", "agent(s)", "execution"], rows, "bindings")}${note}`;
}

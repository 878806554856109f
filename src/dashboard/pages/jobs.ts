/** `/jobs` and `/jobs/:id`: background work, its progress line and the tail of its output. */
import type { JobKind, JobStatus } from "../../store/index.ts";
import { JOB_KIND_VALUES, jobRef } from "../../store/browse/index.ts";
import type { DashboardContext } from "../context.ts";
import { duration, when } from "../format.ts";
import { html, query, type Html } from "../html.ts";
import { badge, empty, page, table } from "../layout.ts";
import { select } from "./runs.ts";

const STATUSES: readonly JobStatus[] = ["running", "ok", "failed", "cancelled"];

/** The page each kind's ref opens; a kind the store gains fails to compile until it has one. */
const REF_PAGE: { [K in JobKind]: string } = {
  route: "/runs",
  consult: "/consultations",
  review: "/reviews",
  workflow_step: "/workflows",
  ask: "/asks",
};

function refLink(ref: string | null, kind: JobKind): Html | string {
  if (!ref) return "—";
  return html`<a class="ref" href="${REF_PAGE[kind]}/${ref}">${ref}</a>`;
}

/**
 * What a finished job came to. The progress column is the job's latest line, and a job that ended
 * keeps its last one ("attempt 1/2 · … · running tests"), which read as if it were still at it.
 */
function endState(j: { status: JobStatus; errorCode: string | null; createdAt: number; updatedAt: number }): string {
  const after = duration(j.updatedAt - j.createdAt);
  if (j.status === "ok") return `done after ${after}`;
  if (j.status === "cancelled") return `cancelled after ${after}`;
  return `failed${j.errorCode ? ` (${j.errorCode})` : ""} after ${after}`;
}

export function jobsPage(ctx: DashboardContext, params: URLSearchParams): Html {
  const status = STATUSES.find((s) => s === params.get("status"));
  const kind = JOB_KIND_VALUES.find((k) => k === params.get("kind"));
  const before = params.get("before") || undefined;
  const result = ctx.rt.store.browse.jobs({ ...(status ? { status } : {}), ...(kind ? { kind } : {}), ...(before ? { before } : {}), limit: 50 });
  const form = html`<form class="filters" method="get" action="/jobs">${select("status", status, STATUSES)} ${select("kind", kind, JOB_KIND_VALUES)} <button type="submit">Filter</button> <a href="/jobs">clear</a></form>`;
  const rows = result.rows.map((j) => [
    html`<a href="/jobs/${j.id}">${j.id}</a>`,
    j.kind,
    html`${badge(j.status)}${j.errorCode ? html` <span class="why">${j.errorCode}</span>` : ""}`,
    html`<span class="head">${j.status === "running" ? (j.progress ?? "") : endState(j)}</span>`,
    refLink(j.ref, j.kind),
    when(j.createdAt),
    j.status === "running" ? badge("running") : duration(j.updatedAt - j.createdAt),
  ]);
  const next = result.next ? html`<p class="pager"><a id="older" href="/jobs${query({ status, kind, before: result.next })}">Older →</a></p>` : "";
  const body = html`${form}${rows.length ? table(["job", "kind", "status", "progress", "delivered", "created", "took"], rows, "jobs") : empty("No job matches.")}${next}`;
  return page({ title: "Jobs", section: "/jobs", body, editable: ctx.managedPath !== undefined });
}

export function jobPage(ctx: DashboardContext, id: string): Html | undefined {
  const job = ctx.rt.store.jobs.get(id);
  if (!job) return undefined;
  const state: [string, string][] =
    job.status === "running"
      ? [["progress", job.progress ?? "—"]]
      : [
          ["ended", endState(job)],
          ["last progress", job.progress ?? "—"],
        ];
  const facts: [string, string | Html][] = [
    ["kind", job.kind],
    ["for", refLink(jobRef(job.kind, job.args, job.result), job.kind)],
    ["status", html`${badge(job.status)}${job.errorCode ? html` <code>${job.errorCode}</code> ${job.errorMessage ?? ""}` : ""}`],
    ...state,
    ["owner pid", String(job.ownerPid)],
    ["created · updated", `${when(job.createdAt)} · ${when(job.updatedAt)}`],
  ];
  const body = html`<dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
<h2>Output so far</h2>${job.partialOutput ? html`<pre class="content" id="partial">${job.partialOutput}</pre>` : empty("No output stored.")}
<h2>Result</h2>${job.result === undefined || job.result === null ? empty(job.status === "running" ? "Still running." : "No result stored.") : html`<pre class="content" id="result">${JSON.stringify(job.result, null, 2)}</pre>`}`;
  return page({ title: `Job ${job.id}`, section: "/jobs", body, editable: ctx.managedPath !== undefined });
}

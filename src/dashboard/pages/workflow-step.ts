/**
 * One workflow step on `/workflows/:id`: its kind, who ran it and how, when, and what it
 * produced — the patch (escaped, capped), the files it touched and the ignored ones left out,
 * a TestReport with its bounded output, the review it ran, or the host's text.
 */
import type { StepRecord } from "../../store/index.ts";
import { duration, homeRelative, when } from "../format.ts";
import { html, type Html } from "../html.ts";
import { badge, table } from "../layout.ts";
import { capped, field, isObject, num, objects, strings, text } from "./stored.ts";

/** A diff longer than this is cut, with a note: the page stays readable, the store keeps it whole. */
export const PATCH_CAP = 64 * 1024;
/** The part of a test's output a page shows (its end, where a runner prints the verdict). */
export const OUTPUT_CAP = 16 * 1024;
const RESULT_CAP = 16 * 1024;

const ENDED = new Set(["succeeded", "failed", "cancelled", "awaiting_host_apply"]);

export function stepBadge(status: string): Html {
  const kind =
    status === "succeeded" ? "ok" : status === "running" ? "running" : status === "failed" ? "failed" : status === "cancelled" ? "cancelled" : "unknown";
  return badge(status, kind);
}

/** Who ran it: the host, one agent in a mode, or the review's agents. */
function runner(s: StepRecord): Html {
  if (s.executor === "host") return html`host`;
  if (s.executor === "agents") return html`reviewers`;
  return html`<code>${s.agentId ?? "?"}</code>`;
}

/** The step-by-step table at the top of the page: one row per step, linked to its section. */
export function stepsTable(steps: readonly StepRecord[]): Html {
  const rows = steps.map((s) => {
    const ended = ENDED.has(s.status) ? s.updatedAt : null;
    return [
      html`<a href="#step-${s.seq}">${s.seq}</a>`,
      html`<b>${s.step}</b>`,
      String(s.round),
      stepBadge(s.status),
      runner(s),
      s.executor === "host" ? "host" : (s.execution ?? (s.executor === "agents" ? "review" : "—")),
      when(s.createdAt),
      when(s.tokenSpentAt),
      s.tokenSpentAt !== null && ended !== null ? duration(ended - s.tokenSpentAt) : s.status === "running" ? badge("running") : "—",
    ];
  });
  return table(["#", "step", "round", "status", "run by", "mode", "planned", "started", "took"], rows, "steps");
}

/** `home` shortens paths under it to `~/…` (format.ts homeRelative). */
export function stepSection(s: StepRecord, home?: string): Html {
  const error = s.errorCode ? html`<p class="error"><code>${s.errorCode}</code> ${s.errorMessage ?? ""}</p>` : "";
  const review = s.reviewId ? html`<p>Review: <a class="review-link" href="/reviews/${s.reviewId}">${s.reviewId}</a></p>` : "";
  const approval = s.approval ? html` · approved by ${s.approval}` : "";
  return html`<section class="step" id="step-${s.seq}" data-step="${s.step}">
<h2>${s.seq}. ${s.step} ${stepBadge(s.status)}</h2>
<p class="why">round ${s.round} · ${s.executor === "host" ? "the host's step" : html`run by ${runner(s)} in ${s.execution ?? "review"} mode`}${approval} · commit before <code>${s.commitBefore.slice(0, 12)}</code></p>
${error}${review}${resultOf(s, home)}</section>`;
}

function resultOf(s: StepRecord, home: string | undefined): Html | string {
  const r = s.result;
  if (r === null || r === undefined) return s.status === "planned" ? html`<p class="empty">Planned; its token was not spent yet.</p>` : "";
  if (!isObject(r)) return preCapped(JSON.stringify(r, null, 2), RESULT_CAP, `result-${s.seq}`);
  const parts: (Html | string)[] = [];
  const summary = text(r, "summary");
  if (summary) parts.push(html`<h4>Summary</h4><pre class="content" id="summary-${s.seq}">${summary}</pre>`);
  const patch = text(r, "patch");
  if (patch !== undefined) parts.push(patchBlock(patch, s.seq, text(r, "mode")));
  parts.push(filesBlock(r, s.seq));
  const report = field(r, "report");
  if (isObject(report)) parts.push(testReport(report, s.seq, home));
  const reviewId = text(r, "review_id");
  if (reviewId && reviewId !== s.reviewId)
    parts.push(
      html`<p>Review: <a class="review-link" href="/reviews/${reviewId}">${reviewId}</a>${text(r, "review_status") ? html` · ${text(r, "review_status")}` : ""}</p>`,
    );
  const commit = text(r, "commit");
  if (commit)
    parts.push(html`<p>Applied as commit <code>${commit}</code>${text(r, "from") ? html` (from <code>${text(r, "from")?.slice(0, 12)}</code>)` : ""}</p>`);
  const prose = text(r, "text");
  if (prose) parts.push(preCapped(prose, RESULT_CAP, `text-${s.seq}`));
  const commands = strings(r, "commands");
  if (commands?.length)
    parts.push(html`<h4>Tools the agent reported using</h4><ul class="commands">${commands.map((c) => html`<li><code>${c}</code></li>`)}</ul>`);
  return html`${parts}`;
}

function patchBlock(patch: string, seq: number, mode: string | undefined): Html {
  const { shown, note } = capped(patch, PATCH_CAP);
  const lines = patch.split("\n").length;
  return html`<h4>Patch${mode ? ` (${mode})` : ""} · ${lines} lines</h4>${note ? html`<p class="why cap-note">${note} The whole diff is in the store.</p>` : ""}<pre class="content patch" id="patch-${seq}">${shown}</pre>`;
}

function filesBlock(r: unknown, seq: number): Html | string {
  const files = objects(r, "files");
  const ignored = strings(r, "ignored") ?? [];
  const changed = files.length
    ? table(
        ["status", "file"],
        files.map((f) => [text(f, "status") ?? "?", html`<code>${text(f, "path") ?? "?"}</code>`]),
        `files files-${seq}`,
      )
    : "";
  const left = ignored.length
    ? html`<h4>Ignored files (left out of the patch)</h4><ul class="ignored" id="ignored-${seq}">${ignored.map((p) => html`<li><code>${p}</code></li>`)}</ul>`
    : "";
  return files.length || ignored.length ? html`${files.length ? html`<h4>Files in the patch</h4>` : ""}${changed}${left}` : "";
}

function testReport(t: unknown, seq: number, home: string | undefined): Html {
  const exit = num(t, "exit_code");
  const status = text(t, "status") ?? "?";
  const facts: [string, Html | string][] = [
    ["command", html`<code>${text(t, "command") ?? "?"}</code>`],
    ["cwd", html`<code>${homeRelative(text(t, "cwd") ?? "?", home)}</code>`],
    ["exit code", exit === undefined ? html`<span class="why">none read</span>` : String(exit)],
    ["status", badge(status, status === "pass" ? "ok" : "failed")],
    ["reported by", html`<b>${text(t, "reported_by") ?? "?"}</b> <span class="why">${text(t, "provenance") ?? ""}</span>`],
    ["duration", duration(num(t, "duration_ms"))],
    ["commit", html`<code>${text(t, "commit") ?? "?"}</code>`],
  ];
  const observed = objects(t, "observed");
  const changedFiles = strings(t, "changed_files") ?? [];
  const claimed = text(t, "claimed");
  return html`<h4>Test report</h4><dl class="facts test-report" id="report-${seq}">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
${
  observed.length
    ? table(
        ["command observed", "exit code"],
        observed.map((o) => [html`<code>${text(o, "command") ?? "?"}</code>`, num(o, "exit_code") === undefined ? "none read" : String(num(o, "exit_code"))]),
        "observed",
      )
    : ""
}
${claimed ? html`<h4>What the agent said (kept as a claim)</h4><pre class="content">${capped(claimed, OUTPUT_CAP).shown}</pre>` : ""}
${changedFiles.length ? html`<p class="why">Files edited while testing (not applicable): ${changedFiles.join(", ")}</p>` : ""}
<h4>Output</h4>${preCapped(text(t, "output") ?? "", OUTPUT_CAP, `output-${seq}`, "tail")}`;
}

function preCapped(value: string, max: number, id: string, keep: "head" | "tail" = "head"): Html {
  const { shown, note } = capped(value, max, keep);
  return html`${note ? html`<p class="why cap-note">${note}</p>` : ""}<pre class="content" id="${id}">${shown}</pre>`;
}

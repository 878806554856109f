/** `/runs/:id`: one run in full — the attempt trace, its timeline, the redacted prompt and answer. */
import type { AttemptRecord, RunRecord } from "../../store/index.ts";
import { adapters, isBackend } from "../../backends/index.ts";
import { attemptWords, type FailureWords } from "../../services/shared/failure-words.ts";
import { timeline } from "../chart.ts";
import type { DashboardContext } from "../context.ts";
import { duration, homeRelative, tokens, usd, when } from "../format.ts";
import { html, trusted, type Html } from "../html.ts";
import { badge, page, table } from "../layout.ts";

export function runPage(ctx: DashboardContext, id: string): Html | undefined {
  const run = ctx.rt.store.runs.getRun(id);
  if (!run) return undefined;
  const body = html`
${facts(run, ctx.rt.env.HOME)}
<h2>Attempt trace</h2>
${attemptsTable(run.attempts)}
<h2>Timeline</h2>
${run.attempts.length ? trusted(timelineOf(run, ctx.rt.now())) : html`<p class="empty">No attempt recorded yet.</p>`}
<p class="why">Stored per attempt: when it ended, how long it ran, its outcome. The CLI's own event stream is not stored.</p>
<h2>Prompt</h2>
${content(run.prompt, run.promptLength, "prompt")}
<h2>Answer</h2>
${run.status === "running" ? html`<p class="empty">Still running.</p>` : content(run.answer, run.answerLength, "answer")}`;
  return page({ title: `Run ${run.id}`, section: "/runs", body, editable: ctx.managedPath !== undefined });
}

function facts(run: RunRecord, home: string | undefined): Html {
  const took = run.endedAt ? duration(run.endedAt - run.startedAt) : "running";
  const rows: [string, Html | string][] = [
    ["status", html`${badge(run.status)}${run.errorCode ? html` <code>${run.errorCode}</code>` : ""}`],
    ["tool / tier", `${run.tool} / ${run.tier ?? "—"}`],
    ["served by", run.servedBy ?? "—"],
    ["cwd", html`<code>${homeRelative(run.cwd, home)}</code>`],
    ["started", when(run.startedAt)],
    ["took", took],
    ["tree changed", run.treeChanged === null ? "not checked" : run.treeChanged ? "yes" : "no"],
    ["server pid", String(run.pid)],
  ];
  const error = run.errorMessage ? html`<p class="error">${run.errorMessage}</p>` : "";
  return html`<dl class="facts">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>${error}`;
}

function verification(a: AttemptRecord): Html | string {
  if (!a.modelVerification) return a.outcome === "ok" ? html`<span class="why">not recorded</span>` : "—";
  const kind = a.modelVerification === "verified" ? "ok" : a.modelVerification === "mismatch" ? "failed" : "unknown";
  return html`${badge(a.modelVerification, kind)}${a.modelsReported?.length ? html` <span class="why">reported ${a.modelsReported.join(", ")}</span>` : ""}`;
}

/**
 * The page is for the person at this machine, so a failed attempt says its class in words (not
 * signed in, rate-limited, provider error 503) and what fixes it, as the shell does; MCP replies
 * keep the coarse "unavailable" (services/route/outcome.ts publicOutcome).
 */
function outcomeBadge(a: AttemptRecord): Html {
  if (a.outcome === "ok" || a.outcome === "skipped") return badge(a.outcome, a.outcome === "ok" ? "ok" : "unknown");
  return badge(classWords(a).words, "failed");
}

function classWords(a: AttemptRecord): FailureWords {
  return attemptWords(a.outcome, a.reason, isBackend(a.backend) ? adapters[a.backend] : undefined);
}

function reasonCell(a: AttemptRecord): Html {
  if (a.outcome === "ok" || a.outcome === "skipped") return html`<span class="why">${a.reason}</span>`;
  const w = classWords(a);
  return html`<span class="why">${w.detail ?? w.words}</span>${w.fix ? html`<br><span class="fix">fix: <code>${w.fix}</code></span>` : ""}`;
}

function attemptsTable(attempts: AttemptRecord[]): Html {
  return table(
    ["#", "agent", "backend", "model", "verification", "outcome", "reason", "exit", "took", "tokens in/out", "cost", "session"],
    attempts.map((a) => [
      String(a.n),
      html`<code>${a.agentId}</code>${a.fellBack ? html` ${badge("fell back", "unknown")}` : ""}`,
      `${a.backend} (${a.provider})`,
      a.model ?? "CLI default",
      verification(a),
      outcomeBadge(a),
      reasonCell(a),
      a.exitCode === null ? "—" : String(a.exitCode),
      duration(a.durationMs),
      `${tokens(a.usage?.inputTokens)} / ${tokens(a.usage?.outputTokens)}`,
      usd(a.usage?.costUsd),
      a.sessionId ? html`<code>${a.sessionId}</code>` : "—",
    ]),
    "attempts",
  );
}

function timelineOf(run: RunRecord, now: number): string {
  const spans = run.attempts
    .filter((a) => a.outcome !== "skipped")
    .map((a) => ({
      label: `${a.n}. ${a.agentId}`,
      start: a.createdAt - a.durationMs,
      end: a.createdAt,
      ok: a.outcome === "ok",
      detail: `${a.outcome === "ok" || a.outcome === "skipped" ? a.outcome : classWords(a).words} after ${duration(a.durationMs)}`,
    }));
  const to = Math.max(run.endedAt ?? now, ...spans.map((s) => s.end));
  return timeline({ id: "timeline", title: `Attempts of run ${run.id}`, from: Math.min(run.startedAt, ...spans.map((s) => s.start)), to, spans });
}

/** Stored text is already redacted before insert; metadata-only storage keeps its shape. */
export function content(text: string | null, length: number | null, what: string): Html {
  if (text !== null) return html`<pre class="content" id="${what}">${text}</pre>`;
  if (length === null) return html`<p class="empty">No ${what}.</p>`;
  return html`<p class="empty">${length} characters, not stored (store.fullContent is false).</p>`;
}

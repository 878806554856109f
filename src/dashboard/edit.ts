/**
 * Editable mode (`dashboard.editable: true`, seed 001): manage consult agents and the reviewer
 * selection in the browser. Every write goes to the managed file only — the one the loader merges
 * (config/managed.ts: managed.yaml beside the config, or Orchestrator MCP's agents.yaml in its own
 * agent shape for a seed 001 config; 0600, atomic, read back before the rename) — after the guard's
 * same-origin check and this page's per-process token, and only when the merged config would load.
 * The main config is never written; the servers read the change when they next start.
 */
import { BACKENDS } from "../backends/index.ts";
import { checkManaged, readManaged, writeManaged, type ManagedFile, type ManagedTarget } from "../config/managed.ts";
import type { DashboardContext } from "./context.ts";
import { sameToken, SECURITY_HEADERS } from "./guard.ts";
import { html, type Html } from "./html.ts";
import { empty, page, table } from "./layout.ts";
import { htmlResponse, type EditHandler } from "./routes.ts";

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function current(path: string): ManagedFile | string[] {
  const read = readManaged(path);
  if (read.ok) return read.value;
  return "refusal" in read ? [read.refusal.error.message] : read.errors;
}

function scoresText(scores: unknown): string {
  if (typeof scores !== "object" || scores === null) return "";
  return Object.entries(scores)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ");
}

function editorPage(ctx: DashboardContext, managed: ManagedFile, notice?: Html): Html {
  const agents = Object.entries(managed.agents ?? {});
  const ids = [...new Set([...Object.keys(ctx.rt.config.agents), ...agents.map(([id]) => id)])].sort();
  const token = html`<input type="hidden" name="token" value="${ctx.token}">`;
  const rows = agents.map(([id, a]) => [
    html`<code>${id}</code>`,
    String(a.backend ?? a.runtime ?? ""),
    String(a.model ?? ""),
    scoresText(a.scores),
    a.enabled === false ? "disabled" : "enabled",
    html`<form method="post" action="/edit/agents/delete">${token}<input type="hidden" name="id" value="${id}"><button type="submit">Remove</button></form>`,
  ]);
  const reviewers = managed.review?.reviewers ?? ctx.rt.config.consult.review?.reviewers ?? [];
  const deep = managed.review?.deep_reviewers ?? ctx.rt.config.consult.review?.deepReviewers ?? [];
  const body = html`${notice ?? ""}
<p class="why">Changes go to <code>${ctx.managedPath ?? ""}</code> (mode 0600), merged into the config when orchestrate starts. The main config is never rewritten. Restart the MCP server (and this dashboard) to use them.</p>
<h2>Managed agents</h2>
${rows.length ? table(["agent", "backend", "model", "scores", "state", ""], rows, "managed") : empty("No managed agents yet.")}
<h2>Add or update an agent</h2>
<form class="edit" method="post" action="/edit/agents/save">${token}
<label for="id">id</label><input id="id" name="id" required pattern="[A-Za-z0-9][A-Za-z0-9._-]*">
<label for="backend">backend</label><select id="backend" name="backend">${BACKENDS.map((b) => html`<option>${b}</option>`)}</select>
<label for="model">model</label><input id="model" name="model" placeholder="as the CLI names it">
<label for="scores">scores</label><input id="scores" name="scores" placeholder="review=90, coding=80">
<label for="enabled">enabled</label><input id="enabled" name="enabled" type="checkbox" checked>
<button type="submit">Save agent</button></form>
<h2>Reviewers</h2>
<form class="edit" method="post" action="/edit/reviewers">${token}
<label for="reviewer">standard reviewer</label><select id="reviewer" name="reviewer"><option value="">(none)</option>${ids.map((id) => html`<option${reviewers.includes(id) ? html` selected` : ""}>${id}</option>`)}</select>
<span>deep reviewers (1–5)</span><span>${ids.map((id) => html`<label><input type="checkbox" name="deep" value="${id}"${deep.includes(id) ? html` checked` : ""}> ${id}</label> `)}</span>
<button type="submit">Save reviewers</button></form>`;
  return page({ title: "Agents (edit)", section: "/edit/agents", body, live: false, editable: true });
}

function parseScores(text: string): Record<string, number> | string {
  const scores: Record<string, number> = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value] = part.split("=").map((x) => x.trim());
    const n = Number(value);
    if (!name || !ID.test(name) || !Number.isFinite(n)) return `"${part}" is not name=number`;
    scores[name] = n;
  }
  return scores;
}

type Change = { file: ManagedFile } | { error: string };

/** The form's fields; what it does not show (a seed agent's web_search, command, priority) is kept. */
const FORM_KEYS = ["backend", "runtime", "model", "scores", "enabled"];

function changeFor(action: string, form: Awaited<ReturnType<Request["formData"]>>, managed: ManagedFile, seed: boolean): Change {
  const text = (k: string) => String(form.get(k) ?? "").trim();
  if (action === "reviewers") {
    const reviewer = text("reviewer");
    const deep = form.getAll("deep").map(String);
    return { file: { ...managed, review: { ...(reviewer ? { reviewers: [reviewer] } : {}), ...(deep.length ? { deep_reviewers: deep } : {}) } } };
  }
  const id = text("id");
  if (!ID.test(id)) return { error: "An agent id is letters, digits, . _ - (up to 64)." };
  const agents = { ...(managed.agents ?? {}) };
  if (action === "delete") {
    delete agents[id];
    return { file: { ...managed, agents } };
  }
  const scores = parseScores(text("scores"));
  if (typeof scores === "string") return { error: `scores: ${scores}` };
  const model = text("model");
  const kept = Object.fromEntries(Object.entries(agents[id] ?? {}).filter(([k]) => !FORM_KEYS.includes(k)));
  agents[id] = {
    ...kept,
    // Orchestrator MCP's agents.yaml names the CLI `runtime` (config/schema.ts OrchAgentDef).
    [seed ? "runtime" : "backend"]: text("backend"),
    ...(model ? { model } : {}),
    ...(Object.keys(scores).length ? { scores } : {}),
    enabled: form.get("enabled") !== null,
  };
  return { file: { ...managed, agents } };
}

function refused(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" } });
}

async function save(req: Request, action: string, ctx: DashboardContext, target: ManagedTarget, configPath: string): Promise<Response> {
  const form = await req.formData();
  if (!sameToken(String(form.get("token") ?? ""), ctx.token)) return refused(403, "Refused: the form's token is not this dashboard process's.");
  const managed = current(target.path);
  if (Array.isArray(managed)) return htmlResponse(editorPage(ctx, {}, html`<p class="error">${managed.join("\n")}</p>`), 409);
  const change = changeFor(action, form, managed, target.seed);
  const invalid = "error" in change ? [change.error] : await checkManaged(configPath, target, change.file, ctx.rt.env).then((c) => (c.ok ? [] : c.errors));
  if ("error" in change || invalid.length)
    return htmlResponse(
      editorPage(ctx, managed, html`<p class="error">Not saved — the config would not load:<br>${invalid.map((e) => html`${e}<br>`)}</p>`),
      400,
    );
  const written = await writeManaged(target, change.file, configPath, ctx.rt.env);
  if (!written.ok) return htmlResponse(editorPage(ctx, managed, html`<p class="error">${written.error.message}</p>`), 500);
  return new Response(null, { status: 303, headers: { ...SECURITY_HEADERS, location: "/edit/agents?saved=1" } });
}

/** `target` is where the loader reads managed agents from (config/managed.ts managedSourceFor). */
export function editHandler(configPath: string, target: ManagedTarget): EditHandler {
  return async (req, url, ctx) => {
    const path = target.path;
    const action = /^\/edit\/(?:agents\/(save|delete)|(reviewers))$/.exec(url.pathname);
    if (req.method === "POST" && action) return save(req, action[1] ?? action[2] ?? "", ctx, target, configPath);
    if (req.method !== "GET" && req.method !== "HEAD") return undefined;
    if (url.pathname !== "/edit/agents") return undefined;
    const managed = current(path);
    if (Array.isArray(managed)) return htmlResponse(editorPage(ctx, {}, html`<p class="error">${managed.join("\n")}</p>`), 409);
    return htmlResponse(
      editorPage(ctx, managed, url.searchParams.get("saved") ? html`<p class="notice">Saved. Restart orchestrate to use it.</p>` : undefined),
    );
  };
}

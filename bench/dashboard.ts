/**
 * Dashboard over a big history: a store holding 100k route runs (1–3 attempts each, usage rows),
 * 10k consultations and 2k workflows (7 steps each) spread over 90 days, generated once into bench/.work through the store's
 * own API. Each page is fetched over loopback from an in-process dashboard opened read-only, and
 * the server's own time is read from its `Server-Timing` header. The reference is the same page
 * over an empty store in the same run, interleaved: the ratio is what 100k stored runs cost.
 *
 * Target: the first page (the overview, `/`) in ≤ 150 ms server time. Deep pages (a listing's
 * `before` bound taken from a row ~50k deep, as following "Older →" ~1000 times would reach) are
 * timed beside the same listing's page 1 on the same store: keyset paging should make them cost alike.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DEMO_CONFIG } from "../fakes/lib/demo-world.ts";
import { makeSandbox, type Sandbox } from "../fakes/lib/sandbox.ts";
import { startDashboard, type Dashboard } from "../src/dashboard/server.ts";
import { openReadonlyRuntime } from "../src/services/dashboard/index.ts";
import { openStore, type Store } from "../src/store/db.ts";
import { interleave, iterations, median, ms, ratio, say, section, WORK, type Row } from "./helpers.ts";

const RUNS = 100_000;
const CONSULTATIONS = 10_000;
const WORKFLOWS = 2_000;
const JOBS = 20_000;
/** How deep a deep page starts: about 1000 pages of 50 into the runs listing. */
const DEEP_ROWS = 50_000;
const SPAN_MS = 90 * 86_400_000;
const TARGET_MS = 150;
const AGENTS = [
  { agentId: "cheap", backend: "opencode", provider: "deepseek", model: "deepseek/deepseek-v4-flash" },
  { agentId: "codex-main", backend: "codex", provider: "openai", model: "gpt-5.5" },
  { agentId: "claude-opus", backend: "claude", provider: "anthropic", model: "opus" },
] as const;
const TIERS = ["light", "standard", "heavy"] as const;
/**
 * Listings timed at depth: the page path, and the SQL naming the row `before` points at (newest
 * first, in the listing's own order, at offset $n; shallower listings go 90% of their length deep).
 */
const DEEP_PAGES = [
  { path: "/runs", table: "runs", where: "", order: "started_at DESC, id DESC" },
  { path: "/runs?status=failed", table: "runs", where: "status = 'failed'", order: "started_at DESC, id DESC" },
  { path: "/runs?tier=heavy", table: "runs", where: "tier = 'heavy'", order: "started_at DESC, id DESC" },
  {
    path: "/runs?agent=cheap",
    table: "runs",
    where: "EXISTS (SELECT 1 FROM attempts a WHERE a.run_id = runs.id AND a.agent_id = 'cheap')",
    order: "started_at DESC, id DESC",
  },
  { path: "/consultations", table: "consultations", where: "", order: "updated_at DESC, id DESC" },
  { path: "/jobs", table: "jobs", where: "", order: "created_at DESC, id DESC" },
  { path: "/jobs?status=ok", table: "jobs", where: "status = 'ok'", order: "created_at DESC, id DESC" },
  { path: "/jobs?kind=route", table: "jobs", where: "kind = 'route'", order: "created_at DESC, id DESC" },
  { path: "/workflows", table: "workflows", where: "", order: "updated_at DESC, id DESC" },
] as const;
const PAGES = [
  "/",
  "/runs",
  "/runs?status=failed",
  "/consultations",
  "/workflows",
  "/workflows?status=needs_attention",
  "/usage",
  "/usage?range=90d&by=agent",
  "/usage?range=90d&by=tier",
] as const;

/** Deterministic pseudo-random numbers, so every bench run measures the same history. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function fillRuns(store: Store, now: number, rand: () => number): void {
  for (let i = 0; i < RUNS; i++) {
    const startedAt = now - Math.floor(rand() * SPAN_MS);
    const tier = TIERS[i % 3] ?? "light";
    const runId = store.runs.startRun({
      tool: "route",
      tier,
      cwd: "/home/u/Projects/repo",
      prompt: `Task ${i}: refactor module ${i % 977} and keep the tests green`,
      startedAt,
    });
    const tries = 1 + (rand() < 0.2 ? 1 : 0) + (rand() < 0.05 ? 1 : 0);
    let at = startedAt;
    let served: string | undefined;
    for (let n = 1; n <= tries; n++) {
      const a = AGENTS[(i + n) % 3] ?? AGENTS[0];
      const last = n === tries;
      const failedHere = !last || rand() < 0.07;
      const durationMs = 200 + Math.floor(rand() * 20_000);
      at += durationMs;
      store.runs.addAttempt({
        runId,
        n,
        ...a,
        outcome: failedHere ? (last ? "timeout" : "capacity") : "ok",
        reason: failedHere ? "unavailable" : "answered",
        exitCode: failedHere ? 1 : 0,
        durationMs,
        fellBack: !last,
        usage: { inputTokens: 1000 + Math.floor(rand() * 9000), outputTokens: 50 + Math.floor(rand() * 900), costUsd: rand() * 0.05 },
        createdAt: at,
      });
      if (!failedHere) served = a.agentId;
    }
    store.runs.finishRun(runId, {
      status: served ? "ok" : "failed",
      ...(served ? { servedBy: served, answer: `Done: module ${i % 977} refactored.` } : { errorCode: "timeout", errorMessage: "did not finish in time" }),
      treeChanged: false,
      endedAt: at,
    });
  }
}

function fillConsultations(store: Store, now: number, rand: () => number): void {
  for (let i = 0; i < CONSULTATIONS; i++) {
    const a = AGENTS[1 + (i % 2)] ?? AGENTS[1];
    const at = now - Math.floor(rand() * SPAN_MS);
    const id = store.consultations.create({ agentId: a.agentId, backend: a.backend, model: a.model, hostRuntime: "claude", now: at });
    store.consultations.addTurn(id, {
      prompt: `Question ${i}: trie or hash map?`,
      answer: { answer: "A trie.", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] },
      modelVerified: "verified",
      modelReported: a.model,
      usage: { inputTokens: 800, outputTokens: 120 },
      latencyMs: 3000 + Math.floor(rand() * 9000),
      now: at + 5000,
    });
  }
}

const STEPS = ["research", "plan", "author_execution_prompt", "implement", "apply_patch", "test", "review"] as const;
const END_STATES = ["completed", "needs_attention", "cancelled", "active"] as const;

function fillWorkflows(store: Store, now: number, rand: () => number): void {
  const commit = "0".repeat(40);
  for (let i = 0; i < WORKFLOWS; i++) {
    const id = `wf-${String(i).padStart(5, "0")}`;
    const at = now - Math.floor(rand() * SPAN_MS);
    store.workflows.create({
      id,
      goal: `Goal ${i}: make module ${i % 977} faster`,
      workdir: "/home/u/Projects/repo",
      commit,
      snapshot: { bindings: {}, policy: { maxFixRounds: 2 } },
      now: at,
    });
    STEPS.forEach((step, n) => {
      const stepId = `${id}-${n}`;
      store.workflows.addStep(
        {
          id: stepId,
          workflowId: id,
          step,
          round: 0,
          executor: "host",
          preview: {},
          context: "",
          promptSha256: "p",
          token: { sha256: stepId, binding: "b", expiresAt: at + 60_000 },
          commitBefore: commit,
        },
        at + n,
      );
      store.workflows.finishStep(
        stepId,
        {
          status: "succeeded",
          result:
            step === "test"
              ? { report: { command: "bun test", exit_code: 0, status: "pass", output: "ok", duration_ms: 900, commit, reported_by: "host" } }
              : { text: step },
        },
        at + n + 1,
      );
    });
    store.workflows.update(id, { status: END_STATES[i % END_STATES.length] ?? "completed" }, at + 10);
  }
}

/** Background jobs over the same span (route and consult, mostly ok), topped up into a store made before they were. */
function fillJobs(store: Store, now: number, rand: () => number): void {
  for (let i = 0; i < JOBS; i++) {
    const at = now - Math.floor(rand() * SPAN_MS);
    const kind = i % 2 === 0 ? "route" : "consult";
    const id = store.jobs.create({ kind, args: { prompt: `Job ${i}` }, ownerPid: 1, ownerStartedAt: at, now: at });
    const failed = rand() < 0.1;
    store.jobs.finish(id, {
      status: failed ? "failed" : "ok",
      ...(failed ? { errorCode: "timeout" } : { result: kind === "route" ? { runId: `run-${i}` } : { consultation_id: `c-${i}` } }),
      now: at + 1000,
    });
  }
}

/** A store generated before jobs were part of it gets them once, so /jobs is timed over a history too. */
function topUpJobs(store: Store): void {
  const n = store.db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs").get()?.n ?? 0;
  if (n > 0) return;
  say(`adding ${JOBS} jobs to the bench store (once)…`);
  store.db.transaction(() => fillJobs(store, Date.now(), rng(17)))();
  store.db.run("PRAGMA wal_checkpoint(TRUNCATE)");
}

/** The `before` that starts a deep page: the id of the row ~DEEP_ROWS into the listing. */
function deepBefore(dbPath: string, spec: (typeof DEEP_PAGES)[number]): string {
  const opened = openStore(dbPath);
  if (!opened.ok) throw new Error(opened.error.message);
  const db = opened.value.db;
  try {
    const where = spec.where ? `WHERE ${spec.where}` : "";
    const count = db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${spec.table} ${where}`).get()?.n ?? 0;
    const depth = Math.min(DEEP_ROWS, Math.floor(count * 0.9));
    const row = db.query<{ id: string }, { n: number }>(`SELECT id FROM ${spec.table} ${where} ORDER BY ${spec.order} LIMIT 1 OFFSET $n`).get({ n: depth });
    if (!row) throw new Error(`${spec.path}: no row ${depth} deep`);
    return row.id;
  } finally {
    opened.value.close();
  }
}

const withBefore = (path: string, before: string): string => `${path}${path.includes("?") ? "&" : "?"}before=${encodeURIComponent(before)}`;

/** The 100k-run store, generated once (the file is reused while it exists). */
function bigStore(): string {
  const path = join(WORK, "dashboard-100k", "orchestrate.db");
  if (existsSync(path)) {
    // A store generated by an older build: migrate it, as a server starting on it would.
    const migrated = openStore(path);
    if (migrated.ok) {
      topUpJobs(migrated.value);
      migrated.value.close();
    }
    return path;
  }
  mkdirSync(join(WORK, "dashboard-100k"), { recursive: true, mode: 0o700 });
  say(`generating ${RUNS} runs, ${CONSULTATIONS} consultations and ${WORKFLOWS} workflows into ${path} (once)…`);
  const opened = openStore(path);
  if (!opened.ok) throw new Error(opened.error.message);
  const store = opened.value;
  const rand = rng(16);
  const now = Date.now();
  try {
    store.db.transaction(() => {
      fillRuns(store, now, rand);
      fillConsultations(store, now, rand);
      fillWorkflows(store, now, rand);
      fillJobs(store, now, rand);
    })();
    store.db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  } catch (error) {
    store.close();
    rmSync(path, { force: true });
    throw error;
  }
  store.close();
  return path;
}

async function dashboardOver(box: Sandbox, dbPath: string): Promise<Dashboard> {
  const rt = await openReadonlyRuntime({ ...box.env, ORCHESTRATE_DB: dbPath });
  if (!rt.ok) throw new Error(rt.error.message);
  const dash = startDashboard({ rt: rt.value, port: 0 });
  await dash.ctx.doctor.ready;
  return dash;
}

async function serverTime(dash: Dashboard, path: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${dash.port}${path}`, { headers: { cookie: `orchestrate_dashboard_${dash.port}=${dash.token}` } });
  await res.text();
  const dur = /dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "")?.[1];
  if (res.status !== 200 || dur === undefined) throw new Error(`${path}: HTTP ${res.status}`);
  return Number(dur);
}

export async function run(): Promise<Row[]> {
  section(`dashboard: pages over ${RUNS / 1000}k stored runs vs an empty store (server time, Server-Timing)`);
  const big = bigStore();
  const box = makeSandbox();
  box.writeConfig(DEMO_CONFIG);
  const emptyOpened = openStore(box.dbPath);
  if (emptyOpened.ok) emptyOpened.value.close();
  const full = await dashboardOver(box, big);
  const empty = await dashboardOver(box, box.dbPath);
  const n = iterations(15);
  const rows: Row[] = [];
  try {
    for (const path of PAGES) {
      const samples = await interleave({ full: () => serverTime(full, path), empty: () => serverTime(empty, path) }, n, 2);
      const value = median(samples.full);
      const reference = median(samples.empty);
      say(`${path.padEnd(28)} ${ms(value)} over ${RUNS / 1000}k runs, ${ms(reference)} empty (n=${n})`);
      const first = path === "/";
      rows.push({
        benchmark: `dashboard ${path}${first ? " (first page)" : ""}, ${RUNS / 1000}k runs`,
        value: ms(value),
        reference: `empty store ${ms(reference)}`,
        ratio: ratio(value, reference),
        target: first ? `≤ ${TARGET_MS} ms` : "—",
        ...(first
          ? {
              pass: value <= TARGET_MS,
              note: `server time from Server-Timing, median of ${n}; ${RUNS / 1000}k runs (1–3 attempts), ${CONSULTATIONS / 1000}k consultations, ${WORKFLOWS / 1000}k workflows over 90 days; store opened read-only`,
            }
          : {}),
      });
    }
    rows.push(...(await deepPages(full, big, n)));
  } finally {
    await full.stop();
    await empty.stop();
    box.cleanup();
  }
  return rows;
}

/** Each listing ~50k rows deep beside its own page 1, interleaved on the same 100k store. */
async function deepPages(full: Dashboard, dbPath: string, n: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const spec of DEEP_PAGES) {
    const deep = withBefore(spec.path, deepBefore(dbPath, spec));
    const samples = await interleave({ deep: () => serverTime(full, deep), first: () => serverTime(full, spec.path) }, n, 2);
    const value = median(samples.deep);
    const reference = median(samples.first);
    say(`${`${spec.path} deep`.padEnd(28)} ${ms(value)} deep, ${ms(reference)} page 1 (n=${n})`);
    rows.push({
      benchmark: `dashboard ${spec.path} deep page (~${DEEP_ROWS / 1000}k rows in), ${RUNS / 1000}k runs`,
      value: ms(value),
      reference: `page 1 ${ms(reference)}`,
      ratio: ratio(value, reference),
      target: "—",
    });
  }
  return rows;
}

if (import.meta.main) {
  const { renderTable } = await import("./helpers.ts");
  process.stdout.write(`${renderTable(await run())}\n`);
}

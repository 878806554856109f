/**
 * Keyset paging of every dashboard listing (migration 007): each listing and filter is an index
 * search from the page's bound (never a scan, never a sort), and the row-value bound pages exactly
 * as the "before IS NULL OR" form it replaced, across page boundaries and equal timestamps.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { Store } from "../../src/store/db.ts";
import type { Page } from "../../src/store/browse/index.ts";
import { REF_SQL } from "../../src/store/browse/index.ts";
import { consultationListSql, jobListSql, runListSql } from "../../src/store/browse/sql.ts";
import { reviewListSql } from "../../src/store/browse/reviews.ts";
import { workflowListSql } from "../../src/store/browse/workflows.ts";
import { SCHEMA_VERSION } from "../../src/store/migrations/index.ts";
import { mustOpen, tmpStorePath } from "./tmp.ts";
import { rewindSchema } from "./rewind.ts";

type Values = Record<string, string>;
const T0 = Date.UTC(2026, 10, 1);
/** Four distinct times for twelve rows: most pages end inside a run of equal timestamps. */
const at = (i: number) => T0 + (i % 4) * 1000;

function plan(store: Store, sql: string, values: Values, extra: Record<string, number> = {}): string[] {
  return store.db
    .query<{ detail: string }, Record<string, string | number | null>>(`EXPLAIN QUERY PLAN ${sql}`)
    .all({ before: "X", limit: 51, ...extra, ...values })
    .map((r) => r.detail);
}

/** The listing's own rows come from an index search on `index` bounded by the row value, and nothing scans or sorts. */
function expectSearch(lines: string[], alias: string, index: string, eq: string[], time: string): void {
  const prefix = eq.map((c) => `${c}=? AND `).join("");
  expect(lines[0]).toBe(`SEARCH ${alias} USING INDEX ${index} (${prefix}(${time},id)<(?,?))`);
  expect(lines.filter((d) => d.startsWith("SCAN") || d.includes("TEMP B-TREE"))).toEqual([]);
}

describe("browse: every listing filter is an index search from the page's bound", () => {
  const store = mustOpen(tmpStorePath());
  const head = { head: 140 };

  test("runs: whole list, status, tool, tier; the agent filter walks runs_started and looks attempts up by key", () => {
    expectSearch(plan(store, runListSql({}), {}, head), "r", "runs_started", [], "started_at");
    expectSearch(plan(store, runListSql({ status: "failed" }), { status: "failed" }, head), "r", "runs_status_started", ["status"], "started_at");
    expectSearch(plan(store, runListSql({ tool: "consult" }), { tool: "consult" }, head), "r", "runs_tool_started", ["tool"], "started_at");
    expectSearch(plan(store, runListSql({ tier: "heavy" }), { tier: "heavy" }, head), "r", "runs_tier_started", ["tier"], "started_at");
    const agent = plan(store, runListSql({ agent: "cheap" }), { agent: "cheap" }, head);
    expectSearch(agent, "r", "runs_started", [], "started_at");
    expect(agent).toContain("SEARCH a EXISTS USING INDEX sqlite_autoindex_attempts_1 (run_id=?)");
    const all = { status: "ok" as const, tool: "route" as const, tier: "light", agent: "cheap" };
    for (const keys of [
      ["status", "tier"],
      ["status", "agent"],
      ["tool", "tier", "agent"],
      ["status", "tool", "tier", "agent"],
    ] as const) {
      const f = Object.fromEntries(keys.map((k) => [k, all[k]]));
      const lines = plan(store, runListSql(f), f, head);
      expect(lines[0]).toMatch(/^SEARCH r USING INDEX runs_\w+_started \(\w+=\? AND \(started_at,id\)<\(\?,\?\)\)$/);
      expect(lines.filter((d) => d.startsWith("SCAN") || d.includes("TEMP B-TREE"))).toEqual([]);
    }
  });

  test("consultations: whole list, agent, status, both", () => {
    expectSearch(plan(store, consultationListSql({}), {}, head), "c", "consultations_updated", [], "updated_at");
    expectSearch(plan(store, consultationListSql({ agent: "cl" }), { agent: "cl" }, head), "c", "consultations_agent_updated", ["agent_id"], "updated_at");
    expectSearch(plan(store, consultationListSql({ status: "open" }), { status: "open" }, head), "c", "consultations_status_updated", ["status"], "updated_at");
    const both = plan(store, consultationListSql({ agent: "cl", status: "open" }), { agent: "cl", status: "open" }, head);
    expect(both[0]).toMatch(/^SEARCH c USING INDEX consultations_(agent|status)_updated /);
    expect(both.filter((d) => d.startsWith("SCAN") || d.includes("TEMP B-TREE"))).toEqual([]);
  });

  test("jobs: whole list, status, kind, both", () => {
    expectSearch(plan(store, jobListSql({}, REF_SQL), {}), "j", "jobs_created", [], "created_at");
    expectSearch(plan(store, jobListSql({ status: "ok" }, REF_SQL), { status: "ok" }), "j", "jobs_status_created", ["status"], "created_at");
    expectSearch(plan(store, jobListSql({ kind: "route" }, REF_SQL), { kind: "route" }), "j", "jobs_kind_created", ["kind"], "created_at");
    const both = plan(store, jobListSql({ status: "ok", kind: "route" }, REF_SQL), { status: "ok", kind: "route" });
    expect(both[0]).toMatch(/^SEARCH j USING INDEX jobs_(status|kind)_created /);
    expect(both.filter((d) => d.startsWith("SCAN") || d.includes("TEMP B-TREE"))).toEqual([]);
  });

  test("reviews and workflows: whole list and status", () => {
    expectSearch(plan(store, reviewListSql({}), {}), "v", "reviews_updated", [], "updated_at");
    expectSearch(plan(store, reviewListSql({ status: "finalized" }), { status: "finalized" }), "v", "reviews_status_updated", ["status"], "updated_at");
    expectSearch(plan(store, workflowListSql({}), {}, head), "w", "workflows_updated", [], "updated_at");
    expectSearch(plan(store, workflowListSql({ status: "active" }), { status: "active" }, head), "w", "workflows_status_updated", ["status"], "updated_at");
  });
});

/** The replaced form, ids only: a joined `before` row and "IS NULL OR" per filter. */
function oldPage(db: Database, table: string, time: string, where: Values, before: string | undefined, limit: number, agent?: string): string[] {
  const conds = Object.keys(where).map((c) => `($${c} IS NULL OR x.${c} = $${c})`);
  const agentCond = agent ? ["EXISTS (SELECT 1 FROM attempts a WHERE a.run_id = x.id AND a.agent_id = $agent)"] : [];
  const sql = `SELECT x.id FROM ${table} x LEFT JOIN ${table} b ON b.id = $before
    WHERE ${[...conds, ...agentCond, `($before IS NULL OR x.${time} < b.${time} OR (x.${time} = b.${time} AND x.id < b.id))`].join(" AND ")}
    ORDER BY x.${time} DESC, x.id DESC LIMIT $limit`;
  return db
    .query<{ id: string }, Record<string, string | number | null>>(sql)
    .all({ ...where, ...(agent ? { agent } : {}), before: before ?? null, limit })
    .map((r) => r.id);
}

/** Follows `next` to the end, and checks each page against the old SQL from the same bound. */
function walk(list: (before: string | undefined) => Page<{ id: string }>, old: (before: string | undefined) => string[]): string[] {
  const seen: string[] = [];
  let before: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const page = list(before);
    expect(page.rows.map((r) => r.id)).toEqual(old(before).slice(0, page.rows.length));
    expect(old(before)).toHaveLength(page.rows.length + (page.next ? 1 : 0));
    seen.push(...page.rows.map((r) => r.id));
    if (!page.next) return seen;
    before = page.next;
  }
  throw new Error("paging did not end");
}

function world(): Store {
  const store = mustOpen(tmpStorePath());
  for (let i = 0; i < 12; i++) {
    const runId = store.runs.startRun({ tool: i % 5 ? "route" : "consult", tier: i % 2 ? "heavy" : "light", cwd: "/p", prompt: `task ${i}`, startedAt: at(i) });
    store.runs.addAttempt({
      runId,
      n: 1,
      agentId: i % 3 ? "cheap" : "codex-main",
      backend: "opencode",
      provider: "p",
      outcome: "ok",
      reason: "answered",
      exitCode: 0,
      durationMs: 5,
      fellBack: false,
      createdAt: at(i) + 5,
    });
    store.runs.finishRun(runId, { status: i % 4 === 1 ? "failed" : "ok", endedAt: at(i) + 9 });
    const c = store.consultations.create({ agentId: i % 2 ? "cl" : "cx", backend: "claude", now: at(i) });
    if (i % 3 === 0) store.consultations.setStatus(c, "closed", at(i));
    store.jobs.create({ kind: i % 2 ? "route" : "consult", args: {}, ownerStartedAt: 1, now: at(i) });
    const wf = `wf-${i}`;
    store.workflows.create({ id: wf, goal: "g", workdir: "/p", commit: "0".repeat(40), snapshot: {}, now: at(i) });
    if (i % 2) store.workflows.update(wf, { status: "completed" }, at(i));
    store.reviews.create({
      mode: "standard",
      goal: "g",
      plan: {},
      material: [],
      materialText: "",
      token: { sha256: `h${i}`, binding: "b", expiresAt: 1 },
      reviewers: [
        { agentId: "a", backend: "codex" },
        { agentId: "b", backend: "gemini" },
      ],
      now: at(i),
    });
  }
  return store;
}

describe("browse: the row-value bound pages as the old form did", () => {
  const store = world();
  const db = store.db;
  const limit = 5;

  test("runs, whole and filtered, three pages over equal start times", () => {
    const all = walk(
      (before) => store.browse.runs({ limit, ...(before ? { before } : {}) }),
      (b) => oldPage(db, "runs", "started_at", {}, b, limit + 1),
    );
    expect(all).toHaveLength(12);
    expect(new Set(all).size).toBe(12);
    const heavy = walk(
      (before) => store.browse.runs({ limit: 2, tier: "heavy", ...(before ? { before } : {}) }),
      (b) => oldPage(db, "runs", "started_at", { tier: "heavy" }, b, 3),
    );
    expect(heavy).toHaveLength(6);
    walk(
      (before) => store.browse.runs({ limit: 2, status: "failed", ...(before ? { before } : {}) }),
      (b) => oldPage(db, "runs", "started_at", { status: "failed" }, b, 3),
    );
    walk(
      (before) => store.browse.runs({ limit: 2, tool: "consult", ...(before ? { before } : {}) }),
      (b) => oldPage(db, "runs", "started_at", { tool: "consult" }, b, 3),
    );
    const cheap = walk(
      (before) => store.browse.runs({ limit: 3, agent: "cheap", ...(before ? { before } : {}) }),
      (b) => oldPage(db, "runs", "started_at", {}, b, 4, "cheap"),
    );
    expect(cheap).toHaveLength(8);
  });

  test("consultations, jobs, workflows and reviews, whole and filtered", () => {
    expect(
      walk(
        (before) => store.browse.consultations({ limit, ...(before ? { before } : {}) }),
        (b) => oldPage(db, "consultations", "updated_at", {}, b, limit + 1),
      ),
    ).toHaveLength(12);
    expect(
      walk(
        (before) => store.browse.consultations({ limit: 2, agent: "cl", ...(before ? { before } : {}) }),
        (b) => oldPage(db, "consultations", "updated_at", { agent_id: "cl" }, b, 3),
      ),
    ).toHaveLength(6);
    expect(
      walk(
        (before) => store.browse.consultations({ limit: 2, status: "closed", ...(before ? { before } : {}) }),
        (b) => oldPage(db, "consultations", "updated_at", { status: "closed" }, b, 3),
      ),
    ).toHaveLength(4);
    expect(
      walk(
        (before) => store.browse.jobs({ limit, ...(before ? { before } : {}) }),
        (b) => oldPage(db, "jobs", "created_at", {}, b, limit + 1),
      ),
    ).toHaveLength(12);
    expect(
      walk(
        (before) => store.browse.jobs({ limit: 2, kind: "route", ...(before ? { before } : {}) }),
        (b) => oldPage(db, "jobs", "created_at", { kind: "route" }, b, 3),
      ),
    ).toHaveLength(6);
    expect(
      walk(
        (before) => store.browse.jobs({ limit: 2, status: "running", ...(before ? { before } : {}) }),
        (b) => oldPage(db, "jobs", "created_at", { status: "running" }, b, 3),
      ),
    ).toHaveLength(12);
    expect(
      walk(
        (before) => store.browse.workflows({ limit, ...(before ? { before } : {}) }),
        (b) => oldPage(db, "workflows", "updated_at", {}, b, limit + 1),
      ),
    ).toHaveLength(12);
    expect(
      walk(
        (before) => store.browse.workflows({ limit: 2, status: "completed", ...(before ? { before } : {}) }),
        (b) => oldPage(db, "workflows", "updated_at", { status: "completed" }, b, 3),
      ),
    ).toHaveLength(6);
    expect(
      walk(
        (before) => store.browse.reviews({ limit, ...(before ? { before } : {}) }),
        (b) => oldPage(db, "reviews", "updated_at", {}, b, limit + 1),
      ),
    ).toHaveLength(12);
    expect(
      walk(
        (before) => store.browse.reviews({ limit: 2, status: "planned", ...(before ? { before } : {}) }),
        (b) => oldPage(db, "reviews", "updated_at", { status: "planned" }, b, 3),
      ),
    ).toHaveLength(12);
  });

  test("a review row carries its reviewers in planned order and its finding counts", () => {
    const [first] = store.browse.reviews({ limit: 1 }).rows;
    expect(first).toMatchObject({ reviewers: ["a", "b"], findings: { critical: 0, important: 0, minor: 0 }, mode: "standard", status: "planned" });
  });
});

test("a store at schema 6 migrates on: the listing indexes exist and the time-only ones now hold the id", () => {
  const path = tmpStorePath();
  mustOpen(path).close();
  const raw = new Database(path);
  rewindSchema(raw, 6);
  raw.close();
  const store = mustOpen(path);
  expect(store.db.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version).toBe(SCHEMA_VERSION);
  const names = store.db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index'")
    .all()
    .map((r) => r.name);
  for (const name of [
    "runs_status_started",
    "runs_tier_started",
    "runs_tool_started",
    "consultations_agent_updated",
    "consultations_status_updated",
    "jobs_status_created",
    "jobs_kind_created",
    "reviews_status_updated",
    "workflows_status_updated",
  ])
    expect(names).toContain(name);
  const jobsCreated = store.db
    .query<{ name: string }, []>("SELECT name FROM pragma_index_info('jobs_created')")
    .all()
    .map((r) => r.name);
  expect(jobsCreated).toEqual(["created_at", "id"]);
  store.close();
});

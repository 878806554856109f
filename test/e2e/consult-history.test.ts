/**
 * History, prompts and the Orchestrator config, end to end: the opt-in history tools delete one
 * record or everything of a kind behind a one-time token, and say only local rows went; the same
 * verbs from the shell; MCP prompts that expand without running anything; an Orchestrator MCP
 * `config.yaml` with a `consult:` block, named by ORCHESTRATOR_CONFIG, consulted through unchanged.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { answerRuns, call, envOf } from "./consult-helpers.ts";

const CONFIG = `agents:
  cl: { backend: claude, model: claude-opus-5-5, scores: { coding: 90 } }
tiers: { light: [cl], standard: null, heavy: null }
`;
const HISTORY_TOOLS = ["delete_consultation", "delete_run", "delete_review", "delete_ask", "request_delete_all", "confirm_delete_all"];

let box: Sandbox | undefined;
let session: ClientSession | undefined;
afterEach(async () => {
  await session?.close().catch(() => undefined);
  box?.cleanup();
  session = undefined;
  box = undefined;
});

async function start(env: Record<string, string> = {}): Promise<ClientSession> {
  box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini", ...env });
  box.writeConfig(CONFIG);
  session = await connectInProcess(box.env);
  return session;
}

function rows(sql: string): number {
  const db = new Database(box!.dbPath, { readonly: true });
  try {
    return db.query<{ n: number }, []>(sql).get()?.n ?? 0;
  } finally {
    db.close();
  }
}

async function consultOnce(s: ClientSession, prompt = "Is this loop correct?"): Promise<string> {
  const e = envOf(await call(s, "consult", { prompt, capability: "coding" }));
  expect(e.ok).toBe(true);
  return e.consultation_id as string;
}

async function routeOnce(s: ClientSession): Promise<string> {
  const r = await call(s, "route", { prompt: "do it", cwd: box!.repo, tier: "light" });
  expect(r.isError).toBeFalsy();
  return r.structuredContent?.runId as string;
}

describe("history tools (opt-in)", () => {
  test("are advertised only with ORCHESTRATE_HISTORY_TOOLS=1, deletes marked destructive", async () => {
    const plain = await start();
    expect((await plain.client.listTools()).tools.map((t) => t.name).filter((n) => HISTORY_TOOLS.includes(n))).toEqual([]);
    await plain.close();
    box!.cleanup();
    const s = await start({ ORCHESTRATE_HISTORY_TOOLS: "1" });
    const listed = (await s.client.listTools()).tools.filter((t) => HISTORY_TOOLS.includes(t.name));
    expect(listed.map((t) => t.name)).toEqual(HISTORY_TOOLS);
    const destructive = Object.fromEntries(listed.map((t) => [t.name, t.annotations?.destructiveHint]));
    expect(destructive).toEqual({
      delete_consultation: true,
      delete_run: true,
      delete_review: true,
      delete_ask: true,
      request_delete_all: false,
      confirm_delete_all: true,
    });
    // get_consultation and list_agents stay in the always-on consult group.
    expect((await s.client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["get_consultation", "list_agents"]));
  });

  test("delete_consultation removes its turns and usage from the file and says the CLIs keep theirs", async () => {
    const s = await start({ ORCHESTRATE_HISTORY_TOOLS: "1" });
    const gone = await consultOnce(s, "FORGET-THIS-QUESTION please");
    const kept = await consultOnce(s);
    const reply = await call(s, "delete_consultation", { id: gone });
    expect(reply.isError).toBeFalsy();
    // The job row that delivered it carried the same question, so it goes too.
    expect(reply.structuredContent?.deleted).toEqual({ consultations: 1, runs: 0, reviews: 0, asks: 0, jobs: 1 });
    expect(textOf(reply)).toContain("local rows only");
    for (const where of ["~/.codex/sessions", "~/.claude/projects", "~/.gemini/tmp", "~/.copilot/session-state", "opencode.db", "~/.grok/sessions"])
      expect(textOf(reply)).toContain(where);
    expect(envOf(await call(s, "get_consultation", { id: gone })).error?.code).toBe("not_found");
    expect(envOf(await call(s, "get_consultation", { id: kept })).ok).toBe(true);
    expect(rows(`SELECT count(*) AS n FROM turns WHERE consultation_id = '${gone}'`)).toBe(0);
    expect(rows(`SELECT count(*) AS n FROM usage WHERE ref_id = '${gone}'`)).toBe(0);
    // Gone from the bytes too, not only from queries (secure_delete + checkpoint).
    await s.close();
    session = undefined;
    const bytes = [box!.dbPath, `${box!.dbPath}-wal`]
      .filter(existsSync)
      .map((p) => readFileSync(p).toString("latin1"))
      .join("");
    expect(bytes.includes("FORGET-THIS-QUESTION")).toBe(false);
    session = await connectInProcess(box!.env);
    expect(envOf(await call(session, "delete_consultation", { id: gone })).error?.code).toBe("not_found");
  });

  test("delete_run removes a finished route run with its attempts", async () => {
    const s = await start({ ORCHESTRATE_HISTORY_TOOLS: "1" });
    const runId = await routeOnce(s);
    expect(rows(`SELECT count(*) AS n FROM attempts WHERE run_id = '${runId}'`)).toBe(1);
    const reply = await call(s, "delete_run", { id: runId });
    expect(reply.structuredContent?.deleted).toEqual({ consultations: 0, runs: 1, reviews: 0, asks: 0, jobs: 1 });
    expect(rows("SELECT count(*) AS n FROM runs")).toBe(0);
    expect(rows("SELECT count(*) AS n FROM attempts")).toBe(0);
    expect(rows("SELECT count(*) AS n FROM usage WHERE source = 'attempt'")).toBe(0);
  });

  test("delete-all needs a one-time token bound to its kind; a request deletes nothing", async () => {
    const s = await start({ ORCHESTRATE_HISTORY_TOOLS: "1" });
    await consultOnce(s);
    await consultOnce(s);
    await routeOnce(s);
    const requested = await call(s, "request_delete_all", { kind: "runs" });
    expect(requested.structuredContent?.would_delete).toEqual({ consultations: 0, runs: 1, reviews: 0, asks: 0, jobs: 0 });
    const token = requested.structuredContent?.token as string;
    expect(token.length).toBeGreaterThan(30);
    expect(rows("SELECT count(*) AS n FROM runs")).toBe(1);
    expect(envOf(await call(s, "confirm_delete_all", { token: `${token}x` })).error?.code).toBe("invalid_token");
    const confirmed = await call(s, "confirm_delete_all", { token });
    expect(confirmed.structuredContent).toMatchObject({ kind: "runs", deleted: { consultations: 0, runs: 1 } });
    expect(textOf(confirmed)).toContain("local rows only");
    expect(rows("SELECT count(*) AS n FROM consultations")).toBe(2);
    expect(envOf(await call(s, "confirm_delete_all", { token })).error?.code).toBe("invalid_token");
    const all = (await call(s, "request_delete_all", { kind: "all" })).structuredContent?.token as string;
    expect((await call(s, "confirm_delete_all", { token: all })).structuredContent?.deleted).toMatchObject({ consultations: 2, runs: 0 });
    for (const table of ["consultations", "turns", "runs", "attempts", "jobs", "usage"]) expect(rows(`SELECT count(*) AS n FROM ${table}`), table).toBe(0);
  });
});

describe("history from the shell", () => {
  // The history commands in this process (runCliInProcess), once the server's session is closed.
  async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
    const run = await runCliInProcess(["history", ...args], { ...box!.env, ...env });
    return { code: run.code, out: run.stdout, err: run.stderr };
  }

  test("list, show, delete; prune refuses without a terminal unless --yes", async () => {
    const s = await start();
    const id = await consultOnce(s, "Shell-visible question");
    const runId = await routeOnce(s);
    await s.close();
    session = undefined;
    const listed = await cli(["list"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(id);
    expect(listed.out).toContain(runId);
    const shown = await cli(["show", id]);
    expect(shown.out).toContain("Q: Shell-visible question");
    expect(shown.out).toContain("A: PONG-FROM-FAKE");
    expect((await cli(["show", runId])).out).toContain(`Run ${runId}`);
    expect((await cli(["show", "NOPE"])).code).toBe(1);

    const deleted = await cli(["delete", id]);
    expect(deleted.code).toBe(0);
    expect(deleted.out).toContain("local rows only");
    expect(rows("SELECT count(*) AS n FROM consultations")).toBe(0);

    expect((await cli(["prune", "--older-than", "1", "--yes"])).out).toContain("Nothing older than 1 day");
    const refused = await cli(["prune", "--older-than", "0"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("--yes");
    expect(rows("SELECT count(*) AS n FROM runs")).toBe(1);
    const pruned = await cli(["prune", "--older-than", "0", "--yes"]);
    expect(pruned.code).toBe(0);
    expect(pruned.out).toContain("Deleted 0 consultation(s), 1 run(s)");
    expect(rows("SELECT count(*) AS n FROM runs")).toBe(0);
  });
});

describe("MCP prompts", () => {
  test("consult and status are listed; expanding asks for what is missing and runs nothing", async () => {
    const s = await start();
    const listed = await s.client.listPrompts();
    expect(listed.prompts.map((p) => p.name)).toEqual(["consult", "status"]);
    for (const p of listed.prompts) for (const a of p.arguments ?? []) expect(a.required, `${p.name}.${a.name}`).toBe(false);

    const bare = await s.client.getPrompt({ name: "consult", arguments: {} });
    const bareText = (bare.messages[0]?.content as { text: string }).text;
    expect(bareText).toContain("ask the person for the question");
    expect(bareText).toContain("which capability");
    const full = await s.client.getPrompt({ name: "consult", arguments: { question: "Is quicksort stable?", capability: "coding" } });
    const fullText = (full.messages[0]?.content as { text: string }).text;
    expect(fullText).toContain("Is quicksort stable?");
    expect(fullText).not.toContain("ask the person for");
    const status = await s.client.getPrompt({ name: "status", arguments: { id: "01ABC" } });
    expect((status.messages[0]?.content as { text: string }).text).toContain("job_status");
    await expect(s.client.getPrompt({ name: "nope", arguments: {} })).rejects.toThrow();
    // Nothing was sent to a CLI and no store was even opened.
    expect(box!.recordings()).toHaveLength(0);
    expect(existsSync(box!.dbPath)).toBe(false);
  });
});

describe("migration: an Orchestrator MCP config.yaml", () => {
  test("a consult: block named by ORCHESTRATOR_CONFIG works unchanged end to end", async () => {
    box = makeSandbox({});
    const dbPath = join(box.root, "orchestrator-state", "history.db");
    const path = join(box.home, ".config", "orchestrate", "orchestrator.yaml");
    writeFileSync(
      path,
      `consult:
  database_path: ${dbPath}
  timeout_s: 120
  store_full_content: true
  agents:
    codex-gpt:
      runtime: codex
      model: gpt-5.5
      reasoning_effort: high
      priority: 10
      execution_modes: [consultation]
      scores: { coding: 90, review: 70 }
    claude-opus:
      runtime: claude
      model: claude-opus-5-5
      scores: { coding: 95 }
`,
      { mode: 0o600 },
    );
    const { ORCHESTRATE_CONFIG: _unified, ...env } = box.env;
    session = await connectInProcess({ ...env, ORCHESTRATOR_CONFIG: path, ORCHESTRATOR_HOST_RUNTIME: "claude" });
    const e = envOf(await call(session, "consult", { prompt: "Review this", capability: "review" }));
    expect(e).toMatchObject({ ok: true, agent: "codex-gpt", backend: "codex", model: "gpt-5.5", content: { answer: "PONG-FROM-FAKE" } });
    expect(answerRuns(box.recordings("codex"))).toHaveLength(1);
    // The host (claude, from the legacy env name) is excluded even though it scores higher.
    expect(box.recordings("claude")).toHaveLength(0);
    expect(existsSync(dbPath)).toBe(true);
    const again = envOf(await call(session, "consult", { prompt: "More?", capability: "review", consultation_id: e.consultation_id }));
    expect(again.ok).toBe(true);
  });
});

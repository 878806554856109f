/**
 * Asks in the history, end to end: each ask over MCP is stored; delete_ask removes it with its legs
 * and usage (usage_hourly stays exact); request_delete_all / confirm_delete_all count and delete
 * asks as their own kind; `orchestrate history list | show | delete` show and delete them from a shell.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { textOf, type ClientSession } from "../../fakes/lib/mcp-client.ts";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { openWorld, type World } from "../helpers/world.ts";
import { orchestrate } from "../setup/helpers.ts";
import { call } from "./consult-helpers.ts";

const KEY = ["sk", "proj", "H1st0ryK3yTh4tSt4ysOut0fTh3St0re"].join("-");
const p = startFakeProvider({ keys: { openai: KEY } });
afterAll(() => p.stop());

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function start(): Promise<ClientSession> {
  world = await openWorld(
    `ask:\n  capabilities:\n    fast:\n      deployments: [{ model: openai/gpt-hist, baseUrl: "${p.openaiBase}", apiKeyEnv: OPENAI_KEY }]\n`,
    { OPENAI_KEY: KEY, ORCHESTRATE_HISTORY_TOOLS: "1" },
  );
  return world.session;
}

function count(sql: string): number {
  const db = new Database(world?.box.dbPath ?? "", { readonly: true });
  try {
    return db.query<{ n: number }, []>(sql).get()?.n ?? 0;
  } finally {
    db.close();
  }
}

async function askOnce(s: ClientSession, prompt: string): Promise<void> {
  const reply = await s.client.callTool({ name: "ask", arguments: { capability: "fast", prompt } });
  expect((reply.structuredContent as { ok?: boolean } | undefined)?.ok).toBe(true);
}

function idsOf(list: string): string[] {
  return [...(list.split("Asks (")[1]?.matchAll(/^ {2}(\w{26}) /gm) ?? [])].map((m) => m[1] ?? "");
}

describe("asks in the history", () => {
  test("history list and show from a shell; delete_ask removes the ask, its legs and its usage", async () => {
    const s = await start();
    await askOnce(s, "First question?");
    await askOnce(s, "Second question?");
    const env = world?.box.env ?? {};
    const listed = await orchestrate(["history", "list"], env);
    expect(listed.stdout).toContain("Asks (2):");
    expect(listed.stdout).toContain("fast → openai/gpt-hist  ok");
    const [newest, older] = idsOf(listed.stdout);
    if (!newest || !older) throw new Error(`no ask ids in ${listed.stdout}`);
    const shown = await orchestrate(["history", "show", newest], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Ask ${newest} · fast → openai/gpt-hist @ ${new URL(p.url).host}`);
    expect(shown.stdout).toMatch(/ {2}1\. fast: openai\/gpt-hist @ \S+ ok HTTP 200/);
    expect(shown.stdout).toContain("Prompt: Second question?");
    expect(count(`SELECT count(*) AS n FROM usage_hourly WHERE source = 'ask'`)).toBe(1);
    expect(count(`SELECT coalesce(sum(calls), 0) AS n FROM usage_hourly WHERE source = 'ask'`)).toBe(2);

    const deleted = await call(s, "delete_ask", { id: newest });
    expect(deleted.structuredContent?.deleted).toEqual({ consultations: 0, runs: 0, reviews: 0, asks: 1, jobs: 0 });
    expect(textOf(deleted)).toContain("1 ask(s)");
    expect(count(`SELECT count(*) AS n FROM asks`)).toBe(1);
    expect(count(`SELECT count(*) AS n FROM ask_legs WHERE ask_id = '${newest}'`)).toBe(0);
    expect(count(`SELECT count(*) AS n FROM usage WHERE source = 'ask'`)).toBe(1);
    expect(count(`SELECT coalesce(sum(calls), 0) AS n FROM usage_hourly WHERE source = 'ask'`)).toBe(1);
    const again = await call(s, "delete_ask", { id: newest });
    expect(again.isError).toBe(true);

    const fromShell = await orchestrate(["history", "delete", older], env);
    expect(fromShell.stdout).toContain("1 ask(s)");
    expect(count(`SELECT count(*) AS n FROM asks`)).toBe(0);
    expect(count(`SELECT count(*) AS n FROM usage_hourly WHERE source = 'ask'`)).toBe(0);
  }, 30_000);

  test("request_delete_all / confirm_delete_all count and delete asks as their own kind", async () => {
    const s = await start();
    await askOnce(s, "One?");
    await askOnce(s, "Two?");
    const requested = await call(s, "request_delete_all", { kind: "asks" });
    expect(requested.structuredContent?.would_delete).toEqual({ consultations: 0, runs: 0, reviews: 0, asks: 2, jobs: 0 });
    expect(count(`SELECT count(*) AS n FROM asks`)).toBe(2);
    const token = String(requested.structuredContent?.token);
    const confirmed = await call(s, "confirm_delete_all", { token });
    expect(confirmed.structuredContent).toMatchObject({ kind: "asks", deleted: { asks: 2 } });
    expect(count(`SELECT count(*) AS n FROM asks`)).toBe(0);
    expect(count(`SELECT count(*) AS n FROM ask_legs`)).toBe(0);
    expect(count(`SELECT count(*) AS n FROM usage`)).toBe(0);
    expect(count(`SELECT count(*) AS n FROM usage_hourly`)).toBe(0);
    await askOnce(s, "Three?");
    const all = await call(s, "request_delete_all", { kind: "all" });
    expect(all.structuredContent?.would_delete).toMatchObject({ asks: 1 });
  }, 30_000);
});

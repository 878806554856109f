/**
 * A seed-001 config.yaml copied as-is names Orchestrator MCP's own `database_path`. orchestrate
 * must leave that database byte-identical and keep working on its own store (issue 12 §5).
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openServerWorld, type World } from "../helpers/world.ts";
import type { McpSession } from "../../fakes/lib/mcp-client.ts";
import type { ToolReply } from "../../fakes/lib/mcp-client.ts";

let world: World<McpSession> | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function orchestratorDb(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "consultations.sqlite3");
  const db = new Database(path, { create: true });
  // Orchestrator MCP's own tables: a `consultations` of its own is what broke the old migration.
  db.run("CREATE TABLE consultations (consultation_id TEXT PRIMARY KEY, agent_id TEXT, created_at TEXT)");
  db.run("CREATE TABLE turns (consultation_id TEXT, n INTEGER, answer TEXT)");
  db.run("INSERT INTO consultations VALUES ('c-1', 'codex', '2026-06-01')");
  db.close();
  return path;
}

describe("another program's database", () => {
  test("is left byte-identical while every tool keeps working on orchestrate's own store", async () => {
    // The config is read on the first tool call, so the world can be set up after the server starts.
    world = await openServerWorld("tiers: { light: null, standard: null, heavy: null }\n");
    const planted = orchestratorDb(join(world.box.home, ".orchestrator-mcp"));
    world.box.writeConfig(
      `consult:\n  database_path: ${planted}\n  agents:\n    codex:\n      runtime: codex\n      model: gpt-5.5\n      scores: { coding: 90 }\n`,
    );
    const plantedBefore = readFileSync(planted);
    const reply = (await world.session.client.callTool({ name: "list_agents", arguments: {} })) as ToolReply;
    expect(reply.isError ?? false).toBe(false);
    expect(readFileSync(planted).equals(plantedBefore)).toBe(true);
    expect(existsSync(`${planted}-wal`)).toBe(false);
    expect(existsSync(world.box.dbPath)).toBe(true);
    expect(world.session.stderr()).toContain("another program's database");
  });
});

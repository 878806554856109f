/**
 * A damaged store says so — which file, that nothing was written to it, how to go on — instead of
 * passing for a permissions problem, another program's database or an internal error.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type } from "arktype";
import { defineTool } from "../../src/mcp/define.ts";
import { openStore } from "../../src/store/db.ts";
import { tmpDir } from "./tmp.ts";

let dir: string;
let bytes: Buffer;

beforeAll(() => {
  dir = tmpDir();
  const made = openStore(join(dir, "good.db"));
  if (!made.ok) throw new Error(made.error.message);
  const db = made.value.db;
  for (let i = 0; i < 400; i++) db.run("INSERT INTO cooldowns (agent_id, cls, until_ms, armed_at) VALUES (?, 'auth', 1, 1)", [`a${i}-${"x".repeat(300)}`]);
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  made.value.close();
  bytes = readFileSync(join(dir, "good.db"));
});

function damaged(name: string, damage: (b: Buffer) => Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, damage(Buffer.from(bytes)), { mode: 0o600 });
  return path;
}

describe("a damaged store file", () => {
  const cases: [string, (b: Buffer) => Buffer][] = [
    ["pages overwritten after the header", (b) => b.fill(0x41, 100, 3 * 4096)],
    ["the header overwritten", (b) => b.fill(0x41, 0, 100)],
    ["truncated mid-page", (b) => b.subarray(0, 5000)],
  ];
  for (const [what, damage] of cases) {
    test(`${what}: store_corrupt naming the file, left as it was`, () => {
      const path = damaged(`${what.replace(/\W+/g, "-")}.db`, damage);
      const before = readFileSync(path);
      const opened = openStore(path);
      if (opened.ok) throw new Error("a damaged store opened");
      expect(opened.error.code).toBe("store_corrupt");
      expect(opened.error.message).toContain(`The orchestrate store at ${path} is damaged`);
      expect(opened.error.hint).toContain("aside");
      expect(readFileSync(path).equals(before)).toBe(true);
    });
  }

  test("damage found by a query, after a clean open, reaches the caller as store_corrupt, not internal_error", async () => {
    const path = damaged("tail.db", (b) => b.fill(0x41, b.length - 8192));
    const opened = openStore(path);
    if (!opened.ok) throw new Error(opened.error.message);
    const store = opened.value;
    const tool = defineTool({
      name: "count",
      group: "core",
      description: "Counts cooldowns.",
      annotations: { title: "Count", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      schemas: async () => ({ input: type({}), output: type({ ok: "boolean" }) }),
      handler: async () => async () => ({ ok: true, data: { n: store.db.query("SELECT count(*) AS n FROM cooldowns").get() }, text: "counted" }),
    });
    const reply = await tool.call({}, { signal: new AbortController().signal, wantsProgress: false, progress: () => undefined });
    store.close();
    expect(reply.isError).toBe(true);
    expect((reply.structuredContent.error as { code: string }).code).toBe("store_corrupt");
  });
});

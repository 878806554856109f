/** defineTool does the uniform work: validation with one formatted error, isError shaping, text capping, no throws. */
import { describe, expect, test } from "bun:test";
import { type } from "arktype";
import { defineTool, type ToolContext, type ToolHandler } from "../../src/mcp/define.ts";
import { capText, TEXT_MAX_CHARS, type ToolOutcome } from "../../src/mcp/outcome.ts";
import { mustOpen, tmpStorePath } from "../store/tmp.ts";

const input = type({ "+": "reject", name: "0 < string <= 8", "count?": "number.integer" });
const output = type({ ok: "boolean", "greeting?": "string" });

function tool(handler: ToolHandler<typeof input.infer>) {
  return defineTool({
    name: "greet",
    group: "core",
    description: "  Greets.\n",
    annotations: { title: "Greet", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => ({ input, output }),
    handler: async () => handler,
  });
}

const ctx: ToolContext = { signal: new AbortController().signal, wantsProgress: false, progress: () => undefined };
const greet = (i: typeof input.infer): Promise<ToolOutcome> => Promise.resolve({ ok: true, data: { greeting: `hi ${i.name}` }, text: `hi ${i.name}` });

describe("defineTool", () => {
  test("is plain data until called: trimmed description, no task unless asked", () => {
    const t = tool(greet);
    expect(t.description).toBe("Greets.");
    expect(t.task).toBe(false);
  });

  test("a valid call answers structuredContent with ok and a text block", async () => {
    const reply = await tool(greet).call({ name: "ada" }, ctx);
    expect(reply.isError).toBeUndefined();
    expect(reply.structuredContent).toEqual({ ok: true, greeting: "hi ada" });
    expect(reply.content).toEqual([{ type: "text", text: "hi ada" }]);
  });

  test("invalid arguments are one isError reply naming every failing key; the handler never runs", async () => {
    let ran = false;
    const reply = await tool(async (i) => ((ran = true), greet(i))).call({ name: "", count: 1.5, extra: true }, ctx);
    expect(ran).toBe(false);
    expect(reply.isError).toBe(true);
    const error = reply.structuredContent.error as { code: string; message: string };
    expect(error.code).toBe("invalid_arguments");
    for (const key of ["name", "count", "extra"]) expect(error.message).toContain(key);
  });

  test("a failed outcome is isError with its code and data; a throw is internal_error", async () => {
    const failed = await tool(async () => ({
      ok: false,
      error: { code: "tier_unconfigured", message: "nothing configured", hint: "configure one" },
      data: { tried: 0 },
    })).call({ name: "x" }, ctx);
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toEqual({
      ok: false,
      tried: 0,
      error: { code: "tier_unconfigured", message: "nothing configured", hint: "configure one" },
    });
    expect(failed.content[0]?.text).toBe("Error [tier_unconfigured]: nothing configured\nNext: configure one");
    const thrown = await tool(async () => {
      throw new Error("boom");
    }).call({ name: "x" }, ctx);
    expect((thrown.structuredContent.error as { code: string }).code).toBe("internal_error");
  });

  test("a SQLite error escaping a handler (a full store) is store_unavailable, not internal_error", async () => {
    const store = mustOpen(tmpStorePath());
    const pages = store.db.query<{ page_count: number }, []>("PRAGMA page_count").get()?.page_count ?? 0;
    store.db.run(`PRAGMA max_page_count = ${pages}`);
    const reply = await tool(async () => {
      store.db.run("CREATE TABLE filler (x TEXT)");
      store.db.run("INSERT INTO filler VALUES (?)", ["x".repeat(200_000)]);
      return greet({ name: "x" });
    }).call({ name: "x" }, ctx);
    store.close();
    const error = reply.structuredContent.error as { code: string; message: string };
    expect(error.code).toBe("store_unavailable");
    expect(error.message).toContain("SQLITE_FULL");
  });

  test("an oversized text block is capped, head and tail kept; structuredContent stays whole", async () => {
    const big = `HEAD${"x".repeat(3 * TEXT_MAX_CHARS)}TAIL`;
    const reply = await tool(async () => ({ ok: true, data: { text: big }, text: big })).call({ name: "x" }, ctx);
    const text = reply.content[0]?.text ?? "";
    expect(text.length).toBeLessThan(TEXT_MAX_CHARS + 200);
    expect(text.startsWith("HEAD")).toBe(true);
    expect(text.endsWith("TAIL")).toBe(true);
    expect(text).toContain("characters cut");
    expect(reply.structuredContent.text).toBe(big);
  });
});

describe("capText", () => {
  test("leaves a text within both limits alone", () => {
    expect(capText("a\nb", 10, 5)).toBe("a\nb");
  });

  test("cuts by lines as well as by characters", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const capped = capText(lines, 10_000, 10);
    expect(capped).toContain("line 0\n");
    expect(capped).toContain("line 99");
    expect(capped).not.toContain("line 50");
  });
});

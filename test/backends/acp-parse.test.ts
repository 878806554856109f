/** ACP tool calls of kind fetch are web calls: counted by the web turn limit, refused without the grant. */
import { describe, expect, test } from "bun:test";
import { acpParser } from "../../src/backends/acp/parse.ts";

const parse = acpParser(undefined);
const update = (u: Record<string, unknown>) => JSON.stringify({ acp: "update", update: u });

describe("ACP tool kinds", () => {
  test("fetch is a web call (opencode acp 1.18.33 starts a webfetch with its title only; a URL is the detail when given)", () => {
    expect(parse(update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "webfetch", kind: "fetch", status: "pending" }))).toEqual([
      { kind: "tool", name: "webfetch", phase: "start", acts: false, web: "fetch", detail: "webfetch" },
    ]);
    const withUrl = parse(update({ sessionUpdate: "tool_call", toolCallId: "t2", title: "Fetch", kind: "fetch", rawInput: { url: "https://example.org/a" } }));
    expect(withUrl[0]).toMatchObject({ web: "fetch", detail: "https://example.org/a" });
  });

  test("read and search still only look, and are not web calls", () => {
    for (const kind of ["read", "search"]) {
      const [event] = parse(update({ sessionUpdate: "tool_call", toolCallId: "t", title: kind, kind }));
      expect(event).toMatchObject({ acts: false });
      expect(event && "web" in event).toBe(false);
    }
  });
});

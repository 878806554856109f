/** ACP tool calls as events: what progress and the fold read from a `tool_call` update. */
import { describe, expect, test } from "bun:test";
import { acpLine, acpSpeaker } from "../../src/backends/acp/index.ts";
import { describeEvent } from "../../src/runner/activity.ts";

const { parse } = acpSpeaker(undefined);
const started = (update: Record<string, unknown>) =>
  parse(acpLine({ acp: "update", update: { sessionUpdate: "tool_call", toolCallId: "t1", status: "pending", ...update } }));

describe("ACP tool calls", () => {
  test("progress names the command or the file, as for the headless drivers, not the call's kind", () => {
    const shell = started({ title: "Run a shell command", kind: "execute", rawInput: { command: "npm test" } });
    expect(shell).toEqual([{ kind: "tool", name: "Run a shell command", phase: "start", acts: true, detail: "npm test" }]);
    expect(describeEvent(shell[0]!)).toBe("running npm test");
    // codex-acp sends its shell as argv; claude-agent-acp names an edit's file in `locations`.
    expect(started({ title: "bash", kind: "execute", rawInput: { command: ["bash", "-lc", "ls"] } })[0]).toMatchObject({ detail: "bash -lc ls" });
    expect(started({ title: "Edit", kind: "edit", locations: [{ path: "/repo/a.ts" }] })[0]).toMatchObject({ detail: "/repo/a.ts", acts: true });
    // Nothing to name: the title is what shows.
    const read = started({ title: "Read README.md", kind: "read" });
    expect(read[0]).toMatchObject({ acts: false });
    expect(describeEvent(read[0]!)).toBe("running Read README.md");
  });
});

describe("ACP tool kinds", () => {
  const update = (u: Record<string, unknown>) => parse(acpLine({ acp: "update", update: u }));
  test("fetch is a web call (opencode acp 1.18.33 starts a webfetch with its title only; a URL is the detail when given)", () => {
    expect(update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "webfetch", kind: "fetch", status: "pending" })).toEqual([
      { kind: "tool", name: "webfetch", phase: "start", acts: false, web: "fetch", detail: "webfetch" },
    ]);
    const withUrl = update({ sessionUpdate: "tool_call", toolCallId: "t2", title: "Fetch", kind: "fetch", rawInput: { url: "https://example.org/a" } });
    expect(withUrl[0]).toMatchObject({ web: "fetch", detail: "https://example.org/a" });
  });

  test("read and search still only look, and are not web calls", () => {
    for (const kind of ["read", "search"]) {
      const [event] = update({ sessionUpdate: "tool_call", toolCallId: "t", title: kind, kind });
      expect(event).toMatchObject({ acts: false });
      expect(event && "web" in event).toBe(false);
    }
  });
});

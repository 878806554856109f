/**
 * Web mode (issue 23 §4), end to end over stdio with the fake codex, claude and opencode:
 * source_mode web offers an agent the config trusts with the web its CLI's own web tools (codex -c
 * web_search="live", claude --tools WebSearch,WebFetch, opencode's webfetch/websearch permissions
 * allowed), the searches and fetched pages come back among the sources,
 * web_turn_limit ends the run the call after the one that spent it, and without web mode the same
 * model is offered no web tool at all.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { openWorld, type World } from "../helpers/world.ts";

const agent = (id: string, backend: string, model: string, searches: number, web = true) =>
  `  ${id}: { backend: ${backend}, model: ${model}, scores: { research: ${web ? 90 : 99} }, ${web ? "capabilities: [web_search], " : ""}env: { FAKE_WEB_SEARCHES: "${searches}" } }`;

const CONFIG = [
  "agents:",
  agent("cx", "codex", "gpt-5.5", 2),
  agent("cl", "claude", "claude-opus-5-5", 1),
  agent("over", "codex", "gpt-5.5", 3),
  agent("plain", "codex", "gpt-5.5", 1, false),
  // gemini's answer mode offers google_web_search either way: only the grant decides.
  agent("gm", "gemini", "gemini-2.5-flash", 1, false),
  agent("gmweb", "gemini", "gemini-2.5-flash", 1),
  agent("oc", "opencode", "opencode/big-pickle", 1),
  agent("ocover", "opencode", "opencode/big-pickle", 3),
  "consult: { webTurnLimit: 2 }",
  "",
].join("\n");

let world: World;
beforeAll(async () => {
  world = await openWorld(CONFIG, { ORCHESTRATE_HOST_RUNTIME: "copilot", FAKE_SCENARIO: "web-search" });
});
afterAll(async () => {
  await world.close();
});

const consult = async (args: Record<string, unknown>) =>
  (await world.session.client.callTool({ name: "consult", arguments: { capability: "research", prompt: "What is pong?", ...args } })) as ToolReply;
const searched = (): string[] => {
  const file = join(world.box.records, "web-searched");
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : [];
};
const fetched = (): string[] => {
  const file = join(world.box.records, "web-fetched");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
};
const lastArgv = (cli: string): string[] => world.box.recordings(cli).at(-1)?.argv ?? [];

describe("consult in web mode", () => {
  test("a web search without the grant fails the turn closed; with it, it is the answer's evidence", async () => {
    const ungranted = (await consult({ agent: "gm" })).structuredContent ?? {};
    expect(ungranted).toMatchObject({ ok: false, content: null, error: { code: "action_attempted" } });
    expect(String((ungranted.error as { message: string }).message)).toContain("without web access");
    const granted = (await consult({ agent: "gmweb", source_mode: "web" })).structuredContent ?? {};
    expect(granted).toMatchObject({ ok: true, source_mode_used: "web" });
    expect((granted.content as { sources: unknown[] }).sources).toContainEqual({
      title: "web search: pong protocol 1",
      locator: "pong protocol 1",
      source_type: "web",
    });
  }, 60_000);

  test("codex: web_search live, both searches run, and they are the answer's sources", async () => {
    const before = searched().length;
    const e = (await consult({ source_mode: "web", agent: "cx" })).structuredContent ?? {};
    expect(e).toMatchObject({ ok: true, source_mode_used: "web", agent: "cx" });
    expect(lastArgv("codex")).toContain('web_search="live"');
    expect(searched().length - before).toBe(2);
    expect((e.content as { sources: unknown[] }).sources).toEqual([
      { title: "web search: pong protocol 1", locator: "pong protocol 1", source_type: "web" },
      { title: "web search: pong protocol 2", locator: "pong protocol 2", source_type: "web" },
    ]);
  }, 60_000);

  test("claude: only WebSearch and WebFetch are sent, pre-approved; the search ran", async () => {
    const before = searched().length;
    const e = (await consult({ source_mode: "web", agent: "cl" })).structuredContent ?? {};
    expect(e).toMatchObject({ ok: true, source_mode_used: "web", agent: "cl" });
    const argv = lastArgv("claude");
    expect(argv[argv.indexOf("--tools") + 1]).toBe("WebSearch,WebFetch");
    expect(argv.slice(argv.indexOf("--allowedTools") + 1, argv.indexOf("--allowedTools") + 3)).toEqual(["WebSearch", "WebFetch"]);
    expect(searched().length - before).toBe(1);
    expect((e.content as { sources: unknown[] }).sources).toContainEqual({
      title: "web search: pong protocol 1",
      locator: "pong protocol 1",
      source_type: "web",
    });
  }, 60_000);

  test("opencode: webfetch allowed only in web mode; the fetched page is among the sources", async () => {
    const before = fetched().length;
    const e = (await consult({ source_mode: "web", agent: "oc" })).structuredContent ?? {};
    expect(e).toMatchObject({ ok: true, source_mode_used: "web", agent: "oc" });
    expect(fetched().length - before).toBe(1);
    expect((e.content as { sources: unknown[] }).sources).toContainEqual({
      title: "https://example.org/pong/1",
      locator: "https://example.org/pong/1",
      source_type: "web",
    });
    // Without web mode the same agent's config denies webfetch, so the model is never offered it.
    const plain = (await consult({ agent: "oc" })).structuredContent ?? {};
    expect(plain).toMatchObject({ ok: true, source_mode_used: "model" });
    expect(fetched().length - before).toBe(1);
    // Past web_turn_limit, counted from opencode's stream.
    const over = (await consult({ source_mode: "web", agent: "ocover" })).structuredContent ?? {};
    expect(over).toMatchObject({ ok: false, content: null, error: { code: "budget_exceeded" } });
  }, 60_000);

  test("the call after the one that spends web_turn_limit ends the run: budget_exceeded, no answer", async () => {
    const reply = await consult({ source_mode: "web", agent: "over" });
    expect(reply.structuredContent).toMatchObject({ ok: false, content: null, source_mode_used: "web", error: { code: "budget_exceeded" } });
    expect(String((reply.structuredContent?.error as { message: string }).message)).toContain("web turn limit (2 web calls)");
  }, 60_000);

  test("routing in web mode considers only agents trusted with the web; a named untrusted one is refused before it runs", async () => {
    const routed = (await consult({ source_mode: "web" })).structuredContent ?? {};
    // plain scores highest but is not trusted with the web.
    expect(routed).toMatchObject({ ok: true });
    expect(routed.agent).not.toBe("plain");
    const runs = world.box.recordings().length;
    const named = (await consult({ source_mode: "web", agent: "plain" })).structuredContent ?? {};
    expect(named).toMatchObject({ ok: false, route: null, error: { code: "agent_not_eligible" } });
    expect(String((named.error as { message: string }).message)).toContain("capabilities: [web_search]");
    expect(world.box.recordings().length).toBe(runs);
  }, 60_000);

  test("without web mode the web tools are withheld: codex web_search disabled, claude no tools, nothing searched", async () => {
    const before = searched().length;
    const cx = (await consult({ agent: "cx" })).structuredContent ?? {};
    expect(cx).toMatchObject({ ok: true, source_mode_used: "model" });
    expect(lastArgv("codex")).toContain('web_search="disabled"');
    const cl = (await consult({ agent: "cl" })).structuredContent ?? {};
    expect(cl).toMatchObject({ ok: true, source_mode_used: "model" });
    const argv = lastArgv("claude");
    expect(argv[argv.indexOf("--tools") + 1]).toBe("");
    expect(argv).not.toContain("--allowedTools");
    expect(searched().length).toBe(before);
  }, 60_000);
});

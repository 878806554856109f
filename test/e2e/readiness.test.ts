/**
 * Readiness: one bit per CLI from its own status command. A signed-out codex never exits on its own
 * (it loops reconnecting), so route checks readiness before launch and a signed-out codex becomes a
 * fast, clean "unavailable" that may fall back — without `codex exec` ever running.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  box?.cleanup();
  box = undefined;
  session = undefined;
});

const CONFIG = `agents:
  out: { backend: codex, model: gpt-5.5, env: { FAKE_CODEX_SCENARIO: auth-fail }, scores: { coding: 90 } }
  in: { backend: codex, model: gpt-5.4, scores: { coding: 80 } }
  oc-out: { backend: opencode, model: deepseek/v4, env: { FAKE_OPENCODE_SCENARIO: auth-fail }, scores: { coding: 70 } }
tiers: { light: [oc-out], standard: null, heavy: [out, in] }
`;

async function open(extra: Record<string, string> = {}): Promise<ClientSession> {
  box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "claude", ...extra });
  box.writeConfig(CONFIG);
  session = await connectInProcess(box.env);
  return session;
}

describe("readiness", () => {
  test("a signed-out codex is a fast clean unavailable: no exec, fallback to the next entry", async () => {
    const s = await open();
    const reply = (await s.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box!.repo, tier: "heavy" } })) as ToolReply;
    expect(reply.isError).toBeFalsy();
    const attempts = reply.structuredContent?.attempts as { agent: string; outcome: string; reason: string }[];
    expect(attempts.map((a) => [a.agent, a.outcome])).toEqual([
      ["out", "unavailable"],
      ["in", "ok"],
    ]);
    // The trace never says "not signed in": that would leak credential health.
    expect(attempts[0]?.reason).toBe("unavailable");
    const codexRuns = box!.recordings("codex").filter((r) => r.argv[0] === "exec");
    expect(codexRuns).toHaveLength(1);
    expect(box!.recordings("codex").filter((r) => r.argv.join(" ") === "login status").length).toBeGreaterThanOrEqual(2);
  });

  test("an API key in the environment counts as ready even though `codex login status` says no", async () => {
    const s = await open({ OPENAI_API_KEY: "sk-test-not-a-real-key-1234567890" });
    const reply = (await s.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box!.repo, tier: "heavy" } })) as ToolReply;
    const attempts = reply.structuredContent?.attempts as { agent: string; outcome: string }[];
    // Now "out" is launched; its fake then fails the way an unauthenticated exec does.
    expect(box!.recordings("codex").some((r) => r.argv[0] === "exec" && r.env.FAKE_CODEX_SCENARIO === "auth-fail")).toBe(true);
    expect(attempts[0]?.agent).toBe("out");
  });

  test("opencode is not pre-flighted: with -m a signed-out provider fails fast by itself", async () => {
    const s = await open();
    const reply = (await s.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box!.repo, tier: "light" } })) as ToolReply;
    expect(reply.isError).toBe(true);
    const runs = box!.recordings("opencode").filter((r) => r.argv[0] === "run");
    expect(runs).toHaveLength(1);
    expect(runs[0]?.argv).toContain("-m");
    expect((reply.structuredContent?.attempts as { outcome: string }[])[0]?.outcome).toBe("unavailable");
  });

  test("list_agents shows one readiness bit per agent", async () => {
    const s = await open();
    const reply = (await s.client.callTool({ name: "list_agents", arguments: {} })) as ToolReply;
    const agents = reply.structuredContent?.agents as { id: string; readiness: string }[];
    expect(Object.fromEntries(agents.map((a) => [a.id, a.readiness]))).toEqual({ in: "ready", "oc-out": "not_ready", out: "not_ready" });
    expect(textOf(reply)).toContain("not signed in");
  });

  test("codex offline (retrying 'waiting for network' forever) is ended at once as unavailable and falls back", async () => {
    box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "claude", OPENAI_API_KEY: "sk-test-not-a-real-key-1234567890" });
    box.writeConfig(`agents:
  offline: { backend: codex, model: gpt-5.5, env: { FAKE_CODEX_SCENARIO: transport } }
  online: { backend: codex, model: gpt-5.4 }
tiers: { light: null, standard: null, heavy: [offline, online] }
`);
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    const attempts = reply.structuredContent?.attempts as { agent: string; outcome: string; durationMs: number }[];
    expect(attempts.map((a) => [a.agent, a.outcome])).toEqual([
      ["offline", "unavailable"],
      ["online", "ok"],
    ]);
    // Not the stall limit (300 s) nor the budget: the hopeless retry ends it.
    expect(attempts[0]?.durationMs).toBeLessThan(30_000);
  });
});

/**
 * Issue 23's "Done when", literally: a config file from each of the three tools orchestrate
 * replaces, copied as its README writes it (test/fixtures/seeds/), loads; tools/list advertises
 * what that tool advertised, under its names; and its documented calls answer with its documented
 * fields and codes — one test per tool, over a real MCP client (the in-process harness).
 * Placeholders the seeds' examples leave for the reader to fill (`<provider>/<model>`) are filled;
 * nothing else is changed.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { SEED_001_CONFIG_YAML } from "../config/helpers.ts";
import { ENVELOPE_KEYS, SEED_002_CONFIG_YAML } from "../config/ask-fixtures.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;
afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

const KEYS = {
  openai: ["sk", "proj", "DropInK3yTh4tMustN3v3rL34k0ut77"].join("-"),
  anthropic: ["sk", "ant", "api03", "DropInK3yTh4tMustN3v3rL34k0ut7"].join("-"),
};
const provider = startFakeProvider({ keys: KEYS });
afterAll(() => provider.stop());

/** A config at the path the tool's own variable names, with no orchestrate config beside it. */
function seedSandbox(variable: string, dir: string, file: string, text: string, env: Record<string, string> = {}): Sandbox {
  box = makeSandbox(env);
  const folder = join(box.home, dir);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, file);
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
  const sandboxEnv = box.env as Record<string, string | undefined>;
  // The tool's own variables only: no orchestrate config or host runtime beside them.
  delete sandboxEnv.ORCHESTRATE_CONFIG;
  delete sandboxEnv.ORCHESTRATE_HOST_RUNTIME;
  sandboxEnv[variable] = path;
  return box;
}

async function open(s: Sandbox): Promise<ClientSession> {
  session = await connectInProcess(s.env);
  return session;
}

const call = async (s: ClientSession, name: string, args: Record<string, unknown>) => (await s.client.callTool({ name, arguments: args })) as ToolReply;
const names = async (s: ClientSession) => (await s.client.listTools()).tools.map((t) => t.name);

describe("a drop-in for the tools it replaces", () => {
  test("mcp-router (seed 000): its config.json at MCP_ROUTER_CONFIG; route, list_tiers, router_dry_run as documented", async () => {
    // Seed 000's README example, its placeholders filled.
    const config = `{
  "tiers": {
    "light":    null,
    "standard": { "backend": "opencode", "model": "deepseek/deepseek-v4" },
    "heavy":    { "backend": "claude", "model": "opus", "permissionMode": "acceptEdits" }
  },
  "capabilities": {
    "vision": { "backend": "opencode", "model": "deepseek/deepseek-v4-vision", "capabilities": ["vision"] }
  },
  "fallbacks": { "light": "standard", "heavy": "standard" },
  "allowCrossProviderFallback": false
}
`;
    const s = await open(seedSandbox("MCP_ROUTER_CONFIG", ".config/mcp-router", "config.json", config));
    const tools = await names(s);
    expect(tools).toEqual(expect.arrayContaining(["route", "list_tiers", "router_dry_run"]));
    // Its init tools only with MCP_ROUTER_ALLOW_INIT=1.
    expect(tools).not.toContain("init_apply");

    const tiers = await call(s, "list_tiers", {});
    expect(tiers.structuredContent).toMatchObject({ ok: true, tiers: { light: false, standard: true, heavy: true }, capabilities: ["vision"] });
    // Presence only: never a model id or the config path.
    expect(JSON.stringify(tiers)).not.toMatch(/deepseek|opus|mcp-router/);

    const dry = await call(s, "router_dry_run", { cwd: box!.repo, tier: "heavy" });
    const plan = dry.structuredContent as {
      recipients: { backend: string; model?: string; crossesProvider: boolean }[];
      decisions: { decision: string; reason: string }[];
      crossings: string[];
    };
    expect(plan.recipients[0]).toMatchObject({ backend: "claude", model: "opus" });
    // heavy → standard would ship the prompt from anthropic to deepseek: refused without the opt-in.
    expect(plan.recipients.map((r) => r.backend)).toEqual(["claude"]);
    expect(plan.decisions.some((d) => d.decision === "skip" && /cross/i.test(d.reason))).toBe(true);

    const routed = await call(s, "route", { prompt: "say pong", cwd: box!.repo, tier: "heavy" });
    expect(routed.isError).toBeFalsy();
    expect(routed.structuredContent).toMatchObject({ servedBy: { backend: "claude" } });
    expect(Array.isArray(routed.structuredContent?.attempts)).toBe(true);
    expect(textOf(routed)).toContain("PONG-FROM-FAKE");
    expect(box!.recordings("claude")[0]?.argv).toContain("acceptEdits");

    // light is null and falls back to standard, as its fallbacks say.
    const light = await call(s, "route", { prompt: "x", cwd: box!.repo, tier: "light" });
    expect(light.structuredContent).toMatchObject({ ok: true, servedBy: { tier: "standard", backend: "opencode", model: "deepseek/deepseek-v4" } });
    const outside = await call(s, "route", { prompt: "x", cwd: "/", tier: "heavy" });
    expect(outside.structuredContent?.error).toMatchObject({ code: "cwd_outside_roots" });
  }, 60_000);

  test("Orchestrator MCP (seed 001): its config.yaml at ORCHESTRATOR_CONFIG; its tool names, consult envelope and codes", async () => {
    // Its README's config with its review block, verbatim; the host runtime from ORCHESTRATOR_HOST_RUNTIME.
    const config = `${SEED_001_CONFIG_YAML}
  review:
    reviewers: [codex]          # standard: exactly one
    deep_reviewers: [codex, claude]  # deep: one to five
`;
    const env = { ORCHESTRATOR_HOST_RUNTIME: "claude" };
    const s = await open(seedSandbox("ORCHESTRATOR_CONFIG", ".orchestrator-mcp", "config.yaml", config, env));
    const tools = await names(s);
    for (const name of [
      "orchestrator_consult",
      "orchestrator_list_consult_agents",
      "orchestrator_get_consultation",
      "orchestrator_review",
      "orchestrator_review_run",
      "orchestrator_finalize_review",
    ])
      expect(tools).toContain(name);
    // One name per tool: never orchestrate's beside the seed's.
    for (const name of ["consult", "list_agents", "get_consultation", "review", "review_run", "review_finalize"]) expect(tools).not.toContain(name);

    const agents = (await call(s, "orchestrator_list_consult_agents", {})).structuredContent as { agents: { id: string; eligible: boolean }[] };
    // The host's own runtime is never consulted.
    expect(agents.agents.map((a) => [a.id, a.eligible])).toEqual([
      ["claude", false],
      ["codex", true],
    ]);

    const first = await call(s, "orchestrator_consult", { capability: "coding", prompt: "Say PONG", source_mode: "model" });
    const e = first.structuredContent ?? {};
    expect(e).toMatchObject({
      ok: true,
      capability_requested: "coding",
      source_mode_used: "model",
      route: { agent_id: "codex", runtime: "codex", model: "gpt-5.6-sol", capability_score: 95, priority: 10, explicitly_selected: false },
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), total_tokens: expect.any(Number) },
      latency_ms: expect.any(Number),
      error: null,
    });
    // Every content field, arrays empty but never absent.
    expect(Object.keys(e.content as object).sort()).toEqual(["answer", "assumptions", "follow_up_questions", "sources", "uncertainties"]);
    // Its clients read the envelope from the text block too.
    expect(JSON.parse(textOf(first))).toEqual(e);

    const id = e.consultation_id as string;
    const again = await call(s, "orchestrator_consult", { capability: "coding", prompt: "And again", consultation_id: id });
    expect(again.structuredContent).toMatchObject({ ok: true, consultation_id: id });
    const stored = await call(s, "orchestrator_get_consultation", { consultation_id: id });
    expect((stored.structuredContent?.turns as unknown[]).length).toBe(2);

    // web_search: true makes codex a web agent; the host's runtime is refused in the seeds' words.
    expect((await call(s, "orchestrator_consult", { capability: "research", prompt: "Look it up", source_mode: "web" })).structuredContent).toMatchObject({
      ok: true,
      source_mode_used: "web",
    });
    expect((await call(s, "orchestrator_consult", { capability: "coding", prompt: "x", target_agent: "claude" })).structuredContent?.error).toMatchObject({
      code: "no_agent_available",
    });
    expect(
      (await call(s, "orchestrator_consult", { capability: "coding", prompt: "x", consultation_id: "01NOSUCHCONSULTATION00000" })).structuredContent?.error,
    ).toMatchObject({
      code: "session_not_found",
    });

    // orchestrator_review plans and sends nothing: reviewers, material size, web access, request count, a token.
    const runs = box!.recordings().length;
    const plan =
      (await call(s, "orchestrator_review", { goal: "Is it right?", mode: "standard", material: [{ text: "const x = 1;" }] })).structuredContent ?? {};
    expect(plan).toMatchObject({ ok: true, token: expect.any(String) });
    expect(box!.recordings().length).toBe(runs);
  }, 60_000);

  test("orchestrator-mcp (seed 002): its config.yaml at ORCHESTRATOR_CONFIG; ask and list_capabilities, its envelope and codes", async () => {
    // Its README's Configuration example, verbatim: no api_base, so the key's provider URL comes from
    // ANTHROPIC_BASE_URL as LiteLLM reads it — here the loopback provider.
    const config = SEED_002_CONFIG_YAML;
    const env = { ANTHROPIC_API_KEY: KEYS.anthropic, ANTHROPIC_BASE_URL: provider.url };
    const s = await open(seedSandbox("ORCHESTRATOR_CONFIG", "work", "config.yaml", config, env));
    const listed = (await s.client.listTools()).tools;
    const ask = listed.find((t) => t.name === "ask");
    expect(listed.map((t) => t.name)).toEqual(expect.arrayContaining(["ask", "list_capabilities"]));
    // What orchestrator-mcp advertised and no more: its file names no agent, so nothing could route or consult.
    expect(listed.map((t) => t.name).filter((n) => ["route", "list_tiers", "router_dry_run", "consult", "list_agents"].includes(n))).toEqual([]);
    // The caller cannot name a model: capability is the enum of configured names.
    expect((ask?.inputSchema.properties as { capability: { enum: string[] } }).capability.enum).toEqual(["coding", "fast"]);

    const caps = (await call(s, "list_capabilities", {})).structuredContent as {
      capabilities: { name: string; description: string; fallbacks: string[] }[];
      limits: { request_timeout_s: number };
    };
    expect(caps.capabilities.map((c) => [c.name, c.description, c.fallbacks])).toEqual([
      ["coding", "Writing, refactoring, reviewing, and debugging code.", ["fast"]],
      ["fast", "Cheap, low-latency answers. Classification, extraction, short replies.", []],
    ]);
    expect(caps.limits.request_timeout_s).toBe(120);

    provider.script("claude-sonnet-4-5", { kind: "status", status: 529 });
    provider.script("claude-haiku-4-5-20251001", { kind: "ok", text: "From the fast capability." });
    const answered = await call(s, "ask", { capability: "coding", prompt: "Say hello" });
    const e = answered.structuredContent ?? {};
    expect(Object.keys(e).sort()).toEqual(ENVELOPE_KEYS);
    expect(e).toMatchObject({
      ok: true,
      content: "From the fast capability.",
      data: null,
      insufficient_context: false,
      capability_requested: "coding",
      model_used: "anthropic/claude-haiku-4-5-20251001",
      fallback_used: true,
      finish_reason: "stop",
      error: null,
    });
    expect(JSON.parse(textOf(answered))).toEqual(e);

    // Its closed set of codes, error exactly {code, message}, content and data null.
    const unknown = (await call(s, "ask", { capability: "nope", prompt: "x" })).structuredContent ?? {};
    expect(unknown).toMatchObject({ ok: false, content: null, data: null, error: { code: "invalid_request" } });
    expect(Object.keys(unknown.error as object).sort()).toEqual(["code", "message"]);
    provider.script("claude-haiku-4-5-20251001", { kind: "truncate", text: "cut" });
    const truncated = (await call(s, "ask", { capability: "fast", prompt: "x" })).structuredContent ?? {};
    expect(truncated).toMatchObject({ ok: false, content: null, finish_reason: "length", error: { code: "output_truncated" } });
  }, 60_000);
});

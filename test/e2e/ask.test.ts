/**
 * ask end to end: a real MCP client, the real server, the loopback fake provider (both wire
 * formats) and a real SQLite file. Each point of issue 14 has a test here that fails without it.
 * The server runs in this process (connectInProcess, docs/testing.md), except where its stderr is
 * part of what must hold no key: there it is a spawned process.
 */
import { ENVELOPE_KEYS } from "../config/ask-fixtures.ts";
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, textOf, type ClientSession, type McpSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";

const KEYS = {
  openai: ["sk", "proj", "E2eK3yTh4tMustN3v3rL34k0ut77"].join("-"),
  anthropic: ["sk", "ant", "api03", "E2eK3yTh4tMustN3v3rL34k0ut77QQ"].join("-"),
};
const ENV = { OPENAI_KEY: KEYS.openai, ANTHROPIC_KEY: KEYS.anthropic };

const p = startFakeProvider({ keys: KEYS });
afterAll(() => p.stop());

let box: Sandbox | undefined;
let session: ClientSession | undefined;
afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

let n = 0;
const m = (name: string) => `${name}-e2e-${++n}`;
const openai = (model: string) => `{ model: openai/${model}, baseUrl: "${p.openaiBase}", apiKeyEnv: OPENAI_KEY }`;
const anthropic = (model: string) => `{ model: anthropic/${model}, baseUrl: "${p.url}", apiKeyEnv: ANTHROPIC_KEY }`;

async function start(config: string, env: Record<string, string> = ENV): Promise<ClientSession> {
  box = makeSandbox(env);
  box.writeConfig(config);
  session = await connectInProcess(box.env);
  return session;
}

/** A server process of its own, for what only a process shows (its stderr); two can run at once. */
async function startSpawned(config: string, env: Record<string, string> = ENV): Promise<McpSession> {
  box = makeSandbox(env);
  box.writeConfig(config);
  const spawned = await connect(box.env);
  session = spawned;
  return spawned;
}

async function call(s: ClientSession, args: Record<string, unknown>): Promise<ToolReply> {
  return (await s.client.callTool({ name: "ask", arguments: args })) as ToolReply;
}

type Envelope = {
  ok: boolean;
  content: string | null;
  data: unknown;
  insufficient_context: boolean;
  model_used: string | null;
  fallback_used: boolean;
  finish_reason: string | null;
  latency_ms: number;
  error: { code: string; message: string } | null;
};
const envelopeOf = (r: ToolReply) => r.structuredContent as unknown as Envelope;

describe("ask over MCP", () => {
  test("advertised only with capabilities configured: the unified ask: block or a seed 002 file", async () => {
    const without = await start("agents: {}\n");
    expect((await without.client.listTools()).tools.map((t) => t.name)).not.toContain("ask");
    await session?.close();
    box?.cleanup();
    const withAsk = await start(`ask:\n  capabilities:\n    fast:\n      deployments: [${openai(m("gpt"))}]\n`);
    const tools = (await withAsk.client.listTools()).tools;
    expect(tools.map((t) => t.name)).toContain("list_capabilities");
    // The caller picks a capability from the configured ones and can never name a model.
    const props = tools.find((t) => t.name === "ask")?.inputSchema.properties as Record<string, { enum?: string[] }> | undefined;
    expect(props?.capability?.enum).toEqual(["fast"]);
    expect(props && "model" in props).toBe(false);
    expect(envelopeOf(await call(withAsk, { capability: "gpt-4o", prompt: "q" })).error?.code).toBe("invalid_request");
  });

  test("a 429 on the first deployment falls back: fallback_used, the backup's model, the exact envelope", async () => {
    const first = m("primary");
    const second = m("backup");
    p.script(first, { kind: "status", status: 429, retryAfter: "20" });
    p.script(second, { kind: "ok", text: "Answer from the backup." });
    const s = await start(`ask:\n  capabilities:\n    coding:\n      deployments: [${openai(first)}, ${anthropic(second)}]\n`);
    const reply = await call(s, { capability: "coding", prompt: "Explain this loop." });
    expect(reply.isError).toBeFalsy();
    const e = envelopeOf(reply);
    expect(Object.keys(e).sort()).toEqual(ENVELOPE_KEYS);
    expect(e).toMatchObject({
      ok: true,
      content: "Answer from the backup.",
      model_used: `anthropic/${second}`,
      fallback_used: true,
      finish_reason: "stop",
      error: null,
    });
    expect(textOf(reply)).toContain("Answer from the backup.");
    expect(textOf(reply)).toContain("fallback");
  });

  test("a truncated reply is output_truncated with content null; error is exactly {code, message}, the hint in the text", async () => {
    const model = m("short");
    p.script(model, { kind: "truncate" });
    const s = await start(`ask:\n  capabilities:\n    fast:\n      deployments: [${anthropic(model)}]\n`);
    const reply = await call(s, { capability: "fast", prompt: "Write a long essay.", max_output_tokens: 64 });
    expect(reply.isError).toBe(true);
    const e = envelopeOf(reply);
    expect(Object.keys(e).sort()).toEqual(ENVELOPE_KEYS);
    expect(e).toMatchObject({ ok: false, content: null, data: null, finish_reason: "length" });
    expect(Object.keys(e.error ?? {}).sort()).toEqual(["code", "message"]);
    expect(e.error?.code).toBe("output_truncated");
    expect(textOf(reply)).toContain("raise max_output_tokens");
  });

  test("an invalid structured reply is repaired once, then fails typed; the rejected output is never in the error", async () => {
    const model = m("json");
    p.script(model, { kind: "json", value: { city: 42, leaked: "REJECTED-VALUE" } });
    const s = await start(`ask:\n  capabilities:\n    extract:\n      deployments: [${openai(model)}]\n`);
    const reply = await call(s, {
      capability: "extract",
      prompt: "Which city?",
      response_schema: { type: "object", required: ["city"], properties: { city: { type: "string" } } },
    });
    const e = envelopeOf(reply);
    expect(e).toMatchObject({ ok: false, content: null, data: null, error: { code: "schema_validation_failed" } });
    expect(e.error?.message).toContain("schema violation at /city: failed the 'type' constraint");
    expect(JSON.stringify(reply)).not.toContain("REJECTED-VALUE");
    expect(p.received(model)).toHaveLength(2);
  });

  test("the budget holds across retries, fallbacks and repairs: hung deployments end inside request_timeout_s", async () => {
    const a = m("hang");
    const b = m("hang");
    const c = m("hang");
    for (const x of [a, b, c]) p.script(x, { kind: "hang" });
    const s = await start(
      `ask:\n  retries: 3\n  limits: { requestTimeoutSec: 1 }\n  capabilities:\n    coding:\n      fallbacks: [fast]\n      deployments: [${openai(a)}, ${openai(b)}]\n    fast:\n      deployments: [${anthropic(c)}]\n`,
    );
    // The first call loads arktype, the config and the store: not part of any budget.
    await s.client.callTool({ name: "list_capabilities", arguments: {} });
    const started = Date.now();
    const reply = await call(s, { capability: "coding", prompt: "q", response_schema: { type: "object" } });
    const took = Date.now() - started;
    expect(envelopeOf(reply)).toMatchObject({ ok: false, content: null, error: { code: "timeout" } });
    // 1 s, not 1 s per leg: without the shared budget three deployments × four tries would take many seconds.
    expect(took).toBeLessThan(1500);
    expect(envelopeOf(reply).latency_ms).toBeLessThan(1100);
  });

  test("an unknown argument is refused in the envelope before anything is sent (seed 002's first known gap)", async () => {
    const model = m("smuggle");
    const s = await start(`ask:\n  capabilities:\n    fast:\n      deployments: [${openai(model)}]\n`);
    const reply = await call(s, { capability: "fast", prompt: "q", model: "gpt-4o" });
    expect(reply.isError).toBe(true);
    const e = envelopeOf(reply);
    expect(Object.keys(e).sort()).toEqual(ENVELOPE_KEYS);
    expect(e.error?.code).toBe("invalid_request");
    expect(e.error?.message).toContain("model");
    expect(p.received(model)).toHaveLength(0);
  });

  test("a key never appears in the reply, an error or the store — even when a provider quotes it back", async () => {
    const echo = m("echo");
    const good = m("good");
    p.script(echo, { kind: "status", status: 401, echoKey: true });
    const s = await startSpawned(`ask:\n  capabilities:\n    coding:\n      deployments: [${openai(echo)}, ${anthropic(good)}]\n  cooldownSec: 30\n`);
    const ok = await call(s, { capability: "coding", prompt: "q" });
    expect(envelopeOf(ok)).toMatchObject({ ok: true, fallback_used: true });
    await s.close();
    box?.cleanup();
    const s2 = await startSpawned(`ask:\n  capabilities:\n    coding:\n      deployments: [${openai(echo)}]\n`);
    const failed = await call(s2, { capability: "coding", prompt: "q" });
    expect(envelopeOf(failed).error?.code).toBe("auth_failed");
    const listed = await s2.client.callTool({ name: "list_capabilities", arguments: {} });
    for (const text of [JSON.stringify(ok), JSON.stringify(failed), JSON.stringify(listed), s2.stderr()]) {
      expect(text).not.toContain(KEYS.openai);
      expect(text).not.toContain(KEYS.anthropic);
      expect(text).not.toContain("OPENAI_KEY");
    }
    expect(JSON.stringify(failed)).toContain("REDACTED");
    await session?.close();
    const db = box?.dbPath ?? "";
    const bytes = [db, `${db}-wal`]
      .filter(existsSync)
      .map((f) => readFileSync(f, "latin1"))
      .join("");
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).not.toContain(KEYS.openai.slice(8));
    expect(bytes).not.toContain(KEYS.anthropic.slice(8));
    // The key reached the provider: it was checked there, and is recorded only as "ok".
    expect(p.received(good).map((r) => r.auth)).toEqual(["ok"]);
  });

  test("list_capabilities: what each is for, its deployments (cooling ones marked), fallbacks and limits; no URL or key name", async () => {
    const model = m("listed");
    const s = await start(
      `ask:\n  capabilities:\n    coding:\n      description: Writing code.\n      fallbacks: [fast]\n      deployments: [${openai(model)}]\n    fast:\n      deployments: [${anthropic(m("f"))}]\n  limits: { requestTimeoutSec: 30 }\n`,
    );
    const reply = (await s.client.callTool({ name: "list_capabilities", arguments: {} })) as ToolReply;
    const out = reply.structuredContent as {
      capabilities: {
        name: string;
        description: string;
        fallbacks: string[];
        deployments: { id: string; model: string; format: string; cooling_until: string | null }[];
      }[];
      limits: { request_timeout_s: number };
    };
    expect(out.capabilities.map((c) => [c.name, c.description, c.fallbacks])).toEqual([
      ["coding", "Writing code.", ["fast"]],
      ["fast", "", []],
    ]);
    expect(out.capabilities[0]?.deployments[0]).toEqual({ id: `openai/${model}`, model: `openai/${model}`, format: "openai", cooling_until: null });
    expect(out.limits.request_timeout_s).toBe(30);
    expect(JSON.stringify(reply)).not.toContain(p.url);
  });
});

describe("seed 002's config.yaml, as written", () => {
  const seedFile = (coding: string, fast: string) => `capabilities:
  coding: "Writing, refactoring, reviewing, and debugging code."
  fast: "Cheap, low-latency answers. Classification, extraction, short replies."

model_list:
  - model_name: coding
    litellm_params:
      model: anthropic/${coding}
      api_base: ${p.url}
      api_key: os.environ/ANTHROPIC_KEY

  - model_name: fast
    litellm_params:
      model: openai/${fast}
      api_base: ${p.openaiBase}
      api_key: os.environ/OPENAI_KEY

router_settings:
  num_retries: 2
  cooldown_time: 60
  fallbacks:
    - coding: [fast]

limits:
  request_timeout_s: 20
  schema_repair_attempts: 1
`;

  test("serves ask with its fallbacks, is valid to orchestrate check, and orchestrate import converts it", async () => {
    const coding = m("sonnet");
    const fast = m("haiku");
    p.script(coding, { kind: "status", status: 529 });
    p.script(fast, { kind: "ok", text: "From the fast capability." });
    const text = seedFile(coding, fast);
    const s = await start(text);
    expect((await s.client.listTools()).tools.map((t) => t.name)).toContain("ask");
    const reply = await call(s, { capability: "coding", prompt: "q" });
    const e = envelopeOf(reply);
    expect(e).toMatchObject({ ok: true, content: "From the fast capability.", model_used: `openai/${fast}`, fallback_used: true });
    // Seed 002 returns every result as JSON text too: a client reading only the text gets the whole envelope.
    expect(JSON.parse(textOf(reply))).toEqual(reply.structuredContent);
    // The server ends before the commands run: each holds this process in turn.
    await s.close();
    const env = (box as Sandbox).env;
    const check = await runCliInProcess(["check", (box as Sandbox).configPath], env);
    expect(check.stdout).toContain("valid, no problems");
    expect(check.code).toBe(0);
    const file = join((box as Sandbox).root, "seed002.yaml");
    writeFileSync(file, text, { mode: 0o600 });
    const imported = await runCliInProcess(["import", file, "--out", join((box as Sandbox).root, "out.yaml")], env);
    expect(imported.stderr).toContain("(orchestrator-mcp format)");
    expect(imported.stdout).toContain("ask:");
    expect(imported.stdout).toContain("apiKeyEnv: ANTHROPIC_KEY");
    expect(imported.stdout).not.toContain("os.environ");
  });

  test("orchestrate check refuses what seed 002 refuses at startup, naming the key as written", async () => {
    box = makeSandbox(ENV);
    const path = box.writeConfig(seedFile("a", "b").replace("model_name: fast", "model_name: fsat"));
    const check = await runCliInProcess(["check", path], box.env);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('model_list[1].model_name: routes to "fsat", which is not a declared capability');
    expect(check.stdout).toContain("capabilities.fast: no model_list entry serves this capability");
  });
});

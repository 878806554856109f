import { describe, expect, test } from "bun:test";
import { ENVELOPE_KEYS } from "../config/ask-fixtures.ts";
import { existsSync, readFileSync } from "node:fs";
import { ask } from "../../src/services/ask/index.ts";
import { deploymentKey } from "../../src/services/ask/cooling.ts";
import { dep, KEYS, provider, world } from "./ask-world.ts";

const p = provider();
/** A unique model name per test, so scripts on the shared fake never meet. */
let n = 0;
const m = (name: string) => `${name}-${++n}`;

describe("ask: answers", () => {
  test("a streamed answer over the OpenAI format: the exact envelope, usage with configured cost", async () => {
    const model = m("gpt");
    p.script(model, { kind: "ok", text: "Paris is the capital.", chunks: 4 });
    const w = world(p, { capabilities: { fast: { deployments: [dep(p, model, "openai", { inputCostPerMTok: 1, outputCostPerMTok: 2 })] } } });
    const { envelope } = await ask(w.rt, { capability: "fast", prompt: "Capital of France?" });
    expect(Object.keys(envelope).sort()).toEqual(ENVELOPE_KEYS);
    expect(envelope).toMatchObject({
      ok: true,
      content: "Paris is the capital.",
      data: null,
      insufficient_context: false,
      capability_requested: "fast",
      model_used: `openai/${model}`,
      fallback_used: false,
      finish_reason: "stop",
      error: null,
    });
    expect(envelope.usage).toEqual({ prompt_tokens: 10, completion_tokens: 20, total_tokens: 30, cost_usd: 0.00005 });
    const [sent] = p.received(model);
    expect(sent).toMatchObject({ format: "openai", auth: "ok", body: { stream: true, max_tokens: 4096 } });
  });

  test("the Anthropic format, with the system prompt apart; cost unknown without prices", async () => {
    const model = m("claude");
    p.script(model, { kind: "ok", text: "Bonjour." });
    const w = world(p, { capabilities: { coding: { deployments: [dep(p, model, "anthropic")] } } });
    const { envelope } = await ask(w.rt, { capability: "coding", prompt: "Say hi in French", system: "Be brief.", max_output_tokens: 100 });
    expect(envelope).toMatchObject({
      ok: true,
      content: "Bonjour.",
      model_used: `anthropic/${model}`,
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    });
    expect(envelope.usage?.cost_usd).toBeUndefined();
    expect(p.received(model)[0]).toMatchObject({ format: "anthropic", auth: "ok", system: "Be brief.", body: { max_tokens: 100 } });
  });

  test("a provider's own cost figure (OpenRouter usage.cost, a LiteLLM proxy header) is used", async () => {
    const a = m("routed");
    const b = m("proxied");
    p.script(a, { kind: "ok", cost: 0.0042 });
    p.script(b, { kind: "ok", costHeader: "0.0007" });
    const w = world(p, { capabilities: { a: { deployments: [dep(p, a)] }, b: { deployments: [dep(p, b)] } } });
    expect((await ask(w.rt, { capability: "a", prompt: "x" })).envelope.usage?.cost_usd).toBe(0.0042);
    expect((await ask(w.rt, { capability: "b", prompt: "x" })).envelope.usage?.cost_usd).toBe(0.0007);
  });
});

describe("ask: deployments, retries, cooldowns, fallbacks", () => {
  test("a 429 on the first deployment: the second answers at once, fallback_used says so, the first cools for every process", async () => {
    const first = m("primary");
    const second = m("backup");
    p.script(first, { kind: "status", status: 429, retryAfter: "30" });
    const w = world(p, { capabilities: { coding: { deployments: [dep(p, first), dep(p, second, "anthropic")] } }, cooldownSec: 5 });
    const started = Date.now();
    const { envelope } = await ask(w.rt, { capability: "coding", prompt: "q" });
    expect(envelope).toMatchObject({ ok: true, fallback_used: true, model_used: `anthropic/${second}` });
    expect(Date.now() - started).toBeLessThan(1000);
    // The store holds the cooldown under the deployment's key, for the provider's 30 s (longer than cooldownSec).
    const deployment = w.rt.config.ask.capabilities.coding?.deployments[0];
    if (!deployment) throw new Error("no deployment");
    const cooling = w.rt.store.cooldowns.active().get(deploymentKey(deployment));
    expect(cooling?.cls).toBe("capacity");
    expect((cooling?.until ?? 0) - Date.now()).toBeGreaterThan(25_000);
    expect(JSON.parse(deploymentKey(deployment))[0]).toBe("deployment");
    // The next request skips the cooling primary entirely.
    const again = await ask(w.rt, { capability: "coding", prompt: "q2" });
    expect(again.envelope).toMatchObject({ ok: true, fallback_used: true });
    expect(p.received(first)).toHaveLength(1);
  });

  test("retries honour retry-after: the same deployment is asked again only after the provider's wait", async () => {
    const model = m("limited");
    p.script(model, { kind: "status", status: 429, retryAfterMs: "300", retryAfter: "1" }, { kind: "ok", text: "finally" });
    const w = world(p, { capabilities: { fast: { deployments: [dep(p, model)] } }, retries: 1, cooldownSec: 0 });
    const { envelope } = await ask(w.rt, { capability: "fast", prompt: "q" });
    expect(envelope).toMatchObject({ ok: true, content: "finally", fallback_used: false });
    const [a, b] = p.received(model);
    expect((b?.at ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(290);
  });

  test("every deployment of a capability failing: its fallback capability answers", async () => {
    const down = m("down");
    const fastModel = m("fast");
    p.script(down, { kind: "status", status: 503 });
    const w = world(p, {
      capabilities: { coding: { deployments: [dep(p, down)], fallbacks: ["fast"] }, fast: { deployments: [dep(p, fastModel, "anthropic")] } },
      retries: 0,
    });
    const { envelope } = await ask(w.rt, { capability: "coding", prompt: "q" });
    expect(envelope).toMatchObject({ ok: true, capability_requested: "coding", model_used: `anthropic/${fastModel}`, fallback_used: true });
  });

  test("nothing answers: the last failure's code, the model that gave it, and every deployment cooled", async () => {
    const a = m("five-hundred");
    const b = m("auth");
    p.script(a, { kind: "status", status: 500 });
    const w = world(
      p,
      { capabilities: { coding: { deployments: [dep(p, a), { ...dep(p, b), apiKeyEnv: "WRONG_KEY" }] } }, retries: 0 },
      { OPENAI_KEY: KEYS.openai, WRONG_KEY: "sk-not-the-right-one-1234" },
    );
    const { envelope, hint } = await ask(w.rt, { capability: "coding", prompt: "q" });
    expect(envelope).toMatchObject({ ok: false, content: null, data: null, model_used: `openai/${b}`, error: { code: "auth_failed" } });
    expect(envelope.error?.message).toMatch(/HTTP 401/);
    expect(hint).toMatch(/environment/);
    // Then the whole capability is cooling: typed, with when it comes back, and nothing is sent.
    const before = p.received().length;
    const cooled = await ask(w.rt, { capability: "coding", prompt: "q" });
    expect(cooled.envelope.error?.code).toBe("no_deployment");
    expect(p.received().length).toBe(before);
  });

  test("a stream cut short, garbage records, a mid-stream overload: failures of the deployment, so the next one answers", async () => {
    for (const scenario of [{ kind: "cut" as const }, { kind: "malformed" as const }, { kind: "overloaded_midstream" as const }]) {
      for (const format of ["openai", "anthropic"] as const) {
        const bad = m(`bad-${scenario.kind}`);
        const good = m("good");
        p.script(bad, scenario);
        const w = world(p, { capabilities: { c: { deployments: [dep(p, bad, format), dep(p, good, format)] } } });
        const { envelope } = await ask(w.rt, { capability: "c", prompt: "q" });
        expect({ scenario: scenario.kind, format, ok: envelope.ok, fallback: envelope.fallback_used }).toEqual({
          scenario: scenario.kind,
          format,
          ok: true,
          fallback: true,
        });
      }
    }
  });

  test("weighted: the shuffle follows the weights and the dice", async () => {
    const light = m("light");
    const heavy = m("heavy");
    const w = world(p, {
      capabilities: { c: { strategy: "weighted", deployments: [dep(p, light, "openai", { weight: 1 }), dep(p, heavy, "openai", { weight: 3 })] } },
    });
    const low = await ask(w.rt, { capability: "c", prompt: "q" }, { random: () => 0.1 });
    const high = await ask(w.rt, { capability: "c", prompt: "q" }, { random: () => 0.9 });
    expect([low.envelope.model_used, high.envelope.model_used]).toEqual([`openai/${light}`, `openai/${heavy}`]);
  });
});

describe("ask: unfinished answers are failures, never short answers", () => {
  const cases = [
    { scenario: { kind: "truncate" as const }, code: "output_truncated", finish: "length" },
    { scenario: { kind: "filter" as const }, code: "content_filtered", finish: "content_filter" },
    // Seed 002's code for each of these is upstream_error (its server.py _REFUSED_FINISH / _completion_of).
    { scenario: { kind: "tool_call" as const }, code: "upstream_error", finish: "tool_calls" },
    { scenario: { kind: "native" as const, native: "MALFORMED_FUNCTION_CALL", text: "x" }, code: "upstream_error", finish: "tool_calls" },
    { scenario: { kind: "native" as const, native: "FINISH_REASON_UNSPECIFIED", text: "x" }, code: "upstream_error", finish: "other" },
    { scenario: { kind: "empty" as const }, code: "upstream_error", finish: "stop" },
  ];
  for (const format of ["openai", "anthropic"] as const) {
    for (const c of cases) {
      if (format === "anthropic" && c.scenario.kind === "native" && c.scenario.native === "FINISH_REASON_UNSPECIFIED") continue;
      test(`${format}: ${c.scenario.kind}${"native" in c.scenario ? ` ${c.scenario.native}` : ""} → ${c.code}, content and data null, no other deployment asked`, async () => {
        const model = m(c.scenario.kind);
        const other = m("other");
        p.script(model, c.scenario);
        const w = world(p, {
          capabilities: { c: { deployments: [dep(p, model, format), dep(p, other, format)], fallbacks: ["d"] }, d: { deployments: [dep(p, m("d"), format)] } },
        });
        const { envelope } = await ask(w.rt, { capability: "c", prompt: "q" });
        expect(envelope).toMatchObject({
          ok: false,
          content: null,
          data: null,
          finish_reason: format === "anthropic" && c.scenario.kind === "native" ? expect.any(String) : c.finish,
          error: { code: c.code },
        });
        expect(p.received(other)).toHaveLength(0);
      });
    }
  }
});

describe("ask: structured mode", () => {
  const schema = { type: "object", additionalProperties: false, required: ["city"], properties: { city: { type: "string", maxLength: 20 } } };

  test("a valid reply is data, content stays null; the schema reaches OpenAI natively and Anthropic in the system prompt", async () => {
    for (const format of ["openai", "anthropic"] as const) {
      const model = m("json");
      p.script(model, { kind: "json", value: { city: "Paris" } });
      const w = world(p, { capabilities: { x: { deployments: [dep(p, model, format)] } } });
      const { envelope } = await ask(w.rt, { capability: "x", prompt: "Where?", response_schema: JSON.stringify(schema) });
      expect(envelope).toMatchObject({ ok: true, content: null, data: { city: "Paris" } });
      const sent = p.received(model)[0];
      if (format === "openai") expect(sent?.body.response_format).toMatchObject({ type: "json_schema", json_schema: { schema } });
      expect(sent?.system).toContain('"maxLength":20');
    }
  });

  test("an invalid reply is repaired once with the validator's complaint; the repaired reply is data", async () => {
    const model = m("repair");
    p.script(
      model,
      { kind: "json", value: { city: "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch" } },
      { kind: "json", value: { city: "Llanfair PG" } },
    );
    const w = world(p, { capabilities: { x: { deployments: [dep(p, model)] } } });
    const { envelope } = await ask(w.rt, { capability: "x", prompt: "Where?", response_schema: schema });
    expect(envelope).toMatchObject({ ok: true, data: { city: "Llanfair PG" }, fallback_used: false, usage: { total_tokens: 60 } });
    const repair = p.received(model)[1];
    expect(repair?.messages.map((t) => t.role)).toEqual(["user", "assistant", "user"]);
    expect(repair?.messages[1]?.content).toContain("Llanfairpwll");
    expect(repair?.messages[2]?.content).toContain("schema violation at /city: failed the 'maxLength' constraint (20)");
  });

  test("still invalid after the repair turns: schema_validation_failed, and the rejected output is never in the error", async () => {
    const model = m("stubborn");
    p.script(model, { kind: "json", value: { city: "Paris", secretPlanet: "VULCAN-SENTINEL" } });
    const w = world(p, { capabilities: { x: { deployments: [dep(p, model)] } } });
    const { envelope } = await ask(w.rt, { capability: "x", prompt: "Where?", response_schema: schema });
    expect(envelope).toMatchObject({ ok: false, content: null, data: null, error: { code: "schema_validation_failed" } });
    expect(envelope.error?.message).toContain("additionalProperties");
    expect(envelope.error?.message).not.toContain("VULCAN");
    expect(p.received(model)).toHaveLength(2);
  });

  test("prose where JSON was asked: repaired; the parser's quote of it goes to the model only", async () => {
    const model = m("prose");
    p.script(model, { kind: "ok", text: "Sure! The city is SECRET-PROSE." });
    const w = world(p, { capabilities: { x: { deployments: [dep(p, model)] } }, limits: { schemaRepairAttempts: 2 } });
    const { envelope } = await ask(w.rt, { capability: "x", prompt: "Where?", response_schema: schema });
    expect(envelope.error).toEqual({ code: "schema_validation_failed", message: expect.stringContaining("not valid JSON") });
    expect(envelope.error?.message).not.toContain("SECRET-PROSE");
    expect(p.received(model)).toHaveLength(3);
  });

  test("boundaries: an oversized schema is refused before it is parsed; a malformed one, an unknown capability, an empty or oversized prompt, too many output tokens — and nothing is sent", async () => {
    const model = m("never");
    const w = world(p, { capabilities: { x: { deployments: [dep(p, model)] } }, limits: { maxSchemaChars: 100, maxPromptChars: 50, maxOutputTokens: 1000 } });
    const code = async (req: Parameters<typeof ask>[1]) => (await ask(w.rt, req)).envelope.error;
    expect(await code({ capability: "x", prompt: "q", response_schema: `{${" ".repeat(200)}` })).toEqual({
      code: "invalid_request",
      message: expect.stringContaining("characters; limits.maxSchemaChars allows 100"),
    });
    expect((await code({ capability: "x", prompt: "q", response_schema: "{not json" }))?.code).toBe("invalid_request");
    expect((await code({ capability: "x", prompt: "q", response_schema: { type: "object", properties: { a: { type: "nonsense" } } } }))?.code).toBe(
      "invalid_request",
    );
    expect((await code({ capability: "nope", prompt: "q" }))?.code).toBe("invalid_request");
    expect((await code({ capability: "x", prompt: "   " }))?.code).toBe("invalid_request");
    expect((await code({ capability: "x", prompt: "q".repeat(51) }))?.code).toBe("invalid_request");
    expect((await code({ capability: "x", prompt: "q", max_output_tokens: 1001 }))?.code).toBe("invalid_request");
    expect(p.received(model)).toHaveLength(0);
  });
});

describe("ask: abstention is typed", () => {
  test("prose: the model's INSUFFICIENT_CONTEXT arrives as insufficient_context, content null", async () => {
    const model = m("abstain");
    p.script(model, { kind: "ok", text: "INSUFFICIENT_CONTEXT" });
    const w = world(p, { capabilities: { x: { deployments: [dep(p, model)] } } });
    const { envelope } = await ask(w.rt, { capability: "x", prompt: "Who won?", context: "The sky is blue." });
    expect(envelope).toMatchObject({ ok: true, insufficient_context: true, content: null, data: null });
    const sent = p.received(model)[0];
    expect(sent?.system).toContain("INSUFFICIENT_CONTEXT");
    expect(sent?.messages[0]?.content).toContain("<context>\nThe sky is blue.\n</context>");
  });

  test("structured: {insufficient_context: true} instead of data; the native schema allows it", async () => {
    const model = m("abstain-json");
    p.script(model, { kind: "json", value: { insufficient_context: true } });
    const w = world(p, { capabilities: { x: { deployments: [dep(p, model)] } } });
    const { envelope } = await ask(w.rt, { capability: "x", prompt: "Who?", context: "nothing", response_schema: { type: "object", required: ["name"] } });
    expect(envelope).toMatchObject({ ok: true, insufficient_context: true, data: null, content: null });
    expect(JSON.stringify(p.received(model)[0]?.body.response_format)).toContain("anyOf");
  });

  test("without context, the same words are just an answer", async () => {
    const model = m("literal");
    p.script(model, { kind: "ok", text: "INSUFFICIENT_CONTEXT" });
    const w = world(p, { capabilities: { x: { deployments: [dep(p, model)] } } });
    expect((await ask(w.rt, { capability: "x", prompt: "Say the token" })).envelope).toMatchObject({
      ok: true,
      insufficient_context: false,
      content: "INSUFFICIENT_CONTEXT",
    });
  });
});

describe("ask: one budget for retries, fallbacks and repairs", () => {
  test("hung deployments: the request ends inside its budget, not once per leg; the hung one is cooled so the next request goes elsewhere", async () => {
    const hungA = m("hung");
    const hungB = m("hung");
    const spare = m("spare");
    p.script(hungA, { kind: "hang" });
    p.script(hungB, { kind: "hang" });
    const w = world(p, {
      capabilities: { c: { deployments: [dep(p, hungA), dep(p, hungB)], fallbacks: ["d"] }, d: { deployments: [dep(p, spare)] } },
      retries: 3,
      limits: { requestTimeoutSec: 1.5 },
    });
    const started = Date.now();
    const { envelope } = await ask(w.rt, { capability: "c", prompt: "q" });
    const took = Date.now() - started;
    expect(envelope).toMatchObject({ ok: false, content: null, error: { code: "timeout" } });
    // Without one shared budget this would take a leg's full timeout per leg (≥ 3 s here); the
    // margins are wide because a loaded 2-core machine adds hundreds of ms to any one leg.
    expect(took).toBeLessThan(2700);
    expect(envelope.latency_ms).toBeLessThan(2200);
    // The first leg had nearly all of it: nothing else fit, and the hung deployment is cooled.
    expect(p.received(hungA)).toHaveLength(1);
    const hung = w.rt.config.ask.capabilities.c?.deployments[0];
    if (!hung) throw new Error("no deployment");
    expect(w.rt.store.cooldowns.active().get(deploymentKey(hung))?.cls).toBe("transport");
    // The next request starts with the second deployment.
    await ask(w.rt, { capability: "c", prompt: "q" });
    expect(p.received(hungA)).toHaveLength(1);
    expect(p.received(hungB)).toHaveLength(1);
  });

  test("slow failures, a fallback and a repair all spend from one budget: it is never exceeded", async () => {
    const slow = m("slow429");
    const fallback = m("slowjson");
    p.script(slow, { kind: "status", status: 429, delayMs: 250 });
    p.script(fallback, { kind: "json", value: { wrong: true }, delayMs: 250 });
    const w = world(p, {
      capabilities: { c: { deployments: [dep(p, slow)], fallbacks: ["d"] }, d: { deployments: [dep(p, fallback)] } },
      retries: 0,
      limits: { requestTimeoutSec: 0.7, schemaRepairAttempts: 3 },
    });
    const started = Date.now();
    const { envelope } = await ask(w.rt, { capability: "c", prompt: "q", response_schema: { type: "object", required: ["city"] } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(envelope.ok).toBe(false);
    expect(["timeout", "schema_validation_failed"]).toContain(envelope.error?.code ?? "");
    // 429 (250 ms) + first JSON (250 ms) fit; the repair leg got only what was left.
    expect(p.received(fallback).length).toBeLessThanOrEqual(2);
  });

  test("the client's own call timeout caps the budget", async () => {
    const model = m("hang-ceiling");
    p.script(model, { kind: "hang" });
    const w = world(p, { capabilities: { c: { deployments: [dep(p, model)] } } });
    const started = Date.now();
    const { envelope } = await ask(w.rt, { capability: "c", prompt: "q" }, { ceilingMs: 300 });
    expect(envelope.error?.code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(600);
  });

  test("cancelled by the caller: typed, at once", async () => {
    const model = m("hang-cancel");
    p.script(model, { kind: "hang" });
    const w = world(p, { capabilities: { c: { deployments: [dep(p, model)] } } });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const { envelope } = await ask(w.rt, { capability: "c", prompt: "q" }, { signal: abort.signal });
    expect(envelope.error?.code).toBe("cancelled");
  });
});

describe("ask: error messages", () => {
  test("at most 500 characters, credential shapes scrubbed before the cut", async () => {
    const model = m("verbose");
    const leaked = ["sk", "ant", "api03", "QuotedByTheProviderInItsOwnMessage0123456789"].join("-");
    p.script(model, { kind: "status", status: 500, message: `${"upstream trace ".repeat(20)}token ${leaked} ${"more detail ".repeat(200)}` });
    const w = world(p, { capabilities: { c: { deployments: [dep(p, model)] } }, retries: 0 });
    const { envelope } = await ask(w.rt, { capability: "c", prompt: "q" });
    expect(envelope.error?.code).toBe("upstream_error");
    expect(envelope.error?.message.length).toBeLessThanOrEqual(500);
    expect(envelope.error?.message).not.toContain("QuotedByTheProvider");
  });
});

describe("ask: keys", () => {
  test("read at request time; a named variable that is unset sends nothing and says which one", async () => {
    const model = m("nokey");
    const env: Record<string, string | undefined> = {};
    const w = world(p, { capabilities: { c: { deployments: [dep(p, model)] } } }, env);
    const missing = await ask(w.rt, { capability: "c", prompt: "q" });
    expect(missing.envelope.error).toEqual({ code: "auth_failed", message: expect.stringContaining("OPENAI_KEY is not set in the server's environment") });
    expect(p.received(model)).toHaveLength(0);
    env.OPENAI_KEY = KEYS.openai;
    expect((await ask(w.rt, { capability: "c", prompt: "q" })).envelope.ok).toBe(true);
  });

  test("a provider quoting the key back: scrubbed from the error; never in the store", async () => {
    for (const format of ["openai", "anthropic"] as const) {
      const model = m("echo");
      p.script(model, { kind: "status", status: 401, echoKey: true });
      const w = world(p, { capabilities: { c: { deployments: [dep(p, model, format)] } } });
      const reply = await ask(w.rt, { capability: "c", prompt: "q" });
      const text = JSON.stringify(reply);
      expect(reply.envelope.error?.code).toBe("auth_failed");
      expect(text).not.toContain(KEYS.openai);
      expect(text).not.toContain(KEYS.anthropic);
      expect(text).toContain("REDACTED");
      w.rt.store.close();
      const bytes = [w.dbPath, `${w.dbPath}-wal`]
        .filter(existsSync)
        .map((f) => readFileSync(f, "latin1"))
        .join("");
      expect(bytes).not.toContain(KEYS.openai.slice(8));
      expect(bytes).not.toContain(KEYS.anthropic.slice(8));
    }
  });
});

/**
 * LiteLLM configs as people write them (issue #23 item 5): every documented litellm_params and
 * router_settings key is honoured or refused on its own with a reason, never the whole file; and
 * what is honoured is proven on the loopback fake provider — sampling parameters sent, Azure
 * deployments spoken to, timeouts, max_retries, allowed_fails, rpm, the load-aware strategies and
 * context_window_fallbacks.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adapters } from "../../src/backends/index.ts";
import { validateConfigObject } from "../../src/config/validate.ts";
import { ask } from "../../src/services/ask/index.ts";
import { deploymentKey } from "../../src/services/ask/cooling.ts";
import type { Runtime } from "../../src/services/shared/runtime.ts";
import { openStore } from "../../src/store/db.ts";
import { ENV, KEYS, provider } from "./ask-world.ts";

const p = provider();
let n = 0;
const m = (name: string) => `${name}-${++n}`;

type File = Record<string, unknown>;

function liteWorld(file: File, env: Record<string, string> = { ...ENV, AZURE_KEY: KEYS.openai }): Runtime {
  const v = validateConfigObject(file, { format: "yaml" }, {});
  if (!v.ok) throw new Error(v.errors.join("\n"));
  const store = openStore(join(mkdtempSync(join(tmpdir(), "orch-lite-")), "state", "orchestrate.db"));
  if (!store.ok) throw new Error(store.error.message);
  return { env, config: v.value.config, store: store.value, adapters, roots: [], now: Date.now };
}

const openai = (model: string, params: Record<string, unknown> = {}) => ({
  model: `openai/${model}`,
  api_base: p.openaiBase,
  api_key: "os.environ/OPENAI_KEY",
  ...params,
});

describe("litellm_params: honoured or refused per key", () => {
  test("sampling parameters and max_tokens are sent; the file loads with every documented key, refusals named with their reason", async () => {
    const model = m("sampled");
    const file = {
      capabilities: { coding: "c" },
      model_list: [
        {
          model_name: "coding",
          litellm_params: openai(model, {
            temperature: 0.2,
            top_p: 0.9,
            stop: ["END"],
            seed: 7,
            presence_penalty: 0.5,
            frequency_penalty: -0.5,
            max_tokens: 64,
            vertex_project: "p",
            drop_params: true,
            tools: [],
          }),
        },
      ],
      router_settings: { redis_host: "localhost", enable_pre_call_checks: true },
    };
    const v = validateConfigObject(file, { format: "yaml" }, {});
    if (!v.ok) throw new Error(v.errors.join("\n"));
    expect(v.value.ignored).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^model_list\[0\]\.litellm_params\.vertex_project \(Vertex AI is not spoken/),
        expect.stringMatching(/^model_list\[0\]\.litellm_params\.drop_params \(/),
        expect.stringMatching(/^model_list\[0\]\.litellm_params\.tools \(ask offers the model no tools\)/),
        expect.stringMatching(/^router_settings\.redis_host \(cooldowns and usage are shared through orchestrate's store/),
        expect.stringMatching(/^router_settings\.enable_pre_call_checks \(/),
      ]),
    );
    const rt = liteWorld(file);
    const { envelope } = await ask(rt, { capability: "coding", prompt: "q", max_output_tokens: 1000 });
    expect(envelope.ok).toBe(true);
    const body = p.received(model)[0]?.body ?? {};
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9, stop: ["END"], seed: 7, presence_penalty: 0.5, frequency_penalty: -0.5, max_tokens: 64 });
  });

  test("an unknown key is still a typo with a suggestion; seed on an Anthropic deployment is refused by name", () => {
    const base = { capabilities: { coding: "c" } };
    const typo = validateConfigObject(
      { ...base, model_list: [{ model_name: "coding", litellm_params: { model: "anthropic/x", temperatur: 1 } }] },
      { format: "yaml" },
      {},
    );
    expect(typo.ok ? [] : typo.errors).toEqual([
      expect.stringMatching(/^model_list\[0\]\.litellm_params\.temperatur: unknown key \(did you mean temperature\?/),
    ]);
    const seed = validateConfigObject(
      { ...base, model_list: [{ model_name: "coding", litellm_params: { model: "anthropic/x", seed: 1 } }] },
      { format: "yaml" },
      {},
    );
    expect(seed.ok ? [] : seed.errors).toEqual([expect.stringMatching(/^model_list\[0\]\.litellm_params\.seed: anthropic .*has no seed/)]);
  });

  test("azure/<deployment> with api_version: the deployment in the path, the version in the query, the key in api-key", async () => {
    const deployment = m("gpt4o-prod");
    const rt = liteWorld({
      capabilities: { coding: "c" },
      model_list: [
        { model_name: "coding", litellm_params: { model: `azure/${deployment}`, api_base: p.url, api_version: "2024-10-21", api_key: "os.environ/AZURE_KEY" } },
      ],
    });
    const { envelope } = await ask(rt, { capability: "coding", prompt: "q" });
    expect(envelope).toMatchObject({ ok: true, model_used: `azure/${deployment}` });
    const got = p.received(deployment)[0];
    expect(got).toMatchObject({ path: `/openai/deployments/${deployment}/chat/completions`, apiVersion: "2024-10-21", auth: "ok" });
    expect(got?.body.max_completion_tokens).toBeDefined();
    const missing = validateConfigObject(
      { capabilities: { coding: "c" }, model_list: [{ model_name: "coding", litellm_params: { model: "azure/x", api_base: p.url } }] },
      { format: "yaml" },
      {},
    );
    expect(missing.ok ? [] : missing.errors).toEqual([expect.stringMatching(/^model_list\[0\]\.litellm_params\.api_version: azure\/… needs its api-version/)]);
  });
});

describe("router_settings and per-deployment limits as LiteLLM means them", () => {
  test("allowed_fails: a server error cools the deployment only past its allowance; a rate limit cools at once", async () => {
    const flaky = m("flaky");
    const limited = m("limited");
    p.script(flaky, { kind: "status", status: 500 });
    p.script(limited, { kind: "status", status: 429 });
    const rt = liteWorld({
      capabilities: { a: "a", b: "b" },
      model_list: [
        { model_name: "a", litellm_params: openai(flaky) },
        { model_name: "b", litellm_params: openai(limited) },
      ],
      router_settings: { allowed_fails: 2, num_retries: 0, cooldown_time: 30 },
    });
    const [a] = rt.config.ask.capabilities.a?.deployments ?? [];
    const [b] = rt.config.ask.capabilities.b?.deployments ?? [];
    if (!a || !b) throw new Error("no deployments");
    for (let i = 1; i <= 2; i++) {
      await ask(rt, { capability: "a", prompt: `q${i}` });
      expect(rt.store.cooldowns.active().has(deploymentKey(a))).toBe(false);
    }
    await ask(rt, { capability: "a", prompt: "q3" });
    expect(rt.store.cooldowns.active().has(deploymentKey(a))).toBe(true);
    await ask(rt, { capability: "b", prompt: "q" });
    expect(rt.store.cooldowns.active().has(deploymentKey(b))).toBe(true);
  });

  test("max_retries on a deployment: that many further tries of it, whatever num_retries says", async () => {
    const model = m("retried");
    p.script(model, { kind: "status", status: 503 }, { kind: "status", status: 503 }, { kind: "ok", text: "third time" });
    const rt = liteWorld({
      capabilities: { c: "c" },
      model_list: [{ model_name: "c", litellm_params: openai(model, { max_retries: 2 }) }],
      router_settings: { num_retries: 0, cooldown_time: 0 },
    });
    const { envelope } = await ask(rt, { capability: "c", prompt: "q" });
    expect(envelope).toMatchObject({ ok: true, content: "third time" });
    expect(p.received(model)).toHaveLength(3);
  });

  test("timeout and stream_timeout end a hung or silent leg on their own clock, inside the request budget", async () => {
    const hung = m("hung");
    const silent = m("silent");
    p.script(hung, { kind: "hang" });
    p.script(silent, { kind: "stall", text: "partial" });
    const rt = liteWorld({
      capabilities: { c: "c" },
      model_list: [
        { model_name: "c", litellm_params: openai(hung, { timeout: 0.4 }) },
        { model_name: "c", litellm_params: openai(silent, { stream_timeout: 0.3 }) },
        { model_name: "c", litellm_params: openai(m("steady")) },
      ],
      router_settings: { num_retries: 0, cooldown_time: 0 },
      limits: { request_timeout_s: 20 },
    });
    const started = Date.now();
    const { envelope } = await ask(rt, { capability: "c", prompt: "q" });
    expect(envelope.ok).toBe(true);
    // Both legs ended on their own short limits: far inside the 20 s budget.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("rpm: a deployment at its requests-per-minute in the shared history is skipped before anything is sent", async () => {
    const capped = m("capped");
    const spare = m("spare");
    const rt = liteWorld({
      capabilities: { c: "c" },
      model_list: [
        { model_name: "c", litellm_params: openai(capped, { rpm: 1 }) },
        { model_name: "c", litellm_params: openai(spare) },
      ],
    });
    expect((await ask(rt, { capability: "c", prompt: "one" })).envelope).toMatchObject({ ok: true, model_used: `openai/${capped}` });
    const second = await ask(rt, { capability: "c", prompt: "two" });
    expect(second.envelope).toMatchObject({ ok: true, model_used: `openai/${spare}` });
    expect(p.received(capped)).toHaveLength(1);
  });

  test("latency-based-routing: the deployment with the lower recent latency in the history goes first", async () => {
    const slow = m("slow");
    const quick = m("quick");
    p.script(slow, { kind: "ok", text: "slow", delayMs: 300 });
    const rt = liteWorld({
      capabilities: { c: "c" },
      model_list: [
        { model_name: "c", litellm_params: openai(slow) },
        { model_name: "c", litellm_params: openai(quick) },
      ],
      router_settings: { routing_strategy: "latency-based-routing" },
    });
    expect(rt.config.ask.capabilities.c?.strategy).toBe("latency");
    // No latency known for either: the written order, so slow answers first. Then quick, still
    // unknown, is tried to learn it; from then on the history says it is faster and it stays first.
    for (const prompt of ["first", "second", "third", "fourth"]) await ask(rt, { capability: "c", prompt });
    expect(p.received(slow)).toHaveLength(1);
    expect(p.received(quick)).toHaveLength(3);
  });

  test("context_window_fallbacks: a prompt too long for the model goes to the long-context capability, not the ordinary fallback", async () => {
    const short = m("short-ctx");
    const long = m("long-ctx");
    const other = m("other");
    p.script(short, {
      kind: "status",
      status: 400,
      message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
    });
    const rt = liteWorld({
      capabilities: { coding: "c", long: "l", fast: "f" },
      model_list: [
        { model_name: "coding", litellm_params: openai(short) },
        { model_name: "long", litellm_params: openai(long) },
        { model_name: "fast", litellm_params: openai(other) },
      ],
      router_settings: { fallbacks: [{ coding: ["fast"] }], context_window_fallbacks: [{ coding: ["long"] }] },
    });
    const { envelope } = await ask(rt, { capability: "coding", prompt: "a very long prompt" });
    expect(envelope).toMatchObject({ ok: true, fallback_used: true, model_used: `openai/${long}` });
    expect(p.received(other)).toHaveLength(0);
  });
});

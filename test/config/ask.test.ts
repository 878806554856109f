import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { loadConfig } from "../../src/config/load.ts";
import { validateConfigObject } from "../../src/config/validate.ts";
import { SEED_002_CONFIG_YAML, SEED_002_PATH, SEED_002_TWO_DEPLOYMENTS } from "./ask-fixtures.ts";
import { captureLog, privateDir, SEED_000_CONFIG_JSON, writeConfig } from "./helpers.ts";

const yaml = (text: string): unknown => Bun.YAML.parse(text);
const validate = (raw: unknown, env: Record<string, string> = {}) => validateConfigObject(raw, { format: "yaml" }, env);
const errorsOf = (raw: unknown): string[] => {
  const r = validate(raw);
  return r.ok ? [] : r.errors;
};

describe("seed 002's config.yaml, as written", () => {
  test("the fixture is the seed's Configuration example byte for byte", () => {
    const seed = readFileSync(SEED_002_PATH, "utf8");
    const start = seed.indexOf("capabilities:\n  coding:");
    const end = seed.indexOf("\nKeys are referenced as os.environ/NAME");
    expect(seed.slice(start, end)).toBe(SEED_002_CONFIG_YAML);
  });

  test("loads: capabilities with descriptions, deployments, retries, cooldown and fallbacks", async () => {
    const path = writeConfig(privateDir(), "config.yaml", SEED_002_CONFIG_YAML);
    const result = await loadConfig({ path, env: {} });
    if (!result.ok) throw new Error(result.error.message);
    const { ask, source } = result.value;
    expect(source.legacy).toBe("orchestrator-mcp");
    expect(ask.retries).toBe(2);
    expect(ask.cooldownSec).toBe(60);
    expect(Object.keys(ask.capabilities)).toEqual(["coding", "fast"]);
    expect(ask.capabilities.coding).toMatchObject({
      description: "Writing, refactoring, reviewing, and debugging code.",
      fallbacks: ["fast"],
      strategy: "ordered",
    });
    expect(ask.capabilities.coding?.deployments).toEqual([
      {
        id: "anthropic/claude-sonnet-4-5",
        model: "anthropic/claude-sonnet-4-5",
        apiModel: "claude-sonnet-4-5",
        keyEnv: "ANTHROPIC_API_KEY",
        weight: 1,
        endpoint: { wire: "anthropic", url: "https://api.anthropic.com/v1/messages", provider: "anthropic", tokenField: "max_tokens" },
      },
    ]);
    // Seed 000's capability slots are a different thing and stay empty.
    expect(result.value.capabilitySlots).toEqual({});
  });

  test("several deployments behind one capability keep their order; api_base reaches your own server without a default key", () => {
    const r = validate(yaml(SEED_002_TWO_DEPLOYMENTS));
    if (!r.ok) throw new Error(r.errors.join("\n"));
    const [first, second] = r.value.config.ask.capabilities.coding?.deployments ?? [];
    expect(first?.model).toBe("anthropic/claude-sonnet-4-5");
    expect(second).toMatchObject({
      model: "openai/qwen-coder",
      keyEnv: "LOCAL_VLLM_KEY",
      endpoint: { url: "http://vllm.internal:8000/v1/chat/completions", wire: "openai" },
    });
  });

  test("order, weight, model_info.id, per-token prices, limits and simple-shuffle carry over", () => {
    const r = validate({
      capabilities: { fast: "quick" },
      model_list: [
        { model_name: "fast", litellm_params: { model: "ollama_chat/qwen2.5:7b", api_base: "http://localhost:11434", order: 2 } },
        {
          model_name: "fast",
          model_info: { id: "groq-1" },
          litellm_params: {
            model: "groq/llama-3.1-8b",
            api_key: "os.environ/GROQ_KEY",
            order: 1,
            weight: 3,
            input_cost_per_token: 0.00000005,
            output_cost_per_token: 0.00000008,
          },
        },
      ],
      router_settings: { routing_strategy: "simple-shuffle", cooldown_time: 2.5 },
      limits: { request_timeout_s: 30, max_schema_chars: 1000, schema_repair_attempts: 2, max_output_tokens: 512 },
    });
    if (!r.ok) throw new Error(r.errors.join("\n"));
    const { ask } = r.value.config;
    expect(ask.capabilities.fast?.strategy).toBe("weighted");
    expect(ask.capabilities.fast?.deployments.map((d) => d.id)).toEqual(["groq-1", "ollama_chat/qwen2.5:7b"]);
    expect(ask.capabilities.fast?.deployments[0]).toMatchObject({ weight: 3, keyEnv: "GROQ_KEY" });
    expect(ask.capabilities.fast?.deployments[0]?.pricing?.inputPerMTok).toBeCloseTo(0.05);
    expect(ask.cooldownSec).toBe(3);
    expect(ask.limits).toMatchObject({ requestTimeoutSec: 30, maxSchemaChars: 1000, schemaRepairAttempts: 2, maxOutputTokens: 512, maxPromptChars: 200_000 });
  });

  test("0.2.0's consult: block converts as seed 001's does, beside the capabilities", () => {
    const r = validate({
      ...(yaml(SEED_002_CONFIG_YAML) as object),
      consult: {
        timeout_s: 180,
        agents: { "codex-sol": { runtime: "codex", command: "codex", model: "gpt-5.6-sol", priority: 10, web_search: true, scores: { coding: 95 } } },
      },
    });
    if (!r.ok) throw new Error(r.errors.join("\n"));
    expect(r.value.config.agents["codex-sol"]).toMatchObject({ backend: "codex", model: "gpt-5.6-sol", scores: { coding: 95 } });
    expect(r.value.config.consult.timeoutSec).toBe(180);
    expect(Object.keys(r.value.config.ask.capabilities)).toEqual(["coding", "fast"]);
  });

  test("what seed 002 checks at startup fails here, on the key as written", () => {
    const base = {
      capabilities: { coding: "c", fast: "f" },
      model_list: [
        { model_name: "coding", litellm_params: { model: "anthropic/x" } },
        { model_name: "fast", litellm_params: { model: "anthropic/y" } },
      ],
    };
    expect(errorsOf({ ...base, model_list: [...base.model_list, { model_name: "codng", litellm_params: { model: "anthropic/z" } }] })).toEqual([
      expect.stringMatching(/^model_list\[2\]\.model_name: routes to "codng", which is not a declared capability/),
    ]);
    expect(errorsOf({ ...base, capabilities: { ...base.capabilities, research: "r" } })).toEqual([
      expect.stringMatching(/^capabilities\.research: no model_list entry serves this capability/),
    ]);
    expect(errorsOf({ ...base, router_settings: { fallbacks: [{ coding: ["fsat"] }] } })).toEqual([
      expect.stringMatching(/^router_settings\.fallbacks\[0\]\.coding\[0\]: names "fsat", which is not a capability/),
    ]);
    expect(errorsOf({ ...base, router_settings: { fallbacks: [{ cdoing: ["fast"] }] } })).toEqual([
      expect.stringMatching(/^router_settings\.fallbacks\[0\]\.cdoing: falls back from "cdoing"/),
    ]);
    expect(errorsOf({ ...base, router_settings: { fallbacks: [{ coding: ["coding"] }] } })).toEqual([expect.stringMatching(/coding falls back to itself/)]);
    expect(errorsOf({ ...base, model_list: [{ model_name: "coding", litellm_params: { model: "bedrock/claude-3" } }, base.model_list[1]] })).toEqual([
      expect.stringMatching(/^model_list\[0\]\.litellm_params\.model: "bedrock\/claude-3" names no provider/),
    ]);
    expect(errorsOf({ ...base, limits: { request_timeout_s: 0 } })[0]).toMatch(/^limits\.request_timeout_s: /);
    expect(errorsOf({ ...base, router_settings: { num_retrys: 2 } })[0]).toMatch(/^router_settings\.num_retrys: unknown key \(did you mean num_retries\?/);
  });

  test("an inline key is refused and never repeated in the error", () => {
    const errors = errorsOf({
      capabilities: { coding: "c" },
      model_list: [{ model_name: "coding", litellm_params: { model: "anthropic/x", api_key: "sk-ant-api03-inline-secret-value" } }],
    });
    expect(errors).toEqual([expect.stringMatching(/^model_list\[0\]\.litellm_params\.api_key: holds a value, not a reference/)]);
    expect(errors.join("\n")).not.toContain("inline-secret");
  });

  test("accepted keys without effect are reported, never silently dropped", async () => {
    const path = writeConfig(privateDir(), "config.yaml", `${SEED_002_CONFIG_YAML}dashboard:\n  enabled: true\n`);
    const { value, lines } = await captureLog(() => loadConfig({ path, env: {} }));
    expect(value.ok).toBe(true);
    expect(lines.some((l) => l.includes("dashboard is accepted but has no effect"))).toBe(true);
  });
});

describe("the unified ask: block", () => {
  const block = {
    ask: {
      capabilities: {
        coding: {
          description: "code",
          fallbacks: ["fast"],
          deployments: [
            { model: "anthropic/claude-sonnet-4-5" },
            { model: "openai/qwen", baseUrl: "http://127.0.0.1:8000/v1", apiKeyEnv: "LOCAL_KEY", id: "box" },
          ],
        },
        fast: { deployments: [{ model: "openrouter/meta/llama", weight: 2 }], strategy: "weighted" },
      },
      retries: 1,
      cooldownSec: 30,
      limits: { requestTimeoutSec: 45 },
    },
  };

  test("resolves with defaults filled in, and is what importing a seed 002 file writes", () => {
    const r = validate(block);
    if (!r.ok) throw new Error(r.errors.join("\n"));
    expect(r.value.config.ask.capabilities.coding?.deployments.map((d) => [d.id, d.keyEnv])).toEqual([
      ["anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
      ["box", "LOCAL_KEY"],
    ]);
    expect(r.value.config.ask.capabilities.fast?.deployments[0]?.keyEnv).toBe("OPENROUTER_API_KEY");
    expect(r.value.config.ask.limits.requestTimeoutSec).toBe(45);
    const imported = validate(yaml(SEED_002_CONFIG_YAML));
    if (!imported.ok) throw new Error(imported.errors.join("\n"));
    const again = validate(imported.value.unified);
    expect(again.ok && again.value.config.ask).toEqual(imported.value.config.ask);
    expect(again.ok && again.value.config.source.legacy).toBeUndefined();
  });

  test("a base URL from the environment stays a variable's name: loading reads it, importing writes the name", () => {
    const env = { ANTHROPIC_BASE_URL: "http://127.0.0.1:9998", VLLM_BASE: "http://127.0.0.1:8000/v1" };
    const seed = SEED_002_TWO_DEPLOYMENTS.replace("api_base: http://vllm.internal:8000/v1", "api_base: os.environ/VLLM_BASE");
    const loaded = validate(yaml(seed), env);
    if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
    const urls = Object.values(loaded.value.config.ask.capabilities).flatMap((c) => c.deployments.map((d) => d.endpoint.url));
    expect(urls).toEqual(["http://127.0.0.1:9998/v1/messages", "http://127.0.0.1:8000/v1/chat/completions"]);
    // What an import writes: the names, never the URLs this shell had.
    const written = JSON.stringify(loaded.value.unified);
    expect(written).not.toContain("127.0.0.1");
    expect(written).toContain('"baseUrlEnv":"ANTHROPIC_BASE_URL"');
    expect(written).toContain('"baseUrlEnv":"VLLM_BASE"');
    // The written file, loaded where the variable is unset, goes to the provider's own URL.
    const elsewhere = validate(loaded.value.unified, {});
    if (!elsewhere.ok) throw new Error(elsewhere.errors.join("\n"));
    expect(elsewhere.value.config.ask.capabilities.coding?.deployments[0]?.endpoint.url).toBe("https://api.anthropic.com/v1/messages");
    const both = errorsOf({ ask: { capabilities: { c: { deployments: [{ model: "anthropic/x", baseUrl: "http://h", baseUrlEnv: "H" }] } } } });
    expect(both).toEqual([expect.stringMatching(/^ask\.capabilities\.c\.deployments\[0\]\.baseUrlEnv: is set beside baseUrl/)]);
  });

  test("sits beside seed 000's capability slots without touching them", () => {
    const r = validate({ ...(JSON.parse(SEED_000_CONFIG_JSON) as object), ...block });
    if (!r.ok) throw new Error(r.errors.join("\n"));
    expect(r.value.config.capabilitySlots).toEqual({ vision: ["vision"] });
    expect(Object.keys(r.value.config.ask.capabilities)).toEqual(["coding", "fast"]);
  });

  test("errors name the unified keys; a pasted key is not repeated", () => {
    const bad = (patch: object) => errorsOf({ ask: { capabilities: { coding: { deployments: [{ model: "anthropic/x", ...patch }] } } } });
    expect(bad({ apiKeyEnv: "sk-ant-api03-pasted-secret" })).toEqual([
      expect.stringMatching(/^ask\.capabilities\.coding\.deployments\[0\]\.apiKeyEnv: is not an environment variable name/),
    ]);
    expect(bad({ apiKeyEnv: "sk-ant-api03-pasted-secret" }).join()).not.toContain("pasted-secret");
    expect(bad({ baseUrl: "http://u:p4ss@host/v1" })).toEqual([
      expect.stringMatching(/^ask\.capabilities\.coding\.deployments\[0\]\.baseUrl: the base URL is not a plain/),
    ]);
    expect(bad({ baseUrl: "http://u:p4ss@host/v1" }).join()).not.toContain("p4ss");
    expect(errorsOf({ ask: { capabilities: { coding: { deployments: [] } } } })).toEqual([
      expect.stringMatching(/^ask\.capabilities\.coding\.deployments: no deployment serves this capability/),
    ]);
    expect(errorsOf({ ask: { capabilities: { coding: { deployments: [{ model: "anthropic/x", modle: "y" }] } } } })[0]).toMatch(
      /^ask\.capabilities\.coding\.deployments\[0\]\.modle: unknown key \(did you mean model\?/,
    );
    expect(errorsOf({ ask: { capabilities: { coding: { fallbacks: ["nope"], deployments: [{ model: "anthropic/x" }] } } } })).toEqual([
      expect.stringMatching(/^ask\.capabilities\.coding\.fallbacks\[0\]: names "nope"/),
    ]);
    expect(errorsOf({ ask: { limits: { requestTimeoutSec: 7200 } } })[0]).toMatch(/^ask\.limits\.requestTimeoutSec: /);
  });
});

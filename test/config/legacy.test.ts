import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { validateConfigObject } from "../../src/config/validate.ts";
import { captureLog, privateDir, SEED_000_CONFIG_JSON, SEED_001_CONFIG_YAML, writeConfig } from "./helpers.ts";

/** The seed, copied into the repo (test/fixtures/seeds): tests read nothing outside it. */
const SEED_000_PATH = join(import.meta.dir, "..", "fixtures", "seeds", "000_ec716359244bc314.txt");

describe("mcp-router config.json (seed 000), read unchanged", () => {
  const seedExample = () => {
    const seed = readFileSync(SEED_000_PATH, "utf8");
    return seed.slice(seed.indexOf('{\n  "tiers"'), seed.indexOf("// All ids are placeholders"));
  };

  test("the helper's copy is the seed's example byte for byte, its placeholders filled in", () => {
    const filled = seedExample()
      .replace('"<provider>/<model>"', '"deepseek/deepseek-v4"')
      .replace('"<provider>/<vision-model>"', '"deepseek/deepseek-v4-vision"');
    expect(filled).toBe(SEED_000_CONFIG_JSON);
  });

  test("the seed's example with its placeholders is refused on each", async () => {
    const result = await loadConfig({ path: writeConfig(privateDir(), "config.json", seedExample()), env: {} });
    if (result.ok) throw new Error("placeholders validated");
    expect(result.error.message).toContain('tiers.standard.model: "<provider>/<model>" still holds the placeholder <provider>');
    expect(result.error.message).toContain('capabilities.vision.model: "<provider>/<vision-model>" still holds the placeholder <provider>');
  });

  test("loads and resolves tiers, slots and fallbacks", async () => {
    const path = writeConfig(privateDir(), "config.json", SEED_000_CONFIG_JSON);
    const result = await loadConfig({ path, env: {} });
    if (!result.ok) throw new Error(result.error.message);
    const config = result.value;
    expect(config.source).toEqual({ path, format: "json", legacy: "mcp-router" });
    expect(config.tiers).toEqual({ light: null, standard: ["standard"], heavy: ["heavy"] });
    expect(config.capabilitySlots).toEqual({ vision: ["vision"] });
    expect(config.fallbacks).toEqual({ light: "standard", heavy: "standard" });
    expect(config.allowCrossProviderFallback).toBe(false);
    expect(config.agents.standard).toMatchObject({ backend: "opencode", model: "deepseek/deepseek-v4", provider: "deepseek", aggregator: false });
    expect(config.agents.heavy).toMatchObject({
      backend: "claude",
      model: "opus",
      provider: "anthropic",
      options: { permissionMode: "acceptEdits" },
      advisory: false,
    });
    expect(config.agents.vision).toMatchObject({ backend: "opencode", capabilities: ["vision"] });
  });

  test("list-valued tiers (mcp-router also took arrays) resolve in order", () => {
    const raw = {
      tiers: {
        heavy: [
          { backend: "codex", advisory: true },
          { backend: "grok", model: "g" },
        ],
      },
    };
    const result = validateConfigObject(raw, { format: "json" }, {});
    expect(result.ok && result.value.config.tiers.heavy).toEqual(["heavy", "heavy.2"]);
    expect(result.ok && result.value.config.source.legacy).toBe("mcp-router");
  });

  test("a JSON file with orchestrate-only keys is not labelled legacy", () => {
    const result = validateConfigObject({ tiers: {}, maxDepth: 1 }, { format: "json" }, {});
    expect(result.ok && result.value.config.source.legacy).toBeUndefined();
  });
});

describe("Orchestrator config.yaml (seed 001)", () => {
  test("the README example loads: runtime → backend, priority, scores, command, timeout, database path", async () => {
    const home = privateDir();
    const path = writeConfig(privateDir(), "config.yaml", SEED_001_CONFIG_YAML);
    const result = await loadConfig({ path, env: { HOME: home } });
    if (!result.ok) throw new Error(result.error.message);
    const config = result.value;
    expect(config.source).toEqual({ path, format: "yaml", legacy: "orchestrator" });
    expect(config.agents.codex).toMatchObject({
      backend: "codex",
      command: "codex",
      model: "gpt-5.6-sol",
      provider: "openai",
      priority: 10,
      capabilities: ["web_search"],
      scores: { coding: 95, research: 90, reasoning: 95, review: 90 },
    });
    expect(config.agents.claude).toMatchObject({ backend: "claude", model: "claude-opus-4-6", provider: "anthropic" });
    expect(config.consult.timeoutSec).toBe(180);
    expect(config.consult.webTurnLimit).toBeUndefined();
    expect(config.store).toEqual({ path: `${home}/.orchestrator-mcp/consultations.sqlite3`, fullContent: true });
    expect(config.tiers).toEqual({ light: null, standard: null, heavy: null });
  });

  test("host, store_full_content and an opencode agent", () => {
    const yaml = `consult:
  store_full_content: false
  host: { runtime: claude, model: claude-opus-5 }
  agents:
    deepseek-flash:
      runtime: opencode
      command: opencode
      model: opencode/deepseek-v4-flash-free
      scores: { coding: 60, reasoning: 60 }
`;
    const result = validateConfigObject(Bun.YAML.parse(yaml), { format: "yaml" }, {});
    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.value.config.host).toEqual({ runtime: "claude", model: "claude-opus-5" });
    expect(result.value.config.store.fullContent).toBe(false);
    expect(result.value.config.agents["deepseek-flash"]).toMatchObject({ provider: "opencode", priority: 100 });
  });

  test("web_turn_limit bounds web mode (consult.webTurnLimit); web_search: true is the agent's web trust", () => {
    const raw = { consult: { web_turn_limit: 3, agents: { cx: { runtime: "codex", model: "gpt-5.5", web_search: true, scores: { research: 90 } } } } };
    const result = validateConfigObject(raw, { format: "yaml" }, {});
    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.value.config.consult.webTurnLimit).toBe(3);
    expect(result.value.config.agents.cx?.capabilities).toEqual(["web_search"]);
    const bad = validateConfigObject({ consult: { web_turn_limit: 0 } }, { format: "yaml" }, {});
    expect(bad.ok ? [] : bad.errors.join("\n")).toContain("consult.web_turn_limit");
  });

  test("host.model without a runtime takes ORCHESTRATOR_HOST_RUNTIME, else is an error", () => {
    const raw = { consult: { host: { model: "claude-opus-5" } } };
    const withEnv = validateConfigObject(raw, { format: "yaml" }, { ORCHESTRATOR_HOST_RUNTIME: "claude" });
    expect(withEnv.ok && withEnv.value.config.host).toEqual({ runtime: "claude", model: "claude-opus-5" });
    const without = validateConfigObject(raw, { format: "yaml" }, {});
    expect(without.ok ? [] : without.errors).toEqual([
      "consult.host.runtime: missing: host.model needs the host's runtime (add runtime: claude, or whichever client runs orchestrate)",
    ]);
  });

  test("errors name the keys as written in the Orchestrator file", () => {
    const yaml = `consult:
  timeout_s: 5
  agents:
    a: { runtime: codex, model: m, webSearch: true }
`;
    const first = validateConfigObject(Bun.YAML.parse(yaml), { format: "yaml" }, {});
    expect(first.ok ? [] : first.errors).toEqual([
      "consult.agents.a.webSearch: unknown key (did you mean web_search? known keys: runtime, command, model, reasoning_effort, priority, enabled, web_search, execution_modes, scores)",
      "consult.timeout_s: must be at least 10 (was 5) (use a value that is at least 10)",
    ]);
    const semantic = validateConfigObject(
      Bun.YAML.parse("consult:\n  agents:\n    ag: { runtime: antigravity, model: x }\n    oc: { runtime: opencode, model: nopfx }\n"),
      { format: "yaml" },
      {},
    );
    expect(semantic.ok ? [] : semantic.errors).toEqual([
      'consult.agents.oc.model: opencode models are written <provider>/<model>, was "nopfx" (prefix the model with its provider, as `opencode models` lists it)',
    ]);
  });

  test("an experimental antigravity agent is the agy backend (Google's Antigravity CLI), its keys carried over", async () => {
    const yaml = `${SEED_001_CONFIG_YAML}
    antigravity:
      runtime: antigravity
      command: /home/me/.local/bin/agy
      model: gemini-3.1-pro-high
      priority: 20
      reasoning_effort: high
      scores: { coding: 80, research: 85 }
`;
    const path = writeConfig(privateDir(), "config.yaml", yaml);
    const { value, lines } = await captureLog(() => loadConfig({ path, env: {} }));
    if (!value.ok) throw new Error(value.error.message);
    expect(value.value.agents.antigravity).toMatchObject({
      backend: "agy",
      command: "/home/me/.local/bin/agy",
      model: "gemini-3.1-pro-high",
      provider: "google",
      priority: 20,
      scores: { coding: 80, research: 85 },
    });
    expect(lines).toEqual([`warn: ${path}: consult.agents.antigravity.reasoning_effort is accepted but has no effect in orchestrate`]);
    // The converted file names the backend orchestrate knows, so it validates as a unified file too.
    const again = validateConfigObject(Bun.YAML.parse(yaml), { format: "yaml" }, {});
    expect(again.ok && again.value.unified.agents?.antigravity?.backend).toBe("agy");
  });

  test("workflow/dashboard and per-agent extras are accepted and reported as ignored; review is read", async () => {
    const yaml = `${SEED_001_CONFIG_YAML}  review:\n    reviewers: [codex]\n  dashboard: { enabled: false }\n`.replace(
      "      priority: 10\n",
      "      priority: 10\n      reasoning_effort: high\n",
    );
    const path = writeConfig(privateDir(), "config.yaml", yaml);
    const { value, lines } = await captureLog(() => loadConfig({ path, env: {} }));
    expect(value.ok && value.value.consult.review).toEqual({ reviewers: ["codex"], deepReviewers: [] });
    expect(lines).toEqual([
      `warn: ${path}: consult.dashboard.enabled is accepted but has no effect in orchestrate`,
      `warn: ${path}: consult.agents.codex.reasoning_effort is accepted but has no effect in orchestrate`,
    ]);
  });

  test("the unified shape of a converted file is a valid unified config itself", () => {
    const first = validateConfigObject(Bun.YAML.parse(SEED_001_CONFIG_YAML), { format: "yaml" }, { HOME: "/h" });
    if (!first.ok) throw new Error(first.errors.join("\n"));
    const again = validateConfigObject(first.value.unified, { format: "yaml" }, { HOME: "/h" });
    if (!again.ok) throw new Error(again.errors.join("\n"));
    expect({ ...again.value.config, source: {} }).toEqual({ ...first.value.config, source: {} });
  });
});

describe("Orchestrator MCP's browser-managed agents (its agents.yaml)", () => {
  const SEED = "consult:\n  agents:\n    codex: { runtime: codex, model: gpt-5.5, scores: { coding: 95 } }\n";
  const MANAGED =
    "# Generated by the orchestrator-mcp dashboard.\nagents:\n  claude-web:\n    runtime: claude\n    model: claude-opus-4-6\n    web_search: true\n    scores: { research: 95 }\n";

  test("~/.orchestrator-mcp/agents.yaml is read as agents, in the seed's agent shape", async () => {
    const home = privateDir();
    writeConfig(join(home, ".orchestrator-mcp"), "agents.yaml", MANAGED);
    const path = writeConfig(privateDir(), "config.yaml", SEED);
    const result = await loadConfig({ path, env: { HOME: home } });
    if (!result.ok) throw new Error(result.error.message);
    expect(Object.keys(result.value.agents).sort()).toEqual(["claude-web", "codex"]);
    expect(result.value.agents["claude-web"]).toMatchObject({ backend: "claude", capabilities: ["web_search"], scores: { research: 95 } });
  });

  test("managed_agents_path names another file; an id in both files refuses the load", async () => {
    const home = privateDir();
    const elsewhere = privateDir();
    writeConfig(elsewhere, "mine.yaml", MANAGED.replace("claude-web", "codex"));
    const path = writeConfig(
      privateDir(),
      "config.yaml",
      `consult:\n  managed_agents_path: ${join(elsewhere, "mine.yaml")}\n  agents:\n    codex: { runtime: codex, model: gpt-5.5, scores: { coding: 95 } }\n`,
    );
    const result = await loadConfig({ path, env: { HOME: home } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain("agents.codex: is also defined in consult.agents of the main config");
  });
});

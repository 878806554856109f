import { describe, expect, test } from "bun:test";
import { validateConfigObject } from "../../src/config/validate.ts";
import type { Config } from "../../src/config/types.ts";

const ENV = { HOME: "/home/u" };

function errorsOf(yaml: string): string[] {
  const result = validateConfigObject(Bun.YAML.parse(yaml), { format: "yaml" }, ENV);
  if (result.ok) throw new Error("expected errors, the config was accepted");
  return result.errors;
}

function configOf(yaml: string, format: "yaml" | "json" = "yaml"): Config {
  const raw = format === "json" ? JSON.parse(yaml) : Bun.YAML.parse(yaml);
  const result = validateConfigObject(raw, { format }, ENV);
  if (!result.ok) throw new Error(result.errors.join("\n"));
  return result.value.config;
}

describe("closed objects: unknown keys are errors, one line each", () => {
  test("top level, with a did-you-mean", () => {
    expect(errorsOf("allowCrossProviderFalback: true\n")).toEqual([
      "allowCrossProviderFalback: unknown key (did you mean allowCrossProviderFallback? known keys: $schema, agents, tiers, capabilities, fallbacks, allowCrossProviderFallback, roots, maxDepth, host, consult, store, store_full_content, cooldowns, syncBudgetSec, defaults, ask, dashboard, prices)",
    ]);
  });

  test("inside an agent and its limits", () => {
    expect(errorsOf("agents:\n  a: { backend: codex, model: m, permission_mode: x, limits: { maxturns: 3 } }\n")).toEqual([
      "agents.a.limits.maxturns: unknown key (did you mean maxTurns? known keys: maxWallSec, maxTurns, maxTokens, maxCostUsd, stallSec)",
      "agents.a.permission_mode: unknown key (did you mean permissionMode? known keys: backend, model, provider, command, transport, modes, permissions, advisory, sandbox, permissionMode, allowedTools, capabilities, scores, priority, enabled, env, limits, executionModes)",
    ]);
  });

  test("inside an inline tier entry, at its own path", () => {
    expect(errorsOf("tiers:\n  heavy: [{ backend: claude, model: opus, sandbox2: x }]\n")).toEqual([
      "tiers.heavy[0].sandbox2: unknown key (did you mean sandbox? known keys: backend, model, provider, command, transport, modes, permissions, advisory, sandbox, permissionMode, allowedTools, capabilities, scores, priority, enabled, env, limits, executionModes)",
    ]);
  });

  test("an unknown tier name", () => {
    expect(errorsOf("tiers:\n  medium: null\n")).toEqual(["tiers.medium: unknown key (remove it; known keys: light, standard, heavy)"]);
  });

  test("an Orchestrator key pasted into a unified file says where it moved", () => {
    expect(errorsOf("tiers: {}\nconsult:\n  timeout_s: 100\n")).toEqual(["consult.timeout_s: unknown key (write consult.timeoutSec)"]);
  });
});

describe("types and ranges", () => {
  test("each bad value is its own line", () => {
    expect(
      errorsOf("agents:\n  a: { backend: codx, model: '' }\nmaxDepth: 9\nallowCrossProviderFallback: 'yes'\ndefaults: { timeoutSec: 10 }\nroots: ~/x\n"),
    ).toEqual([
      'agents.a.backend: must be "acp", "agy", "claude", "codex", "copilot", "gemini", "grok", "opencode" or "pi" (was "codx") (use one of the values listed)',
      "agents.a.model: must be non-empty (write a non-empty value or remove the key)",
      'allowCrossProviderFallback: must be boolean (was "yes") (write true or false)',
      "defaults.timeoutSec: must be at least 30 (was 10) (use a value that is at least 30)",
      "maxDepth: must be at most 8 (was 9) (use a value that is at most 8)",
      "roots: must be an array (was string) (write an array here)",
    ]);
  });

  test("a missing backend", () => {
    expect(errorsOf("agents:\n  a: { model: m }\n")).toEqual([
      'agents.a.backend: missing (add backend: "acp", "agy", "claude", "codex", "copilot", "gemini", "grok", "opencode" or "pi")',
    ]);
  });

  test("scores are 0–100 and priority an integer", () => {
    expect(errorsOf("agents:\n  a: { backend: codex, model: m, scores: { coding: 101 }, priority: 1.5 }\n")).toEqual([
      "agents.a.priority: must be an integer (was 1.5) (use a value that is an integer)",
      "agents.a.scores.coding: must be at most 100 (was 101) (use a value that is at most 100)",
    ]);
  });

  test("allowedTools holds at most 32 entries", () => {
    const tools = JSON.stringify(Array.from({ length: 33 }, (_, i) => `T${i}`));
    expect(errorsOf(`agents:\n  a: { backend: claude, model: m, allowedTools: ${tools} }\n`)).toEqual([
      "agents.a.allowedTools: must be at most length 32 (was 33) (keep at most 32 items)",
    ]);
  });
});

describe("backend-only options", () => {
  test("sandbox is codex-only", () => {
    expect(errorsOf("agents:\n  a: { backend: claude, model: opus, sandbox: read-only }\n")).toEqual([
      "agents.a.sandbox: sandbox is codex-only, this entry's backend is claude (remove sandbox; claude has permissionMode; other backends have no such switch)",
    ]);
  });

  test("permissionMode and allowedTools are claude-only", () => {
    expect(errorsOf("agents:\n  a: { backend: opencode, model: p/m, permissionMode: bypassPermissions, allowedTools: [Read] }\n")).toEqual([
      "agents.a.permissionMode: permissionMode is claude-only, this entry's backend is opencode (remove permissionMode; codex has sandbox; other backends have no such switch)",
      "agents.a.allowedTools: allowedTools is claude-only, this entry's backend is opencode (remove allowedTools; only claude takes a tool allowlist)",
    ]);
  });

  test("each is accepted on its own backend", () => {
    const config = configOf(
      "agents:\n  c: { backend: codex, model: m, sandbox: read-only }\n  k: { backend: claude, model: opus, permissionMode: bypassPermissions, allowedTools: [WebFetch] }\n",
    );
    expect(config.agents.c?.options.sandbox).toBe("read-only");
    expect(config.agents.k?.options).toEqual({ permissionMode: "bypassPermissions", allowedTools: ["WebFetch"] });
  });

  test("advisory is codex/claude only and needs no model", () => {
    expect(errorsOf("agents:\n  g: { backend: grok, advisory: true }\n")).toEqual([
      "agents.g.advisory: advisory is only for codex and claude, this entry's backend is grok (remove advisory)",
    ]);
    const config = configOf("tiers:\n  heavy: { backend: claude, advisory: true }\n");
    expect(config.agents.heavy).toMatchObject({ advisory: true, provider: "anthropic" });
    expect(config.agents.heavy?.model).toBeUndefined();
  });
});

describe("models and providers", () => {
  test("a non-advisory entry without a model is an error: a model is never invented", () => {
    expect(errorsOf("agents:\n  a: { backend: gemini }\n  b: { backend: opencode }\n")).toEqual([
      "agents.a.model: missing: orchestrate never picks a model for you (add model: <model>, as your gemini CLI names it)",
      "agents.b.model: missing: orchestrate never picks a model for you (add model: <provider>/<model>, as your opencode CLI names it)",
    ]);
  });

  test("opencode models need a <provider>/ prefix", () => {
    expect(errorsOf("agents:\n  a: { backend: opencode, model: glm-5 }\n")).toEqual([
      'agents.a.model: opencode models are written <provider>/<model>, was "glm-5" (prefix the model with its provider, as `opencode models` lists it)',
    ]);
  });

  test("providers are derived for every backend", () => {
    const config = configOf(`agents:
  a: { backend: codex, model: m }
  b: { backend: claude, model: m }
  c: { backend: grok, model: m }
  d: { backend: gemini, model: m }
  e: { backend: copilot, model: m }
  f: { backend: opencode, model: deepseek/deepseek-chat }
  g: { backend: opencode, model: openrouter/anthropic/claude-x }
  h: { backend: opencode, model: github-copilot/gpt-x }
`);
    const got = Object.fromEntries(Object.values(config.agents).map((a) => [a.id, [a.provider, a.aggregator]]));
    expect(got).toEqual({
      a: ["openai", false],
      b: ["anthropic", false],
      c: ["xai", false],
      d: ["google", false],
      e: ["github", false],
      f: ["deepseek", false],
      g: ["openrouter", true],
      h: ["github-copilot", true],
    });
  });

  test("a declared provider that agrees is fine; one that disagrees is an error", () => {
    expect(configOf("agents:\n  a: { backend: grok, model: m, provider: xai }\n").agents.a?.provider).toBe("xai");
    expect(errorsOf("agents:\n  a: { backend: grok, model: m, provider: openai }\n  b: { backend: opencode, model: groq/x, provider: openai }\n")).toEqual([
      'agents.a.provider: declared "openai" but backend grok always uses "xai" (remove provider, it is derived; or set it to "xai")',
      'agents.b.provider: declared "openai" but the model prefix says "groq" (remove provider, it is derived; or set it to "groq")',
    ]);
  });
});

describe("tiers, slots and fallbacks", () => {
  test("ids: named references, inline 'heavy', 'heavy.2'", () => {
    const config = configOf(
      "agents:\n  a: { backend: codex, model: m }\ntiers:\n  light: a\n  heavy: [{ backend: claude, model: opus }, a, { backend: grok, model: g }]\n",
    );
    expect(config.tiers).toEqual({ light: ["a"], standard: null, heavy: ["heavy", "a", "heavy.3"] });
    expect(config.agents["heavy.3"]?.backend).toBe("grok");
  });

  test("unknown references, repeats, bad items and an empty list", () => {
    expect(errorsOf("agents:\n  a: { backend: codex, model: m }\ntiers:\n  light: [a, nobody, a, 7]\n  standard: []\n")).toEqual([
      'tiers.light[1]: refers to an unknown agent "nobody" (define it under agents:, or use one of: a)',
      'tiers.light[2]: "a" is listed twice (remove the repeat)',
      "tiers.light[3]: must be an agent id or an agent object (was number) (write an id defined under agents:, or {backend: …, model: …})",
      "tiers.standard: empty list (write null to leave it unconfigured, or add entries)",
    ]);
  });

  test("more than 8 entries", () => {
    const list = JSON.stringify(Array.from({ length: 9 }, () => "a"));
    expect(errorsOf(`agents:\n  a: { backend: codex, model: m }\ntiers:\n  heavy: ${list}\n`)).toEqual([
      "tiers.heavy: 9 entries, at most 8 allowed (remove 1 of them)",
    ]);
  });

  test("an inline id colliding with a named agent", () => {
    expect(errorsOf("agents:\n  heavy: { backend: codex, model: m }\ntiers:\n  heavy: { backend: claude, model: opus }\n")).toEqual([
      'tiers.heavy: inline entry gets the id "heavy", already used by agents.heavy (rename agents.heavy, or name this agent under agents: and reference it by id)',
    ]);
  });

  test("slots give their entries the capability", () => {
    const config = configOf("agents:\n  a: { backend: codex, model: m }\ncapabilities:\n  vision: [a, { backend: gemini, model: g }]\n");
    expect(config.capabilitySlots).toEqual({ vision: ["a", "vision.2"] });
    expect(config.agents.a?.capabilities).toEqual(["vision"]);
    expect(config.agents["vision.2"]?.capabilities).toEqual(["vision"]);
  });

  test("fallback to itself, cycles, and unknown tiers", () => {
    expect(errorsOf("fallbacks: { heavy: heavy }\n")).toEqual(["fallbacks.heavy: heavy falls back to itself (remove fallbacks.heavy)"]);
    expect(errorsOf("fallbacks: { light: standard, standard: heavy, heavy: light }\n")).toEqual([
      "fallbacks.light: fallback cycle light → standard → heavy → light (remove one of these fallbacks)",
    ]);
    expect(errorsOf("fallbacks: { light: medium }\n")).toEqual([
      'fallbacks.light: must be "heavy", "light" or "standard" (was "medium") (use one of the values listed)',
    ]);
  });

  test("a chain without a cycle is fine", () => {
    expect(configOf("fallbacks: { light: standard, standard: heavy }\n").fallbacks).toEqual({ light: "standard", standard: "heavy" });
  });
});

describe("the rest of the file", () => {
  test("roots expand ~, must be absolute and never /", () => {
    expect(configOf("roots: [~/src, /srv/code/]\n").roots).toEqual(["/home/u/src", "/srv/code"]);
    expect(errorsOf("roots: [src, /]\n")).toEqual([
      'roots[0]: "src" is not an absolute path (write an absolute path or one starting with ~/)',
      "roots[1]: / is never accepted as a root (name the directories that hold your projects)",
    ]);
  });

  test("store_full_content is accepted as an alias; a contradiction is an error", () => {
    expect(configOf("store_full_content: false\n").store).toEqual({ fullContent: false });
    expect(configOf("store: { path: ~/db.sqlite, fullContent: false }\n").store).toEqual({ path: "/home/u/db.sqlite", fullContent: false });
    expect(errorsOf("store: { fullContent: true }\nstore_full_content: false\n")).toEqual([
      "store_full_content: disagrees with store.fullContent (keep only store.fullContent)",
    ]);
  });

  test("agent env may not touch orchestrate's own variables", () => {
    expect(errorsOf("agents:\n  a: { backend: codex, model: m, env: { ORCHESTRATE_DEPTH: '0', '9X': y } }\n")).toEqual([
      "agents.a.env.ORCHESTRATE_DEPTH: orchestrate's own variables cannot be set per agent (the recursion guard depends on them) (remove it)",
      "agents.a.env.9X: not a valid environment variable name (use letters, digits and _ only, not starting with a digit)",
    ]);
  });

  test("defaults fill everything a file leaves out; set values are kept", () => {
    const config = configOf(
      "maxDepth: 2\nhost: { runtime: codex, model: gpt-5.5 }\nconsult: { timeoutSec: 60 }\ncooldowns: { authSec: 5 }\nsyncBudgetSec: 40\ndefaults: { stallSec: 30 }\nallowCrossProviderFallback: true\n",
    );
    expect(config).toMatchObject({
      maxDepth: 2,
      host: { runtime: "codex", model: "gpt-5.5" },
      consult: { timeoutSec: 60 },
      cooldowns: { authSec: 5, capacitySec: 600, transportSec: 300, notInstalledSec: 300 },
      syncBudgetSec: 40,
      defaults: { timeoutSec: 900, stallSec: 30 },
      allowCrossProviderFallback: true,
    });
    expect(configOf("{}")).toMatchObject({ maxDepth: 1, allowCrossProviderFallback: false, consult: { timeoutSec: 180 }, store: { fullContent: true } });
  });

  test("a named agent gets every resolved field", () => {
    expect(configOf("agents:\n  a: { backend: codex, model: m, command: /opt/codex, limits: { maxWallSec: 60 } }\n").agents.a).toEqual({
      id: "a",
      backend: "codex",
      model: "m",
      provider: "openai",
      aggregator: false,
      command: "/opt/codex",
      advisory: false,
      capabilities: [],
      scores: {},
      priority: 100,
      enabled: true,
      env: {},
      limits: { maxWallSec: 60 },
      options: {},
    });
  });
});

describe("host identity (seed 001)", () => {
  test("an unversioned host.model is refused at load, with the fix", () => {
    expect(errorsOf("host: { runtime: claude, model: opus }\n")).toEqual([
      "host.model: \"opus\" has no version, so no other model can be proven to differ from it (write the host's versioned model id, e.g. claude-opus-5 or gpt-5.5 — or remove host.model to exclude every agent on the host's runtime)",
    ]);
    expect(configOf("host: { runtime: claude, model: claude-opus-5 }\n").host).toEqual({ runtime: "claude", model: "claude-opus-5" });
  });
});

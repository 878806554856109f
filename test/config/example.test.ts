import { expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { KNOWN_KEYS } from "../../src/config/schema.ts";
import { privateDir, writeConfig } from "./helpers.ts";

const EXAMPLE = join(import.meta.dir, "../../config.example.yaml");

test("config.example.yaml copied verbatim is refused on each placeholder, saying what goes there", async () => {
  const path = writeConfig(privateDir(), "config.yaml", await Bun.file(EXAMPLE).text());
  const result = await loadConfig({ path, env: { HOME: "/home/u" } });
  if (result.ok) throw new Error("the example's placeholders validated");
  expect(result.error.message).toContain(
    'agents.coder-a.model: "<codex-model>" still holds the placeholder <codex-model> from config.example.yaml (replace it with a model id your codex CLI accepts',
  );
  expect(result.error.message).toContain('agents.helper-c.model: "<provider>/<model>" still holds the placeholder <provider>');
});

test("config.example.yaml with its placeholders filled in is a valid config and shows every tier form", async () => {
  const filled = (await Bun.file(EXAMPLE).text()).replace(/<([A-Za-z][\w.-]*)>/g, "$1");
  const path = writeConfig(privateDir(), "config.yaml", filled);
  const result = await loadConfig({ path, env: { HOME: "/home/u" } });
  if (!result.ok) throw new Error(result.error.message);
  expect(result.value.tiers).toEqual({ light: null, standard: ["helper-c", "coder-a"], heavy: ["reviewer-b", "heavy.2"] });
  expect(result.value.agents["advisor-d"]?.advisory).toBe(true);
});

test("config.example.yaml mentions every option of the unified format", async () => {
  const text = await Bun.file(EXAMPLE).text();
  const keys = new Set<string>([
    ...KNOWN_KEYS.unified,
    ...KNOWN_KEYS.agent,
    ...KNOWN_KEYS.limits,
    ...KNOWN_KEYS.store,
    ...KNOWN_KEYS.cooldowns,
    ...KNOWN_KEYS.defaults,
    ...KNOWN_KEYS.host,
    ...KNOWN_KEYS.consult,
    ...KNOWN_KEYS.ask,
    ...KNOWN_KEYS.askCapability,
    ...KNOWN_KEYS.askDeployment,
    ...KNOWN_KEYS.askLimits,
  ]);
  keys.delete("$schema");
  keys.delete("store_full_content");
  const missing = [...keys].filter((k) => !new RegExp(`\\b${k}\\b`).test(text));
  expect(missing).toEqual([]);
});

test("every risky setting in config.example.yaml carries a WARNING next to it", async () => {
  const lines = (await Bun.file(EXAMPLE).text()).split("\n");
  const warned = (i: number) => lines.slice(Math.max(0, i - 3), i + 2).some((l) => l.includes("WARNING"));
  const risky = [
    "danger-full-access",
    "bypassPermissions",
    "Bash(",
    "allowCrossProviderFallback:",
    "openrouter/",
    "maxDepth:",
    "fullContent:",
    "cooldowns:",
    "roots:",
    "env: {}",
  ];
  const unwarned = risky.filter((marker) => !lines.some((l, i) => l.includes(marker) && warned(i)));
  expect(unwarned).toEqual([]);
});

test("the unified JSON Schema (for editors) is closed like the arktype scope", async () => {
  const { unifiedJsonSchema } = await import("../../src/config/schema.ts");
  const schema = unifiedJsonSchema() as { additionalProperties: boolean; properties: Record<string, unknown> };
  expect(schema.additionalProperties).toBe(false);
  expect(Object.keys(schema.properties).sort()).toEqual([...KNOWN_KEYS.unified].sort());
});

test("the commented-out review and workflow blocks of config.example.yaml load as shown once uncommented (issue 23 §8)", async () => {
  const filled = (await Bun.file(EXAMPLE).text()).replace(/<([A-Za-z][\w.-]*)>/g, "$1");
  const lines = filled.split("\n");
  const start = lines.findIndex((l) => l === "  # review:");
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("  #"));
  expect(start).toBeGreaterThan(0);
  // Uncomment the option lines (`  # key:` / `  #   …`), not the prose between them.
  const uncommented = lines.map((l, i) => (i >= start && i < end && /^  # ( {2,}\S|(review|workflow):$)/.test(l) ? l.replace(/^  # /, "  ") : l));
  const path = writeConfig(privateDir(), "config.yaml", uncommented.join("\n"));
  const result = await loadConfig({ path, env: { HOME: "/home/u" } });
  if (!result.ok) throw new Error(result.error.message);
  expect(result.value.consult.review).toMatchObject({ reviewers: ["reviewer-b"] });
  expect(result.value.consult.workflow).toBeDefined();
});

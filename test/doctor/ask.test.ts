/**
 * `orchestrate check` lists the ask capabilities: each deployment's model, base-URL host, whether
 * the key variable it names is set (never the value, never the URL's path or query), and the
 * cooldowns the servers armed in the shared store; an unset key variable is a problem with a hint.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { validateConfigObject } from "../../src/config/validate.ts";
import { deploymentKey } from "../../src/services/ask/cooling.ts";
import { openStore } from "../../src/store/db.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";

const KEY = ["sk", "proj", "D0ct0rMustN3v3rPr1ntTh1sK3y00"].join("-");

const ASK = {
  capabilities: {
    fast: {
      deployments: [
        { model: "openai/gpt-doc", baseUrl: "http://127.0.0.1:4999/tenant-path-9f3/v1", apiKeyEnv: "DOC_OPENAI_KEY" },
        { model: "anthropic/claude-doc", baseUrl: "http://127.0.0.2:5000", apiKeyEnv: "DOC_ANTHROPIC_KEY" },
      ],
      fallbacks: ["local"],
    },
    local: { deployments: [{ model: "openai/llama-doc", baseUrl: "http://localhost:11434/v1" }] },
  },
};

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

describe("orchestrate check: ask capabilities", () => {
  test("deployments with model, host and key state; an armed cooldown; the unset key is a problem; no key value or URL path printed", async () => {
    box = makeSandbox({ DOC_OPENAI_KEY: KEY });
    // YAML reads JSON: the config file is the same object the validator below resolves.
    box.writeConfig(JSON.stringify({ ask: ASK }));
    const validated = validateConfigObject({ ask: ASK }, { format: "yaml" }, {});
    if (!validated.ok) throw new Error(validated.errors.join("\n"));
    const claude = validated.value.config.ask.capabilities.fast?.deployments[1];
    if (!claude) throw new Error("no deployment");
    const store = openStore(box.dbPath);
    if (!store.ok) throw new Error(store.error.message);
    const until = Date.now() + 600_000;
    store.value.cooldowns.arm(deploymentKey(claude), "capacity", until, Date.now());
    store.value.close();

    const out = await runCliInProcess(["check"], box.env);
    expect(out.stdout).toContain("Ask capabilities:");
    expect(out.stdout).toContain("  fast (ordered, falls back to local)");
    expect(out.stdout).toContain("    openai/gpt-doc: openai/gpt-doc @ 127.0.0.1:4999 · DOC_OPENAI_KEY set");
    expect(out.stdout).toContain(
      `    anthropic/claude-doc: anthropic/claude-doc @ 127.0.0.2:5000 · DOC_ANTHROPIC_KEY NOT set · cooling until ${new Date(until).toISOString()}`,
    );
    expect(out.stdout).toContain("    openai/llama-doc: openai/llama-doc @ localhost:11434 · no key");
    expect(out.stdout).toContain("✗ ask fast/anthropic/claude-doc: DOC_ANTHROPIC_KEY is not set");
    for (const text of [out.stdout, out.stderr]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain("tenant-path-9f3");
    }
  }, 30_000);

  test("no ask capabilities: no ask section", async () => {
    box = makeSandbox({});
    box.writeConfig("agents: {}\n");
    const out = await runCliInProcess(["check"], box.env);
    expect(out.stdout).not.toContain("Ask capabilities:");
  }, 30_000);
});

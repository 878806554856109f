/** ACP agents in the config: `backend: acp` from its launch alone, `transport: acp` beside a headless driver, and the refusals. */
import { describe, expect, test } from "bun:test";
import { validateConfigObject } from "../../src/config/validate.ts";

const ENV = { HOME: "/home/u" };

function check(yaml: string) {
  return validateConfigObject(Bun.YAML.parse(yaml), { format: "yaml" }, ENV);
}

describe("ACP agents", () => {
  test("an agent known only by its launch: command list, declared provider, optional model and modes", () => {
    const result = check("agents:\n  q: { backend: acp, provider: qwen, command: [qwen, --acp], modes: { answer: plan }, permissions: reject }\n");
    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.value.config.agents.q).toMatchObject({ backend: "acp", transport: "acp", command: "qwen", commandArgs: ["--acp"], provider: "qwen", modes: { answer: "plan" }, permissions: "reject" });
    expect(result.value.config.agents.q?.model).toBeUndefined();
  });

  test("a known backend switched to ACP keeps its provider and its model rule", () => {
    const result = check("agents:\n  g: { backend: gemini, transport: acp, model: gemini-2.5-pro }\n  h: { backend: gemini, model: gemini-2.5-pro }\n");
    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.value.config.agents.g).toMatchObject({ backend: "gemini", transport: "acp", provider: "google" });
    expect(result.value.config.agents.h?.transport).toBeUndefined();
  });

  test("refusals: no ACP profile, no launch, ACP-only keys and a command list on a headless agent, no provider", () => {
    const result = check(
      "agents:\n  p: { backend: pi, provider: fake, model: m, transport: acp }\n  q: { backend: acp, provider: x }\n  c: { backend: codex, model: m, modes: { route: auto }, command: [codex, x] }\n  n: { backend: acp, command: [x] }\n  t: { backend: acp, provider: x, command: [x], transport: cli }\n",
    );
    if (result.ok) throw new Error("expected errors");
    const text = result.errors.join("\n");
    expect(text).toContain("agents.p.transport: pi has no ACP profile");
    expect(text).toContain("agents.q.command: missing: an agent known only by its ACP launch needs it");
    expect(text).toContain("agents.c.modes: modes is for agents driven over ACP");
    expect(text).toContain("agents.c.command: a command with arguments is only for agents driven over ACP");
    expect(text).toContain("agents.n.provider: missing");
    expect(text).toContain("agents.t.transport: acp agents are driven only over ACP");
  });
});

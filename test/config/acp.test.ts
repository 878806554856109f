/** ACP agents in the config: `backend: acp` from its launch alone, `transport: acp` beside a headless driver, and the refusals. */
import { describe, expect, test } from "bun:test";
import { adapters } from "../../src/backends/index.ts";
import { validateConfigObject } from "../../src/config/validate.ts";
import { modeRefusal } from "../../src/services/workflow/snapshot.ts";

const ENV = { HOME: "/home/u" };

function check(yaml: string) {
  return validateConfigObject(Bun.YAML.parse(yaml), { format: "yaml" }, ENV);
}

describe("ACP agents", () => {
  test("an agent known only by its launch: command list, declared provider, optional model and modes", () => {
    const result = check("agents:\n  q: { backend: acp, provider: qwen, command: [qwen, --acp], modes: { answer: plan }, permissions: reject }\n");
    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.value.config.agents.q).toMatchObject({
      backend: "acp",
      transport: "acp",
      command: "qwen",
      commandArgs: ["--acp"],
      provider: "qwen",
      modes: { answer: "plan" },
      permissions: "reject",
    });
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

  test("isolated_write is per transport: claude headless keeps its proof, claude over ACP and a generic agent are refused", () => {
    const ok = check("agents:\n  c: { backend: claude, model: opus, executionModes: [isolated_write] }\n");
    if (!ok.ok) throw new Error(ok.errors.join("\n"));
    const result = check(
      "agents:\n  a: { backend: claude, transport: acp, model: opus, executionModes: [isolated_write] }\n  q: { backend: acp, provider: qwen, command: [qwen, --acp], executionModes: [isolated_write] }\n",
    );
    if (result.ok) throw new Error("expected errors");
    const text = result.errors.join("\n");
    expect(text).toContain(
      "agents.a.executionModes: isolated_write cannot be contained on claude over ACP: claude-agent-acp has no containment test of its own",
    );
    expect(text).toContain("agents.q.executionModes: isolated_write cannot be contained on acp: an agent known only by its ACP command");
  });

  test("no headless containment proof crosses to ACP: every backend that claims isolated_write headless is refused it over ACP", () => {
    const proven = Object.values(adapters).filter((a) => a.acp && !a.acp.only && a.writes.isolatedWrite);
    // claude, codex and gemini are proven headless (test/workflow/containment.test.ts); none over ACP.
    expect(proven.map((a) => a.backend).sort()).toEqual(["claude", "codex", "gemini"]);
    for (const adapter of proven) {
      const model = adapter.backend === "codex" ? "gpt-5.5" : adapter.backend === "gemini" ? "gemini-2.5-pro" : "opus";
      const headless = check(`agents:\n  h: { backend: ${adapter.backend}, model: ${model}, executionModes: [isolated_write] }\n`);
      if (!headless.ok) throw new Error(headless.errors.join("\n"));
      const acp = check(`agents:\n  a: { backend: ${adapter.backend}, transport: acp, model: ${model}, executionModes: [isolated_write] }\n`);
      expect(acp.ok ? [] : acp.errors.join("\n")).toContain(`agents.a.executionModes: isolated_write cannot be contained on ${adapter.backend} over ACP`);
    }
  });

  test("a workflow step refuses isolated_write on an agent driven over ACP, naming the transport; headless passes", () => {
    const loaded = check("agents:\n  c: { backend: claude, model: opus, executionModes: [isolated_write] }\n");
    if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
    const headless = loaded.value.config.agents.c;
    if (!headless) throw new Error("agent c missing");
    expect(modeRefusal(headless, adapters, "isolated_write", "implement")).toBeUndefined();
    expect(modeRefusal({ ...headless, transport: "acp" }, adapters, "isolated_write", "implement")).toBe(
      `backend: claude over ACP cannot be contained for isolated_write (${adapters.claude.acp?.writes.why})`,
    );
  });

  test("limits read the transport's usage: copilot over ACP reports tokens, claude over ACP no turns, a generic agent nothing", () => {
    const okay = check(
      "agents:\n  p: { backend: copilot, transport: acp, model: gpt-5.2, limits: { maxTokens: 1000 } }\n  c: { backend: claude, model: opus, limits: { maxTurns: 5 } }\n",
    );
    if (!okay.ok) throw new Error(okay.errors.join("\n"));
    const result = check(
      "agents:\n  h: { backend: copilot, model: gpt-5.2, limits: { maxTokens: 1000 } }\n  a: { backend: claude, transport: acp, model: opus, limits: { maxTurns: 5 } }\n  q: { backend: acp, provider: qwen, command: [qwen, --acp], limits: { maxTokens: 1000, maxCostUsd: 1 } }\n  x: { backend: codex, transport: acp, model: gpt-5.5, limits: { maxTokens: 1000 } }\n",
    );
    if (result.ok) throw new Error("expected errors");
    const text = result.errors.join("\n");
    expect(text).toContain("agents.h.limits.maxTokens: copilot reports no token usage");
    expect(text).toContain("agents.a.limits.maxTurns: claude over ACP reports no turn count");
    expect(text).toContain("agents.q.limits.maxTokens: acp reports no token usage");
    expect(text).toContain("agents.q.limits.maxCostUsd: acp reports no cost");
    expect(text).toContain("agents.x.limits.maxTokens: codex over ACP reports no token usage");
  });
});

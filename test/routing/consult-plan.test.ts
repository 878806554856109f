import { describe, expect, test } from "bun:test";
import { pickConsultAgent } from "../../src/routing/consult-plan.ts";
import { detectHostRuntime } from "../../src/routing/host.ts";
import { agent, configWith } from "../helpers/config.ts";

const cfg = configWith([
  agent("codex-a", "codex", { model: "gpt-5.5", scores: { coding: 95, review: 90 }, priority: 10 }),
  agent("claude-a", "claude", { model: "claude-opus-4-6", scores: { coding: 95, writing: 95 }, priority: 10 }),
  agent("gem", "gemini", { model: "gemini-2.5-pro", scores: { coding: 95 }, priority: 5 }),
  agent("oc", "opencode", { model: "deepseek/v4", scores: { coding: 0, research: 50 } }),
  agent("off", "copilot", { model: "gpt-5", scores: { coding: 100 }, enabled: false }),
]);

const pick = (host: Parameters<typeof pickConsultAgent>[1], cap: string, requested?: string) => {
  const r = pickConsultAgent(cfg, host, cap, requested);
  return r.ok ? r.pick.agent.id : r.error.code;
};

describe("consult routing", () => {
  test("highest score, then lower priority, then id; disabled excluded", () => {
    expect(pick({ runtime: "claude" }, "coding")).toBe("gem");
    expect(pick({ runtime: "gemini" }, "coding")).toBe("claude-a");
  });
  test("a score of 0 or missing is ineligible", () => {
    expect(pick({ runtime: "claude" }, "research")).toBe("oc");
    expect(pick({ runtime: "claude" }, "nothing")).toBe("no_eligible_agent");
  });
  test("host runtime excluded, even when requested by id", () => {
    expect(pick({ runtime: "claude" }, "writing")).toBe("no_eligible_agent");
    expect(pick({ runtime: "claude" }, "coding", "claude-a")).toBe("agent_not_eligible");
  });
  test("a different versioned model on the host runtime only with host.model", () => {
    expect(pick({ runtime: "claude", model: "claude-opus-5" }, "writing")).toBe("claude-a");
    expect(pick({ runtime: "claude", model: "claude-opus-4-6" }, "writing")).toBe("no_eligible_agent");
  });
  test("a dated snapshot of the host's model is the host's model (seed 001 host identity)", () => {
    const snap = configWith([agent("claude-snap", "claude", { model: "claude-opus-5-20260101", scores: { writing: 95 } })]);
    const r = pickConsultAgent(snap, { runtime: "claude", model: "claude-opus-5" }, "writing");
    expect(r.ok ? r.pick.agent.id : r.error.code).toBe("no_eligible_agent");
    const other = pickConsultAgent(snap, { runtime: "claude", model: "claude-opus-4-6" }, "writing");
    expect(other.ok ? other.pick.agent.id : other.error.code).toBe("claude-snap");
  });
  test("unknown agent", () => {
    expect(pick({ runtime: "claude" }, "coding", "nope")).toBe("unknown_agent");
  });
});

describe("host runtime", () => {
  test("env wins, legacy env honoured, clientInfo for known clients, unknown refused", () => {
    expect(detectHostRuntime({ ORCHESTRATE_HOST_RUNTIME: "codex" }, "claude-code").runtime).toBe("codex");
    expect(detectHostRuntime({ ORCHESTRATOR_HOST_RUNTIME: "claude" }, undefined).runtime).toBe("claude");
    expect(detectHostRuntime({}, "claude-code").runtime).toBe("claude");
    expect(detectHostRuntime({}, "codex-mcp-client").runtime).toBe("codex");
    const unknown = detectHostRuntime({}, "my-client");
    expect(unknown.runtime).toBeUndefined();
    expect("problem" in unknown && unknown.problem).toContain("ORCHESTRATE_HOST_RUNTIME");
    expect(detectHostRuntime({ ORCHESTRATE_HOST_RUNTIME: "vim" }, undefined).runtime).toBeUndefined();
  });
});

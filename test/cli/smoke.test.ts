/**
 * `orchestrate smoke` in the demo world: one tiny prompt per configured agent through the bundled
 * fakes, reporting reachable, model verified, latency, tokens and cost per agent — and storing
 * nothing (a check is not history).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { demoSandbox } from "../../fakes/lib/demo-world.ts";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import type { SmokeResult } from "../../src/services/smoke/index.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

describe("orchestrate smoke (demo world, bundled fakes)", () => {
  test("a row per agent: the two that answer verified with latency, tokens and cost; rate-limited claude unreachable; exit 1", async () => {
    box = demoSandbox();
    const out = await runCliInProcess(["smoke"], box.env);
    expect(out.code).toBe(1);
    const lines = out.stdout.split("\n");
    expect(lines[0]).toMatch(/^agent\s+backend · model\s+reachable\s+model\s+latency\s+tokens\s+cost$/);
    expect(lines.find((l) => l.startsWith("cheap"))).toMatch(
      /opencode · deepseek\/deepseek-v4-flash\s+yes\s+verified\s+\d+\.\d s\s+\d+ in \/ \d+ out\s+\$0\.\d{4}/,
    );
    // codex reports tokens but no cost: 42 × $5 + 7 × $30 per million at the catalog's gpt-5.5 price, marked (docs/cost.md).
    expect(lines.find((l) => l.startsWith("codex-main"))).toMatch(/codex · gpt-5\.5\s+yes\s+verified\s+\d+\.\d s\s+42 in \/ 7 out\s+\$0\.0004 \(estimated\)/);
    expect(lines.find((l) => l.startsWith("claude-opus"))).toMatch(/claude · opus\s+NO\s+/);
    expect(out.stdout).toContain("claude-opus: [rate_limited]");
    expect(out.stderr).toContain("uses a little real capacity");
    // Every configured CLI was asked once, answer-only.
    for (const cli of ["opencode", "codex", "claude"]) expect(box.recordings(cli).length).toBeGreaterThanOrEqual(1);
  });

  test("all answering with their configured models (or unverifiable: claude's `opus` is an alias): exit 0; --json has every figure; nothing is stored", async () => {
    box = demoSandbox({ FAKE_CLAUDE_SCENARIO: "ok" });
    const out = await runCliInProcess(["smoke", "--json"], box.env);
    expect(out.code).toBe(0);
    const results = JSON.parse(out.stdout) as SmokeResult[];
    expect(results.map((r) => [r.agent, r.reachable, r.verification])).toEqual([
      ["cheap", true, "verified"],
      ["codex-main", true, "verified"],
      ["claude-opus", true, "unverified"],
    ]);
    for (const r of results) {
      expect(r.latencyMs).toBeGreaterThan(0);
      expect(r.answer).toBe("PONG-FROM-FAKE");
    }
    expect(results[0]?.usage.costUsd).toBeGreaterThan(0);
    expect(results[1]?.usage).toMatchObject({ inputTokens: 42, outputTokens: 7 });
    expect(results[1]?.costEstimated).toBe(true);
    const store = openStore(box.dbPath, { readonly: true });
    if (store.ok) {
      expect(store.value.consultations.list()).toEqual([]);
      expect(store.value.runs.listRuns()).toEqual([]);
      store.value.close();
    } else expect(existsSync(box.dbPath)).toBe(true);
  });

  test("a CLI serving another model than configured is a MISMATCH (exit 1); --agent limits the check", async () => {
    box = demoSandbox({ FAKE_CODEX_SCENARIO: "wrong-model" });
    const out = await runCliInProcess(["smoke", "--agent", "codex-main"], box.env);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/codex-main\s+codex · gpt-5\.5\s+yes\s+MISMATCH \(gpt-5\.1-codex-mini/);
    expect(out.stdout).not.toContain("cheap");
    expect(box.recordings("opencode")).toEqual([]);
  });

  test("an agent the config does not name is a usage error (exit 2), and nothing is sent", async () => {
    box = demoSandbox();
    const out = await runCliInProcess(["smoke", "--agent", "nobody"], box.env);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("No agent named nobody");
    expect(box.recordings()).toEqual([]);
  });
});

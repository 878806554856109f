/**
 * Quota-aware routing end to end (issue 25; docs/design.md, "Quota"): the fake claude reports its
 * quota in a `rate_limit_event` as the real CLI does; the next route defers a warned agent behind
 * a fine one without spawning it, a rejected quota cools the agent until the vendor's reset, and
 * the dry run names the skip `quota_exhausted` with that reset.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { routeTask } from "../../src/services/route/index.ts";
import { dryRun } from "../../src/services/route/tiers.ts";
import { cooldownsByAgent } from "../../src/services/shared/cooling.ts";
import { quotaByAgent } from "../../src/services/shared/quota.ts";
import type { Runtime } from "../../src/services/shared/runtime.ts";
import { agentRecordDir, openServiceWorld, spawnCount, type ServiceWorld } from "../helpers/service-world.ts";
import { listAgents } from "../../src/services/consult/views.ts";
import { runDoctor } from "../../src/doctor/checks.ts";

const RESET_SEC = Math.floor(Date.now() / 1000) + 7200;

let world: ServiceWorld;
let box: Sandbox;
let rt: Runtime;
const rec = (name: string) => agentRecordDir(box, name);
const spawned = (name: string) => spawnCount(box, name);

beforeAll(async () => {
  world = await openServiceWorld((b) => {
    box = b;
    const agent = (name: string, scenario: string) =>
      `  ${name}: { backend: claude, model: sonnet, env: { FAKE_CLAUDE_SCENARIO: ${scenario}, FAKE_RECORD_DIR: ${rec(name)}, FAKE_QUOTA_RESETS_AT: "${RESET_SEC}" } }`;
    return `agents:
${agent("warned", "quota-warning")}
${agent("fine", "ok")}
${agent("spent", "quota-rejected")}
tiers:
  standard: [warned, fine]
  heavy: [spent, fine]
`;
  });
  rt = world.rt;
});
afterAll(() => world.close());

describe("quota-aware routing", () => {
  test("a warned agent goes after a fine one, and is not spawned", async () => {
    const first = await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "standard" });
    expect(first.servedBy?.agent).toBe("warned");
    expect(quotaByAgent(rt).get("warned")).toEqual([
      expect.objectContaining({ window: "five_hour", state: "warning", usedPercent: 92, resetsAt: RESET_SEC * 1000, source: "claude rate_limit_event" }),
    ]);
    rmSync(rec("warned"), { recursive: true, force: true });

    const second = await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "standard" });
    expect(second.servedBy?.agent).toBe("fine");
    expect(spawned("warned")).toBe(0);
    expect(spawned("fine")).toBe(1);
    const plan = await dryRun(rt, { cwd: box.repo, tier: "standard" });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.recipients.map((r) => r.agent)).toEqual(["fine", "warned"]);
    expect(plan.value.decisions.find((d) => d.agent === "warned")?.reason).toMatch(/quota_warning: five_hour 92 % used, resets \d\d:\d\d:\d\d UTC/);
  });

  test("list_agents and `orchestrate check` show the quota: window, used %, resets in", async () => {
    const shown = /^warning: five_hour 92 % used, resets \d\d:\d\d:\d\d UTC \(\d+ s\)$/;
    const listed = await listAgents(rt, undefined);
    expect(listed.agents.find((a) => a.id === "warned")?.quota).toMatch(shown);
    expect(listed.agents.find((a) => a.id === "fine")?.quota).toBeUndefined();
    const report = await runDoctor(rt.config, box.env);
    expect(report.agents.find((a) => a.id === "warned")?.quota).toMatch(shown);
  });

  test("a rejected quota cools the agent until the vendor's reset, and the dry run says quota_exhausted", async () => {
    const routed = await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "heavy" });
    expect(routed.attempts[0]).toMatchObject({ agent: "spent", outcome: "unavailable", fellBack: true });
    expect(routed.servedBy?.agent).toBe("fine");
    // Not the fixed capacity TTL (600 s): the reset claude named, two hours out.
    expect(cooldownsByAgent(rt, rt.now()).get("spent")?.until).toBe(RESET_SEC * 1000);

    const plan = await dryRun(rt, { cwd: box.repo, tier: "heavy" });
    if (!plan.ok) throw new Error(plan.error.message);
    const clock = new Date(RESET_SEC * 1000).toISOString().slice(11, 19);
    expect(plan.value.decisions.find((d) => d.agent === "spent")).toMatchObject({
      decision: "skip",
      reason: expect.stringContaining(`quota_exhausted: five_hour exhausted until ${clock} UTC`),
    });
    expect(plan.value.recipients.map((r) => r.agent)).toEqual(["fine"]);
  });
});

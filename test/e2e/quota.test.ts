/**
 * Issue 25's "done when", end to end through a real MCP client: one agent's quota is at its
 * warning state — reported by the fake codex's own rollout, as the real CLI writes it, never put
 * into the store by the test — and another's is fine. A route goes to the fine one first without
 * spawning the warned one (the fake's recordings say so), and the reply, list_tiers, list_agents,
 * router_dry_run and the dashboard (its own process, over the same store) say why.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { textOf, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { startDashboardProcess } from "../dashboard/world.ts";
import { openWorld, type World } from "../helpers/world.ts";

const CONFIG = `agents:
  warned: { backend: codex, model: gpt-5.5, env: { FAKE_CODEX_QUOTA_USED: "95" } }
  fine: { backend: claude, model: sonnet }
tiers:
  light: [warned]
  standard: [warned, fine]
allowCrossProviderFallback: true
`;
const WARNED = /warning: 5h 95 % used, resets \d\d:\d\d:\d\d UTC \(\d+ s\)/;

let world: World;
beforeAll(async () => {
  world = await openWorld(CONFIG);
});
afterAll(() => world.close());

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolReply> {
  const reply = (await world.session.client.callTool({ name, arguments: args })) as ToolReply;
  expect(reply.isError).toBeFalsy();
  return reply;
}
const data = (r: ToolReply) => (r.structuredContent ?? {}) as Record<string, unknown>;
const codexRuns = () => world.box.recordings("codex").filter((r) => r.argv[0] === "exec");
const claudeRuns = () => world.box.recordings("claude").filter((r) => r.argv.includes("-p") || r.argv.includes("--print"));

describe("a warned agent goes after a fine one, and every surface says why", () => {
  let runId = "";

  test("codex's own rollout reports 95 % of its 5-hour window; list_agents and list_tiers show it", async () => {
    const first = await call("route", { prompt: "Warm up", cwd: world.box.repo, tier: "light" });
    expect((data(first).servedBy as { agent: string }).agent).toBe("warned");
    expect(codexRuns()).toHaveLength(1);

    const agents = data(await call("list_agents")).agents as { id: string; quota?: string }[];
    expect(agents.find((a) => a.id === "warned")?.quota).toMatch(new RegExp(`^${WARNED.source}$`));
    expect(agents.find((a) => a.id === "fine")?.quota).toBeUndefined();

    const tiers = await call("list_tiers");
    const quota = data(tiers).quota as Record<string, string[]>;
    expect(quota.standard).toEqual([expect.stringMatching(WARNED)]);
    expect(quota.light).toEqual([expect.stringMatching(WARNED)]);
    expect(textOf(tiers)).toMatch(new RegExp(`Quota: light — ${WARNED.source} · standard — ${WARNED.source}`));
    // Still presence only: the lines name no entry and no model.
    expect(JSON.stringify(data(tiers))).not.toMatch(/warned|gpt-5\.5|sonnet/);
  });

  test("the route goes to the fine agent first and never spawns the warned one; the reply says why", async () => {
    const routed = await call("route", { prompt: "Fix the flaky test", cwd: world.box.repo, tier: "standard" });
    expect((data(routed).servedBy as { agent: string }).agent).toBe("fine");
    expect((data(routed).attempts as { agent: string }[]).map((a) => a.agent)).toEqual(["fine"]);
    expect(codexRuns()).toHaveLength(1);
    expect(claudeRuns()).toHaveLength(1);
    const notice = String(data(routed).quotaNotice);
    expect(notice).toMatch(
      /^standard:warned went after the tier's other entries \(quota_warning: 5h 95 % used, resets \d\d:\d\d:\d\d UTC \(\d+ s\)\) and was not needed\.$/,
    );
    expect(textOf(routed)).toContain(`Notice: ${notice}`);
    runId = String(data(routed).runId);

    const plan = data(await call("router_dry_run", { cwd: world.box.repo, tier: "standard" }));
    expect((plan.recipients as { agent: string }[]).map((r) => r.agent)).toEqual(["fine", "warned"]);
    expect((plan.decisions as { agent: string; reason: string }[]).find((d) => d.agent === "warned")?.reason).toContain("quota_warning: 5h 95 % used");
  });

  test("the dashboard shows the quota beside the agent and, in the run's trace, why the warned one was not tried", async () => {
    const dash = await startDashboardProcess(world.box.env);
    try {
      const get = async (path: string) => {
        const res = await fetch(`${dash.origin}${path}`, { headers: { cookie: `orchestrate_dashboard_${dash.port}=${dash.token}` } });
        expect(res.status).toBe(200);
        return res.text();
      };
      const overview = await get("/");
      const row = overview.match(/<tr><td><code>warned<\/code>.*?<\/tr>/s)?.[0] ?? "";
      expect(row).toContain('<span class="badge b-warning">warning</span> 5h 95 % used');
      expect(row).toMatch(/resets in (\d+ min )?\d+(\.\d)? s/);
      const fine = overview.match(/<tr><td><code>fine<\/code>.*?<\/tr>/s)?.[0] ?? "";
      expect(fine).toContain("none reported");

      const run = await get(`/runs/${runId}`);
      const skipped = run.match(/<tr><td>2<\/td><td><code>warned<\/code>.*?<\/tr>/s)?.[0] ?? "";
      expect(skipped).toContain("skipped");
      expect(skipped).toMatch(
        /standard: quota_warning: 5h 95 % used, resets \d\d:\d\d:\d\d UTC \(\d+ s\), so it went after the tier&#39;s other entries; not tried/,
      );
    } finally {
      await dash.stop();
    }
  });
});

/**
 * Guards across backends: token/cost/turn budgets (per agent and per call) and the stall guard end
 * the fake runs they should — as typed outcomes with the group ended — and no others.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  box?.cleanup();
  box = undefined;
  session = undefined;
});

async function route(agentYaml: string, args: Record<string, unknown> = {}): Promise<ToolReply> {
  box = makeSandbox({});
  box.writeConfig(`agents:\n  a: ${agentYaml}\ntiers: { light: null, standard: null, heavy: [a] }\n`);
  session = await connectInProcess(box.env);
  return (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy", ...args } })) as ToolReply;
}

const outcome = (r: ToolReply) => (r.structuredContent?.attempts as { outcome: string }[] | undefined)?.map((a) => a.outcome);
const code = (r: ToolReply) => (r.structuredContent?.error as { code: string } | undefined)?.code;

describe("budget guard", () => {
  test("an agent's token limit ends a run that reports more, as budget_exceeded, never a success", async () => {
    const r = await route(`{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: budget }, limits: { maxTokens: 100000 } }`);
    expect(r.isError).toBe(true);
    expect(code(r)).toBe("budget_exceeded");
    expect(outcome(r)).toEqual(["budget"]);
  });

  test("the same run without a limit succeeds", async () => {
    const r = await route(`{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: budget } }`);
    expect(r.isError).toBeFalsy();
  });

  test("an agent's cost limit applies to the cost the CLI reports", async () => {
    const r = await route(`{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: budget }, limits: { maxCostUsd: 0.01 } }`);
    expect(code(r)).toBe("budget_exceeded");
  });

  test("a per-call limit narrows the agent's: tiny maxTokens on an ordinary run", async () => {
    const r = await route(`{ backend: claude, model: opus, limits: { maxTokens: 100000 } }`, { limits: { maxTokens: 10 } });
    expect(code(r)).toBe("budget_exceeded");
  });

  test("a per-call limit cannot widen the agent's", async () => {
    const r = await route(`{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: budget }, limits: { maxTokens: 100000 } }`, {
      limits: { maxTokens: 99999999 },
    });
    expect(code(r)).toBe("budget_exceeded");
  });

  test("unknown limit keys are refused", async () => {
    const r = await route(`{ backend: claude, model: opus }`, { limits: { maxBananas: 1 } });
    expect(code(r)).toBe("invalid_arguments");
  });
});

describe("limits stop the run mid-stream, or are refused where they could never fire (issue 12 §7)", () => {
  test("claude's per-message usage stops a long run at maxTokens, long before its result", async () => {
    const r = await route(
      `{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: long, FAKE_EVENTS: "40", FAKE_EVENT_GAP_MS: "250" }, limits: { maxTokens: 100 } }`,
    );
    expect(code(r)).toBe("budget_exceeded");
    expect(outcome(r)).toEqual(["budget"]);
    const attempt = (r.structuredContent?.attempts as { durationMs: number }[])[0];
    // The whole run takes 40 × 250 ms = 10 s; the third message's usage crosses 100 tokens.
    expect(attempt?.durationMs ?? Infinity).toBeLessThan(6000);
    expect(box!.recordings("claude").length).toBeGreaterThan(0);
  });

  test("a copilot agent with maxTokens is refused at load: copilot reports no token usage", async () => {
    const r = await route(`{ backend: copilot, model: gpt-5, limits: { maxTokens: 1000 } }`);
    expect(r.isError).toBe(true);
    const text = JSON.stringify(r.structuredContent);
    expect(text).toContain("a.limits.maxTokens");
    expect(text).toContain("copilot reports no token usage");
    expect(box!.recordings("copilot")).toEqual([]);
  });

  test("a per-call maxCostUsd on codex (which reports no cost) is refused before spawning when its model has no price", async () => {
    // A priced model's cost is estimated from its tokens instead (test/e2e/cost.test.ts).
    const r = await route(`{ backend: codex, model: gpt-6.2-sol }`, { limits: { maxCostUsd: 1 } });
    expect(code(r)).toBe("limit_unenforceable");
    expect(JSON.stringify(r.structuredContent)).toContain("codex reports no cost and its model has no price");
    expect(box!.recordings("codex").filter((rec) => rec.argv[0] === "exec")).toEqual([]);
  });
});

describe("stall guard", () => {
  test("a run with no events for stallSec ends as stalled with its group", async () => {
    const r = await route(`{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: silent }, limits: { stallSec: 1 } }`);
    expect(code(r)).toBe("stalled");
    expect(outcome(r)).toEqual(["stalled"]);
  });

  test("a run that keeps emitting events is not stalled", async () => {
    const r = await route(
      `{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: long, FAKE_EVENTS: "6", FAKE_EVENT_GAP_MS: "400" }, limits: { stallSec: 2 } }`,
    );
    expect(r.isError).toBeFalsy();
  });

  test("a per-call stallSec applies too", async () => {
    const r = await route(`{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: silent } }`, { limits: { stallSec: 1 } });
    expect(code(r)).toBe("stalled");
  });
});

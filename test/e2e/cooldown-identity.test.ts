/**
 * Cooldowns follow the agent's identity, not its slot (issue 12 §1): a user edits the config and
 * a cooldown armed for the old agent in slot 1 must not skip the new agent there — and an agent
 * renamed or moved keeps its cooldown.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
const sessions: ClientSession[] = [];
const closeSessions = async () => {
  for (const s of sessions.splice(0)) await s.close().catch(() => undefined);
};
afterEach(async () => {
  await closeSessions();
  box?.cleanup();
  box = undefined;
});

type Attempt = { agent: string; backend: string; outcome: string };
const attemptsOf = (reply: ToolReply) => (reply.structuredContent?.attempts ?? []) as Attempt[];

/** Each edit of the config is read by a fresh server, as after a client restart: the last one ends first. */
async function routeWith(config: string): Promise<ToolReply> {
  await closeSessions();
  box!.writeConfig(config);
  const session = await connectInProcess(box!.env);
  sessions.push(session);
  return (await session.client.callTool({ name: "route", arguments: { prompt: "hi", cwd: box!.repo, tier: "light" } })) as ToolReply;
}

const RATE_LIMITED_CODEX = `{ backend: codex, model: gpt-5.5, env: { FAKE_CODEX_SCENARIO: rate-limit } }`;

describe("cooldowns keyed by the agent's identity", () => {
  test("a new agent put into a cooling slot is tried; the cooling agent is skipped wherever it moved", async () => {
    box = makeSandbox();
    const first = await routeWith(
      `allowCrossProviderFallback: true\ntiers:\n  light:\n    - ${RATE_LIMITED_CODEX}\n    - { backend: claude, model: sonnet }\n  standard: null\n  heavy: null\n`,
    );
    expect(attemptsOf(first).map((a) => [a.agent, a.outcome])).toEqual([
      ["light", "unavailable"],
      ["light.2", "ok"],
    ]);

    // Slot 1 now holds a healthy opencode: it must serve, not be skipped for codex's cooldown.
    const edited = await routeWith(
      `allowCrossProviderFallback: true\ntiers:\n  light:\n    - { backend: opencode, model: anthropic/claude-sonnet-4-5 }\n    - ${RATE_LIMITED_CODEX}\n  standard: null\n  heavy: null\n`,
    );
    expect(attemptsOf(edited).map((a) => [a.agent, a.backend, a.outcome])).toEqual([["light", "opencode", "ok"]]);

    // The codex agent moved to slot 2 and was renamed: still cooling, so a dry run skips it.
    box.writeConfig(
      `allowCrossProviderFallback: true\nagents:\n  renamed-codex: ${RATE_LIMITED_CODEX}\n  oc: { backend: opencode, model: anthropic/claude-sonnet-4-5 }\ntiers:\n  light: [oc, renamed-codex]\n  standard: null\n  heavy: null\n`,
    );
    await closeSessions();
    const session = await connectInProcess(box.env);
    sessions.push(session);
    const dry = (await session.client.callTool({ name: "router_dry_run", arguments: { cwd: box.repo, tier: "light" } })) as ToolReply;
    const decisions = dry.structuredContent?.decisions as { agent: string; decision: string; reason: string }[];
    expect(decisions.find((d) => d.agent === "renamed-codex")).toMatchObject({ decision: "skip" });
    expect(decisions.find((d) => d.agent === "renamed-codex")?.reason).toContain("cooling");
    expect(decisions.find((d) => d.agent === "oc")).toMatchObject({ decision: "include" });
  });
});

describe("consent with a cooling first entry (issue 12 §2)", () => {
  test("with allowCrossProviderFallback off, the next entry on another provider never receives the prompt", async () => {
    box = makeSandbox();
    const config = `agents:\n  cl: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: rate-limit } }\n  cx: { backend: codex, model: gpt-5.5 }\ntiers:\n  light: [cl, cx]\n  standard: null\n  heavy: null\n`;
    const first = await routeWith(config);
    expect(attemptsOf(first).map((a) => [a.agent, a.outcome])).toEqual([["cl", "unavailable"]]);
    const second = await routeWith(config);
    expect(second.isError).toBe(true);
    expect((second.structuredContent?.error as { code: string }).code).toBe("no_candidates");
    expect(JSON.stringify(second.structuredContent)).toContain("would cross from provider anthropic to openai");
    expect(box.recordings("codex")).toEqual([]);
  });
});

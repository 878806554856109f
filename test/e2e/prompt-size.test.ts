/**
 * Prompts of any size (issue 11 §3), through a real MCP client and server: a 300 KiB prompt
 * routes to every backend whose CLI reads its prompt from stdin — and is never in any child's
 * argv (which Linux caps at 128 KiB an argument, and `ps` shows to every user) — while the one CLI
 * that only takes it as an argument (community grok) gets a typed prompt_too_large before anything
 * is spawned: no fallback to the next agent, no cooldown, never "not installed".
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

/** 300 KiB, with a marker every KiB so a piece of it in argv cannot hide. */
const MARK = "PROMPT-MARKER-";
const BIG = Array.from({ length: 300 }, (_, i) => `${MARK}${String(i).padStart(4, "0")} ${"x".repeat(1024 - MARK.length - 5)}`).join("");

const AGENTS: Record<string, string> = {
  codex: "{ backend: codex, model: gpt-5.5 }",
  claude: "{ backend: claude, model: sonnet }",
  opencode: "{ backend: opencode, model: openai/gpt-5 }",
  gemini: "{ backend: gemini, model: gemini-2.5-pro }",
  copilot: "{ backend: copilot, model: gpt-4o }",
  agy: '{ backend: agy, model: gemini-3.8-flash-high, env: { FAKE_AGY_TIME_SCALE: "0" } }',
  pi: "{ backend: pi, provider: fake, model: fake-model }",
};

/** What the sandbox does not already sign in: agy's login file, pi's provider. */
function setup(home: string): void {
  mkdirSync(join(home, ".gemini", "antigravity-cli"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "antigravity-cli", "antigravity-oauth-token"),
    JSON.stringify({ access_token: "ya29.fake", refresh_token: "1//fake", auth_method: "consumer" }),
  );
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  writeFileSync(
    join(home, ".pi", "agent", "models.json"),
    JSON.stringify({ providers: { fake: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "dummy", models: [{ id: "fake-model" }] } } }),
  );
}

async function route(config: string, prompt: string): Promise<ToolReply> {
  if (!box) {
    box = makeSandbox();
    setup(box.home);
    box.writeConfig(config);
    session = await connectInProcess(box.env);
  }
  return (await session?.client.callTool({ name: "route", arguments: { prompt, cwd: box.repo, tier: "heavy" } }, undefined, { timeout: 60_000 })) as ToolReply;
}

type Attempt = { agent: string; outcome: string; fellBack: boolean };
const attemptsOf = (reply: ToolReply) => (reply.structuredContent?.attempts ?? []) as Attempt[];

describe("a 300 KiB prompt reaches every CLI that reads stdin, and never its argv", () => {
  for (const [backend, agent] of Object.entries(AGENTS)) {
    test(backend, async () => {
      const reply = await route(`agents:\n  a: ${agent}\ntiers: { light: null, standard: null, heavy: [a] }\n`, BIG);
      expect(textOf(reply)).toContain("PONG-FROM-FAKE");
      expect(attemptsOf(reply).map((a) => [a.agent, a.outcome])).toEqual([["a", "ok"]]);
      const recordings = (box as Sandbox).recordings(backend);
      // The run got the prompt whole, on stdin (pi's RPC line carries it inside JSON).
      expect(recordings.some((r) => r.stdin.includes(BIG.slice(0, 4096)) && r.stdin.includes(BIG.slice(-4096)))).toBe(true);
      for (const r of recordings) expect(r.argv.some((arg) => arg.includes(MARK))).toBe(false);
    }, 60_000);
  }
});

describe("community grok takes its prompt only as an argument", () => {
  const CONFIG =
    "agents:\n  g: { backend: grok, model: grok-code-fast-1 }\n  c: { backend: claude, model: sonnet }\ntiers: { light: null, standard: null, heavy: [g, c] }\nallowCrossProviderFallback: true\n";

  test("300 KiB: prompt_too_large before anything runs, no fallback to the next agent, no cooldown", async () => {
    const reply = await route(CONFIG, BIG);
    expect(reply.isError).toBe(true);
    expect((reply.structuredContent?.error as { code: string }).code).toBe("prompt_too_large");
    expect(textOf(reply)).toContain("grok takes its prompt only as a command-line argument");
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.fellBack])).toEqual([["g", "prompt_too_large", false]]);
    // grok was only probed (its variant), never run; claude never asked.
    expect((box as Sandbox).recordings("grok").map((r) => r.argv)).toEqual([["--help"]]);
    expect((box as Sandbox).recordings("claude")).toEqual([]);
    // No cooldown: the next, smaller prompt goes straight to grok.
    const next = await route(CONFIG, "say pong");
    expect(attemptsOf(next).map((a) => [a.agent, a.outcome])).toEqual([["g", "ok"]]);
  }, 60_000);

  test("just under one argument's limit, it still goes to grok", async () => {
    const reply = await route(CONFIG, "y".repeat(120 * 1024));
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome])).toEqual([["g", "ok"]]);
  }, 60_000);
});

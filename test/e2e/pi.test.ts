/**
 * pi end to end: a real MCP client over stdio, the real server, fakes/pi on PATH (0.73 line by
 * default, 1.x with FAKE_PI_LINE), real git and SQLite. A pi agent declares its provider; the
 * person's pi knows provider `fake` from ~/.pi/agent/models.json, as a real pi would.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Recording, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { call, envOf, type World } from "./consult-helpers.ts";
import { openWorld } from "../helpers/world.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { usualLocationSandbox } from "../setup/helpers.ts";

const FAST = { FAKE_PI_RETRY_SCALE: "0.001" };
const after = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1];
const SCRATCH = /\/orchestrate-consult-[0-9A-Z]{26}$/;

let box: Sandbox | undefined;
let session: ClientSession | undefined;
let world: World | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  await world?.close();
  box?.cleanup();
  session = undefined;
  world = undefined;
  box = undefined;
});

/** The person's pi: a custom provider in models.json with a price, like the research's set-up. */
function piKnowsFake(home: string): void {
  const dir = join(home, ".pi", "agent");
  mkdirSync(dir, { recursive: true });
  const models = [{ id: "fake-model", cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }, { id: "other-model" }];
  writeFileSync(
    join(dir, "models.json"),
    JSON.stringify({ providers: { fake: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "dummy", models } } }),
  );
}

/** Model runs only, not the `--version` variant probe. */
const runs = (recs: Recording[]) => recs.filter((r) => r.argv.includes("--mode"));

function twoPis(first = ""): string {
  return `agents:
  p1:
    backend: pi
    provider: fake
    model: fake-model
${first}  p2:
    backend: pi
    provider: fake
    model: other-model
tiers:
  light: null
  standard: null
  heavy: [p1, p2]
`;
}

async function route(config: string, env: Record<string, string> = {}): Promise<ToolReply> {
  box = makeSandbox({ ...FAST, ...env });
  piKnowsFake(box.home);
  box.writeConfig(config);
  session = await connectInProcess(box.env);
  return (await session.client.callTool({ name: "route", arguments: { prompt: "do the thing", cwd: box.repo, tier: "heavy", timeoutSec: 120 } })) as ToolReply;
}

type Attempt = { agent: string; outcome: string; reason: string; fellBack: boolean; treeChanged?: boolean | null };
const attemptsOf = (reply: ToolReply) => (reply.structuredContent?.attempts ?? []) as Attempt[];

describe("route through pi", () => {
  test("0.73: json mode in the repo, the agent's provider and model, prompt on stdin, no 1.x flags", async () => {
    const reply = await route(twoPis());
    expect(reply.isError).toBeFalsy();
    expect(reply.structuredContent?.servedBy).toMatchObject({ agent: "p1", backend: "pi", provider: "fake", model: "fake-model" });
    expect(textOf(reply)).toContain("PONG-FROM-FAKE");
    const [run] = runs(box!.recordings("pi"));
    expect(run?.cwd).toBe(box!.repo);
    expect(after(run?.argv ?? [], "--mode")).toBe("json");
    expect(after(run?.argv ?? [], "--provider")).toBe("fake");
    expect(after(run?.argv ?? [], "--model")).toBe("fake-model");
    expect(run?.argv).not.toContain("--no-approve");
    expect(run?.argv).not.toContain("--tools");
    expect(run?.stdin).toContain("do the thing");
    expect(box!.recordings("pi").map((r) => r.argv)).toContainEqual(["--version"]);
  });

  test("1.x: the release line is probed and its own isolation flags are passed", async () => {
    await route(twoPis(), { FAKE_PI_LINE: "1.x" });
    const [run] = runs(box!.recordings("pi"));
    expect(run?.argv).toContain("--no-approve");
    expect(run?.argv).toContain("--no-mcp");
  });

  test("a 429 (exit 0 in json mode) is unavailable and falls back with the tree unchanged", async () => {
    const reply = await route(twoPis("    env: { FAKE_PI_SCENARIO: rate-limit }\n"));
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.fellBack])).toEqual([
      ["p1", "unavailable", true],
      ["p2", "ok", false],
    ]);
    expect(textOf(reply)).toContain("PONG-FROM-FAKE");
  });

  test("a failure after pi edited the tree is terminal", async () => {
    const reply = await route(twoPis("    env: { FAKE_PI_SCENARIO: edits-then-fails }\n"));
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply)).toHaveLength(1);
    expect(attemptsOf(reply)[0]).toMatchObject({ agent: "p1", treeChanged: true, fellBack: false });
  });

  test("no credentials for the declared provider: a fast clean auth failure, then the fallback", async () => {
    box = makeSandbox(FAST);
    piKnowsFake(box.home);
    // p1's pi knows the provider but holds no key for it (models.json without apiKey, no auth.json entry).
    const keyless = join(box.root, "keyless-agent");
    mkdirSync(keyless, { recursive: true });
    writeFileSync(
      join(keyless, "models.json"),
      JSON.stringify({ providers: { fake: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", models: [{ id: "fake-model" }] } } }),
    );
    box.writeConfig(twoPis(`    env: { PI_CODING_AGENT_DIR: ${JSON.stringify(keyless)} }\n`));
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({
      name: "route",
      arguments: { prompt: "do the thing", cwd: box.repo, tier: "heavy", timeoutSec: 120 },
    })) as ToolReply;
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome])).toEqual([
      ["p1", "unavailable"],
      ["p2", "ok"],
    ]);
  });
});

describe("consult through pi", () => {
  async function consultWorld(env: Record<string, string> = {}, model = "fake-model"): Promise<World> {
    const config = `agents:\n  a: { backend: pi, provider: fake, model: ${model}, scores: { coding: 80 } }\ntiers: { light: null, standard: null, heavy: null }\n`;
    const w = await openWorld(config, { ORCHESTRATE_HOST_RUNTIME: "claude", ...FAST, ...env });
    piKnowsFake(w.box.home);
    return w;
  }
  const ask = (s: ClientSession, args: Record<string, unknown> = {}) => call(s, "consult", { prompt: "Is this loop correct?", capability: "coding", ...args });

  test("answers answer-only (read-only tools) and a follow-up resumes the same pi session", async () => {
    world = await consultWorld();
    const first = envOf(await ask(world.session));
    expect(first).toMatchObject({ ok: true, agent: "a", backend: "pi" });
    expect(first.content).toEqual({ answer: "PONG-FROM-FAKE", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] });
    const again = envOf(await ask(world.session, { consultation_id: first.consultation_id, prompt: "And the edge case?" }));
    expect(again).toMatchObject({ ok: true, consultation_id: first.consultation_id });
    const stored = (await call(world.session, "get_consultation", { id: first.consultation_id })).structuredContent?.native_session_id;
    const native = typeof stored === "string" ? stored : "";
    expect(native).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const answers = runs(world.box.recordings("pi"));
    expect(answers).toHaveLength(2);
    for (const rec of answers) {
      expect(rec.cwd).toMatch(SCRATCH);
      expect(after(rec.argv, "--tools")).toBe("read,grep,find,ls");
      expect(after(rec.argv, "--provider")).toBe("fake");
      expect(rec.argv).toContain("--no-extensions");
      // The person's own agent dir: their credentials, providers and the session to resume.
      expect(rec.env.PI_CODING_AGENT_DIR).toBeUndefined();
    }
    expect(answers[0]?.argv).not.toContain("--session");
    expect(after(answers[1]?.argv ?? [], "--session")).toBe(native);
  });

  test("a write attempted during an answer-only consult fails it closed (pi refused the tool)", async () => {
    world = await consultWorld({ FAKE_PI_SCENARIO: "edits-then-ok" });
    expect(envOf(await ask(world.session))).toMatchObject({ ok: false, error: { code: "action_attempted" } });
  });

  test("responseModel naming another model is configured_model_unavailable", async () => {
    world = await consultWorld({ FAKE_PI_SCENARIO: "wrong-model", FAKE_MODEL: "vendor/other-model-2026" });
    expect(envOf(await ask(world.session))).toMatchObject({ ok: false, error: { code: "configured_model_unavailable" } });
  });

  test("the 429 is rate_limited, and consult does not fall back on its own", async () => {
    world = await consultWorld({ FAKE_PI_SCENARIO: "rate-limit" });
    expect(envOf(await ask(world.session))).toMatchObject({ ok: false, error: { code: "rate_limited" } });
  });
});

describe("pi config and discovery", () => {
  test("a pi agent without provider: is refused, naming the key", async () => {
    box = makeSandbox(FAST);
    box.writeConfig(`agents:\n  p:\n    backend: pi\n    model: fake-model\ntiers:\n  light: [p]\n`);
    const out = await runCliInProcess(["check"], box.env);
    expect(out.code).toBe(1);
    expect(`${out.stdout}${out.stderr}`).toContain("provider");
  }, 60_000);

  test("orchestrate check finds pi in ~/.local/bin with its version and line", async () => {
    box = usualLocationSandbox(["pi"], FAST);
    piKnowsFake(box.home);
    box.writeConfig(`agents:\n  p:\n    backend: pi\n    provider: fake\n    model: fake-model\ntiers:\n  light: [p]\n`);
    const out = await runCliInProcess(["check"], box.env);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(new RegExp(`pi\\s+${join(box.home, ".local", "bin", "pi")} \\(usual location, not on PATH\\) · v0\\.73\\.1`));
  }, 60_000);
});

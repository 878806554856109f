/**
 * Capacity failures end fast, end to end (issue 11 §1), for gemini, copilot, grok and agy — the
 * other four are in capacity.test.ts. A real MCP client and server; the fakes replay each CLI's
 * recorded retry schedule and note each retry signal they print. A persistent 429/503 hands over
 * to the next agent; a single transient one — the very same first line — is still answered by the
 * first agent.
 *
 * Which cases keep the real clock (FAKE_RETRY_SCALE 1), as in capacity.test.ts: one per failure
 * class, the one only the real schedule can prove. Persistent 429 — grok rate-limit (it prints
 * nothing while it retries, so its whole real schedule must end inside 5 s of the start);
 * persistent 503 — gemini overload (the capped attempt and the re-run, each on gemini's real
 * clock, still hand over inside 5 s); transient — copilot transient (its retry line, then the
 * answer after the real gap, which must come before the guard's quiet window). The others run on
 * the fakes' clock 20× faster (FAKE_RETRY_SCALE 0.05): the same lines in the same order, so the
 * same attempts; STRESS=1 runs them all on the real clock. agy's quota case waits out a real 1 s
 * cooldown TTL either way.
 *
 * What each CLI gives a supervisor differs (research retries-and-trust §0, §5):
 *  - copilot: a `model.call_failure` per failed request — the second one trips the guard;
 *  - gemini: its own backoff is a fixed 5 s ±30 % (recorded: 6.15 s), longer than starting it
 *    again, so orchestrate caps it at one attempt (`Attempt 1 failed: … Max attempts reached`, the
 *    result, exit 173/247) and the runner re-runs the agent once: a transient failure (the fake
 *    server's first request) is answered by that re-run, a persistent one hands over after it;
 *  - community grok and agy print nothing while they retry; their whole schedule is seconds long
 *    (grok's SDK: 2 retries of ~1 s) or ends at once (agy's exhausted quota, exit 3).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Recording, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

const REAL = { FAKE_RETRY_SCALE: "1" };
/** The fakes' clock 20× faster: the same lines in the same order. */
const SCALED = { FAKE_RETRY_SCALE: "0.05" };
const STRESS = process.env.STRESS === "1";
/** Per failure class, the case only the real schedule proves (the header says why each). */
const REAL_CLOCK = new Set(["grok rate-limit", "gemini overload", "copilot transient"]);
const clock = (cli: string, scenario: string) =>
  STRESS || REAL_CLOCK.has(`${cli} ${scenario}`) ? { env: REAL, name: "on the real clock" } : { env: SCALED, name: "on a 20× clock" };

interface Backend {
  config: (env: Record<string, string>) => string;
  scenarioVar: string;
  /** Model runs only (not version, help or readiness probes). */
  isRun: (r: Recording) => boolean;
  setup?: (home: string) => void;
  /** The runner re-runs the agent once after a capacity failure (the backend's capacityRerun trait). */
  rerun?: true;
}

const envBlock = (env: Record<string, string>) =>
  `env: { ${Object.entries(env)
    .map(([k, v]) => `${k}: "${v}"`)
    .join(", ")} }`;
const tiers = "tiers: { light: null, standard: null, heavy: [a1, a2] }\n";

const BACKENDS: Record<string, Backend> = {
  gemini: {
    config: (env) =>
      `agents:\n  a1: { backend: gemini, model: gemini-2.5-pro, ${envBlock(env)} }\n  a2: { backend: gemini, model: gemini-2.5-flash }\n${tiers}`,
    scenarioVar: "FAKE_GEMINI_SCENARIO",
    isRun: (r) => r.argv.includes("stream-json"),
    rerun: true,
  },
  copilot: {
    config: (env) => `agents:\n  a1: { backend: copilot, model: gpt-5, ${envBlock(env)} }\n  a2: { backend: copilot, model: gpt-4o }\n${tiers}`,
    scenarioVar: "FAKE_COPILOT_SCENARIO",
    isRun: (r) => r.argv.includes("--output-format"),
  },
  grok: {
    config: (env) => `agents:\n  a1: { backend: grok, model: grok-4, ${envBlock(env)} }\n  a2: { backend: grok, model: grok-code-fast-1 }\n${tiers}`,
    scenarioVar: "FAKE_GROK_SCENARIO",
    isRun: (r) => r.argv.includes("-p"),
  },
  agy: {
    config: (env) =>
      `agents:\n  a1: { backend: agy, model: gemini-3.8-flash-high, ${envBlock({ ...env, FAKE_AGY_TIME_SCALE: "0" })} }\n  a2: { backend: agy, model: gemini-3.1-pro-high, env: { FAKE_AGY_TIME_SCALE: "0" } }\n${tiers}`,
    scenarioVar: "FAKE_AGY_SCENARIO",
    isRun: (r) => r.argv.includes("stream-json"),
    // agy keeps its login in this file when there is no D-Bus session (research/cli-agy.md §6).
    setup: (home) => {
      mkdirSync(join(home, ".gemini", "antigravity-cli"), { recursive: true });
      writeFileSync(
        join(home, ".gemini", "antigravity-cli", "antigravity-oauth-token"),
        JSON.stringify({ access_token: "ya29.fake", refresh_token: "1//fake", auth_method: "consumer" }),
      );
    },
  },
};

type Attempt = { agent: string; outcome: string; fellBack: boolean; durationMs: number };
const attemptsOf = (reply: ToolReply) => (reply.structuredContent?.attempts ?? []) as Attempt[];

async function route(backend: Backend, env: Record<string, string>, extraConfig = ""): Promise<ToolReply> {
  box = makeSandbox();
  backend.setup?.(box.home);
  box.writeConfig(`${backend.config(env)}${extraConfig}`);
  session = await connectInProcess(box.env);
  return (await session.client.callTool({ name: "route", arguments: { prompt: "do the thing", cwd: box.repo, tier: "heavy" } }, undefined, {
    timeout: 60_000,
  })) as ToolReply;
}

function signals(s: Sandbox): number[] {
  const file = join(s.records, "retry-signals");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => Number(l.split(" ")[0]));
}

const runStarts = (s: Sandbox, backend: Backend, cli: string) =>
  s
    .recordings(cli)
    .filter(backend.isRun)
    .map((r) => (r as unknown as { at: number }).at);

/** The next agent starts within `withinMs` of `from` (the first signal, or the first run's start where the CLI prints none). */
function handsOver(cli: string, from: "signal" | "start", withinMs: number): void {
  const s = box as Sandbox;
  const backend = BACKENDS[cli] as Backend;
  const starts = runStarts(s, backend, cli);
  expect(starts).toHaveLength(backend.rerun ? 3 : 2);
  const origin = from === "signal" ? signals(s)[0] : starts[0];
  expect(origin).toBeDefined();
  expect((starts.at(-1) ?? Infinity) - (origin ?? 0)).toBeLessThan(withinMs);
}

describe("a persistent capacity failure hands over to the next agent", () => {
  const cases: [cli: string, scenario: string, from: "signal" | "start", withinMs: number][] = [
    ["copilot", "rate-limit", "signal", 5000],
    ["copilot", "overload", "signal", 5000],
    ["gemini", "rate-limit", "signal", 5000],
    ["gemini", "overload", "signal", 5000],
    ["grok", "rate-limit", "start", 5000],
    ["grok", "overload", "start", 5000],
    ["agy", "rate-limit", "start", 5000],
  ];
  for (const [cli, scenario, from, withinMs] of cases) {
    const { env, name } = clock(cli, scenario);
    test(`${cli} ${scenario}, ${name}`, async () => {
      const backend = BACKENDS[cli] as Backend;
      const reply = await route(backend, { [backend.scenarioVar]: scenario, ...env });
      expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.fellBack])).toEqual([
        // Re-run, not fallen back from: the same agent ran once more.
        ...(backend.rerun ? [["a1", "unavailable", false]] : []),
        ["a1", "unavailable", true],
        ["a2", "ok", false],
      ]);
      expect(textOf(reply)).toContain("PONG-FROM-FAKE");
      handsOver(cli, from, withinMs);
    }, 60_000);
  }

  test("gemini ran with its retries capped in a private settings copy; the person's own file is untouched", async () => {
    const backend = BACKENDS.gemini as Backend;
    await route(backend, { FAKE_GEMINI_SCENARIO: "rate-limit", ...(STRESS ? REAL : SCALED) });
    const s = box as Sandbox;
    const run = s.recordings("gemini").find(backend.isRun);
    const copy = run?.env.GEMINI_CLI_HOME ?? "";
    expect(copy).not.toBe("");
    expect(copy.startsWith(s.home)).toBe(false);
    // The copy is gone with the run; the person's settings are as the sandbox wrote them.
    expect(existsSync(copy)).toBe(false);
    expect(JSON.parse(readFileSync(join(s.home, ".gemini", "settings.json"), "utf8"))).toEqual({ security: { auth: { selectedType: "oauth-personal" } } });
    // One attempt per run, so one signal each for the run and its re-run: not ten over ~4 minutes.
    expect(signals(s)).toHaveLength(2);
    expect(
      s
        .recordings("gemini")
        .filter(backend.isRun)
        .filter((r) => r.env.GEMINI_CLI_HOME && !r.env.GEMINI_CLI_HOME.startsWith(s.home)),
    ).toHaveLength(3);
  }, 60_000);

  test("agy's exhausted quota cools the agent down until it resets (1h28m45s), not for the default TTL", async () => {
    const backend = BACKENDS.agy as Backend;
    await route(backend, { FAKE_AGY_SCENARIO: "rate-limit" }, "cooldowns: { capacitySec: 1 }\n");
    await Bun.sleep(1500);
    const later = (await session?.client.callTool({ name: "router_dry_run", arguments: { cwd: (box as Sandbox).repo, tier: "heavy" } })) as ToolReply;
    const decisions = (later.structuredContent?.decisions ?? []) as { agent: string; decision: string }[];
    expect(decisions.find((d) => d.agent === "a1")).toMatchObject({ decision: "skip" });
  }, 60_000);
});

describe("one transient failure, the same first line: the first agent still answers", () => {
  for (const cli of Object.keys(BACKENDS)) {
    const { env, name } = clock(cli, "transient");
    test(`${cli} transient, ${name}`, async () => {
      const backend = BACKENDS[cli] as Backend;
      const reply = await route(backend, { [backend.scenarioVar]: "transient", ...env });
      expect(reply.isError).toBeFalsy();
      // gemini: the server's first request failed, the re-run of the same agent answered.
      expect(attemptsOf(reply).map((a) => [a.agent, a.outcome])).toEqual([...(backend.rerun ? [["a1", "unavailable"]] : []), ["a1", "ok"]]);
      expect(textOf(reply)).toContain("PONG-FROM-FAKE");
      expect(runStarts(box as Sandbox, backend, cli)).toHaveLength(backend.rerun ? 2 : 1);
    }, 60_000);
  }
});

describe("a run that already acted stays terminal, capacity or not", () => {
  test("copilot edits, then rate-limited: no fallback", async () => {
    const reply = await route(BACKENDS.copilot as Backend, { FAKE_COPILOT_SCENARIO: "edits-then-fails" });
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply).map((a) => [a.agent, a.fellBack])).toEqual([["a1", false]]);
  }, 60_000);
});

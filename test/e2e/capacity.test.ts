/**
 * Capacity failures end fast, end to end (issue 11 §1), for codex, claude, opencode and pi: a real
 * MCP client, the real server, the fakes replaying each CLI's recorded retry schedule. A persistent
 * 429/503 must hand over to the next agent within 5 s of the first retry signal the fake wrote; a
 * single transient one — the very same first line — must still be answered by the first agent.
 * The fakes note each signal's time in the record dir.
 *
 * Which cases keep the real clock (FAKE_RETRY_SCALE 1): only the real schedule can show that a
 * persistent failure hands over inside 5 s, or that a recovery comes before the guard's quiet
 * window (src/runner/guards.ts CAPACITY_QUIET_MS). One case per failure class keeps it by default,
 * the one nearest its bound: persistent 503 — codex overload (its first line comes after 3 s of
 * silent tries, the second 3.3 s later); persistent 429 — pi rate-limit (its second signal comes
 * 2–4 s after the first); transient 429 — pi transient (it waits 2 s before answering); transient
 * 503 — opencode transient-overload (its 2 s backoff ±25 %). The others run on the fakes' clock
 * 20× faster (FAKE_RETRY_SCALE 0.05): the same lines in the same order, so the guard's decision
 * (a second signal trips, a first never does) and the attempts are the same; the schedule alone is
 * not theirs to prove. STRESS=1 runs every case on the real clock. The retry-after and TTL cases
 * below keep it too: a 30 s wait must not be sat out.
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

/** The real schedule: what each CLI would make a caller wait for. */
const REAL = { FAKE_RETRY_SCALE: "1" };
/** The fakes' clock 20× faster: the same lines in the same order. */
const SCALED = { FAKE_RETRY_SCALE: "0.05" };
const STRESS = process.env.STRESS === "1";
/** Per failure class, the case nearest its bound (the header says why each). */
const REAL_CLOCK = new Set(["codex overload", "pi rate-limit", "pi transient", "opencode transient-overload"]);
const clock = (cli: string, scenario: string) =>
  STRESS || REAL_CLOCK.has(`${cli} ${scenario}`) ? { env: REAL, name: "on the real clock" } : { env: SCALED, name: "on a 20× clock" };

interface Backend {
  /** Two agents of one provider, the first under test; `{first}` is replaced by its env block. */
  config: (env: Record<string, string>) => string;
  scenarioVar: string;
  /** Model runs only (not version, help or readiness probes). */
  isRun: (r: Recording) => boolean;
  setup?: (home: string) => void;
}

const envBlock = (env: Record<string, string>) =>
  `env: { ${Object.entries(env)
    .map(([k, v]) => `${k}: "${v}"`)
    .join(", ")} }`;
const tiers = "tiers: { light: null, standard: null, heavy: [a1, a2] }\n";

const BACKENDS: Record<string, Backend> = {
  codex: {
    config: (env) => `agents:\n  a1: { backend: codex, model: gpt-5.5, ${envBlock(env)} }\n  a2: { backend: codex, model: gpt-5.5 }\n${tiers}`,
    scenarioVar: "FAKE_CODEX_SCENARIO",
    isRun: (r) => r.argv[0] === "exec" && r.argv.includes("--json"),
  },
  claude: {
    config: (env) => `agents:\n  a1: { backend: claude, model: opus, ${envBlock(env)} }\n  a2: { backend: claude, model: sonnet }\n${tiers}`,
    scenarioVar: "FAKE_CLAUDE_SCENARIO",
    isRun: (r) => r.argv.includes("-p"),
  },
  opencode: {
    config: (env) =>
      `agents:\n  a1: { backend: opencode, model: openai/gpt-5, ${envBlock(env)} }\n  a2: { backend: opencode, model: openai/gpt-5.5 }\n${tiers}`,
    scenarioVar: "FAKE_OPENCODE_SCENARIO",
    isRun: (r) => r.argv[0] === "run",
  },
  pi: {
    config: (env) =>
      `agents:\n  a1: { backend: pi, provider: fake, model: fake-model, ${envBlock(env)} }\n  a2: { backend: pi, provider: fake, model: other-model }\n${tiers}`,
    scenarioVar: "FAKE_PI_SCENARIO",
    isRun: (r) => r.argv.includes("--mode"),
    // The person's pi knows provider `fake` from its models.json, as a real pi would.
    setup: (home) => {
      const dir = join(home, ".pi", "agent");
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "models.json"),
        JSON.stringify({
          providers: {
            fake: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "dummy", models: [{ id: "fake-model" }, { id: "other-model" }] },
          },
        }),
      );
    },
  },
};

type Attempt = { agent: string; outcome: string; fellBack: boolean; durationMs: number };
const attemptsOf = (reply: ToolReply) => (reply.structuredContent?.attempts ?? []) as Attempt[];

async function route(backend: Backend, env: Record<string, string>): Promise<ToolReply> {
  box = makeSandbox();
  backend.setup?.(box.home);
  box.writeConfig(backend.config(env));
  session = await connectInProcess(box.env);
  return (await session.client.callTool({ name: "route", arguments: { prompt: "do the thing", cwd: box.repo, tier: "heavy" } })) as ToolReply;
}

/** When the fake wrote its retry signals (epoch ms), from the record dir. */
function signals(s: Sandbox): number[] {
  const file = join(s.records, "retry-signals");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => Number(l.split(" ")[0]));
}

/** When each model run started (its recording's `at`), in order. */
const runStarts = (s: Sandbox, backend: Backend, cli: string) =>
  s
    .recordings(cli)
    .filter(backend.isRun)
    .map((r) => (r as unknown as { at: number }).at);

// codex and opencode: the 503, whose first line comes late (codex: after 3 s of silent HTTP
// tries) and whose retries are spaced by a growing backoff; claude and pi: the 429.
const PERSISTENT: Record<string, string[]> = {
  codex: ["overload", "rate-limit"],
  claude: ["rate-limit", "overload"],
  opencode: ["overload", "rate-limit"],
  pi: ["rate-limit", "overload"],
};

describe("a persistent capacity failure falls back within 5 s of the first retry signal", () => {
  for (const [cli, scenarios] of Object.entries(PERSISTENT)) {
    for (const scenario of scenarios) {
      const { env, name } = clock(cli, scenario);
      test(`${cli} ${scenario}, ${name}`, async () => {
        const backend = BACKENDS[cli] as Backend;
        const reply = await route(backend, { [backend.scenarioVar]: scenario, ...env });
        expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.fellBack])).toEqual([
          ["a1", "unavailable", true],
          ["a2", "ok", false],
        ]);
        expect(textOf(reply)).toContain("PONG-FROM-FAKE");
        const [first] = signals(box as Sandbox);
        const starts = runStarts(box as Sandbox, backend, cli);
        expect(first).toBeDefined();
        expect(starts).toHaveLength(2);
        // From the first line a supervisor could act on to the next agent's start.
        expect((starts[1] ?? Infinity) - (first ?? 0)).toBeLessThan(5000);
      }, 60_000);
    }
  }
});

describe("one transient failure, the same first line: the first agent still answers", () => {
  for (const cli of Object.keys(BACKENDS)) {
    for (const scenario of ["transient", "transient-overload"]) {
      const { env, name } = clock(cli, scenario);
      test(`${cli} ${scenario}, ${name}`, async () => {
        const backend = BACKENDS[cli] as Backend;
        const reply = await route(backend, { [backend.scenarioVar]: scenario, ...env });
        expect(reply.isError).toBeFalsy();
        expect(attemptsOf(reply).map((a) => [a.agent, a.outcome])).toEqual([["a1", "ok"]]);
        expect(textOf(reply)).toContain("PONG-FROM-FAKE");
        expect(runStarts(box as Sandbox, backend, cli)).toHaveLength(1);
      }, 60_000);
    }
  }
});

describe("a provider's long retry-after", () => {
  test("claude announcing retry-after 30: fall back at once, and the agent cools down at least that long", async () => {
    const backend = BACKENDS.claude as Backend;
    box = makeSandbox();
    // A short capacity TTL, so only the provider's wait can make the cooldown outlast it.
    box.writeConfig(`${backend.config({ FAKE_CLAUDE_SCENARIO: "rate-limit", FAKE_RETRY_AFTER: "30", ...REAL })}cooldowns: { capacitySec: 1 }\n`);
    session = await connectInProcess(box.env);
    const started = Date.now();
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.fellBack])).toEqual([
      ["a1", "unavailable", true],
      ["a2", "ok", false],
    ]);
    // It did not sit out the 30 s itself.
    expect(Date.now() - started).toBeLessThan(10_000);
    await Bun.sleep(1500);
    const later = (await session.client.callTool({ name: "router_dry_run", arguments: { cwd: box.repo, tier: "heavy" } })) as ToolReply;
    const decisions = (later.structuredContent?.decisions ?? []) as { agent: string; decision: string; reason: string }[];
    expect(decisions.find((d) => d.agent === "a1")).toMatchObject({ decision: "skip" });
  }, 60_000);
});

describe("a capacity TTL of 0 keeps cooldowns off", () => {
  test("even when the provider announced a wait: the next call tries the agent again", async () => {
    const backend = BACKENDS.claude as Backend;
    box = makeSandbox();
    box.writeConfig(`${backend.config({ FAKE_CLAUDE_SCENARIO: "rate-limit", FAKE_RETRY_AFTER: "30", ...REAL })}cooldowns: { capacitySec: 0 }\n`);
    session = await connectInProcess(box.env);
    await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } });
    const later = (await session.client.callTool({ name: "router_dry_run", arguments: { cwd: box.repo, tier: "heavy" } })) as ToolReply;
    const decisions = (later.structuredContent?.decisions ?? []) as { agent: string; decision: string }[];
    expect(decisions.find((d) => d.agent === "a1")).toMatchObject({ decision: "include" });
  }, 60_000);
});

describe("a run that already acted stays terminal, capacity or not", () => {
  test("claude edits, then rate-limited: no fallback", async () => {
    const backend = BACKENDS.claude as Backend;
    const reply = await route(backend, { FAKE_CLAUDE_SCENARIO: "edits-then-fails" });
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply).map((a) => [a.agent, a.fellBack])).toEqual([["a1", false]]);
  }, 60_000);
});

/**
 * Each of the six CLIs answers a consult through its fake, answer-only — asserted from the argv and
 * env the fake recorded — and a follow-up reaches the same native session (the id the first run
 * reported). Community grok has no sessions: the follow-up is `resume_unsupported` and runs nothing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import type { Recording } from "../../fakes/lib/sandbox.ts";
import { answerRuns, ask, call, envOf, startWorld, type World } from "./consult-helpers.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const after = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1];
const SCRATCH = /\/orchestrate-consult-[0-9A-Z]{26}$/;

interface Case {
  backend: string;
  model: string;
  env?: Record<string, string>;
  verification: string;
  answerOnly: (rec: Recording) => void;
  resumed: (argv: string[], session: string) => boolean;
}

const CASES: Record<string, Case> = {
  codex: {
    backend: "codex",
    model: "gpt-5.5",
    verification: "verified",
    answerOnly: (rec) => {
      expect(rec.argv.slice(0, 2)).toEqual(["exec", "--json"]);
      expect(rec.argv).toContain("--ignore-user-config");
      expect(rec.argv).toContain("--ignore-rules");
      expect(rec.argv).toContain("--output-schema");
      // First turn: -s read-only; `exec resume` refuses -s, so the resume turn carries the config key.
      const readOnly = after(rec.argv, "-s") === "read-only" || rec.argv.includes('sandbox_mode="read-only"');
      expect(readOnly).toBe(true);
      for (const flag of ["--full-auto", "--dangerously-bypass-approvals-and-sandbox", "--yolo"]) expect(rec.argv).not.toContain(flag);
    },
    resumed: (argv, session) => after(argv, "resume") === session,
  },
  claude: {
    backend: "claude",
    model: "claude-opus-5-5",
    verification: "verified",
    answerOnly: (rec) => {
      expect(after(rec.argv, "--tools")).toBe("");
      expect(rec.argv).toContain("--strict-mcp-config");
      expect(JSON.parse(after(rec.argv, "--mcp-config") ?? "null")).toEqual({ mcpServers: {} });
      expect(after(rec.argv, "--setting-sources")).toBe("");
      expect(after(rec.argv, "--permission-mode")).toBe("dontAsk");
      expect(rec.argv).toContain("--json-schema");
      expect(rec.argv).not.toContain("--dangerously-skip-permissions");
      expect(rec.stdin).toContain("ORCHESTRATE_JSON_ENVELOPE");
    },
    resumed: (argv, session) => after(argv, "--resume") === session,
  },
  opencode: {
    backend: "opencode",
    model: "openai/gpt-5.5",
    verification: "verified",
    answerOnly: (rec) => {
      expect(rec.argv[0]).toBe("run");
      expect(rec.argv).toContain("--pure");
      const config = JSON.parse(rec.env.OPENCODE_CONFIG_CONTENT ?? "{}") as { permission: Record<string, string>; mcp: unknown };
      for (const tool of ["edit", "bash", "webfetch", "task", "external_directory"]) expect(config.permission[tool]).toBe("deny");
      expect(config.permission["*"]).toBe("deny");
      expect(config.mcp).toEqual({});
      // The person's own opencode config is not read: project config off, config home a throw-away dir.
      expect(rec.env.OPENCODE_DISABLE_PROJECT_CONFIG).toBe("true");
      expect(rec.env.XDG_CONFIG_HOME).toContain("orchestrate-home-");
    },
    resumed: (argv, session) => after(argv, "-s") === session,
  },
  gemini: {
    backend: "gemini",
    model: "gemini-3-pro",
    verification: "verified",
    answerOnly: (rec) => {
      expect(after(rec.argv, "--approval-mode")).toBe("default");
      expect(after(rec.argv, "--allowed-mcp-server-names")).toBe("orchestrate-no-mcp");
      expect(after(rec.argv, "-e")).toBe("none");
      expect(rec.env.GEMINI_CLI_TRUST_WORKSPACE).toBe("true");
      for (const flag of ["-y", "--yolo"]) expect(rec.argv).not.toContain(flag);
    },
    resumed: (argv, session) => after(argv, "--resume") === session,
  },
  copilot: {
    backend: "copilot",
    model: "gpt-5.5",
    verification: "verified",
    answerOnly: (rec) => {
      expect(rec.argv).toContain("--deny-tool=shell");
      expect(rec.argv).toContain("--deny-tool=write");
      expect(rec.argv).toContain("--disable-builtin-mcps");
      expect(rec.argv).toContain("--no-ask-user");
      for (const flag of ["--allow-all-tools", "--allow-all", "--yolo"]) expect(rec.argv).not.toContain(flag);
    },
    resumed: (argv, session) => argv.includes(`--resume=${session}`),
  },
  "grok (Grok Build)": {
    backend: "grok",
    model: "grok-code-fast-1",
    env: { FAKE_GROK_VARIANT: "official" },
    verification: "verified",
    answerOnly: (rec) => {
      expect(after(rec.argv, "--output-format")).toBe("streaming-json");
      expect(after(rec.argv, "--cwd")).toMatch(SCRATCH);
      expect(rec.argv).not.toContain("--always-approve");
    },
    resumed: (argv, session) => after(argv, "--resume") === session,
  },
};

describe("consult through each CLI's fake", () => {
  test.each(Object.keys(CASES))("%s answers answer-only and a follow-up resumes the same native session", async (name) => {
    const c = CASES[name] as Case;
    world = await startWorld(
      { a: { backend: c.backend, model: c.model } },
      { ORCHESTRATE_HOST_RUNTIME: c.backend === "claude" ? "codex" : "claude", ...c.env },
    );
    const { box, session } = world;
    const first = envOf(await ask(session));
    expect(first).toMatchObject({ ok: true, agent: "a", backend: c.backend, model_verification: c.verification });
    expect(first.content).toEqual({ answer: "PONG-FROM-FAKE", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] });
    const again = envOf(await ask(session, { consultation_id: first.consultation_id, prompt: "And the edge case?" }));
    expect(again).toMatchObject({ ok: true, consultation_id: first.consultation_id });

    const stored = await call(session, "get_consultation", { id: first.consultation_id });
    const native = stored.structuredContent?.native_session_id as string;
    expect(native).toBeTruthy();
    const runs = answerRuns(box.recordings(c.backend));
    expect(runs).toHaveLength(2);
    for (const rec of runs) {
      c.answerOnly(rec);
      // An empty per-consultation scratch dir, never a project, removed after the turn.
      expect(rec.cwd).toMatch(SCRATCH);
      expect(existsSync(rec.cwd)).toBe(false);
    }
    expect(c.resumed(runs[0]!.argv, native)).toBe(false);
    expect(c.resumed(runs[1]!.argv, native)).toBe(true);
    expect(runs[1]!.cwd).toBe(runs[0]!.cwd);
  });

  test("community grok answers confined to the scratch dir, and a follow-up is resume_unsupported", async () => {
    world = await startWorld({ g: { backend: "grok", model: "grok-code-fast-1" } }, { ORCHESTRATE_HOST_RUNTIME: "claude" });
    const { box, session } = world;
    const first = envOf(await ask(session));
    expect(first).toMatchObject({ ok: true, backend: "grok", content: { answer: "PONG-FROM-FAKE" } });
    // The community CLI reveals no model: never "verified".
    expect(first.model_verification).toBe("unverified");
    const [rec] = answerRuns(box.recordings("grok"));
    expect(after(rec!.argv, "-d")).toMatch(SCRATCH);
    for (const flag of ["-k", "--api-key", "-u", "--base-url", "--output-format"]) expect(rec!.argv).not.toContain(flag);
    const reply = await ask(session, { consultation_id: first.consultation_id });
    expect(reply.isError).toBe(true);
    expect(envOf(reply).error?.code).toBe("resume_unsupported");
    expect(answerRuns(box.recordings("grok"))).toHaveLength(1);
  });

  test("which grok is installed is read from its --help once, not assumed", async () => {
    world = await startWorld({ g: { backend: "grok", model: "grok-code-fast-1" } }, { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_GROK_VARIANT: "official" });
    const { box, session } = world;
    expect(envOf(await ask(session)).ok).toBe(true);
    expect(envOf(await ask(session)).ok).toBe(true);
    const helps = box.recordings("grok").filter((r) => r.argv.includes("--help"));
    expect(helps).toHaveLength(1);
    expect(answerRuns(box.recordings("grok")).every((r) => r.argv.includes("streaming-json"))).toBe(true);
  });
});

describe("a consult whose CLI the runner ran twice", () => {
  test("gemini's one-off 429: the same agent answers on its re-run, and the reply says it ran twice and why", async () => {
    world = await startWorld(
      { gem: { backend: "gemini", model: "gemini-3-pro", env: { FAKE_GEMINI_SCENARIO: "transient", FAKE_RETRY_SCALE: "0.1" } } },
      { ORCHESTRATE_HOST_RUNTIME: "claude" },
    );
    const { box, session } = world;
    const reply = await ask(session);
    const env = envOf(reply) as ReturnType<typeof envOf> & { rerun?: string };
    expect(env).toMatchObject({ ok: true, agent: "gem", content: { answer: "PONG-FROM-FAKE" } });
    expect(answerRuns(box.recordings("gemini"))).toHaveLength(2);
    expect(env.rerun).toContain("the same agent was run once more");
    expect(reply.content.map((c) => c.text).join("\n")).toContain("Run twice:");
  });

  test("an answer on the first run carries no rerun", async () => {
    world = await startWorld({ gem: { backend: "gemini", model: "gemini-3-pro" } }, { ORCHESTRATE_HOST_RUNTIME: "claude" });
    const env = envOf(await ask(world.session)) as ReturnType<typeof envOf> & { rerun?: string };
    expect(env.ok).toBe(true);
    expect(env.rerun).toBeUndefined();
  });
});

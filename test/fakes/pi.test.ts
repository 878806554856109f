/**
 * Fidelity of fakes/pi: spawned with the adapter's own invocation for each release line, parsed
 * and classified by the adapter, and compared record by record with the real captures of 0.73.1
 * and 1.6.0 in fakes/scenarios/pi/captures.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { piAdapter } from "../../src/backends/pi/index.ts";
import { PI_LINE_0, PI_LINE_1 } from "../../src/backends/pi/variant.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import type { ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";
import { alive, outcomeOf, waitForFile } from "../helpers/fake-harness.ts";

const REPO = join(import.meta.dir, "..", "..");
const FAKE = join(REPO, "fakes", "pi");
const CAPTURES = join(REPO, "fakes", "scenarios", "pi", "captures");
const PATH = `${join(REPO, "node_modules", ".bin")}:${dirname(process.execPath)}:${process.env.PATH ?? ""}`;
const ROOT = mkdtempSync(join(tmpdir(), "fake-pi-"));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

type Line = "0.73" | "1.x";
const LINES: [Line, string, string][] = [
  ["0.73", PI_LINE_0, "v0.73.1"],
  ["1.x", PI_LINE_1, "v1.6.0"],
];

interface Sandbox {
  dir: string;
  home: string;
  agentDir: string;
  repo: string;
  scratch: string;
  records: string;
}

/** A HOME whose pi knows one custom provider `fake` (models.json with a price), like the captures. */
function sandbox(models = true): Sandbox {
  const dir = mkdtempSync(join(ROOT, "t-"));
  const s = {
    dir,
    home: join(dir, "home"),
    agentDir: join(dir, "home", ".pi", "agent"),
    repo: join(dir, "repo"),
    scratch: join(dir, "scratch"),
    records: join(dir, "records"),
  };
  for (const d of [s.agentDir, s.repo, s.scratch]) mkdirSync(d, { recursive: true });
  Bun.spawnSync(["git", "init", "-q", s.repo]);
  writeFileSync(join(s.repo, "README.md"), "# demo\n");
  if (models)
    writeFileSync(
      join(s.agentDir, "models.json"),
      JSON.stringify({
        providers: {
          fake: {
            baseUrl: "http://127.0.0.1:9/v1",
            api: "openai-completions",
            apiKey: "dummy",
            models: [{ id: "fake-model", cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }],
          },
        },
      }),
    );
  return s;
}

function envFor(s: Sandbox, line: Line, scenario: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH, HOME: s.home, FAKE_RECORD_DIR: s.records, FAKE_PI_LINE: line, FAKE_PI_SCENARIO: scenario, FAKE_PI_RETRY_SCALE: "0.001", ...extra };
}

interface Ran {
  outcome: ExitOutcome;
  stdout: string;
  stderr: string;
  records: Record<string, unknown>[];
}

function records(s: Sandbox): Record<string, unknown>[] {
  if (!existsSync(s.records)) return [];
  const all: Record<string, unknown>[] = readdirSync(s.records)
    .filter((f) => f.startsWith("pi-") && f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(s.records, f), "utf8")));
  return all.sort((a, b) => Number(a.at) - Number(b.at));
}

async function run(
  s: Sandbox,
  line: Line,
  req: RunRequest,
  scenario: string,
  extra: Record<string, string> = {},
  args?: string[],
  stdinText?: string,
): Promise<Ran> {
  const inv = piAdapter.invocation(req);
  const text = args ? stdinText : inv.stdin;
  const stdin = text === undefined ? "ignore" : new TextEncoder().encode(text);
  const proc = Bun.spawn([FAKE, ...(args ?? inv.args)], { cwd: req.cwd, env: envFor(s, line, scenario, extra), stdin, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  const outcome = outcomeOf(piAdapter, stdout, stderr, proc.signalCode ? null : proc.exitCode, proc.signalCode ? String(proc.signalCode) : null);
  return { outcome, stdout, stderr, records: records(s) };
}

const route = (s: Sandbox, variant: string, extra: Partial<RunRequest> = {}): RunRequest => ({
  mode: "route",
  prompt: "Say PONG",
  cwd: s.repo,
  provider: "fake",
  model: "fake-model",
  variant,
  ...extra,
});
const answer = (s: Sandbox, variant: string, extra: Partial<RunRequest> = {}): RunRequest => ({ ...route(s, variant, extra), mode: "answer", cwd: s.scratch });

/** The record types of a stream, with the assistant/tool messages' roles: the shape to match. */
function shape(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .flatMap((l) => {
      const obj: unknown = JSON.parse(l);
      if (typeof obj !== "object" || obj === null || !("type" in obj) || typeof obj.type !== "string") return [];
      if (obj.type === "entry_appended" || obj.type === "tool_execution_update") return [];
      const message =
        "message" in obj && typeof obj.message === "object" && obj.message !== null && "role" in obj.message ? `:${String(obj.message.role)}` : "";
      return [obj.type.startsWith("message_") ? `${obj.type}${message}` : obj.type];
    });
}

const captured = (name: string) => readFileSync(join(CAPTURES, `${name}.stdout`), "utf8");
const kinds = (o: ExitOutcome) => o.events.map((e) => e.kind);
const captureKinds = (name: string) =>
  captured(name)
    .split("\n")
    .flatMap((l) => piAdapter.parse(l))
    .map((e) => e.kind);

describe("fake pi streams match the real captures, line by line", () => {
  for (const [line, variant, dir] of LINES) {
    const table: [string, string, FailureClass | undefined][] = [
      ["ok", `${dir}/pi-fake-json-basic`, undefined],
      ["auth-fail", `${dir}/pi-fake-json-401`, "auth"],
      ["rate-limit", `${dir}/pi-fake-json-429`, "capacity"],
    ];
    for (const [scenario, real, expected] of table) {
      test(`${line} ${scenario} → ${String(expected)}, record for record like ${real}`, async () => {
        const s = sandbox();
        const r = await run(s, line, route(s, variant), scenario);
        expect(r.outcome.exitCode).toBe(0);
        expect(piAdapter.classify(r.outcome)).toBe(expected);
        const skipUpdates = (x: string[]) => x.filter((t) => !t.startsWith("message_update"));
        expect(skipUpdates(shape(r.stdout))).toEqual(skipUpdates(shape(captured(real))));
        expect(kinds(r.outcome)).toEqual(captureKinds(real));
      });
    }

    test(`${line} tool round trip has the shape of the real bash capture`, async () => {
      const s = sandbox();
      const r = await run(s, line, route(s, variant), "action");
      const noise = (x: string[]) => x.filter((t) => !t.startsWith("message_update"));
      expect(noise(shape(r.stdout))).toEqual(noise(shape(captured(`${dir}/pi-fake-json-toolcall-bash`))));
      expect(existsSync(join(s.repo, "ACTION.txt"))).toBe(true);
      expect(foldEvents(r.outcome.events).acted).toBe(true);
    });
  }

  test("0.73 message_update carries the whole partial message twice; 1.x only the delta and usage", async () => {
    const s = sandbox();
    const old = (await run(s, "0.73", route(s, PI_LINE_0), "ok")).stdout.split("\n").find((l) => l.includes('"text_delta"')) ?? "";
    const now = (await run(s, "1.x", route(s, PI_LINE_1), "ok")).stdout.split("\n").find((l) => l.includes('"text_delta"')) ?? "";
    expect(JSON.parse(old)).toMatchObject({ assistantMessageEvent: { partial: { role: "assistant" } }, message: { role: "assistant" } });
    expect(JSON.parse(now)).toEqual({
      type: "message_update",
      usage: expect.objectContaining({ reasoning: 0 }),
      assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "PONG-FROM-FAKE" },
    });
  });
});

describe("fake pi scenarios through the adapter", () => {
  const table: [string, FailureClass | undefined][] = [
    ["overload", "capacity"],
    ["bad-model", "task_failed"],
    ["empty", "empty_answer"],
    ["bad-json", "bad_output"],
    ["edits-then-ok", undefined],
    ["edits-then-fails", "capacity"],
  ];
  for (const [line, variant] of LINES) {
    for (const [scenario, expected] of table) {
      test(`${line} ${scenario} → ${String(expected)}`, async () => {
        const s = sandbox();
        const r = await run(s, line, route(s, variant), scenario);
        expect(piAdapter.classify(r.outcome)).toBe(expected);
        expect(r.records.at(0)?.argv).toEqual(piAdapter.invocation(route(s, variant)).args);
      });
    }
  }

  test("edits-then-fails edits the tree before failing (exit 0 all the same)", async () => {
    const s = sandbox();
    const r = await run(s, "0.73", route(s, PI_LINE_0), "edits-then-fails");
    expect(r.outcome.exitCode).toBe(0);
    expect(existsSync(join(s.repo, "FAKE_EDIT.txt"))).toBe(true);
  });

  test("wrong-model: responseModel names another model; usage and cost per message", async () => {
    const s = sandbox();
    const r = await run(s, "1.x", route(s, PI_LINE_1), "wrong-model", { FAKE_MODEL: "vendor/other-2026" });
    const folded = foldEvents(r.outcome.events);
    expect(folded.models).toEqual(["vendor/other-2026"]);
    expect(folded.usage).toEqual({ inputTokens: 612, outputTokens: 4, cachedInputTokens: 0, costUsd: 0.001896, turns: 1 });
  });

  test("crash: a partial line, killed by a signal, no verdict → task_failed", async () => {
    const s = sandbox();
    const r = await run(s, "0.73", route(s, PI_LINE_0), "crash");
    expect(r.outcome.signal).toBe("SIGABRT");
    expect(r.outcome.events.some((e) => e.kind === "final")).toBe(false);
    expect(piAdapter.classify(r.outcome)).toBe("task_failed");
  });

  test("rate-limit keeps pi's recorded delays (2 s, 4 s, 8 s), shortened only by FAKE_PI_RETRY_SCALE", async () => {
    const s = sandbox();
    const started = Date.now();
    const r = await run(s, "1.x", route(s, PI_LINE_1), "rate-limit", { FAKE_PI_RETRY_SCALE: "0.01" });
    const elapsed = Date.now() - started;
    expect(r.stdout).toContain('"delayMs":8000');
    expect(elapsed).toBeGreaterThanOrEqual(140);
  });

  test("a 300 KiB prompt arrives whole on stdin; argv never holds it", async () => {
    const s = sandbox();
    const prompt = `${"p".repeat(300 * 1024)} END`;
    const r = await run(s, "1.x", route(s, PI_LINE_1, { prompt }), "ok");
    expect(piAdapter.classify(r.outcome)).toBeUndefined();
    expect(r.records.at(-1)?.stdin).toBe(prompt);
    expect((r.records.at(-1)?.argv as string[]).join(" ")).not.toContain("pppp");
  });

  test("the common FAKE_RETRY_SCALE shortens the same schedule (the sandbox's knob for every fake)", async () => {
    const s = sandbox();
    const started = Date.now();
    await run(s, "1.x", route(s, PI_LINE_1), "rate-limit", { FAKE_PI_RETRY_SCALE: "", FAKE_RETRY_SCALE: "0.01" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  for (const [line, variant] of [
    ["0.73", PI_LINE_0],
    ["1.x", PI_LINE_1],
  ] as const) {
    test(`${line} transient: the same first auto_retry_start as a persistent 429, then the answer`, async () => {
      const s = sandbox();
      const r = await run(s, line, route(s, variant), "transient");
      const retries = r.outcome.events.filter((e) => e.kind === "retry");
      expect(retries).toEqual([
        {
          kind: "retry",
          message:
            "retry 1/3 in 2 s: " +
            (line === "1.x"
              ? '429: {"message":"Rate limit reached for requests. Please try again in 20s.","type":"requests","param":null,"code":"rate_limit_exceeded"}'
              : "429 Rate limit reached for requests. Please try again in 20s."),
          failure: "capacity",
        },
      ]);
      expect(piAdapter.classify(r.outcome)).toBeUndefined();
      expect(foldEvents(r.outcome.events).text).toBe("PONG-FROM-FAKE");
    });
  }
});

describe("fake pi CLI grammar, stdin, credentials, tools, sessions", () => {
  test("records argv and the prompt read from stdin (glued to a positional one with no separator)", async () => {
    const s = sandbox();
    const r = await run(s, "0.73", route(s, PI_LINE_0), "ok");
    expect(r.records[0]).toMatchObject({
      stdin: "Say PONG",
      prompt: "Say PONG",
      cwd: s.repo,
      systemPrompt: "",
      appendSystemPrompt: [""],
      tools: ["read", "bash", "edit", "write"],
    });
    const glued = await run(s, "0.73", route(s, PI_LINE_0), "ok", {}, ["--mode", "json", "--provider", "fake", "Arg prompt"], "extra stdin text\n");
    expect(glued.records.at(-1)?.prompt).toBe("extra stdin textArg prompt");
  });

  test("0.73 refuses the 1.x flags with the real message; 1.x takes them", async () => {
    const s = sandbox();
    const v1args = piAdapter.invocation(route(s, PI_LINE_1)).args;
    const refused = await run(s, "0.73", route(s, PI_LINE_0), "ok", {}, v1args);
    expect(refused.outcome.exitCode).toBe(1);
    expect(refused.stderr).toBe(readFileSync(join(CAPTURES, "v0.73.1/pi-fake-rpc-peer-flags.stderr"), "utf8"));
    expect(refused.stdout).toBe("");
    expect(piAdapter.classify(refused.outcome)).toBe("task_failed");
    expect((await run(s, "1.x", route(s, PI_LINE_1), "ok")).outcome.exitCode).toBe(0);
  });

  test("--version: stderr on 0.73 (stdin not a terminal), stdout on 1.x; the variant reads both", async () => {
    const s = sandbox();
    const old = await run(s, "0.73", route(s, PI_LINE_0), "ok", {}, ["--version"]);
    expect([old.stdout, old.stderr]).toEqual(["", "0.73.1\n"]);
    const now = await run(s, "1.x", route(s, PI_LINE_1), "ok", {}, ["--version"]);
    expect(now.stdout.trim()).toBe("1.6.0");
    expect(piAdapter.variant?.read({ exitCode: 0, stdout: old.stdout, stderr: old.stderr })).toBe(PI_LINE_0);
    expect(piAdapter.variant?.read({ exitCode: 0, stdout: now.stdout, stderr: now.stderr })).toBe(PI_LINE_1);
    const help = await run(s, "0.73", route(s, PI_LINE_0), "ok", {}, ["--help"]);
    expect(help.stderr).toContain("--no-context-files");
    expect(help.stderr).not.toContain("--no-approve");
  });

  test("no credentials: the session header, then `No API key found`, exit 1 → auth", async () => {
    const s = sandbox(false);
    const r = await run(s, "0.73", route(s, PI_LINE_0, { provider: "openai", model: "gpt-5.5" }), "ok");
    expect(r.outcome.exitCode).toBe(1);
    expect(r.stderr).toStartWith("No API key found for openai.");
    expect(kinds(r.outcome)).toEqual(["session"]);
    expect(piAdapter.classify(r.outcome)).toBe("auth");
    const unknown = await run(s, "0.73", route(s, PI_LINE_0, { provider: "nosuchprov" }), "ok");
    expect(unknown.stderr).toBe(readFileSync(join(CAPTURES, "v0.73.1/pi-fake-print-unknown-provider.stderr"), "utf8"));
  });

  test("credentials from the provider's env variable or from auth.json in the agent dir", async () => {
    const s = sandbox(false);
    const req = route(s, PI_LINE_0, { provider: "openai", model: "gpt-5.5" });
    expect(piAdapter.classify((await run(s, "0.73", req, "ok", { OPENAI_API_KEY: "sk-test" })).outcome)).toBeUndefined();
    writeFileSync(join(s.agentDir, "auth.json"), JSON.stringify({ openai: { type: "api_key", key: "sk-test" } }));
    expect(piAdapter.classify((await run(s, "0.73", req, "ok")).outcome)).toBeUndefined();
    const moved = join(s.dir, "elsewhere");
    expect((await run(s, "0.73", req, "ok", { PI_CODING_AGENT_DIR: moved })).outcome.exitCode).toBe(1);
  });

  for (const [line, variant] of LINES) {
    test(`${line} answer mode: read-only tools really refuse a write (\`Tool write not found\`)`, async () => {
      const s = sandbox();
      writeFileSync(join(s.scratch, "README.md"), "# scratch\n");
      const r = await run(s, line, answer(s, variant), "edits-then-ok");
      expect(existsSync(join(s.scratch, "FAKE_EDIT.txt"))).toBe(false);
      const end = r.stdout.split("\n").find((l) => l.includes('"tool_execution_end"')) ?? "{}";
      expect(JSON.parse(end)).toMatchObject({ toolName: "write", isError: true, result: { content: [{ type: "text", text: "Tool write not found" }] } });
      expect(r.records.at(-1)?.tools).toEqual(["read", "grep", "find", "ls"]);
      const read = await run(s, line, answer(s, variant), "read");
      expect(foldEvents(read.outcome.events).acted).toBe(false);
    });
  }

  test("resume: the same session id, the earlier turn loaded; an unknown id fails like pi", async () => {
    const s = sandbox();
    const first = foldEvents((await run(s, "0.73", answer(s, PI_LINE_0, { prompt: "Remember BANANA" }), "ok")).outcome.events);
    const again = await run(s, "0.73", answer(s, PI_LINE_0, { resumeSessionId: first.sessionId! }), "resume");
    const folded = foldEvents(again.outcome.events);
    expect(folded.sessionId).toBe(first.sessionId);
    expect(folded.text).toContain("earlier: Remember BANANA");
    expect(again.records.at(-1)?.resumedMessages).toBe(2);
    const sessions = readdirSync(s.agentDir + "/sessions");
    expect(sessions).toEqual([`--${s.scratch.slice(1).replaceAll("/", "-")}--`]);
    const elsewhere = await run(s, "0.73", route(s, PI_LINE_0, { resumeSessionId: first.sessionId! }), "ok");
    expect([elsewhere.outcome.exitCode, elsewhere.stdout]).toEqual([0, ""]);
    expect(elsewhere.stderr).toContain(`Session found in different project: ${s.scratch}`);
    expect(piAdapter.classify(elsewhere.outcome)).toBe("empty_answer");
    expect(piAdapter.explain?.(elsewhere.outcome)).toContain("another directory");
    const bogus = await run(s, "0.73", answer(s, PI_LINE_0, { resumeSessionId: "deadbeef" }), "ok");
    expect(bogus.outcome.exitCode).toBe(1);
    expect(bogus.stderr).toBe(readFileSync(join(CAPTURES, "v0.73.1/pi-fake-print-session-missing.stderr"), "utf8"));
  });

  test("1.x `pi auth check` and `--list-models`; on 0.73 `auth` is just a prompt", async () => {
    const s = sandbox();
    const ready = await run(s, "1.x", route(s, PI_LINE_1), "ok", {}, ["auth", "check", "--provider", "fake", "--json"]);
    expect([ready.outcome.exitCode, JSON.parse(ready.stdout)]).toEqual([0, { status: "ready", provider: "fake", authType: "api_key" }]);
    const missing = await run(s, "1.x", route(s, PI_LINE_1), "ok", {}, ["auth", "check"]);
    expect([missing.outcome.exitCode, missing.stderr.trim()]).toEqual([2, "Error: Auth checks require --provider <provider> or --model <model>"]);
    const list = await run(s, "1.x", route(s, PI_LINE_1), "ok", {}, piAdapter.models?.argv(PI_LINE_1) ?? []);
    expect(piAdapter.models?.read(list.stdout)).toEqual(["fake/fake-model"]);
    const old = await run(s, "0.73", route(s, PI_LINE_0), "ok", {}, ["--list-models"]);
    expect(old.stdout).toBe("");
    expect(old.stderr).toContain("fake      fake-model");
  });
});

describe("fake pi kill path", () => {
  test("hang: a SIGTERM-ignoring grandchild; killing the group ends both", async () => {
    const s = sandbox();
    const inv = piAdapter.invocation(route(s, PI_LINE_0));
    const proc = Bun.spawn([FAKE, ...inv.args], {
      cwd: s.repo,
      env: envFor(s, "0.73", "hang"),
      stdin: new TextEncoder().encode(inv.stdin ?? ""),
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
    const grandchild = Number((await waitForFile(join(s.records, "grandchildren"))).trim());
    await waitForFile(join(s.records, "hangers"));
    process.kill(-proc.pid, "SIGKILL");
    await proc.exited;
    for (let i = 0; i < 100 && alive(grandchild); i++) await Bun.sleep(10);
    expect(alive(grandchild)).toBe(false);
  });
});

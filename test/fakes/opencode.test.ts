import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { foldEvents } from "../../src/backends/fold.ts";
import { opencodeAdapter } from "../../src/backends/opencode/index.ts";
import { opencodeExportArgv, opencodeModelFromExport } from "../../src/backends/opencode/machine.ts";
import type { RunRequest } from "../../src/backends/contract.ts";
import { type Ran, alive, eventKinds, runCli, runInvocation, transcriptKinds, waitFor, waitForFile } from "../helpers/fake-harness.ts";

const ROOT = join(import.meta.dir, "..", "..");
const FAKE = join(ROOT, "fakes", "opencode");
const FIX = join(ROOT, "test", "fixtures", "opencode");
let tmp = "";

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "fake-opencode-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dirs(name: string): { cwd: string; home: string; rec: string } {
  const base = mkdtempSync(join(tmp, `${name}-`));
  for (const d of ["cwd", "home", "rec", "home/.local/share/opencode"]) Bun.spawnSync(["mkdir", "-p", join(base, d)]);
  // Signed in to these providers the way `opencode auth login` leaves it (research §A.3).
  writeFileSync(
    join(base, "home", ".local", "share", "opencode", "auth.json"),
    JSON.stringify({ fake: { type: "api", key: "dummy" }, anthropic: { type: "api", key: "sk-ant-dummy" }, openai: { type: "api", key: "sk-dummy" } }),
  );
  return { cwd: join(base, "cwd"), home: join(base, "home"), rec: join(base, "rec") };
}

function childEnv(home: string, rec: string, extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
    HOME: home,
    XDG_DATA_HOME: join(home, ".local", "share"),
    FAKE_RECORD_DIR: rec,
    FAKE_RETRY_SCALE: "0.02",
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Runs the fake exactly as the adapter says (stdin closed after the prompt, or no pipe at all). */
async function run(req: Partial<RunRequest>, extra: Record<string, string | undefined> = {}, home?: string): Promise<Ran> {
  const d = dirs("run");
  const full: RunRequest = { mode: "route", prompt: "say pong", cwd: d.cwd, ...req };
  const inv = opencodeAdapter.invocation(full);
  return runInvocation(FAKE, opencodeAdapter, inv, full.cwd, childEnv(home ?? d.home, d.rec, { ...inv.env, ...extra }), d.rec);
}

describe("fake opencode scenarios, classified by the adapter", () => {
  test.each([
    ["ok", undefined, "fake-run-json"],
    ["auth-fail", "auth", "noauth-run-json-unknown-model-printlogs"],
    ["bad-key", "auth", "fake-error401-run-json"],
    ["rate-limit", "capacity", "fake-error429-run-json"],
    ["overload", "capacity", "fake-error529-run-json"],
    ["transport", "transport", "noauth-run-json-300s"],
    // A misspelt model reads exactly as a signed-out provider (research §A.3): fast, clean, auth.
    ["bad-model", "auth", "noauth-run-json-unknown-model-printlogs"],
    ["action", undefined, "fake-toolcall-touch-run-json"],
    ["slow", undefined, "fake-run-json"],
    ["budget", undefined, "fake-run-json"],
    ["wrong-model", undefined, "fake-run-json"],
    ["empty", "empty_answer", undefined],
    ["bad-json", "bad_output", undefined],
    ["edits-then-fails", "capacity", undefined],
    ["edits-then-ok", undefined, undefined],
  ] as const)("%s → %p", async (scenario, expected, real) => {
    const r = await run({ model: "fake/fake-model" }, { FAKE_OPENCODE_SCENARIO: scenario, FAKE_DELAY_MS: "20" });
    expect(opencodeAdapter.classify(r)).toBe(expected);
    expect(r.record.argv).toEqual(opencodeAdapter.invocation({ mode: "route", prompt: "", cwd: r.record.cwd, model: "fake/fake-model" }).args);
    expect(r.record.stdin).toBe("say pong");
    if (real) expect(kinds(r.events)).toEqual(realKinds(real));
  });

  test("edits-then-fails touches the tree and reports the change before failing", async () => {
    const r = await run({}, { FAKE_OPENCODE_SCENARIO: "edits-then-fails" });
    expect(existsSync(join(r.record.cwd, "FAKE_EDIT.txt"))).toBe(true);
    expect(foldEvents(r.events).acted).toBe(true);
    expect(r.exitCode).toBe(1);
  });

  test("budget reports huge usage; action shows an acting bash tool", async () => {
    expect(foldEvents((await run({}, { FAKE_SCENARIO: "budget" })).events).usage).toMatchObject({ inputTokens: 5_000_000, costUsd: 312.5 });
    const acted = await run({ mode: "answer" }, { FAKE_SCENARIO: "action" });
    expect(acted.events).toContainEqual(expect.objectContaining({ kind: "tool", name: "bash", acts: true }));
  });

  test("long emits progress (edits on the page only) then the answer", async () => {
    const r = await run({}, { FAKE_SCENARIO: "long", FAKE_EVENTS: "6", FAKE_EVENT_GAP_MS: "5" });
    expect(opencodeAdapter.classify(r)).toBeUndefined();
    expect(r.events.filter((e) => e.kind === "tool").length).toBe(4);
    expect(r.events.some((e) => e.kind === "file_change")).toBe(true);
    expect(readdirSync(r.record.cwd)).toEqual([]);
  });

  test("crash dies by signal with partial output and no final record", async () => {
    const r = await run({}, { FAKE_SCENARIO: "crash" });
    expect(r.signal).toBe("SIGSEGV");
    expect(r.events.some((e) => e.kind === "final")).toBe(false);
    expect(opencodeAdapter.classify(r)).toBe("task_failed");
  });
});

describe("fake opencode answer mode", () => {
  test("ok answers the JSON envelope when asked; prose-answer does not; json-answer always", async () => {
    const prompt = "question ORCHESTRATE_JSON_ENVELOPE";
    const ok = await run({ mode: "answer", prompt, isolatedHome: tmp }, { FAKE_REPLY: "forty-two" });
    expect(JSON.parse(foldEvents(ok.events).text)).toEqual({ answer: "forty-two", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] });
    expect(ok.record.env.OPENCODE_CONFIG_CONTENT).toContain('"bash":"deny"');
    expect(ok.record.env.XDG_CONFIG_HOME).toBe(tmp);
    expect(foldEvents((await run({ mode: "answer", prompt }, { FAKE_SCENARIO: "prose-answer" })).events).text).toBe("PONG-FROM-FAKE");
    expect(JSON.parse(foldEvents((await run({ mode: "answer" }, { FAKE_SCENARIO: "json-answer" })).events).text).answer).toBe("PONG-FROM-FAKE");
  });

  test("resume keeps the session; an unknown id fails like the real CLI", async () => {
    const home = dirs("resume").home;
    const first = await run({ mode: "answer", model: "fake/fake-model" }, {}, home);
    const id = foldEvents(first.events).sessionId ?? "";
    expect(id).toMatch(/^ses_/);
    const again = await run({ mode: "answer", resumeSessionId: id }, {}, home);
    expect(foldEvents(again.events).sessionId).toBe(id);
    const missing = await run({ mode: "answer", resumeSessionId: "ses_doesnotexist" }, {}, home);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderrTail).toContain("Session not found");
    expect(opencodeAdapter.classify(missing)).toBe("task_failed");
  });

  test("export records the model opencode asked for, even when the server answered as another", async () => {
    const home = dirs("export").home;
    const right = foldEvents((await run({ model: "anthropic/claude-sonnet-4-5" }, {}, home)).events).sessionId ?? "";
    const served =
      foldEvents((await run({ model: "anthropic/claude-sonnet-4-5" }, { FAKE_MODEL: "anthropic/claude-haiku-4-5", FAKE_SCENARIO: "wrong-model" }, home)).events)
        .sessionId ?? "";
    const exp = await cliRun(opencodeExportArgv(right), home);
    expect(exp.err).toContain(`Exporting session: ${right}`);
    expect(opencodeModelFromExport(exp.out)).toBe("anthropic/claude-sonnet-4-5");
    expect(opencodeModelFromExport((await cliRun(opencodeExportArgv(served), home)).out)).toBe("anthropic/claude-sonnet-4-5");
    // …which the adapter reports as requested, not as evidence of what served.
    expect(opencodeAdapter.sideChannel?.kind === "command" && opencodeAdapter.sideChannel.read(exp.out)).toEqual({
      models: ["anthropic/claude-sonnet-4-5"],
      requested: true,
    });
  });
});

describe("fake opencode process behaviour", () => {
  test("hang: a SIGTERM-proof child and grandchild die only with the group SIGKILL", async () => {
    const d = dirs("hang");
    const inv = opencodeAdapter.invocation({ mode: "route", prompt: "x", cwd: d.cwd });
    const proc = Bun.spawn([FAKE, ...inv.args], {
      cwd: d.cwd,
      env: childEnv(d.home, d.rec, { FAKE_SCENARIO: "hang" }),
      stdin: new TextEncoder().encode("x"),
      stdout: "pipe",
      detached: true,
    });
    const reader = proc.stdout.getReader();
    const first = await reader.read();
    expect(opencodeAdapter.parse(new TextDecoder().decode(first.value))[0]?.kind).toBe("session");
    const grandchild = Number((await waitForFile(join(d.rec, "grandchildren"))).trim());
    await waitForFile(join(d.rec, "hangers"));
    process.kill(-proc.pid, "SIGTERM");
    expect(await Promise.race([proc.exited.then(() => "exited"), Bun.sleep(300).then(() => "alive")])).toBe("alive");
    process.kill(-proc.pid, "SIGKILL");
    const started = Date.now();
    await proc.exited;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(proc.signalCode).toBe("SIGKILL");
    await waitFor(() => !alive(grandchild));
  });

  test("silent: one session line, then nothing until SIGTERM ends it", async () => {
    const d = dirs("silent");
    const proc = Bun.spawn([FAKE, ...opencodeAdapter.invocation({ mode: "route", prompt: "x", cwd: d.cwd }).args], {
      cwd: d.cwd,
      env: childEnv(d.home, d.rec, { FAKE_SCENARIO: "silent" }),
      stdin: new TextEncoder().encode("x"),
      stdout: "pipe",
    });
    const first = await proc.stdout.getReader().read();
    expect(new TextDecoder().decode(first.value).trim().split("\n")).toHaveLength(1);
    proc.kill("SIGTERM");
    await proc.exited;
    expect(proc.signalCode).toBe("SIGTERM");
  });

  test("an open stdin pipe blocks the run until it is closed (as the real opencode does)", async () => {
    const d = dirs("pipe");
    const proc = Bun.spawn([FAKE, ...opencodeAdapter.invocation({ mode: "route", prompt: "x", cwd: d.cwd }).args], {
      cwd: d.cwd,
      env: childEnv(d.home, d.rec, {}),
      stdin: "pipe",
      stdout: "pipe",
    });
    proc.stdin.write("late prompt");
    proc.stdin.flush();
    const early = await Promise.race([proc.exited.then(() => "exited"), Bun.sleep(400).then(() => "waiting")]);
    expect(early).toBe("waiting");
    proc.stdin.end();
    expect(await proc.exited).toBe(0);
  });

  test("version, help (with a dropped flag), models, auth list, no message", async () => {
    const home = dirs("cli").home;
    expect((await cliRun(["--version"], home)).out.trim()).toBe("1.18.33");
    expect((await cliRun(opencodeAdapter.probes.help, home)).out).toContain("--pure");
    expect((await cliRun(opencodeAdapter.probes.help, home, { FAKE_HELP_DROP_FLAG: "--pure" })).out).not.toContain("--pure");
    expect((await cliRun(["models"], home, { FAKE_MODELS: "a/x,b/y" })).out).toBe("a/x\nb/y\n");
    expect((await cliRun(["auth", "list"], home)).out).toContain("3 credentials");
    expect((await cliRun(["auth", "list"], home, { FAKE_SCENARIO: "auth-fail" })).out).toContain("0 credentials");
    const none = await cliRun(["run", "--format", "json"], home);
    expect(none.code).toBe(1);
    expect(none.err).toContain("You must provide a message or a command");
    const bad = await cliRun(["run", "--nope", "x"], home);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("Unknown argument: nope");
  });
});

/** Every stdout and stderr line with the ms since spawn it arrived at: the retry schedule as a supervisor sees it. */
async function timed(
  req: Partial<RunRequest>,
  extra: Record<string, string>,
  home?: string,
): Promise<{ lines: { at: number; stream: "out" | "err"; line: string }[]; code: number }> {
  const d = dirs("timed");
  const full: RunRequest = { mode: "route", prompt: "say pong", cwd: d.cwd, ...req };
  const inv = opencodeAdapter.invocation(full);
  const started = performance.now();
  const proc = Bun.spawn([FAKE, ...inv.args], {
    cwd: d.cwd,
    env: childEnv(home ?? d.home, d.rec, { ...inv.env, ...extra }),
    stdin: new TextEncoder().encode(inv.stdin ?? ""),
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: { at: number; stream: "out" | "err"; line: string }[] = [];
  const read = async (stream: ReadableStream<Uint8Array>, name: "out" | "err") => {
    let buffered = "";
    for await (const chunk of stream) {
      buffered += new TextDecoder().decode(chunk);
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      for (const line of parts) if (line) lines.push({ at: performance.now() - started, stream: name, line });
    }
  };
  await Promise.all([read(proc.stdout, "out"), read(proc.stderr, "err")]);
  return { lines, code: await proc.exited };
}

/** Divergences from the old, kinder fake; each of these passed against it when it should not have. */
describe("fake opencode is as strict as 1.18.33", () => {
  test("signed out of the model's provider: UnknownError after ~2 s (not a 401), the cause only in the log line", async () => {
    const d = dirs("signed-out");
    writeFileSync(join(d.home, ".local", "share", "opencode", "auth.json"), "{}");
    const started = performance.now();
    const r = await run({ model: "anthropic/claude-sonnet-4-5" }, { FAKE_RETRY_SCALE: "0.1" }, d.home);
    expect(performance.now() - started).toBeGreaterThan(180);
    expect(kinds(r.events)).toEqual(realKinds("noauth-run-json-unknown-model-printlogs"));
    const error = r.events.find((e) => e.kind === "error");
    expect(error?.kind === "error" ? error.message : "").toStartWith("UnknownError: Unexpected server error");
    expect(r.exitCode).toBe(1);
    expect(opencodeAdapter.classify(r)).toBe("auth");
    expect(opencodeAdapter.explain?.(r)).toContain("anthropic/claude-sonnet-4-5");
    // Found where opencode finds them: the provider's key variable, a config apiKey; the free models need none.
    expect(opencodeAdapter.classify(await run({ model: "anthropic/claude-sonnet-4-5" }, { ANTHROPIC_API_KEY: "sk" }, d.home))).toBeUndefined();
    expect(
      opencodeAdapter.classify(
        await run({ model: "mine/m" }, { OPENCODE_CONFIG_CONTENT: JSON.stringify({ provider: { mine: { options: { apiKey: "k" } } } }) }, d.home),
      ),
    ).toBeUndefined();
    expect(opencodeAdapter.classify(await run({ model: "opencode/big-pickle" }, {}, d.home))).toBeUndefined();
    expect((await cliRun(["auth", "list"], d.home, { ANTHROPIC_API_KEY: "sk" })).out).toContain("1 environment variable");
  });

  test("429: stdout silent through 5 retries one retry-after apart; each failure one stderr stream error line at once", async () => {
    const { lines, code } = await timed({ model: "fake/fake-model" }, { FAKE_SCENARIO: "rate-limit", FAKE_RETRY_SCALE: "0.1" });
    const errors = lines.filter((l) => l.stream === "err" && l.line.includes('message="stream error"'));
    expect(errors).toHaveLength(6);
    expect(errors.map((e) => opencodeAdapter.parseStderr?.(e.line)[0])).toEqual(
      Array(6).fill({ kind: "retry", message: "stream error: Rate limit reached for requests. Please try again in 20s.", failure: "capacity" }),
    );
    for (let i = 1; i < errors.length; i++) expect((errors[i]?.at ?? 0) - (errors[i - 1]?.at ?? 0)).toBeGreaterThan(80);
    const out = lines.filter((l) => l.stream === "out");
    expect(out).toHaveLength(1);
    expect(out[0]?.at ?? 0).toBeGreaterThanOrEqual(errors.at(-1)?.at ?? Infinity);
    expect(code).toBe(1);
  });

  test("503: 2 s doubling between tries (recorded 2.19, 4.38, 8.38 s …)", async () => {
    const { lines } = await timed({ model: "fake/fake-model" }, { FAKE_SCENARIO: "overload", FAKE_RETRY_SCALE: "0.02" });
    const at = lines.filter((l) => l.stream === "err" && l.line.includes("stream error")).map((l) => l.at);
    expect(at).toHaveLength(6);
    // 2, 4, 8, 16, 30 s (±25 %), scaled: each gap at least ~1.5× the one before.
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
    expect(gaps[0] ?? 0).toBeGreaterThan(25);
    expect(gaps[3] ?? 0).toBeGreaterThan((gaps[0] ?? 0) * 3);
  });

  test("transient: the same first stream error line, then the answer, exit 0 (transient-opencode-*)", async () => {
    for (const scenario of ["transient", "transient-overload"]) {
      const { lines, code } = await timed({ model: "fake/fake-model" }, { FAKE_SCENARIO: scenario });
      expect(lines.filter((l) => l.stream === "err" && l.line.includes("stream error"))).toHaveLength(1);
      expect(lines.filter((l) => l.stream === "out").map((l) => JSON.parse(l.line).type)).toEqual(["step_start", "text", "step_finish"]);
      expect(code).toBe(0);
    }
  });

  test("a 300 KiB prompt arrives whole on stdin; argv never holds it", async () => {
    const prompt = `${"z".repeat(300 * 1024)} END`;
    const r = await run({ model: "fake/fake-model", prompt });
    expect(opencodeAdapter.classify(r)).toBeUndefined();
    expect(r.record.stdin).toBe(prompt);
    expect(r.record.argv.join(" ")).not.toContain("zzzz");
  });
});

function cliRun(args: string[], home: string, extra: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return runCli(FAKE, args, childEnv(home, join(home, "rec"), extra));
}

const kinds = eventKinds;
const realKinds = (name: string): string[] => transcriptKinds(opencodeAdapter, FIX, name);

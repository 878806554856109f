import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { foldEvents } from "../../src/backends/fold.ts";
import { geminiAdapter } from "../../src/backends/gemini/index.ts";
import type { RunRequest } from "../../src/backends/contract.ts";
import { type Ran, alive, eventKinds, runCli, runInvocation, transcriptKinds, waitFor, waitForFile } from "../helpers/fake-harness.ts";

const ROOT = join(import.meta.dir, "..", "..");
const FAKE = join(ROOT, "fakes", "gemini");
const FIX = join(ROOT, "test", "fixtures", "gemini");
let tmp = "";

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "fake-gemini-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dirs(name: string): { cwd: string; home: string; rec: string } {
  const base = mkdtempSync(join(tmp, `${name}-`));
  for (const d of ["cwd", "home", "rec"]) Bun.spawnSync(["mkdir", "-p", join(base, d)]);
  return { cwd: join(base, "cwd"), home: join(base, "home"), rec: join(base, "rec") };
}

function childEnv(home: string, rec: string, extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
    HOME: home,
    FAKE_RECORD_DIR: rec,
    // Signed in the way the real CLI reads it (research §B.3), and its retry schedule 1000× faster.
    GEMINI_API_KEY: "fake-key",
    FAKE_RETRY_SCALE: "0.001",
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Runs the fake exactly as the adapter says (stdin closed after the prompt, or no pipe at all). */
async function run(req: Partial<RunRequest>, extra: Record<string, string | undefined> = {}, home?: string, trust = true): Promise<Ran> {
  const d = dirs("run");
  const full: RunRequest = { mode: "route", prompt: "say pong", cwd: d.cwd, ...req };
  const inv = geminiAdapter.invocation(full);
  if (trust) trustFolder(home ?? d.home, full.cwd);
  return runInvocation(FAKE, geminiAdapter, inv, full.cwd, childEnv(home ?? d.home, d.rec, { ...inv.env, ...extra }), d.rec);
}

function trustFolder(home: string, cwd: string): void {
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [cwd]: "TRUST_FOLDER" }));
}

describe("fake gemini scenarios, classified by the adapter", () => {
  test.each([
    ["ok", undefined, "fake-p-streamjson-model"],
    ["rate-limit", "capacity", "fake-error429-streamjson"],
    ["overload", "capacity", "fake-error529-streamjson"],
    ["transport", "transport", "fake-error429-streamjson"],
    ["bad-model", "task_failed", "fake-error429-streamjson"],
    ["action", undefined, "fake-toolcall-yolo-streamjson"],
    ["slow", undefined, "fake-p-streamjson-model"],
    ["budget", undefined, "fake-p-streamjson-model"],
    ["wrong-model", undefined, "fake-p-streamjson-model"],
    ["json-answer", undefined, "fake-p-streamjson-model"],
    ["empty", "empty_answer", undefined],
    ["bad-json", "bad_output", undefined],
    ["edits-then-fails", "capacity", undefined],
    ["edits-then-ok", undefined, undefined],
    ["transient", undefined, "fake-p-streamjson-model"],
  ] as const)("%s → %p", async (scenario, expected, real) => {
    const r = await run({ model: "gemini-2.5-flash" }, { FAKE_GEMINI_SCENARIO: scenario, FAKE_DELAY_MS: "20" });
    expect(geminiAdapter.classify(r)).toBe(expected);
    expect(r.record.argv).toEqual(geminiAdapter.invocation({ mode: "route", prompt: "", cwd: r.record.cwd, model: "gemini-2.5-flash" }).args);
    expect(r.record.stdin).toBe("say pong");
    if (real) expect(kinds(r.events)).toEqual(realKinds(real));
  });

  test("auth-fail exits 41 with the real message before anything else", async () => {
    const r = await run({}, { FAKE_SCENARIO: "auth-fail" });
    expect(r.exitCode).toBe(41);
    expect(r.stdout).toBe("");
    expect(r.stderrTail).toContain("Please set an Auth method in your");
    expect(geminiAdapter.classify(r)).toBe("auth");
  });

  test("API errors exit with status % 256", async () => {
    expect((await run({}, { FAKE_SCENARIO: "rate-limit" })).exitCode).toBe(173);
    expect((await run({}, { FAKE_SCENARIO: "overload" })).exitCode).toBe(247);
    expect((await run({ model: "nosuch" }, { FAKE_SCENARIO: "bad-model" })).exitCode).toBe(148);
  });

  test("route in a folder the person never trusted runs, trusted for that run only: nothing written", async () => {
    const d = dirs("untrusted");
    const r = await run({ cwd: d.cwd }, {}, d.home, false);
    expect(r.exitCode).toBe(0);
    expect(geminiAdapter.classify(r)).toBeUndefined();
    expect(existsSync(join(d.home, ".gemini", "trustedFolders.json"))).toBe(false);
    // Without the adapter's variable the same run is refused, the real way: exit 55, no stdout.
    const refused = await run({ cwd: d.cwd }, { GEMINI_CLI_TRUST_WORKSPACE: undefined }, d.home, false);
    expect(refused.exitCode).toBe(55);
    expect(refused.stdout).toBe("");
    expect(refused.stderrTail).toContain('Approval mode overridden to "default" because the current folder is not trusted.');
    expect(refused.stderrTail).toContain("\x1b[31mGemini CLI is not running in a trusted directory.");
    expect(geminiAdapter.classify(refused)).toBe("task_failed");
  });

  test("edits-then-fails touches the tree; long emits tools and edits without touching disk", async () => {
    const fails = await run({}, { FAKE_SCENARIO: "edits-then-fails" });
    expect(existsSync(join(fails.record.cwd, "FAKE_EDIT.txt"))).toBe(true);
    expect(foldEvents(fails.events).acted).toBe(true);
    const long = await run({}, { FAKE_SCENARIO: "long", FAKE_EVENTS: "6", FAKE_EVENT_GAP_MS: "5" });
    expect(geminiAdapter.classify(long)).toBeUndefined();
    expect(long.events.filter((e) => e.kind === "tool" && e.phase === "start").map((e) => e.kind === "tool" && e.name)).toEqual([
      "run_shell_command",
      "replace",
      "run_shell_command",
      "replace",
    ]);
    expect(readdirSync(long.record.cwd)).toEqual([]);
  });

  test("wrong-model and budget show in the result stats; crash dies by signal", async () => {
    const wrong = await run({ model: "gemini-2.5-flash" }, { FAKE_SCENARIO: "wrong-model" });
    expect(foldEvents(wrong.events).models).toEqual(["gemini-3.5-flash"]);
    expect(foldEvents((await run({}, { FAKE_SCENARIO: "budget" })).events).usage.inputTokens).toBe(9_000_000);
    const crash = await run({}, { FAKE_SCENARIO: "crash" });
    expect(crash.signal).toBe("SIGSEGV");
    expect(geminiAdapter.classify(crash)).toBe("task_failed");
  });
});

/** The fake run with any approval flags, trusted by the variable the adapter sets. */
async function runArgs(args: string[], extra: Record<string, string | undefined> = {}, d = dirs("args")): Promise<Ran> {
  const inv = { args: ["-o", "stream-json", ...args], stdin: "say pong" };
  return runInvocation(FAKE, geminiAdapter, inv, d.cwd, childEnv(d.home, d.rec, { GEMINI_CLI_TRUST_WORKSPACE: "true", ...extra }), d.rec);
}

function writeSettings(home: string, settings: unknown): void {
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(join(home, ".gemini", "settings.json"), `// the person's own\n${JSON.stringify(settings)}`);
}

const toolResults = (r: Ran) =>
  r.stdout
    .split("\n")
    .filter((l) => l.includes('"tool_result"'))
    .map((l) => JSON.parse(l) as { status: string; output?: string; error?: { type: string } });

describe("fake gemini is as strict as gemini 0.61.0 (retries-and-trust §4)", () => {
  test("a tool the approval mode does not offer is refused the real way and changes nothing; the mode that offers it runs it", async () => {
    const shell = await runArgs(["--approval-mode", "auto_edit"], { FAKE_SCENARIO: "action" });
    expect(toolResults(shell)).toEqual([
      expect.objectContaining({
        status: "error",
        output: 'Tool "run_shell_command" not found. Did you mean one of: "update_topic", "grep_search", "replace"?',
        error: expect.objectContaining({ type: "tool_not_registered" }),
      }),
    ]);
    expect(shell.stderrTail).toContain('Error executing tool run_shell_command: Tool "run_shell_command" not found.');
    expect(shell.exitCode).toBe(0);
    expect(existsSync(join(shell.record.cwd, "created-by-tool.txt"))).toBe(false);
    const yolo = await runArgs(["--approval-mode", "yolo"], { FAKE_SCENARIO: "action" });
    expect(toolResults(yolo)).toEqual([expect.objectContaining({ status: "success" })]);
    expect(existsSync(join(yolo.record.cwd, "created-by-tool.txt"))).toBe(true);
    // default offers only reads: write_file is refused; auto_edit applies it.
    const readOnly = await runArgs([], { FAKE_SCENARIO: "write" });
    expect(toolResults(readOnly)[0]?.error?.type).toBe("tool_not_registered");
    expect(existsSync(join(readOnly.record.cwd, "README.md"))).toBe(false);
    const edit = await runArgs(["--approval-mode", "auto_edit"], { FAKE_SCENARIO: "write" });
    expect(toolResults(edit)[0]?.status).toBe("success");
    expect(readFileSync(join(edit.record.cwd, "README.md"), "utf8")).toBe("# demo\nwritten-by-delegate\n");
    // A settings defaultApprovalMode widens a run that names no mode.
    const d = dirs("default-mode");
    writeSettings(d.home, { general: { defaultApprovalMode: "yolo" } });
    expect(toolResults(await runArgs([], { FAKE_SCENARIO: "action" }, d))[0]?.status).toBe("success");
  });

  test("trust: only the exact 'true' trusts, 'false' overrides a trusted folder, the settings can switch the gate off", async () => {
    const one = await runArgs(["--approval-mode", "auto_edit"], { GEMINI_CLI_TRUST_WORKSPACE: "1" });
    expect(one.exitCode).toBe(55);
    const d = dirs("trust");
    trustFolder(d.home, d.cwd);
    expect((await runArgs([], { GEMINI_CLI_TRUST_WORKSPACE: undefined }, d)).exitCode).toBe(0);
    expect((await runArgs([], { GEMINI_CLI_TRUST_WORKSPACE: "false" }, d)).exitCode).toBe(55);
    expect((await runArgs(["--skip-trust"], { GEMINI_CLI_TRUST_WORKSPACE: "false" }, d)).exitCode).toBe(0);
    const gateOff = dirs("gate-off");
    writeSettings(gateOff.home, { security: { folderTrust: { enabled: false } } });
    expect((await runArgs([], { GEMINI_CLI_TRUST_WORKSPACE: undefined }, gateOff)).exitCode).toBe(0);
    // TRUST_PARENT on a folder trusts its parent and everything under it.
    const parent = dirs("parent");
    mkdirSync(join(parent.home, ".gemini"), { recursive: true });
    writeFileSync(join(parent.home, ".gemini", "trustedFolders.json"), JSON.stringify({ [join(parent.cwd, "..", "sibling")]: "TRUST_PARENT" }));
    expect((await runArgs([], { GEMINI_CLI_TRUST_WORKSPACE: undefined }, parent)).exitCode).toBe(0);
  });

  test("credentials where gemini reads them: none → 41; a base URL alone is the refused gateway type; OAuth needs its cached creds", async () => {
    const none = await runArgs([], { GEMINI_API_KEY: undefined });
    expect(none.exitCode).toBe(41);
    expect(none.stderrTail).toContain("Please set an Auth method in your");
    expect(geminiAdapter.classify(none)).toBe("auth");
    const gateway = await runArgs([], { GEMINI_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:9" });
    expect(gateway.exitCode).toBe(41);
    expect(gateway.stderrTail).toContain("Invalid auth method selected.");
    const d = dirs("oauth");
    writeSettings(d.home, { security: { auth: { selectedType: "oauth-personal" } } });
    expect((await runArgs([], { GEMINI_API_KEY: undefined }, d)).exitCode).toBe(41);
    writeFileSync(join(d.home, ".gemini", "oauth_creds.json"), "{}");
    expect((await runArgs([], { GEMINI_API_KEY: undefined }, d)).exitCode).toBe(0);
  });

  test("a 429 follows the real schedule: a retry line per attempt, the recorded gaps, general.maxAttempts honoured", async () => {
    const full = await runArgs([], { FAKE_SCENARIO: "rate-limit" });
    expect(full.exitCode).toBe(173);
    expect(full.stderrTail.match(/^Attempt \d+ failed with status 429\. Retrying with backoff/gm)).toHaveLength(9);
    expect(full.stderrTail).toContain("Attempt 10 failed: Resource has been exhausted (e.g. check quota).. Max attempts reached");
    const d = dirs("capped");
    writeSettings(d.home, { general: { maxAttempts: 2 } });
    const capped = await runArgs([], { FAKE_SCENARIO: "rate-limit" }, d);
    expect(capped.exitCode).toBe(173);
    expect(capped.stderrTail.match(/^Attempt \d+ failed/gm)).toEqual(["Attempt 1 failed", "Attempt 2 failed"]);
    expect(geminiAdapter.classify(capped)).toBe("capacity");
    // The same settings read through GEMINI_CLI_HOME, where the runner's private copy points.
    const elsewhere = dirs("elsewhere");
    writeSettings(elsewhere.home, { general: { maxAttempts: 1 } });
    const viaHome = await runArgs([], { FAKE_SCENARIO: "overload", GEMINI_CLI_HOME: elsewhere.home });
    expect(viaHome.stderrTail.match(/^Attempt \d+ failed/gm)).toEqual(["Attempt 1 failed"]);
    expect(viaHome.exitCode).toBe(247);
  });

  test("the gaps are the recorded ones, scaled: the second attempt comes ≥ 6.15 s × scale after the first", async () => {
    const d = dirs("gaps");
    writeSettings(d.home, { general: { maxAttempts: 2 } });
    const ran = await runArgs([], { FAKE_SCENARIO: "rate-limit", FAKE_RETRY_SCALE: "0.02" }, d);
    expect(ran.stderrTail.match(/^Attempt \d+ failed/gm)).toEqual(["Attempt 1 failed", "Attempt 2 failed"]);
    // The fake notes each retry line's time as it writes it (fakes/lib/retries.ts), so the gap is
    // the fake's schedule, not when this process under load got round to reading the pipe.
    const at = readFileSync(join(d.rec, "retry-signals"), "utf8")
      .trim()
      .split("\n")
      .map((line) => Number(line.split(" ")[0]));
    expect(at).toHaveLength(2);
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(6151 * 0.02 - 2); // whole milliseconds, each side
  });

  test("maxAttempts 1 prints what the real gemini prints, noted as the retry signal; transient fails only this server's first request", async () => {
    const d = dirs("transient-once");
    writeSettings(d.home, { general: { maxAttempts: 1 } });
    const first = await runArgs([], { FAKE_SCENARIO: "transient" }, d);
    expect(first.exitCode).toBe(173);
    expect(first.stderrTail.match(/^Attempt \d+ failed.*$/gm)).toEqual([
      "Attempt 1 failed: Resource has been exhausted (e.g. check quota).. Max attempts reached",
    ]);
    expect(geminiAdapter.classify(first)).toBe("capacity");
    expect(first.events.findLast((e) => e.kind === "final")).toMatchObject({ ok: false });
    expect(readFileSync(join(d.rec, "retry-signals"), "utf8").trim().split("\n")).toHaveLength(1);
    // A new process on the same server: the server's second request, answered.
    const second = await runArgs([], { FAKE_SCENARIO: "transient" }, d);
    expect(second.exitCode).toBe(0);
    expect(second.stderrTail).not.toMatch(/^Attempt/m);
    expect(foldEvents(second.events).text).toBe("PONG-FROM-FAKE");
  });

  test("transient: the very first line a persistent failure prints, then the answer", async () => {
    const r = await runArgs([], { FAKE_SCENARIO: "transient" });
    expect(r.exitCode).toBe(0);
    expect(r.stderrTail.match(/^Attempt 1 failed with status 429\. Retrying with backoff/gm)).toHaveLength(1);
    expect(geminiAdapter.classify(r)).toBeUndefined();
    expect(foldEvents(r.events).text).toBe("PONG-FROM-FAKE");
  });
});

describe("fake gemini answer mode", () => {
  test("trust comes from the env the adapter sets; JSON envelope when asked; prose-answer ignores it", async () => {
    const prompt = "question ORCHESTRATE_JSON_ENVELOPE";
    const ok = await run({ mode: "answer", prompt }, { FAKE_REPLY: "forty-two" }, undefined, false);
    expect(geminiAdapter.classify(ok)).toBeUndefined();
    expect(JSON.parse(foldEvents(ok.events).text).answer).toBe("forty-two");
    expect(ok.record.env.GEMINI_CLI_TRUST_WORKSPACE).toBe("true");
    const prose = await run({ mode: "answer", prompt }, { FAKE_SCENARIO: "prose-answer" }, undefined, false);
    expect(foldEvents(prose.events).text).toBe("PONG-FROM-FAKE");
    const acted = await run({ mode: "answer" }, { FAKE_SCENARIO: "action" }, undefined, false);
    expect(foldEvents(acted.events).acted).toBe(true);
  });

  test("resume by uuid keeps the session; an unknown id exits 42 with the real text", async () => {
    const d = dirs("resume");
    const first = await run({ mode: "answer", cwd: d.cwd }, {}, d.home);
    const id = foldEvents(first.events).sessionId ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(readdirSync(join(d.home, ".gemini", "tmp", "cwd", "chats"))).toHaveLength(1);
    const again = await run({ mode: "answer", cwd: d.cwd, resumeSessionId: id }, {}, d.home);
    expect(foldEvents(again.events).sessionId).toBe(id);
    const missing = await run({ mode: "answer", cwd: d.cwd, resumeSessionId: "99999999-2222-4333-8444-555555555555" }, {}, d.home);
    expect(missing.exitCode).toBe(42);
    expect(missing.stderrTail).toContain('Error resuming session: Invalid session identifier "99999999-2222-4333-8444-555555555555"');
    expect(geminiAdapter.classify(missing)).toBe("task_failed");
  });
});

describe("fake gemini process behaviour", () => {
  test("hang: a SIGTERM-proof child and grandchild die only with the group SIGKILL", async () => {
    const d = dirs("hang");
    trustFolder(d.home, d.cwd);
    const inv = geminiAdapter.invocation({ mode: "route", prompt: "x", cwd: d.cwd });
    const proc = Bun.spawn([FAKE, ...inv.args], {
      cwd: d.cwd,
      env: childEnv(d.home, d.rec, { FAKE_SCENARIO: "hang" }),
      stdin: new TextEncoder().encode("x"),
      stdout: "pipe",
      detached: true,
    });
    const grandchild = Number((await waitForFile(join(d.rec, "grandchildren"))).trim());
    await waitForFile(join(d.rec, "hangers"));
    process.kill(-proc.pid, "SIGTERM");
    expect(await Promise.race([proc.exited.then(() => "exited"), Bun.sleep(300).then(() => "alive")])).toBe("alive");
    process.kill(-proc.pid, "SIGKILL");
    const started = Date.now();
    await proc.exited;
    expect(Date.now() - started).toBeLessThan(3000);
    await waitFor(() => !alive(grandchild));
  });

  test("silent: init and the user echo, then nothing until SIGTERM ends it", async () => {
    const d = dirs("silent");
    trustFolder(d.home, d.cwd);
    const proc = Bun.spawn([FAKE, ...geminiAdapter.invocation({ mode: "route", prompt: "x", cwd: d.cwd }).args], {
      cwd: d.cwd,
      env: childEnv(d.home, d.rec, { FAKE_SCENARIO: "silent" }),
      stdin: new TextEncoder().encode("x"),
      stdout: "pipe",
    });
    const reader = proc.stdout.getReader();
    let seen = "";
    while (seen.split("\n").length < 3) seen += new TextDecoder().decode((await reader.read()).value);
    expect(
      seen
        .trim()
        .split("\n")
        .flatMap((l) => geminiAdapter.parse(l))
        .map((e) => e.kind),
    ).toEqual(["session"]);
    proc.kill("SIGTERM");
    await proc.exited;
    expect(proc.signalCode).toBe("SIGTERM");
  });

  test("an open but silent stdin pipe does not block -p (unlike opencode)", async () => {
    const d = dirs("pipe");
    trustFolder(d.home, d.cwd);
    const proc = Bun.spawn([FAKE, "-p", "say pong", "-o", "stream-json"], { cwd: d.cwd, env: childEnv(d.home, d.rec, {}), stdin: "pipe", stdout: "pipe" });
    expect(await proc.exited).toBe(0);
    proc.stdin.end();
  });

  test("version, help (with a dropped flag), argv errors", async () => {
    const home = dirs("cli").home;
    expect((await cliRun(["--version"], home)).out.trim()).toBe("0.61.0");
    expect((await cliRun(geminiAdapter.probes.help, home)).out).toContain("--approval-mode");
    expect((await cliRun(geminiAdapter.probes.help, home, { FAKE_HELP_DROP_FLAG: "--approval-mode" })).out).not.toContain("--approval-mode");
    const both = await cliRun(["-y", "--approval-mode", "yolo", "-p", "x"], home);
    expect(both.code).toBe(1);
    expect(both.err).toContain("Cannot use both --yolo (-y) and --approval-mode together");
    expect((await cliRun(["-o", "xml", "-p", "x"], home)).err).toContain('Given: "xml"');
    expect((await cliRun(["--nope", "-p", "x"], home)).err).toContain("Unknown argument: nope");
  });
});

function cliRun(args: string[], home: string, extra: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return runCli(FAKE, args, childEnv(home, join(home, "rec"), extra));
}

const kinds = eventKinds;
const realKinds = (name: string): string[] => transcriptKinds(geminiAdapter, FIX, name);

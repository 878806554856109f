import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { grokAdapter } from "../../src/backends/grok/index.ts";
import { grokBuildSummaryPath, grokModelFromSummary } from "../../src/backends/grok/machine.ts";
import { grokProbesFor } from "../../src/backends/grok/probes.ts";
import { detectGrokVariant, type GrokVariant } from "../../src/backends/grok/variant.ts";
import type { ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import { eventKinds, isJson, transcriptKinds } from "../helpers/fake-harness.ts";

const FAKE = join(import.meta.dir, "..", "..", "fakes", "grok");
const FIX = join(import.meta.dir, "..", "fixtures", "grok");
/** The fakes start with `#!/usr/bin/env bun`; bun comes from the npm devDependency. */
const BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");
const ROOT = mkdtempSync(join(tmpdir(), "fake-grok-"));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

interface Where {
  home: string;
  cwd: string;
  records: string;
}

function fresh(): Where {
  const dir = mkdtempSync(join(ROOT, "run-"));
  return { home: join(dir, "home"), cwd: dir, records: join(dir, "rec") };
}

function childEnv(where: Where, scenario: string, variant: GrokVariant, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${BIN}:${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
    HOME: where.home,
    FAKE_RECORD_DIR: where.records,
    FAKE_GROK_SCENARIO: scenario,
    FAKE_GROK_VARIANT: variant,
    GROK_API_KEY: "dummy",
    FAKE_RETRY_SCALE: "0.001",
    ...extra,
  };
}

async function runFake(
  req: RunRequest,
  scenario: string,
  extra: Record<string, string> = {},
  where = fresh(),
): Promise<{ outcome: ExitOutcome; stdout: string; stderr: string; where: Where }> {
  const variant: GrokVariant = req.variant === "official" ? "official" : "community";
  const inv = grokAdapter.invocation({ ...req, cwd: where.cwd });
  const env = childEnv(where, scenario, variant, extra);
  for (const key of Object.keys(extra)) if (extra[key] === "") delete env[key];
  const child = Bun.spawn([FAKE, ...inv.args], { cwd: where.cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  await child.exited;
  const lines = stdout.split("\n").filter(Boolean);
  const events = lines.flatMap((l) => grokAdapter.parse(l));
  const raw = lines.filter((l) => !isJson(l)).join("\n");
  return {
    outcome: { exitCode: child.exitCode, signal: child.signalCode === null ? null : String(child.signalCode), events, stderrTail: stderr, rawStdoutTail: raw },
    stdout,
    stderr,
    where,
  };
}

function recorded(dir: string): { argv: string[]; stdinIsTTY: boolean } {
  const file = readdirSync(dir).find((f) => f.startsWith("grok-")) as string;
  return JSON.parse(readFileSync(join(dir, file), "utf8"));
}

const community: RunRequest = { mode: "route", prompt: "say pong", cwd: "", model: "grok-code-fast-1" };
const official: RunRequest = { ...community, variant: "official" };

const TABLE: [string, FailureClass | undefined][] = [
  ["ok", undefined],
  ["auth-fail", "auth"],
  ["rate-limit", "capacity"],
  ["overload", "capacity"],
  ["transport", "transport"],
  ["bad-model", "task_failed"],
  ["edits-then-fails", "capacity"],
  ["edits-then-ok", undefined],
  ["crash", "task_failed"],
  ["bad-json", "bad_output"],
  ["empty", "empty_answer"],
  ["slow", undefined],
  ["action", undefined],
  ["budget", undefined],
  ["json-answer", undefined],
  ["prose-answer", undefined],
  ["wrong-model", undefined],
];

for (const [variant, req] of [
  ["community", community],
  ["official", official],
] as const) {
  describe(`fake grok (${variant}), driven by the adapter's own invocation`, () => {
    for (const [scenario, expected] of TABLE) {
      test(`${scenario} → ${expected ?? "success"}`, async () => {
        const run = await runFake(req, scenario, { FAKE_DELAY_MS: "20" });
        expect(grokAdapter.classify(run.outcome)).toBe(expected as never);
        const rec = recorded(run.where.records);
        expect(rec.argv).toEqual(grokAdapter.invocation({ ...req, cwd: run.where.cwd }).args);
        expect(rec.stdinIsTTY).toBe(false);
      });
    }

    test("--help is detected as this variant; a dropped flag disappears and is then rejected", async () => {
      const where = fresh();
      const sh = (args: string[], extra: Record<string, string> = {}) =>
        Bun.spawnSync([FAKE, ...args], { env: childEnv(where, "ok", variant, extra), cwd: where.cwd });
      const help = sh(grokProbesFor(variant).help).stdout.toString();
      expect(detectGrokVariant(help)).toBe(variant);
      expect(detectGrokVariant(sh(grokProbesFor(variant).version).stdout.toString())).toBe(variant);
      const flag = grokProbesFor(variant).requiredFlags[1]?.flag as string;
      expect(sh(["--help"], { FAKE_HELP_DROP_FLAG: flag }).stdout.toString()).not.toContain(flag);
      expect(sh([flag, "x"], { FAKE_HELP_DROP_FLAG: flag }).exitCode).not.toBe(0);
    });
  });
}

describe("fake grok community fidelity", () => {
  test("ok / 429 / tool round have the real transcripts' event sequences", async () => {
    expect(kinds((await runFake(community, "ok")).outcome.events)).toEqual(transcriptKindsOf("grok-fake-p"));
    expect(kinds((await runFake(community, "rate-limit")).outcome.events)).toEqual(transcriptKindsOf("grok-fake-error429"));
    expect(kinds((await runFake(community, "action")).outcome.events)).toEqual(transcriptKindsOf("grok-fake-toolcall"));
  });

  test("API errors exit 0 with the real apology line, exactly as captured", async () => {
    const run = await runFake(community, "overload");
    expect(run.outcome.exitCode).toBe(0);
    expect(run.stdout).toBe(readFileSync(join(FIX, "grok-fake-error529.stdout"), "utf8").replace("please FAKE_ERROR_529", "say pong"));
  });

  test("no key at all: the real exit-1 stderr", async () => {
    const run = await runFake(community, "auth-fail", { GROK_API_KEY: "" });
    expect(run.outcome.exitCode).toBe(1);
    expect(run.stderr).toBe(readFileSync(join(FIX, "grok-noauth-p.stderr"), "utf8"));
    expect(grokAdapter.classify(run.outcome)).toBe("auth");
  });

  test("every run writes ./.grok/settings.json in the working dir (a real side effect that dirties a tree)", async () => {
    const run = await runFake(community, "ok");
    expect(JSON.parse(readFileSync(join(run.where.cwd, ".grok", "settings.json"), "utf8"))).toEqual({ model: "grok-code-fast-1" });
  });

  test("-k would be persisted and echoed on stdout — the reason the adapter never passes it", () => {
    const where = fresh();
    const out = Bun.spawnSync([FAKE, "-p", "hi", "-k", "sekret"], { env: childEnv(where, "ok", "community"), cwd: where.cwd }).stdout.toString();
    expect(out.split("\n")[0]).toBe("✅ API key saved to ~/.grok/user-settings.json");
    expect(readFileSync(join(where.home, ".grok", "user-settings.json"), "utf8")).toContain("sekret");
  });

  test("envelope marker gets JSON, prose-answer does not", async () => {
    const marked = { ...community, mode: "answer" as const, prompt: "q ORCHESTRATE_JSON_ENVELOPE" };
    expect(JSON.parse(foldEvents((await runFake(marked, "ok")).outcome.events).text).answer).toBe("PONG-FROM-FAKE");
    expect(foldEvents((await runFake(marked, "prose-answer")).outcome.events).text).toBe("PONG-FROM-FAKE");
  });
});

describe("fake grok official sessions and usage", () => {
  test("a run persists summary.json with the model; --resume keeps the id; unknown id fails", async () => {
    const where = fresh();
    const first = await runFake({ ...official, mode: "answer" }, "ok", {}, where);
    const id = foldEvents(first.outcome.events).sessionId as string;
    expect(grokModelFromSummary(readFileSync(grokBuildSummaryPath(where.home, where.cwd, id), "utf8"))).toBe("grok-code-fast-1");
    const again = await runFake({ ...official, mode: "answer", resumeSessionId: id }, "ok", {}, where);
    expect(foldEvents(again.outcome.events).sessionId).toBe(id);
    const missing = await runFake({ ...official, mode: "answer", resumeSessionId: "019e0000-0000-7000-8000-000000000000" }, "ok", {}, where);
    expect(missing.outcome.exitCode).toBe(1);
    expect(grokAdapter.classify(missing.outcome)).toBe("task_failed");
  });

  test("text arrives in chunks whose concatenation is the answer; budget reports huge usage", async () => {
    const run = await runFake(official, "ok");
    const chunks = run.outcome.events.flatMap((e) => (e.kind === "text" ? [e.text] : []));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe("PONG-FROM-FAKE");
    expect(foldEvents((await runFake(official, "budget")).outcome.events).usage.inputTokens).toBeGreaterThan(1_000_000);
  });

  test("wrong-model shows only in the session summary", async () => {
    const run = await runFake(official, "wrong-model");
    const id = foldEvents(run.outcome.events).sessionId as string;
    expect(grokModelFromSummary(readFileSync(grokBuildSummaryPath(run.where.home, run.where.cwd, id), "utf8"))).not.toBe("grok-code-fast-1");
  });

  test("route mode approves tools; answer mode does not", async () => {
    const routed = await runFake(official, "ok");
    expect(recorded(routed.where.records).argv).toContain("--always-approve");
    const answered = await runFake({ ...official, mode: "answer" }, "ok");
    expect(recorded(answered.where.records).argv).not.toContain("--always-approve");
  });
});

describe("fake grok kill paths", () => {
  for (const variant of ["community", "official"] as const) {
    test(`${variant} hang: survives SIGTERM to the group, dies on SIGKILL`, async () => {
      const where = fresh();
      const inv = grokAdapter.invocation({ ...community, variant: variant, cwd: where.cwd });
      const child = Bun.spawn([FAKE, ...inv.args], {
        cwd: where.cwd,
        env: childEnv(where, "hang", variant),
        stdin: "ignore",
        stdout: "ignore",
        stderr: "ignore",
        detached: true,
      });
      while (!existsSync(join(where.records, "hangers"))) {
        if (child.exitCode !== null) throw new Error("fake exited instead of hanging");
        await Bun.sleep(10);
      }
      process.kill(-child.pid, "SIGTERM");
      expect(await Promise.race([child.exited.then(() => false), Bun.sleep(300).then(() => true)])).toBe(true);
      process.kill(-child.pid, "SIGKILL");
      await child.exited;
      expect(child.signalCode).toBe("SIGKILL");
    });
  }

  test("official silent: the first event, then nothing until SIGTERM", async () => {
    const where = fresh();
    const inv = grokAdapter.invocation({ ...official, cwd: where.cwd });
    const child = Bun.spawn([FAKE, ...inv.args], {
      cwd: where.cwd,
      env: childEnv(where, "silent", "official"),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
    });
    const reader = child.stdout.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"type":"thought"');
    child.kill("SIGTERM");
    await child.exited;
    expect(child.signalCode).toBe("SIGTERM");
  });
});

const kinds = eventKinds;
const transcriptKindsOf = (name: string): string[] => transcriptKinds(grokAdapter, FIX, name);

describe("fake community grok is as strict as 0.0.34 (research §D.1, retries-and-trust §1.6)", () => {
  test("the API key is found only where grok looks: --api-key, GROK_API_KEY, ~/.grok/user-settings.json", async () => {
    const none = await runFake(community, "ok", { GROK_API_KEY: "" });
    expect(none.outcome.exitCode).toBe(1);
    expect(none.stderr).toContain(
      '❌ Error: API key required. Set GROK_API_KEY environment variable, use --api-key flag, or set "apiKey" field in ~/.grok/user-settings.json',
    );
    expect(grokAdapter.classify(none.outcome)).toBe("auth");
    const stored = fresh();
    Bun.spawnSync(["mkdir", "-p", join(stored.home, ".grok")]);
    await Bun.write(join(stored.home, ".grok", "user-settings.json"), JSON.stringify({ apiKey: "xai-stored" }));
    expect((await runFake(community, "ok", { GROK_API_KEY: "" }, stored)).outcome.exitCode).toBe(0);
  });

  test("a 429 prints nothing while the SDK retries twice after the provider's retry-after, then the apology, exit 0", async () => {
    const started = performance.now();
    const r = await runFake(community, "rate-limit", { FAKE_RETRY_SCALE: "0.05", FAKE_RETRY_AFTER: "2" });
    // 2 retries × 2 s retry-after × 0.05 = 200 ms at least before the only output.
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    expect(r.outcome.exitCode).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(2);
    expect(grokAdapter.classify(r.outcome)).toBe("capacity");
  });

  test("transient: one retry's wait, then the normal answer", async () => {
    const r = await runFake(community, "transient");
    expect(grokAdapter.classify(r.outcome)).toBeUndefined();
    expect(foldEvents(r.outcome.events).text).toBe("PONG-FROM-FAKE");
  });
});

/**
 * The commands the agent skills call (skills/<name>/SKILL.md), from a shell against the fakes: the same
 * routing as the MCP tools, the answer alone on stdout, the trace on stderr, and exit codes a
 * script can branch on (0 answered, 1 the delegate failed, 2 bad call/config, 3 nobody available).
 *
 * The commands run in this process (runCliInProcess, docs/testing.md): the real dispatch and
 * commands with the env as the whole environment, their stdout, stderr and exit code captured.
 * Spawned where the process is the subject: a prompt piped on a real stdin answered on a real
 * stdout with a real exit, and citty's own --help.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DEMO_CONFIG, demoSandbox } from "../../fakes/lib/demo-world.ts";
import { REPO_ROOT, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { openStore } from "../../src/store/db.ts";
import { orchestrate } from "../setup/helpers.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});
const world = (env: Record<string, string> = {}) => {
  box = demoSandbox(env);
  return box;
};

describe("orchestrate run (the route skill)", () => {
  test("answer on stdout only, trace on stderr, exit 0; the run is in the store like a tool call's", async () => {
    const b = world();
    const out = await runCliInProcess(["run", "--tier", "light", "--cwd", b.repo, "Add a stub"], b.env);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe("PONG-FROM-FAKE\n");
    expect(out.stderr).toContain("Served by light:cheap (opencode");
    expect(out.stderr).toContain("Trace:");
    const store = openStore(b.dbPath, { readonly: true });
    if (!store.ok) throw new Error(store.error.message);
    expect(store.value.runs.listRuns().map((r) => [r.tier, r.status, r.servedBy])).toEqual([["light", "ok", "cheap"]]);
    store.value.close();
  });

  test("the same fallback as route: heavy's rate-limited claude hands over to standard, the trace says so", async () => {
    const b = world();
    const out = await runCliInProcess(["run", "--tier", "heavy", "--cwd", b.repo, "Refactor"], b.env);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe("PONG-FROM-FAKE\n");
    expect(out.stderr).toMatch(/heavy:claude-opus \(claude\) — failed in .* → fell back · rate-limited \(API Error: Request rejected \(429\)/);
    expect(out.stderr).toContain("Served by standard:codex-main");
  });

  test("the prompt can come from stdin; --json puts the whole result on stdout", async () => {
    const b = world();
    // A real process: its own stdin pipe, its stdout, its exit (the others run in this process).
    const out = await orchestrate(["run", "--tier", "light", "--cwd", b.repo, "--json", "-"], b.env, "A task from stdin");
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout) as { ok: boolean; text: string; servedBy: { agent: string }; attempts: unknown[] };
    expect(result).toMatchObject({ ok: true, text: "PONG-FROM-FAKE", servedBy: { agent: "cheap" } });
    const seen = b
      .recordings("opencode")
      .map((r) => `${r.argv.join(" ")} ${r.stdin}`)
      .join("\n");
    expect(seen).toContain("A task from stdin");
  });

  test("exit 1 when the delegate ran and failed; nothing on stdout", async () => {
    const b = world({ FAKE_CODEX_SCENARIO: "crash" });
    const out = await runCliInProcess(["run", "--tier", "standard", "--cwd", b.repo, "Fix it"], b.env);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain("Error [task_failed]");
  });

  test("exit 2 for a bad call: an unknown tier, a cwd outside the roots", async () => {
    const b = world();
    expect((await runCliInProcess(["run", "--tier", "huge", "x"], b.env)).code).toBe(2);
    const outside = await runCliInProcess(["run", "--tier", "light", "--cwd", "/tmp", "x"], b.env);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("cwd_outside_roots");
  });

  test("exit 1 when an agent was tried and was unavailable; exit 3 only when nothing was tried (every entry cooling)", async () => {
    const b = world({ FAKE_OPENCODE_SCENARIO: "auth-fail" });
    const first = await runCliInProcess(["run", "--tier", "light", "--cwd", b.repo, "x"], b.env);
    expect(first.code).toBe(1);
    const cooling = await runCliInProcess(["run", "--tier", "light", "--cwd", b.repo, "x"], b.env);
    expect(cooling.code).toBe(3);
    expect(cooling.stderr).toContain("no_candidates");
    expect(cooling.stderr).toMatch(/cheap: cooling down \(unavailable\) until \d\d:\d\d:\d\d UTC/);
    expect(cooling.stderr).toContain("Next: Run `orchestrate run --dry-run --tier light` to see");
    expect(cooling.stderr).not.toContain("router_dry_run");
  });

  const SIGNED_OUT_CONFIG = `agents:
  codex-main: { backend: codex, model: gpt-5.5 }
  claude-opus: { backend: claude, model: opus }
tiers:
  standard: [codex-main]
  heavy: [claude-opus]
fallbacks: { standard: heavy }
`;

  test("a signed-out CLI is named as such with its sign-in command; the skipped fallback with its rule; history show agrees", async () => {
    const b = world();
    b.writeConfig(SIGNED_OUT_CONFIG);
    rmSync(join(b.home, ".codex", "auth.json"));
    const { OPENAI_API_KEY: _, ...env } = b.env;
    const out = await runCliInProcess(["run", "--tier", "standard", "--cwd", b.repo, "x"], env);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("1. standard:codex-main (codex) — failed in");
    expect(out.stderr).toContain("not signed in · fix: codex login");
    expect(out.stderr).toContain("claude-opus (claude) — heavy: would cross from provider openai to anthropic; set allowCrossProviderFallback: true to allow");
    expect(out.stderr).toContain("ended: not signed in. No fallback");
    expect(out.stderr).toContain("Next: codex login");
    expect(out.stderr).not.toContain("ended unavailable: unavailable");
    const id = /Runs \(1\):\n\s+(\S+)/.exec((await runCliInProcess(["history", "list"], env)).stdout)?.[1] ?? "";
    const shown = (await runCliInProcess(["history", "show", id], env)).stdout;
    expect(shown).toContain("codex-main (codex · gpt-5.5) failed: not signed in · fix: codex login");
    expect(shown).toContain("claude-opus (claude · opus) skipped: heavy: would cross from provider openai");
  });

  test("orchestrate cooldowns lists the live cooldowns the router reads; cooldowns clear AGENT ends one", async () => {
    const b = world();
    b.writeConfig(SIGNED_OUT_CONFIG);
    rmSync(join(b.home, ".codex", "auth.json"));
    const { OPENAI_API_KEY: _, ...env } = b.env;
    expect((await runCliInProcess(["run", "--tier", "standard", "--cwd", b.repo, "x"], env)).code).toBe(1);
    const listed = await runCliInProcess(["cooldowns"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("codex-main (codex · gpt-5.5) — not signed in, until");
    const cleared = await runCliInProcess(["cooldowns", "clear", "codex-main"], env);
    expect(cleared.stdout).toBe("Cleared codex-main's cooldown.\n");
    expect((await runCliInProcess(["cooldowns"], env)).stdout).toBe("No agent is cooling down.\n");
  });

  test("a provider error is named by its status and gets no sign-in advice", async () => {
    const b = world({ FAKE_CODEX_SCENARIO: "overload" });
    b.writeConfig(SIGNED_OUT_CONFIG);
    const out = await runCliInProcess(["run", "--tier", "standard", "--cwd", b.repo, "x"], b.env);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("ended: provider error 503.");
    expect(out.stderr).not.toMatch(/login|signed in/);
  });

  test("the commands the hints name exist: run --dry-run, agents; a typo'd tier gets the nearest one", async () => {
    const b = world();
    const plan = await runCliInProcess(["run", "--dry-run", "--tier", "heavy", "--cwd", b.repo], b.env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("1. heavy:claude-opus → claude/opus");
    expect(plan.stdout).toContain("Nothing was sent.");
    expect(b.recordings()).toEqual([]);
    const agents = await runCliInProcess(["agents"], b.env);
    expect(agents.code).toBe(0);
    expect(agents.stdout).toContain("- codex-main: codex · gpt-5.5 · review 90, coding 85");
    const retry = await runCliInProcess(["review", "--retry", "NOPE"], b.env);
    expect(retry.stderr).toContain('Error [unknown_review]: No review "NOPE" is stored here.');
    expect(retry.stderr).not.toContain("review_list");
    const typo = await runCliInProcess(["run", "--tier", "heavey", "x"], b.env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("Did you mean heavy?");
  });

  test("a missing required flag exits 2 and names the flag", async () => {
    const b = world();
    const out = await runCliInProcess(["run", "x"], b.env);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("Missing required argument: --tier");
  });
});

describe("orchestrate consult (the consult skill)", () => {
  test("the best-scored agent off the host's runtime answers; answer on stdout, model check on stderr", async () => {
    const b = world();
    const out = await runCliInProcess(["consult", "--capability", "review", "Trie or hash map?"], b.env);
    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toBe("PONG-FROM-FAKE");
    expect(out.stderr).toContain("Consulted codex-main (codex · gpt-5.5) · model verified");
    expect(out.stderr).toMatch(/Consultation: \w+ \(pass as --consultation-id/);
  });

  test("--host names the caller's runtime; without any host it refuses (exit 2) and says how to fix it", async () => {
    const b = world();
    const { ORCHESTRATE_HOST_RUNTIME: _, ...env } = b.env;
    const none = await runCliInProcess(["consult", "--capability", "review", "q"], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("host_unknown");
    expect(none.stderr).toContain("Next: Pass --host RUNTIME");
    const codexHost = await runCliInProcess(["consult", "--host", "codex", "--capability", "review", "q"], env);
    expect(codexHost.code).toBe(3);
    expect(codexHost.stderr).toContain("no_eligible_agent");
  });

  test("context from a file goes along; --json carries the whole envelope; a follow-up resumes the same session", async () => {
    const b = world();
    const ctxFile = join(b.root, "ctx.txt");
    await Bun.write(ctxFile, "function lookup(prefix) { /* context line */ }");
    const first = await runCliInProcess(["consult", "--capability", "review", "--context", ctxFile, "--json", "Is this fine?"], b.env);
    expect(first.code).toBe(0);
    const envelope = JSON.parse(first.stdout) as { ok: boolean; consultation_id: string; model_verification: string; content: { answer: string } };
    expect(envelope).toMatchObject({ ok: true, model_verification: "verified", content: { answer: "PONG-FROM-FAKE" } });
    expect(b.recordings("codex").at(-1)?.stdin ?? "").toContain("context line");
    const again = await runCliInProcess(["consult", "--capability", "review", "--consultation-id", envelope.consultation_id, "And now?"], b.env);
    expect(again.code).toBe(0);
    expect(b.recordings("codex").at(-1)?.argv).toContain("resume");
  });

  test("a model other than the configured one: the answer is withheld, exit 1", async () => {
    const b = world({ FAKE_CODEX_SCENARIO: "wrong-model" });
    const out = await runCliInProcess(["consult", "--capability", "review", "q"], b.env);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain("configured_model_unavailable");
  });
});

describe("orchestrate review (the review skill)", () => {
  test("from an agent's shell (no terminal): the plan on stderr, nothing sent, a non-zero exit", async () => {
    const b = world();
    b.writeConfig(`${DEMO_CONFIG}consult:\n  review:\n    reviewers: [codex-main]\n`);
    const file = join(b.repo, "cache.ts");
    await Bun.write(file, "export const cache = new Map();\n");
    const out = await runCliInProcess(["review", "--goal", "Is the cache safe?", `${file}:1-1`], b.env);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain("nothing has been sent");
    expect(out.stderr).toContain("codex-main");
    expect(b.recordings("codex")).toEqual([]);
  });
});

describe("the skills", () => {
  test("each SKILL.md names its command, the streams and the exit codes the commands really use", () => {
    for (const [skill, command] of [
      ["orchestrate-route", "orchestrate run"],
      ["orchestrate-consult", "orchestrate consult"],
      ["orchestrate-review", "orchestrate review"],
    ] as const) {
      const text = readFileSync(join(REPO_ROOT, "skills", skill, "SKILL.md"), "utf8");
      const front = /^---\nname: ([\w-]+)\ndescription: (.+)\n---\n/.exec(text);
      expect(front?.[1]).toBe(skill);
      expect((front?.[2] ?? "").length).toBeGreaterThan(80);
      expect(text).toContain(command);
      expect(text).toContain("**stdout**");
      for (const code of ["`0`", "`1`", "`2`", "`3`", "`130`"]) expect(text).toContain(code);
    }
  });

  test("every flag a skill tells an agent to pass is one its command really takes", async () => {
    const b = world();
    // --help is citty's own (printed and exited inside citty): a real process each, all at once.
    const skills = [
      ["orchestrate-route", "run"],
      ["orchestrate-consult", "consult"],
      ["orchestrate-review", "review"],
    ] as const;
    const helps = await Promise.all(skills.map(([, command]) => orchestrate([command, "--help"], b.env)));
    for (const [i, [skill]] of skills.entries()) {
      const text = readFileSync(join(REPO_ROOT, "skills", skill, "SKILL.md"), "utf8");
      const help = helps[i]?.stdout ?? "";
      const flags = [...new Set([...text.matchAll(/`(--[a-z][a-z-]*)/g)].map((m) => m[1] ?? ""))];
      expect(flags.length).toBeGreaterThan(2);
      for (const flag of flags) expect({ skill, flag, known: help.includes(flag) }).toEqual({ skill, flag, known: true });
    }
  });
});

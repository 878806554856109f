/**
 * Shared plumbing for the fake CLIs in fakes/. Each fake imitates one real CLI's flags, stdin
 * handling, event stream, exit codes and failure modes (from ../shared/research); this file only
 * does what every fake needs: pick a scenario, record what was received, and the hostile behaviours
 * (hang with a SIGTERM-ignoring grandchild, edit the tree, crash).
 *
 * Environment understood by every fake:
 *   FAKE_<CLI>_SCENARIO  scenario for that CLI (e.g. FAKE_CODEX_SCENARIO=rate-limit); wins over
 *   FAKE_SCENARIO        scenario for every fake (default "ok")
 *   FAKE_RECORD_DIR      when set, each invocation writes <cli>-<pid>.json there: argv, stdin, env, cwd
 *   FAKE_REPLY           the answer text (default "PONG-FROM-FAKE")
 *   FAKE_MODEL           the model the fake claims to have used (default: the requested one)
 *   FAKE_DELAY_MS        delay before answering (scenario "slow" too)
 *   FAKE_EVENTS          with scenario "long": number of progress events, FAKE_EVENT_GAP_MS apart
 *   FAKE_LONG_COMMAND    with scenario "long" (claude): the command its Bash tool events run
 *   FAKE_MUTATION        what editTree() does: new-untracked (default), edit-file, delete, rename,
 *                        mode, stage, commit, ignored — on FAKE_MUTATION_FILE (default README.md);
 *                        plant-git: a hostile agent's core.fsmonitor and filter driver in .git,
 *                        each appending its name to FAKE_PLANT_MARKER when run
 *   FAKE_DELAY_ONCE      a file path: FAKE_DELAY_MS applies only to the run that creates it (the
 *                        first); later runs answer at once — a reviewer that times out, then not
 *   FAKE_REVIEW_REPLY    the reply to a review prompt (ORCHESTRATE_REVIEW_ENVELOPE): JSON text, or
 *                        any text for an unparseable reviewer (default: one minor finding)
 */
import { appendFileSync, chmodSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";

export interface FakeContext {
  cli: string;
  argv: string[];
  scenario: string;
  stdin: string;
  reply: string;
  env: NodeJS.ProcessEnv;
}

export function scenarioFor(cli: string): string {
  return process.env[`FAKE_${cli.toUpperCase()}_SCENARIO`] ?? process.env.FAKE_SCENARIO ?? "ok";
}

/** Reads stdin to EOF when it is not a terminal — the way codex, opencode and claude -p do. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Records argv, stdin, env and cwd so tests can prove what was and was not passed. */
export function record(ctx: Pick<FakeContext, "cli" | "argv" | "stdin" | "scenario">, extra: Record<string, unknown> = {}): void {
  const dir = process.env.FAKE_RECORD_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const entry = {
    cli: ctx.cli,
    pid: process.pid,
    pgid: pgidOf(process.pid),
    argv: ctx.argv,
    stdin: ctx.stdin,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env: { ...process.env },
    cwd: process.cwd(),
    scenario: ctx.scenario,
    at: Date.now(),
    ...extra,
  };
  // Written aside and renamed: a test polling the record dir must never read half a file.
  const file = join(dir, `${ctx.cli}-${process.pid}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(entry, null, 2));
  renameSync(`${file}.tmp`, file);
}

/** Appends a note (e.g. a grandchild pid) to the record dir, for kill-path tests. */
export function note(name: string, value: string): void {
  const dir = process.env.FAKE_RECORD_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, name), `${value}\n`);
}

function pgidOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[2]);
  } catch {
    return undefined;
  }
}

export function emit(obj: unknown): void {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts a grandchild that ignores SIGTERM and keeps our stdout open, records both pids, then
 * ignores SIGTERM itself and waits forever — the worst case the kill path must handle.
 */
export async function hangWithGrandchild(): Promise<never> {
  // Ignore SIGTERM before announcing the pids: a test that signals as soon as it reads them must
  // find a process that already ignores it.
  process.on("SIGTERM", () => {
    /* ignored on purpose */
  });
  const child = spawn("sh", ["-c", "trap '' TERM; while :; do sleep 1; done"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  note("grandchildren", String(child.pid));
  note("hangers", String(process.pid));
  for (;;) await sleep(60_000);
}

/**
 * Changes the working tree the way an agent that starts editing does. FAKE_MUTATION picks the
 * kind of change (tests walk the whole list the fingerprint must catch); default: a new file.
 */
export function editTree(name = "FAKE_EDIT.txt"): void {
  const cwd = process.cwd();
  const target = process.env.FAKE_MUTATION_FILE ?? "README.md";
  const git = (...args: string[]) =>
    spawnSync("git", args, {
      cwd,
      stdio: "ignore",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "fake",
        GIT_AUTHOR_EMAIL: "fake@example.invalid",
        GIT_COMMITTER_NAME: "fake",
        GIT_COMMITTER_EMAIL: "fake@example.invalid",
      },
    });
  const mutations: Record<string, () => void> = {
    "new-untracked": () => writeFileSync(join(cwd, name), `edited by fake at ${Date.now()}\n`),
    "edit-file": () => appendFileSync(join(cwd, target), `edited by fake at ${Date.now()}\n`),
    delete: () => rmSync(join(cwd, target)),
    rename: () => renameSync(join(cwd, target), join(cwd, `${target}.renamed`)),
    mode: () => chmodSync(join(cwd, target), 0o755),
    stage: () => git("add", "--", target),
    commit: () => git("commit", "-q", "--allow-empty", "-m", "fake commit"),
    ignored: () => {
      mkdirSync(join(cwd, "ignored"), { recursive: true });
      writeFileSync(join(cwd, "ignored", "cache.txt"), `${Date.now()}\n`);
    },
    // A workflow's isolated_write step: an edit, a new file, a deletion and an ignored file at once.
    "workflow-set": () => {
      appendFileSync(join(cwd, target), "edited by fake\n");
      writeFileSync(join(cwd, "NEW_FILE.txt"), "created by fake\n");
      rmSync(join(cwd, "DELETE_ME.txt"), { force: true });
      mkdirSync(join(cwd, "ignored"), { recursive: true });
      writeFileSync(join(cwd, "ignored", "cache.txt"), "ignored\n");
    },
    // An agent that escapes its worktree: writes into FAKE_OUTSIDE_DIR (the user's checkout in tests).
    outside: () => writeFileSync(join(process.env.FAKE_OUTSIDE_DIR ?? cwd, "ESCAPED.txt"), "written outside the worktree\n"),
    "plant-git": () => {
      const marker = process.env.FAKE_PLANT_MARKER ?? join(cwd, "..", "planted-ran");
      const script = join(cwd, "..", "planted.sh");
      writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${marker}\ncat\n`);
      chmodSync(script, 0o755);
      git("config", "core.fsmonitor", script);
      git("config", "filter.planted.clean", script);
      git("config", "filter.planted.process", script);
      writeFileSync(join(cwd, ".git", "info", "attributes"), "* filter=planted\n");
      // A stat that no longer matches the index makes git hash the file, through the filter.
      const later = new Date(Date.now() + 5000);
      utimesSync(join(cwd, target), later, later);
    },
    "nested-git": () => {
      mkdirSync(join(cwd, "sub"), { recursive: true });
      writeFileSync(join(cwd, "sub", "a.txt"), "nested\n");
      spawnSync("git", ["init", "-q", join(cwd, "sub")], { stdio: "ignore" });
    },
  };
  const mutate = mutations[process.env.FAKE_MUTATION ?? "new-untracked"];
  if (!mutate) throw new Error(`unknown FAKE_MUTATION ${process.env.FAKE_MUTATION}`);
  mutate();
}

export function delayMs(): number {
  const once = process.env.FAKE_DELAY_ONCE;
  if (once) {
    try {
      writeFileSync(once, String(process.pid), { flag: "wx" });
    } catch {
      return 0;
    }
  }
  return Number(process.env.FAKE_DELAY_MS ?? 0);
}

/** Marker of orchestrate's review prompts (src/services/review/envelope.ts). */
const REVIEW_MARKER = "ORCHESTRATE_REVIEW_ENVELOPE";

const DEFAULT_REVIEW = JSON.stringify({
  summary: "Reviewed by the fake.",
  findings: [{ severity: "minor", location: "material", claim: "FINDING-FROM-FAKE", evidence: "the material" }],
  checked: ["the material"],
  not_checked: [],
});

/** What a reviewer replies when the prompt is a review (undefined otherwise): every fake answers reviews alike. */
export function reviewReply(prompt: string, scenario: string): string | undefined {
  if (!prompt.includes(REVIEW_MARKER) || scenario === "empty" || scenario === "prose-answer") return undefined;
  // A file read on every run: a test rewrites it between review rounds.
  const file = process.env.FAKE_REVIEW_REPLY_FILE;
  if (file) return readFileSync(file, "utf8");
  return process.env.FAKE_REVIEW_REPLY ?? DEFAULT_REVIEW;
}

export function replyText(): string {
  return process.env.FAKE_REPLY ?? "PONG-FROM-FAKE";
}

/** Value of a flag given as `--flag value` or `--flag=value` (first match), or undefined. */
export function flagValue(argv: string[], ...names: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    for (const name of names) {
      if (arg === name) return argv[i + 1];
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return undefined;
}

export function hasFlag(argv: string[], ...names: string[]): boolean {
  return argv.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));
}

/** Every value of a repeatable flag (`-c a=1 -c b=2`). */
export function flagValues(argv: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) if (argv[i] === name && argv[i + 1] !== undefined) out.push(argv[i + 1] as string);
  return out;
}

/**
 * The config-attack and roots-escape matrices (test/config/load.test.ts and test/safety/roots.test.ts
 * prove the units one by one): every case goes through BOTH user-facing doors — `orchestrate
 * check` (exit 1, the fix printed) and a real server (route → isError with a config_* / cwd_* code
 * and the fix in the message) — and no fake CLI may ever be spawned. Both run in this process
 * (runCliInProcess, connectInProcess: docs/testing.md), one attack at a time, each with its config
 * as the whole environment; the config is read as a process reads it at start.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { textOf, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { elapsed, toolError, writePrivate } from "./helpers.ts";

const VALID = `agents:
  a: { backend: claude, model: opus }
tiers: { light: null, standard: null, heavy: [a] }
`;
const IS_ROOT = process.getuid?.() === 0;
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh private (0700) dir, realpath'd, to hold one attack. */
function privateDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "orch-attack-")));
  chmodSync(dir, 0o700);
  made.push(dir);
  return dir;
}

interface Attack {
  name: string;
  /** Builds the attack; returns the path ORCHESTRATE_CONFIG will name. */
  plant(dir: string): string;
  code: "config_insecure" | "config_invalid";
  /** What the printed fix must say (computed from the planted paths). */
  fix(path: string, dir: string): string;
  rootOnly?: boolean;
}

const file = (dir: string, text = VALID, mode = 0o600) => {
  const path = join(dir, "config.yaml");
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
  return path;
};
const invalid = (name: string, text: string, fix: string): Attack => ({ name, plant: (dir) => file(dir, text), code: "config_invalid", fix: () => fix });

const ATTACKS: Attack[] = [
  {
    name: "symlink config",
    plant: (dir) => {
      const target = join(dir, "real.yaml");
      writePrivate(target, VALID);
      symlinkSync(target, join(dir, "config.yaml"));
      return join(dir, "config.yaml");
    },
    code: "config_insecure",
    fix: () => "replace the symlink with the file itself",
  },
  {
    // A symlinked parent is judged by where it leads: here a world-writable directory.
    name: "symlink parent into a world-writable dir",
    plant: (dir) => {
      const shared = join(dir, "shared");
      mkdirSync(shared);
      chmodSync(shared, 0o777);
      file(shared);
      symlinkSync(shared, join(dir, "link"));
      return join(dir, "link", "config.yaml");
    },
    code: "config_insecure",
    fix: (_path, dir) => `chmod go-w ${join(dir, "shared")}`,
  },
  ...[0o644, 0o640, 0o660, 0o604, 0o400].map(
    (mode): Attack => ({
      name: `mode 0${mode.toString(8)}`,
      plant: (dir) => file(dir, VALID, mode),
      code: "config_insecure",
      fix: (path) => `chmod 600 ${path}`,
    }),
  ),
  {
    name: "owned by another user (65534)",
    plant: (dir) => {
      const path = file(dir);
      chownSync(path, 65534, 65534);
      return path;
    },
    code: "config_insecure",
    fix: (path) => `chown $USER ${path}`,
    rootOnly: true,
  },
  {
    name: "parent owned by another user (65534)",
    plant: (dir) => {
      const sub = join(dir, "theirs");
      mkdirSync(sub, { mode: 0o700 });
      const path = file(sub);
      chownSync(sub, 65534, 65534);
      return path;
    },
    code: "config_insecure",
    fix: (_path, dir) => `chown $USER ${join(dir, "theirs")}`,
    rootOnly: true,
  },
  ...[0o777, 0o775, 0o757].map(
    (mode): Attack => ({
      name: `parent mode 0${mode.toString(8)}`,
      plant: (dir) => {
        const path = file(dir);
        chmodSync(dir, mode);
        return path;
      },
      code: "config_insecure",
      fix: (_path, dir) => `chmod go-w ${dir}`,
    }),
  ),
  {
    name: "FIFO at the path",
    plant: (dir) => {
      const path = join(dir, "config.yaml");
      if (Bun.spawnSync(["mkfifo", "-m", "600", path]).exitCode !== 0) throw new Error("mkfifo failed");
      return path;
    },
    code: "config_insecure",
    fix: (path) => `replace ${path} with a regular file`,
  },
  {
    name: "directory at the path",
    plant: (dir) => {
      const path = join(dir, "config.yaml");
      mkdirSync(path, { mode: 0o600 });
      return path;
    },
    code: "config_insecure",
    fix: (path) => `replace ${path} with a regular file`,
  },
  {
    name: "character device at the path",
    plant: (dir) => {
      const path = join(dir, "config.yaml");
      if (Bun.spawnSync(["mknod", "-m", "600", path, "c", "1", "3"]).exitCode !== 0) throw new Error("mknod failed");
      return path;
    },
    code: "config_insecure",
    fix: (path) => `replace ${path} with a regular file`,
    rootOnly: true,
  },
  invalid(
    "unknown keys",
    "agents:\n  a: { backend: claude, model: opus, colour: red }\ntiers: { heavy: [a] }\nbogus: 1\n",
    "agents.a.colour: unknown key (remove it",
  ),
  invalid(
    "bad types",
    "agents:\n  a: { backend: claude, model: 42 }\ntiers: { heavy: [a] }\nmaxDepth: two\n",
    "maxDepth: must be a number (was a string) (write a number here)",
  ),
  invalid(
    "sandbox on a non-codex backend",
    "agents:\n  a: { backend: claude, model: opus, sandbox: read-only }\ntiers: { heavy: [a] }\n",
    "agents.a.sandbox: sandbox is codex-only, this entry's backend is claude (remove sandbox",
  ),
  invalid(
    "permissionMode on a non-claude backend",
    "agents:\n  a: { backend: codex, model: gpt-5, permissionMode: acceptEdits }\ntiers: { heavy: [a] }\n",
    "agents.a.permissionMode: permissionMode is claude-only, this entry's backend is codex (remove permissionMode",
  ),
  invalid(
    "provider that disagrees with the backend",
    "agents:\n  a: { backend: claude, model: opus, provider: openai }\ntiers: { heavy: [a] }\n",
    'agents.a.provider: declared "openai" but backend claude always uses "anthropic" (remove provider',
  ),
  invalid(
    "more than 8 tier entries",
    "agents:\n  a: { backend: claude, model: opus }\ntiers: { heavy: [a, a, a, a, a, a, a, a, a] }\n",
    "tiers.heavy: 9 entries, at most 8 allowed (remove 1 of them)",
  ),
  invalid(
    "fallback cycle",
    "agents:\n  a: { backend: claude, model: opus }\ntiers: { light: [a], standard: [a], heavy: [a] }\nfallbacks: { light: standard, standard: heavy, heavy: light }\n",
    "fallback cycle light → standard → heavy → light (remove one of these fallbacks)",
  ),
  invalid(
    "fallback to itself",
    "agents:\n  a: { backend: claude, model: opus }\ntiers: { light: [a], standard: null, heavy: null }\nfallbacks: { light: light }\n",
    "fallbacks.light: light falls back to itself (remove fallbacks.light)",
  ),
];

async function checkCli(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const run = await runCliInProcess(["check"], env);
  return { code: run.code, out: `${run.stdout}${run.stderr}` };
}

interface Verdict {
  name: string;
  check: { code: number; hasFix: boolean };
  server: { isError: boolean; code: string | undefined; hasFix: boolean };
  spawned: number;
}

async function attack(box: Sandbox, a: Attack): Promise<Verdict> {
  const dir = privateDir();
  const path = a.plant(dir);
  const env = { ...box.env, ORCHESTRATE_CONFIG: path };
  const fix = a.fix(path, dir);
  const check = await checkCli(env);
  const session = await connectInProcess(env);
  try {
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    const error = toolError(reply);
    const said = `${error?.message ?? ""}\n${error?.hint ?? ""}\n${textOf(reply)}`;
    return {
      name: a.name,
      check: { code: check.code, hasFix: check.out.includes(fix) },
      server: { isError: reply.isError === true, code: error?.code, hasFix: said.includes(fix) },
      spawned: box.recordings().length,
    };
  } finally {
    await session.close();
  }
}

describe("config-attack matrix", () => {
  test("every attack is refused by `orchestrate check` and by the server, each with its fix", async () => {
    const started = performance.now();
    const box = makeSandbox({});
    try {
      const cases = ATTACKS.filter((a) => IS_ROOT || !a.rootOnly);
      // One at a time: the command and the server each hold this process while they run.
      const verdicts: Verdict[] = [];
      for (const a of cases) verdicts.push(await attack(box, a));
      const want = cases.map(
        (a): Verdict => ({ name: a.name, check: { code: 1, hasFix: true }, server: { isError: true, code: a.code, hasFix: true }, spawned: 0 }),
      );
      expect(verdicts).toEqual(want);
      process.stderr.write(`[reliability] config attacks: ${cases.length} cases × (check + server), ${elapsed(started)} ms\n`);
    } finally {
      box.cleanup();
    }
  }, 120_000);
});

describe("roots-escape matrix", () => {
  test("every escaping cwd is refused by route and router_dry_run with its fix; nothing is spawned", async () => {
    const started = performance.now();
    const box = makeSandbox({});
    try {
      box.writeConfig(VALID);
      const outside = join(box.root, "outside");
      mkdirSync(outside);
      symlinkSync(outside, join(box.projects, "escape"));
      symlinkSync("/", join(box.projects, "to-root"));
      mkdirSync(`${box.projects}-evil`);
      const cases: [name: string, cwd: string, code: string, fix: string][] = [
        ["/", "/", "cwd_outside_roots", "pass the project directory itself"],
        ["//", "//", "cwd_outside_roots", "pass the project directory itself"],
        ["relative", "repo", "cwd_invalid", "pass an absolute path"],
        ["tilde", "~/Projects/repo", "cwd_invalid", "pass an absolute path"],
        ["..", `${box.repo}/../../..`, "cwd_invalid", "without .. segments"],
        [
          "symlink inside the roots pointing outside",
          join(box.projects, "escape"),
          "cwd_outside_roots",
          `add ${outside} (or a parent of it) to ORCHESTRATE_ROOTS`,
        ],
        ["symlink inside the roots pointing at /", join(box.projects, "to-root"), "cwd_outside_roots", "pass the project directory itself"],
        ["path prefix trick", `${box.projects}-evil`, "cwd_outside_roots", `add ${box.projects}-evil (or a parent of it)`],
        ["/proc/self/cwd", "/proc/self/cwd", "cwd_outside_roots", "to ORCHESTRATE_ROOTS"],
        ["nonexistent", join(box.projects, "nope"), "cwd_invalid", "pass an existing directory"],
        ["a file instead of a dir", join(box.repo, "README.md"), "cwd_invalid", "pass the project directory, not a file in it"],
        ["NUL byte", `${box.repo}\u0000/etc`, "cwd_invalid", "pass the absolute path of the project directory"],
      ];
      const session = await connectInProcess(box.env);
      const verdicts: unknown[] = [];
      try {
        for (const [name, cwd, , fix] of cases) {
          for (const tool of ["route", "router_dry_run"]) {
            const args = tool === "route" ? { prompt: "x", cwd, tier: "heavy" } : { cwd, tier: "heavy" };
            const reply = (await session.client.callTool({ name: tool, arguments: args })) as ToolReply;
            const error = toolError(reply);
            verdicts.push({ name, tool, isError: reply.isError === true, code: error?.code, hasFix: `${error?.message}\n${error?.hint}`.includes(fix) });
          }
        }
      } finally {
        await session.close();
      }
      expect(verdicts).toEqual(
        cases.flatMap(([name, , code]) => ["route", "router_dry_run"].map((tool) => ({ name, tool, isError: true, code, hasFix: true }))),
      );
      expect(box.recordings()).toEqual([]);
      process.stderr.write(`[reliability] roots escapes: ${cases.length} cwds × 2 tools, ${elapsed(started)} ms\n`);
    } finally {
      box.cleanup();
    }
  }, 60_000);
});

import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { log } from "../../src/log.ts";
import { checkCwd, resolveRoots } from "../../src/safety/roots.ts";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A real (symlink-free) temp tree: root/ with root/inside, plus outside/ next to it. */
function tree(): { base: string; root: string; inside: string; outside: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "orch-roots-")));
  chmodSync(base, 0o700);
  made.push(base);
  const root = join(base, "root");
  const inside = join(root, "proj");
  const outside = join(base, "outside");
  mkdirSync(inside, { recursive: true });
  mkdirSync(outside);
  return { base, root, inside, outside };
}

function warnings(fn: () => void): string[] {
  const lines: string[] = [];
  const saved = log.options.reporters;
  log.setReporters([{ log: (e) => lines.push(e.args.map(String).join(" ")) }]);
  try {
    fn();
  } finally {
    log.setReporters(saved);
  }
  return lines;
}

function readlinkSafe(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return "";
  }
}

function refusal(result: ReturnType<typeof checkCwd>): { code: string; message: string; hint: string } {
  if (result.ok) throw new Error(`expected a refusal, got ${result.value}`);
  return { code: result.error.code, message: result.error.message, hint: result.error.hint ?? "" };
}

describe("checkCwd", () => {
  test.skipIf(process.platform !== "linux")("a descriptor of a pipe (/proc/self/fd/N, /dev/fd/0 on a pipe) is cwd_invalid, not a throw", async () => {
    const child = Bun.spawn(["cat"], { stdin: "pipe", stdout: "ignore" });
    try {
      // Bun gives a child's stdio a pipe or, in some runners (bun test --parallel workers), a socketpair:
      // either is a descriptor that resolves to no path, which is the case under test.
      const fd = readdirSync("/proc/self/fd").find((n) => /^(pipe|socket):\[/.test(readlinkSafe(`/proc/self/fd/${n}`)));
      if (fd === undefined) throw new Error("no pipe or socket descriptor in this process");
      const error = refusal(checkCwd(`/proc/self/fd/${fd}`, ["/"]));
      expect(error.code).toBe("cwd_invalid");
      expect(error.message).toMatch(/is not a directory \(it resolves to (pipe|socket):\[/);
    } finally {
      child.kill();
      await child.exited;
    }
  });

  test("a directory inside a root is accepted as its realpath; the root itself too", () => {
    const t = tree();
    expect(checkCwd(t.inside, [t.root])).toEqual({ ok: true, value: t.inside });
    expect(checkCwd(t.root, [t.root])).toEqual({ ok: true, value: t.root });
    expect(checkCwd(`${t.inside}/`, [t.root])).toEqual({ ok: true, value: t.inside });
  });

  test("a directory outside every root is refused with the fix", () => {
    const t = tree();
    const error = refusal(checkCwd(t.outside, [t.root]));
    expect(error.code).toBe("cwd_outside_roots");
    expect(error.message).toBe(`cwd ${t.outside} is outside the allowed roots (${t.root})`);
    expect(error.hint).toBe(`add ${t.outside} (or a parent of it) to ORCHESTRATE_ROOTS (colon-separated) or to roots: in the config`);
  });

  test("a sibling sharing the root's name prefix is outside (root-evil is not root)", () => {
    const t = tree();
    const evil = `${t.root}-evil`;
    mkdirSync(evil);
    expect(refusal(checkCwd(evil, [t.root])).code).toBe("cwd_outside_roots");
  });

  test("a symlink inside a root that points outside is refused, after realpath", () => {
    const t = tree();
    const link = join(t.root, "escape");
    symlinkSync(t.outside, link);
    const error = refusal(checkCwd(link, [t.root]));
    expect(error.code).toBe("cwd_outside_roots");
    expect(error.message).toContain(`(it resolves to ${t.outside})`);
  });

  test("a symlink outside pointing inside is accepted as the inside path", () => {
    const t = tree();
    const link = join(t.outside, "in");
    symlinkSync(t.inside, link);
    expect(checkCwd(link, [t.root])).toEqual({ ok: true, value: t.inside });
  });

  test(".. segments are refused even when they would land inside", () => {
    const t = tree();
    const error = refusal(checkCwd(`${t.inside}/../proj`, [t.root]));
    expect(error.code).toBe("cwd_invalid");
    expect(error.message).toContain("contains a .. segment");
    expect(refusal(checkCwd(`${t.inside}/../../outside`, [t.root])).code).toBe("cwd_invalid");
  });

  test("relative paths are refused", () => {
    const t = tree();
    const error = refusal(checkCwd("proj", [t.root]));
    expect(error.code).toBe("cwd_invalid");
    expect(error.hint).toContain("pass an absolute path");
    expect(refusal(checkCwd("./proj", [t.root])).code).toBe("cwd_invalid");
  });

  test("/ is never accepted, not even with / among the roots", () => {
    const error = refusal(checkCwd("/", ["/"]));
    expect(error.code).toBe("cwd_outside_roots");
    expect(error.message).toBe("cwd / is never accepted");
    // A root of / grants nothing either.
    expect(refusal(checkCwd(tree().inside, ["/"])).code).toBe("cwd_outside_roots");
  });

  test("a missing directory, a file and an empty string are refused", () => {
    const t = tree();
    expect(refusal(checkCwd(join(t.root, "missing"), [t.root])).message).toContain("does not exist");
    const file = join(t.root, "f.txt");
    writeFileSync(file, "x");
    expect(refusal(checkCwd(file, [t.root])).message).toContain("is not a directory");
    expect(refusal(checkCwd("", [t.root])).code).toBe("cwd_invalid");
    expect(refusal(checkCwd(`${t.root}\0x`, [t.root])).code).toBe("cwd_invalid");
  });

  test("roots given through a symlink still match the realpath of the cwd", () => {
    const t = tree();
    const alias = join(t.base, "alias");
    symlinkSync(t.root, alias);
    expect(checkCwd(t.inside, [alias])).toEqual({ ok: true, value: t.inside });
  });
});

describe("resolveRoots", () => {
  test("ORCHESTRATE_ROOTS wins, colon-separated, each realpath'd, / and missing ones dropped with a warning", () => {
    const t = tree();
    const alias = join(t.base, "alias");
    symlinkSync(t.root, alias);
    let roots: string[] = [];
    const logged = warnings(() => {
      roots = resolveRoots(
        { ORCHESTRATE_ROOTS: `${alias}:/:${t.outside}:${join(t.base, "nope")}:relative`, MCP_ROUTER_ROOTS: t.inside },
        { roots: [t.inside] },
      );
    });
    expect(roots).toEqual([t.root, t.outside]);
    expect(logged).toEqual([
      "ORCHESTRATE_ROOTS: ignoring root /: / is never accepted as a root",
      `ORCHESTRATE_ROOTS: ignoring root ${join(t.base, "nope")}: it does not exist`,
      'ORCHESTRATE_ROOTS: ignoring root "relative": roots must be absolute paths',
    ]);
  });

  test("MCP_ROUTER_ROOTS is honoured with a notice", () => {
    const t = tree();
    let roots: string[] = [];
    const logged = warnings(() => {
      roots = resolveRoots({ MCP_ROUTER_ROOTS: t.root }, { roots: [t.outside] });
    });
    expect(roots).toEqual([t.root]);
    expect(logged).toEqual(["reading roots from MCP_ROUTER_ROOTS (mcp-router's name); it still works, but rename it to ORCHESTRATE_ROOTS"]);
  });

  test("then the config's roots, then $HOME/Projects, with ~ expanded", () => {
    const t = tree();
    expect(resolveRoots({ HOME: t.base }, { roots: [t.outside] })).toEqual([t.outside]);
    expect(resolveRoots({ HOME: t.base, ORCHESTRATE_ROOTS: "~/root" }, { roots: [] })).toEqual([t.root]);
    mkdirSync(join(t.base, "Projects"));
    expect(resolveRoots({ HOME: t.base }, { roots: [] })).toEqual([join(t.base, "Projects")]);
  });

  test("no usable root → an empty list, so every cwd is refused", () => {
    const t = tree();
    let roots: string[] = ["unset"];
    const logged = warnings(() => {
      roots = resolveRoots({ HOME: join(t.base, "nohome") }, { roots: [] });
    });
    expect(roots).toEqual([]);
    expect(logged).toEqual([`default root: ignoring root ${join(t.base, "nohome", "Projects")}: it does not exist`]);
    expect(refusal(checkCwd(t.inside, roots)).message).toContain("none: no configured root exists");
  });
});

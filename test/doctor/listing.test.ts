/**
 * The wizard's listing (issue 11: six CLIs within 5 s on 2 cores): each CLI's line once its
 * version, build and sign-in are known, the `--help` flag checks only after every line, the
 * findings that only change with the binary cached per binary in the state dir, and gemini's
 * version read from its own package (by the doctor too).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN_DIR, FAKES_DIR, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { detectBackend, detectBackends, type BackendProbe } from "../../src/doctor/detect.ts";
import { usualLocationSandbox } from "../setup/helpers.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

const BACKENDS = ["codex", "gemini", "grok"] as const;

function listing(s: Sandbox, env: Record<string, string> = {}) {
  const lines: { backend: string; at: number; probe: BackendProbe }[] = [];
  const flagged: string[] = [];
  const done = detectBackends({
    env: { ...s.env, ...env },
    backends: BACKENDS,
    onProbe: (probe) => lines.push({ backend: probe.backend, at: Date.now(), probe: structuredClone(probe) }),
    cacheFile: join(s.root, "state", "probe-cache.json"),
    listing: { onFlags: (p) => p.missingFlags.length > 0 && flagged.push(p.backend) },
  });
  return { done, lines, flagged };
}

const argvs = (s: Sandbox, cli: string) => s.recordings(cli).map((r) => r.argv.join(" "));

describe("the wizard's listing", () => {
  test("every CLI's line comes before any flag check starts; the complete findings match the doctor's", async () => {
    box = usualLocationSandbox(BACKENDS);
    const run = listing(box);
    const probes = await run.done;
    expect(run.lines.map((l) => l.backend).sort()).toEqual([...BACKENDS].sort());
    expect(run.lines.every((l) => l.probe.version && l.probe.missingFlags.length === 0)).toBe(true);
    const lastLine = Math.max(...run.lines.map((l) => l.at));
    // codex's and gemini's help is the flag check (grok's is also its build probe, so it comes first).
    const helps = box
      .recordings()
      .filter((r) => (r.cli === "codex" && r.argv.join(" ") === "exec --help") || (r.cli === "gemini" && r.argv.join(" ") === "--help"));
    expect(helps).toHaveLength(2);
    for (const help of helps) expect((help as unknown as { at: number }).at).toBeGreaterThanOrEqual(lastLine - 5);
    const doctor = await Promise.all(BACKENDS.map((b) => detectBackend(b, b, (box as Sandbox).env)));
    expect(probes.map(({ backend, version, variant, readiness, missingFlags }) => ({ backend, version, variant, readiness, missingFlags }))).toEqual(
      doctor.map(({ backend, version, variant, readiness, missingFlags }) => ({ backend, version, variant, readiness, missingFlags })),
    );
  }, 60_000);

  test("a second run asks each CLI only whether it is signed in; a changed binary is asked again", async () => {
    box = usualLocationSandbox(BACKENDS);
    const first = await listing(box).done;
    const before = { codex: argvs(box, "codex").length, gemini: argvs(box, "gemini").length, grok: argvs(box, "grok").length };
    const second = await listing(box).done;
    expect(second.map((p) => [p.backend, p.version, p.variant])).toEqual(first.map((p) => [p.backend, p.version, p.variant]));
    expect(argvs(box, "codex").slice(before.codex)).toEqual(["login status"]);
    expect(argvs(box, "gemini").slice(before.gemini)).toEqual([]);
    expect(argvs(box, "grok").slice(before.grok)).toEqual([]);
    // An upgrade rewrites the binary: its size and mtime change, so it is probed in full again.
    const wrapper = join(box.home, ".local", "bin", "codex");
    writeFileSync(wrapper, `#!/bin/sh\n# upgraded\nexec ${join(BUN_DIR, "bun")} ${join(FAKES_DIR, "codex")} "$@"\n`);
    chmodSync(wrapper, 0o755);
    const mark = argvs(box, "codex").length;
    await listing(box).done;
    expect(argvs(box, "codex").slice(mark).sort()).toEqual(["--version", "exec --help", "login status"]);
  }, 60_000);

  test("a missing flag is said after the lines, and remembered with the binary", async () => {
    box = usualLocationSandbox(["codex"]);
    const env = { FAKE_HELP_DROP_FLAG: "--json" };
    const run = listing(box, env);
    const [codex] = await run.done;
    expect(run.flagged).toEqual(["codex"]);
    expect(codex?.missingFlags.map((m) => m.flag)).toEqual(["--json"]);
    expect(codex?.problems.some((p) => p.problem.includes("does not list --json"))).toBe(true);
    const again = listing(box, env);
    expect((await again.done)[0]?.missingFlags.map((m) => m.flag)).toEqual(["--json"]);
    expect(again.flagged).toEqual(["codex"]);
  }, 60_000);

  test("gemini's version comes from its own package.json, in the listing and in the doctor", async () => {
    box = usualLocationSandbox([]);
    const pkg = join(box.root, "lib", "node_modules", "@google", "gemini-cli");
    mkdirSync(join(pkg, "bundle"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@google/gemini-cli", version: "0.61.0", bin: { gemini: "bundle/gemini.js" } }));
    writeFileSync(join(pkg, "bundle", "gemini.js"), `#!/bin/sh\nexec ${join(BUN_DIR, "bun")} ${join(FAKES_DIR, "gemini")} "$@"\n`);
    chmodSync(join(pkg, "bundle", "gemini.js"), 0o755);
    const bin = join(box.home, ".local", "bin");
    Bun.spawnSync(["ln", "-s", join(pkg, "bundle", "gemini.js"), join(bin, "gemini")]);
    const run = listing(box);
    const probes = await run.done;
    expect(probes.find((p) => p.backend === "gemini")?.version).toBe("0.61.0");
    expect(argvs(box, "gemini")).toEqual(["--help"]);
    expect((await detectBackend("gemini", "gemini", box.env)).version).toBe("0.61.0");
    expect(argvs(box, "gemini").sort()).toEqual(["--help", "--help"]);
  }, 60_000);

  test.each([
    ["codex", "@openai/codex", "bin/codex.js"],
    ["claude", "@anthropic-ai/claude-code", "bin/claude.exe"],
    ["opencode", "opencode-ai", "bin/opencode.exe"],
    ["copilot", "@github/copilot", "npm-loader.js"],
  ] as const)(
    "%s's version is read from its npm package (%s), without starting it for --version",
    async (cli, pkgName, binFile) => {
      box = usualLocationSandbox([]);
      const pkg = join(box.root, "lib", "node_modules", pkgName);
      mkdirSync(join(pkg, binFile, ".."), { recursive: true });
      writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: pkgName, version: "9.8.7" }));
      writeFileSync(join(pkg, binFile), `#!/bin/sh\nexec ${join(BUN_DIR, "bun")} ${join(FAKES_DIR, cli)} "$@"\n`);
      chmodSync(join(pkg, binFile), 0o755);
      Bun.spawnSync(["ln", "-s", join(pkg, binFile), join(box.home, ".local", "bin", cli)]);
      const probe = await detectBackend(cli, cli, box.env);
      expect(probe.version).toBe("9.8.7");
      expect(argvs(box, cli)).not.toContain("--version");
    },
    60_000,
  );
});

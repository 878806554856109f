/**
 * GUI-launched clients give a small PATH. With the fake CLIs ONLY in ~/.local/bin, resolution and
 * a real `orchestrate run` (the router's own attempt path) still find and run them.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { resolveCommand } from "../../src/process/resolve.ts";
import { orchestrate, usualLocationSandbox } from "./helpers.ts";

let box: Sandbox | undefined;

afterEach(() => {
  box?.cleanup();
  box = undefined;
});

describe("CLIs only in a usual install location", () => {
  test("resolveCommand finds them via the usual locations, not PATH", () => {
    box = usualLocationSandbox(["claude"]);
    expect(box.env.PATH).not.toContain(join(box.home, ".local", "bin"));
    expect(resolveCommand("claude", { env: box.env })).toEqual({ path: join(box.home, ".local", "bin", "claude"), via: "usual" });
    expect(resolveCommand("claude", { env: { ...box.env, HOME: join(box.root, "elsewhere") } })).toBeUndefined();
  });

  test("orchestrate run routes to the fake in ~/.local/bin", async () => {
    box = usualLocationSandbox(["claude"]);
    box.writeConfig("agents:\n  a:\n    backend: claude\n    model: opus\ntiers:\n  light: [a]\n");
    const out = await orchestrate(["run", "--tier", "light", "--cwd", box.repo, "say pong"], box.env);
    expect(out.stderr).not.toContain("not_installed");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("PONG-FROM-FAKE");
    expect(box.recordings("claude").length).toBeGreaterThan(0);
  }, 60_000);
});

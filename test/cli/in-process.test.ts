/**
 * runCliInProcess (fakes/lib/cli-in-process.ts) is the command line a spawned `orchestrate` is:
 * the same exit code, stdout and stderr for the same call, the given stdin, no terminal, and the
 * test's process left as it was — its environment, streams and signal handlers.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { demoSandbox } from "../../fakes/lib/demo-world.ts";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { orchestrate } from "../setup/helpers.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

describe("a command run in this process", () => {
  test("answers as the spawned command does: exit code, stdout and stderr, for a success and for each kind of refusal", async () => {
    box = demoSandbox();
    const calls = [["agents"], ["run", "--tier", "huge", "x"], ["run", "x"], ["cooldowns", "clear", "nobody"], ["history", "show", "NOPE"]];
    const env = box.env;
    const spawned = await Promise.all(calls.map(async (args) => ({ args, ...(await orchestrate(args, env)) })));
    const inProcess = [];
    for (const args of calls) inProcess.push({ args, ...(await runCliInProcess(args, env)) });
    expect(inProcess).toEqual(spawned);
  });

  test("reads the given stdin, sees no terminal, and leaves the environment, streams and handlers as they were", async () => {
    box = demoSandbox();
    const env = { ...process.env };
    const streams = [process.stdin, process.stdout.write, process.stderr.write, process.stdout.isTTY];
    const handlers = process.listeners("SIGINT").length;
    const out = await runCliInProcess(["run", "--tier", "light", "--cwd", box.repo, "-"], box.env, "A task from stdin");
    expect(out).toMatchObject({ code: 0, stdout: "PONG-FROM-FAKE\n" });
    expect(box.recordings("opencode").some((r) => `${r.argv.join(" ")} ${r.stdin}`.includes("A task from stdin"))).toBe(true);
    // Piped, not a terminal: the progress is one line per change, never redrawn in place.
    expect(out.stderr).not.toContain("\r");
    expect(process.env).toEqual(env);
    expect([process.stdin, process.stdout.write, process.stderr.write, process.stdout.isTTY]).toEqual(streams);
    // `run` installs its Ctrl-C handlers; they ended with the command.
    expect(process.listeners("SIGINT")).toHaveLength(handlers);
  });

  test("holds the process: no in-process session while it runs, and none of citty's own --help", async () => {
    box = demoSandbox();
    const session = await connectInProcess(box.env);
    try {
      await expect(runCliInProcess(["agents"], box.env)).rejects.toThrow("already holds this process");
    } finally {
      await session.close();
    }
    await expect(runCliInProcess(["run", "--help"], box.env)).rejects.toThrow("spawned process");
    expect((await runCliInProcess(["agents"], box.env)).code).toBe(0);
  });
});

/** A config whose host.runtime contradicts the environment refuses the boot, and check says so (issue 23 §8). */
import { afterEach, expect, test } from "bun:test";
import { hostMismatch } from "../../src/config/host-check.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { orchestrate } from "../setup/helpers.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

test("hostMismatch: either format's host block against either variable; agreement and absence pass", () => {
  expect(hostMismatch({ host: { runtime: "claude" } }, { ORCHESTRATE_HOST_RUNTIME: "codex" })).toContain(
    "host.runtime is claude but ORCHESTRATE_HOST_RUNTIME is codex",
  );
  expect(hostMismatch({ consult: { host: { runtime: "codex" } } }, { ORCHESTRATOR_HOST_RUNTIME: "claude" })).toContain("ORCHESTRATOR_HOST_RUNTIME is claude");
  expect(hostMismatch({ consult: { host: { runtime: "antigravity" } } }, { ORCHESTRATOR_HOST_RUNTIME: "agy" })).toBeUndefined();
  expect(hostMismatch({ host: { runtime: "claude" } }, {})).toBeUndefined();
  expect(hostMismatch(undefined, { ORCHESTRATE_HOST_RUNTIME: "codex" })).toBeUndefined();
});

test("the server exits 2 before answering anything, naming both sides; check exits 1 saying the same", async () => {
  box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "codex" });
  box.writeConfig("host: { runtime: claude }\nagents:\n  c: { backend: claude, model: claude-opus-4-6, scores: { coding: 90 } }\n");
  const served = await orchestrate([], box.env, "");
  expect(served.code).toBe(2);
  expect(served.stdout).toBe("");
  expect(served.stderr).toContain("refusing to start: the config's host.runtime is claude but ORCHESTRATE_HOST_RUNTIME is codex");
  const checked = await orchestrate(["check"], box.env);
  expect(checked.code).toBe(1);
  expect(checked.stdout).toContain("the server refuses to start: the config's host.runtime is claude");
}, 60_000);

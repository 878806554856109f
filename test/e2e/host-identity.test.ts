/**
 * Host identity as seed 001 states it (issue 12 §4): a dated snapshot of the host's model is the
 * host's model, and an unversioned host.model is refused at load with the fix.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { answerRuns, ask, call, configOf, envOf, type World } from "./consult-helpers.ts";
import { openWorld } from "../helpers/world.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("host identity", () => {
  test("a claude agent on a dated snapshot of the host's model is the host itself: never consulted", async () => {
    world = await openWorld(configOf({ snap: { backend: "claude", model: "claude-opus-5-20260101" } }, ["host: { runtime: claude, model: claude-opus-5 }"]), {
      ORCHESTRATE_HOST_RUNTIME: "claude",
    });
    const reply = await ask(world.session);
    expect(reply.isError).toBe(true);
    expect(envOf(reply).error?.code).toBe("no_eligible_agent");
    expect(envOf(reply).error?.message).toContain("host's own model");
    expect(answerRuns(world.box.recordings("claude"))).toEqual([]);
  });

  test("an unversioned host.model refuses the config with the fix", async () => {
    world = await openWorld(configOf({ other: { backend: "claude", model: "claude-sonnet-5" } }, ["host: { runtime: claude, model: opus }"]), {
      ORCHESTRATE_HOST_RUNTIME: "claude",
    });
    const reply = await call(world.session, "list_agents");
    expect(reply.isError).toBe(true);
    const text = JSON.stringify(reply.structuredContent);
    expect(text).toContain("host.model");
    expect(text).toContain("has no version");
    expect(answerRuns(world.box.recordings("claude"))).toEqual([]);
  });
});

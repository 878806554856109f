/**
 * Model identity in route as in consult (issue 12 §3): the attempt records what the CLI reports, the
 * trace and the answer carry the verdict and the observed model, and a mismatch is never shown as
 * the configured model.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { answerRuns, ask, configOf, envOf } from "./consult-helpers.ts";
import { openWorld, type World } from "../helpers/world.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;
let world: World | undefined;
afterEach(async () => {
  await session?.close().catch(() => undefined);
  await world?.close();
  box?.cleanup();
  box = session = world = undefined;
});

type Served = { agent: string; model?: string; modelVerification?: string; configuredModel?: string };
type Attempt = { outcome: string; modelVerification?: string; modelsReported?: string[] };

async function route(agent: string): Promise<ToolReply> {
  box = makeSandbox();
  box.writeConfig(`agents:\n  a: ${agent}\ntiers: { light: [a], standard: null, heavy: null }\n`);
  session = await connectInProcess(box.env);
  return (await session.client.callTool({ name: "route", arguments: { prompt: "hi", cwd: box.repo, tier: "light" } })) as ToolReply;
}

describe("route: the model that served", () => {
  test("codex rerouted to another model: a mismatch, shown as the model that served, never the configured one", async () => {
    const reply = await route(`{ backend: codex, model: gpt-5.5, env: { FAKE_CODEX_SCENARIO: wrong-model } }`);
    expect(reply.isError ?? false).toBe(false);
    const served = reply.structuredContent?.servedBy as Served;
    expect(served.modelVerification).toBe("mismatch");
    expect(served.model).toBe("gpt-5.1-codex-mini");
    expect(served.configuredModel).toBe("gpt-5.5");
    expect((reply.structuredContent?.attempts as Attempt[])[0]).toMatchObject({
      outcome: "ok",
      modelVerification: "mismatch",
      modelsReported: ["gpt-5.1-codex-mini"],
    });
    expect(textOf(reply)).toContain("configured for gpt-5.5 but codex reported gpt-5.1-codex-mini");
  });

  test("claude whose result's modelUsage names another model: a mismatch", async () => {
    const reply = await route(`{ backend: claude, model: claude-sonnet-5-5, env: { FAKE_CLAUDE_SCENARIO: wrong-model } }`);
    const served = reply.structuredContent?.servedBy as Served;
    expect(served.modelVerification).toBe("mismatch");
    expect(served.model).toBe("claude-haiku-5-5");
  });

  test("the configured model reported back is verified", async () => {
    const reply = await route(`{ backend: claude, model: claude-sonnet-5-5 }`);
    expect(reply.structuredContent?.servedBy as Served).toMatchObject({ model: "claude-sonnet-5-5", modelVerification: "verified" });
  });
});

describe("consult: the same check", () => {
  test("a codex that reroutes is configured_model_unavailable, its answer withheld", async () => {
    world = await openWorld(configOf({ cx: { backend: "codex", model: "gpt-5.5", env: { FAKE_CODEX_SCENARIO: "wrong-model" } } }), {
      ORCHESTRATE_HOST_RUNTIME: "claude",
    });
    const reply = envOf(await ask(world.session));
    expect(reply.ok).toBe(false);
    expect(reply.error?.code).toBe("configured_model_unavailable");
    expect(reply.content ?? null).toBeNull();
    expect(answerRuns(world.box.recordings("codex")).length).toBe(1);
  });

  test("a codex whose model does not exist failed the turn: the model is not called verified (issue 23 §8)", async () => {
    world = await openWorld(configOf({ cx: { backend: "codex", model: "gpt-5.5", env: { FAKE_CODEX_SCENARIO: "bad-model" } } }), {
      ORCHESTRATE_HOST_RUNTIME: "claude",
    });
    const reply = await ask(world.session);
    const e = reply.structuredContent ?? {};
    expect(e.ok).toBe(false);
    // The rollout names the model codex was asked for; nothing served, so nothing is verified.
    expect(e.model_verification).toBe("unverified");
    expect(textOf(reply)).not.toContain("model verified");
  });

  test("a claude whose modelUsage names another model is configured_model_unavailable", async () => {
    world = await openWorld(configOf({ cl: { backend: "claude", model: "claude-sonnet-5-5", env: { FAKE_CLAUDE_SCENARIO: "wrong-model" } } }), {
      ORCHESTRATE_HOST_RUNTIME: "codex",
    });
    const reply = envOf(await ask(world.session));
    expect(reply.error?.code).toBe("configured_model_unavailable");
  });
});

/**
 * Orchestrator MCP's consult envelope (issue 23 §6), end to end over stdio with the fake codex: a
 * seed 001 config as its README writes one, called under the seed's name with the seed's
 * arguments, answers with the seed's fields beside orchestrate's, and the text block is the
 * envelope as JSON (both seeds' clients read it there).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

const SEED_CONFIG = `consult:
  timeout_s: 120
  agents:
    codex:
      runtime: codex
      command: codex
      model: gpt-5.5
      priority: 10
      scores: { coding: 95, research: 85 }
`;

let box: Sandbox;
let session: ClientSession;
beforeAll(async () => {
  box = makeSandbox({ ORCHESTRATOR_HOST_RUNTIME: "claude" });
  // A second codex agent whose CLI is signed out (seed agents take no env: block, only a command).
  const signedOut = join(box.root, "codex-signed-out");
  writeFileSync(signedOut, '#!/bin/sh\nFAKE_CODEX_SCENARIO=auth-fail exec codex "$@"\n', { mode: 0o700 });
  box.writeConfig(
    `${SEED_CONFIG}    codex-out:\n      runtime: codex\n      command: ${signedOut}\n      model: gpt-5.5\n      priority: 20\n      scores: { coding: 10 }\n`,
  );
  session = await connectInProcess(box.env);
});
afterAll(async () => {
  await session.close();
  box.cleanup();
});

const call = async (name: string, args: Record<string, unknown>) => (await session.client.callTool({ name, arguments: args })) as ToolReply;

describe("the seed's consult envelope", () => {
  test("route, capability_requested, source_mode_used and snake_case usage; the text block is the envelope as JSON", async () => {
    const reply = await call("orchestrator_consult", { capability: "coding", prompt: "Say PONG", source_mode: "model", target_agent: "codex" });
    const e = reply.structuredContent ?? {};
    expect(e.ok).toBe(true);
    expect(e.capability_requested).toBe("coding");
    expect(e.source_mode_used).toBe("model");
    expect(e.route).toEqual({ agent_id: "codex", runtime: "codex", model: "gpt-5.5", capability_score: 95, priority: 10, explicitly_selected: true });
    expect(e.usage).toMatchObject({ prompt_tokens: 42, completion_tokens: 7, total_tokens: 49, inputTokens: 42 });
    expect(JSON.parse(textOf(reply))).toEqual(e);
  }, 60_000);

  test("auto with context is document; web with no agent trusted with the web is a typed refusal before anything runs", async () => {
    const routed =
      (await call("orchestrator_consult", { capability: "research", prompt: "What does the note say?", context: "The note says PONG.", source_mode: "auto" }))
        .structuredContent ?? {};
    expect(routed).toMatchObject({ ok: true, source_mode_used: "document", route: { agent_id: "codex", capability_score: 85, explicitly_selected: false } });
    const before = box.recordings().length;
    const web = await call("orchestrator_consult", { capability: "research", prompt: "Look it up", source_mode: "web" });
    expect(web.isError).toBe(true);
    expect(web.structuredContent).toMatchObject({
      ok: false,
      source_mode_used: "web",
      capability_requested: "research",
      route: null,
      // The seeds' ConsultErrorCode for "nothing to route to", not orchestrate's no_eligible_agent.
      error: { code: "no_agent_available", details: { orchestrate_code: "no_eligible_agent" } },
    });
    expect(box.recordings().length).toBe(before);
  }, 60_000);

  test("failures answer in the seeds' consult codes: web_search_unavailable, session_not_found, connection_required", async () => {
    const named = await call("orchestrator_consult", { capability: "research", prompt: "Look it up", source_mode: "web", target_agent: "codex" });
    expect(named.structuredContent?.error).toMatchObject({ code: "web_search_unavailable" });
    const lost = await call("orchestrator_consult", { capability: "research", prompt: "Again", consultation_id: "01NOSUCHCONSULTATION00000" });
    expect(lost.structuredContent?.error).toMatchObject({ code: "session_not_found" });
    const stored = await call("orchestrator_get_consultation", { consultation_id: "01NOSUCHCONSULTATION00000" });
    expect(stored.structuredContent?.error).toMatchObject({ code: "session_not_found" });
    // Arguments refused before the tool runs too: seed 002's invalid_request.
    const bad = await call("orchestrator_consult", { capability: "coding", prompt: "x", no_such_argument: true });
    expect(bad.structuredContent?.error).toMatchObject({ code: "invalid_request", details: { orchestrate_code: "invalid_arguments" } });
    const signedOut = await call("orchestrator_consult", { capability: "coding", prompt: "Say PONG", target_agent: "codex-out" });
    expect(signedOut.structuredContent?.error).toMatchObject({ code: "connection_required", details: { orchestrate_code: "auth_required" } });
    // The same failure read back from a background job.
    const started = await call("orchestrator_consult", { capability: "coding", prompt: "Say PONG", target_agent: "codex-out", background: true });
    const job = started.structuredContent?.job as { id: string };
    let waited = await call("job_wait", { id: job.id, waitSec: 5 });
    while (waited.structuredContent?.status === "running") waited = await call("job_wait", { id: job.id, waitSec: 5 });
    expect(waited.structuredContent?.error).toMatchObject({ code: "connection_required" });
  }, 60_000);
});

/**
 * Orchestrator MCP's tool names (issue 23 §2): under its config tools/list advertises its names, one
 * per tool; descriptions and prompts follow; a call under either name works, in either naming.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { activeTools, resolveTool } from "../../src/mcp/tools/index.ts";
import { nativeArgs, ORCHESTRATOR_MCP_NAMES, seedEntry, seedText } from "../../src/mcp/tools/names.ts";
import { getPrompt } from "../../src/mcp/prompts.ts";
import { type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { privateDir, writeConfig } from "../config/helpers.ts";

/** Seed 001's config.yaml, as its README writes one: one top-level consult block. */
const SEED_CONFIG = `consult:
  store_full_content: true
  agents:
    codex:
      runtime: codex
      command: codex
      model: gpt-5.5
      scores: { coding: 95, review: 90 }
  review:
    reviewers: [codex]
  workflow:
    bindings:
      review: { agents: [codex] }
`;

const seedEnv = (extra: Record<string, string> = {}) => ({
  HOME: privateDir(),
  ORCHESTRATE_CONFIG: writeConfig(privateDir(), "config.yaml", SEED_CONFIG),
  ...extra,
});
const wireNames = (env: Record<string, string>) => activeTools(env).map((t) => t.wireName ?? t.name);

describe("advertised names", () => {
  test("an Orchestrator MCP config advertises every mapped tool under its seed name, and never the native one too", () => {
    const names = wireNames(seedEnv());
    expect(names).toContain("orchestrator_consult");
    expect(names).toContain("orchestrator_review_run");
    expect(names).toContain("orchestrator_finalize_review");
    expect(names).toContain("orchestrator_workflow_plan_step");
    // Its deletion tools were always on in the seed.
    expect(names).toContain("orchestrator_delete_consultation");
    expect(names).toContain("orchestrator_request_delete_all");
    for (const native of ["consult", "review_run", "review_finalize", "list_agents", "workflow_start", "delete_consultation", "request_delete_all"])
      expect(names).not.toContain(native);
    expect(new Set(names).size).toBe(names.length);
    // Tools the seed never had keep their names.
    expect(names).toContain("route");
    expect(names).toContain("confirm_delete_all");
  });

  test("every advertised seed name is one the seed lists; every mapped tool exists", () => {
    const native = new Set(activeTools(seedEnv({ ORCHESTRATE_ALLOW_INIT: "1" })).map((t) => t.name));
    for (const entry of ORCHESTRATOR_MCP_NAMES) {
      expect(entry.seed.startsWith("orchestrator_"), entry.seed).toBe(true);
      expect(native.has(entry.tool), entry.tool).toBe(true);
    }
  });

  test("a unified config keeps orchestrate's names; ORCHESTRATE_TOOL_NAMES picks either way", () => {
    const unified = {
      HOME: privateDir(),
      ORCHESTRATE_CONFIG: writeConfig(privateDir(), "config.yaml", "agents:\n  c: { backend: codex, model: gpt-5.5, scores: { coding: 90 } }\n"),
    };
    expect(wireNames(unified)).toContain("consult");
    expect(wireNames(unified)).not.toContain("delete_consultation");
    expect(wireNames({ ...unified, ORCHESTRATE_TOOL_NAMES: "orchestrator" })).toContain("orchestrator_consult");
    expect(wireNames(seedEnv({ ORCHESTRATE_TOOL_NAMES: "orchestrate" }))).toContain("consult");
    expect(wireNames(seedEnv({ ORCHESTRATE_HISTORY_TOOLS: "0" }))).not.toContain("orchestrator_delete_consultation");
  });

  test("descriptions and prompts name the tools as listed", () => {
    const env = seedEnv();
    const review = activeTools(env).find((t) => t.name === "review");
    expect(review?.description).toContain("before orchestrator_review_run");
    const text = getPrompt("review", {}, env).messages[0]?.content;
    expect(text && "text" in text ? text.text : "").toContain("call `orchestrator_review_run` with review_id");
    expect(seedText("call `consult`, then `list_agents`; consultation_id stays")).toBe(
      "call `orchestrator_consult`, then `orchestrator_list_consult_agents`; consultation_id stays",
    );
  });
});

describe("calls under either name", () => {
  test("resolveTool finds a tool by its seed name in orchestrate naming and by its native name in seed naming", () => {
    expect(resolveTool(activeTools({ HOME: privateDir(), ORCHESTRATE_CONFIG: "/nonexistent" }), "orchestrator_consult")?.name).toBe("consult");
    expect(resolveTool(activeTools(seedEnv()), "consult")?.wireName).toBe("orchestrator_consult");
    expect(resolveTool(activeTools(seedEnv()), "orchestrator_apply_fixes")).toBeUndefined();
  });

  test("the seed's argument names become orchestrate's; a per-kind name implies its kind", () => {
    expect(nativeArgs(seedEntry("orchestrator_review_run"), { review_id: "r", confirm_token: "t" })).toEqual({ review_id: "r", token: "t" });
    expect(nativeArgs(seedEntry("orchestrator_consult"), { prompt: "p", target_agent: "codex" })).toEqual({ prompt: "p", agent: "codex" });
    expect(nativeArgs(seedEntry("orchestrator_request_delete_all_consultations"), undefined)).toEqual({ kind: "consultations" });
    expect(nativeArgs(seedEntry("orchestrator_request_delete_all"), { kind: "asks" })).toEqual({ kind: "asks" });
  });
});

describe("over stdio", () => {
  let box: Sandbox | undefined;
  let session: ClientSession | undefined;
  afterEach(async () => {
    await session?.close();
    box?.cleanup();
  });

  test("tools/list shows the seed names; a call under the seed name, with the seed's arguments, and under the native name both answer", async () => {
    box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "claude" });
    box.writeConfig(SEED_CONFIG);
    session = await connectInProcess(box.env);
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("orchestrator_list_consult_agents");
    expect(names).not.toContain("list_agents");
    const bySeed = (await session.client.callTool({ name: "orchestrator_list_consult_agents", arguments: {} })) as ToolReply;
    const byNative = (await session.client.callTool({ name: "list_agents", arguments: {} })) as ToolReply;
    expect(bySeed.isError).toBeFalsy();
    expect(byNative.structuredContent).toEqual(bySeed.structuredContent);
    const missing = (await session.client.callTool({ name: "orchestrator_get_consultation", arguments: { consultation_id: "01NOPE" } })) as ToolReply;
    // consultation_id reached the tool as its id: the lookup ran and found nothing (in the seeds' code).
    expect(missing.structuredContent?.error).toMatchObject({ code: "session_not_found", details: { orchestrate_code: "not_found" } });
  }, 60_000);
});

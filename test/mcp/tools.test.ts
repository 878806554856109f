import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { activeTools, allTools } from "../../src/mcp/tools/index.ts";
import { renderToolSchemas } from "../../build/schemas.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, REPO_ROOT } from "../../fakes/lib/sandbox.ts";

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** A config that switches on every config-gated group. */
const OPT_IN_CONFIG =
  "agents:\n  r: { backend: claude, model: claude-opus-4-6 }\nconsult:\n  review:\n    reviewers: [r]\n  workflow:\n    bindings:\n      review: { agents: [r] }\nask:\n  capabilities:\n    fast:\n      deployments: [{ model: ollama_chat/qwen2.5:7b }]\n";

describe("tool surface", () => {
  test("every tool sets all four annotation hints and a title", () => {
    for (const tool of allTools()) {
      for (const hint of HINTS) expect(typeof tool.annotations[hint], `${tool.name}.${hint}`).toBe("boolean");
      expect(tool.annotations.title.length, tool.name).toBeGreaterThan(0);
    }
  });

  test("every tool has generated input and output schemas, and they are current", async () => {
    const committed = readFileSync(join(REPO_ROOT, "src", "mcp", "generated", "schemas.json"), "utf8");
    expect(committed).toBe(await renderToolSchemas());
    const schemas = JSON.parse(committed) as Record<string, { inputSchema: unknown; outputSchema: { required: string[] } }>;
    for (const tool of allTools()) {
      expect(schemas[tool.name], tool.name).toBeDefined();
      expect(schemas[tool.name]?.outputSchema.required).toEqual(["ok"]);
    }
  });

  test("tools/list over stdio matches the snapshot", async () => {
    const box = makeSandbox({});
    const session = await connectInProcess(box.env);
    try {
      const listed = await session.client.listTools();
      expect(listed.tools).toMatchSnapshot();
    } finally {
      await session.close();
      box.cleanup();
    }
  });

  test("with every opt-in group on, tools/list lists every tool; the opt-in groups match their snapshot", async () => {
    const box = makeSandbox({ ORCHESTRATE_ALLOW_INIT: "1", ORCHESTRATE_HISTORY_TOOLS: "1" });
    // The config-gated groups: review with a consult.review block, workflow with consult.workflow, ask with capabilities.
    box.writeConfig(OPT_IN_CONFIG);
    const session = await connectInProcess(box.env);
    try {
      const listed = await session.client.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual(allTools().map((t) => t.name));
      // The default groups are the snapshot above; this one holds what the opt-ins add.
      const byDefault = new Set(activeTools({}).map((t) => t.name));
      expect(listed.tools.filter((t) => !byDefault.has(t.name))).toMatchSnapshot();
    } finally {
      await session.close();
      box.cleanup();
    }
  });

  test("only route, consult, the review runs, a workflow's delegated step and ask may run as MCP tasks", () => {
    expect(
      allTools()
        .filter((t) => t.task)
        .map((t) => t.name),
    ).toEqual(["route", "consult", "review_run", "review_retry", "workflow_run_step", "ask"]);
  });

  test("init tools are advertised only with ORCHESTRATE_ALLOW_INIT=1", async () => {
    const box = makeSandbox({});
    const session = await connectInProcess(box.env);
    try {
      const names = (await session.client.listTools()).tools.map((t) => t.name);
      expect(names.some((n) => n.startsWith("init_"))).toBe(false);
    } finally {
      await session.close();
      box.cleanup();
    }
  });
});

/**
 * Property-based fuzz of every tool's arguments, derived from the tool definitions' generated input
 * schemas (src/mcp/generated/schemas.json), through the in-process server (test/helpers/front.ts):
 * every call is answered, nothing crashes, and every failure carries a code from src/errors.ts — a
 * JSON-RPC error only for what JSON-RPC owns. A second property throws arbitrary params and _meta
 * at tools/call. Fixed seed and few runs in CI; STRESS=1 runs many more.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ERROR_CODES } from "../../src/errors.ts";
import { allTools } from "../../src/mcp/tools/index.ts";
import { INIT, openFront, type Front, type Reply } from "../helpers/front.ts";
import { fromSchema, hostileStrings, SEED, STRESS } from "./arbitrary.ts";
import schemas from "../../src/mcp/generated/schemas.json" with { type: "json" };

/** Every config-gated group on; asks go to a closed loopback port with no retries, so they fail fast. */
const CONFIG = `agents:
  r: { backend: claude, model: claude-opus-4-6 }
consult:
  review:
    reviewers: [r]
  workflow:
    bindings:
      review: { agents: [r] }
ask:
  retries: 0
  capabilities:
    fast:
      deployments: [{ model: ollama_chat/qwen2.5:7b, baseUrl: "http://127.0.0.1:9" }]
`;

const JSON_RPC_CODES = new Set([-32600, -32601, -32602]);
let front: Front;
let seq = 0;

beforeAll(async () => {
  front = openFront(CONFIG, { ORCHESTRATE_ALLOW_INIT: "1", ORCHESTRATE_HISTORY_TOOLS: "1" });
  front.write(INIT(0));
  await front.reply(0);
  front.write({ jsonrpc: "2.0", method: "notifications/initialized" });
});

afterAll(async () => {
  await front.close();
});

/** What a reply must be: a result whose failure code is in the closed set, or a JSON-RPC error JSON-RPC owns. */
function problemWith(reply: Reply): string | undefined {
  if (reply.error) return JSON_RPC_CODES.has(reply.error.code) ? undefined : `JSON-RPC error ${reply.error.code}: ${reply.error.message}`;
  const content = reply.result?.structuredContent as { ok?: unknown; error?: { code?: unknown } } | undefined;
  if (!content) return `no structuredContent: ${JSON.stringify(reply.result).slice(0, 300)}`;
  if (reply.result?.isError !== true) return content.ok === true ? undefined : `a success without ok: true: ${JSON.stringify(content).slice(0, 300)}`;
  const code = content.error?.code;
  if (typeof code !== "string" || !Object.hasOwn(ERROR_CODES, code)) return `a code outside src/errors.ts: ${String(code)}`;
  if (code === "internal_error") return `internal_error: ${JSON.stringify(content.error).slice(0, 300)}`;
  return undefined;
}

async function send(params: unknown): Promise<Reply> {
  const id = `fz${++seq}`;
  front.write({ jsonrpc: "2.0", id, method: "tools/call", params });
  return front.reply(id, 30_000);
}

const RUNS = STRESS ? 3000 : 60;

describe("fuzz: every tool's arguments", () => {
  test(
    `${RUNS} calls drawn from the tools' input schemas are each answered with a listed code`,
    async () => {
      const strings = hostileStrings([front.box.repo, front.box.projects, `${front.box.repo}/README.md`, "heavy", "fast", "r"]);
      const wire = schemas as Record<string, { inputSchema: unknown }>;
      const calls = fc.oneof(
        ...allTools().map((tool) => fc.record({ name: fc.constant(tool.name), arguments: fromSchema(wire[tool.name]?.inputSchema, strings) })),
      );
      await fc.assert(
        fc.asyncProperty(calls, async (params) => {
          const problem = problemWith(await send(params));
          if (problem) throw new Error(`${params.name}(${JSON.stringify(params.arguments).slice(0, 300)}): ${problem}`);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
    STRESS ? 3_600_000 : 120_000,
  );

  test(
    `${RUNS} tools/call requests with arbitrary params and _meta are each answered`,
    async () => {
      const names = fc.oneof(fc.constantFrom(...allTools().map((t) => t.name)), fc.string({ maxLength: 12 }));
      const meta = fc.oneof(
        fc.constant(undefined),
        fc.record({ progressToken: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
        fc.jsonValue({ maxDepth: 1 }),
      );
      const params = fc.record(
        {
          name: fc.oneof({ weight: 4, arbitrary: names }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
          arguments: fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 })),
          _meta: meta,
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(params, async (p) => {
          const problem = problemWith(await send(JSON.parse(JSON.stringify(p))));
          if (problem) throw new Error(`${JSON.stringify(p).slice(0, 300)}: ${problem}`);
        }),
        { seed: SEED, numRuns: RUNS },
      );
      expect(seq).toBeGreaterThanOrEqual(RUNS);
    },
    STRESS ? 3_600_000 : 120_000,
  );
});

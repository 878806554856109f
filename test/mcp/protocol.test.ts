/**
 * Protocol abuse, answered: every request gets exactly one JSON-RPC reply with the code JSON-RPC
 * and MCP give it — never silence (a client waits forever) and never -32603 for the caller's own
 * mistake. One in-process server (test/helpers/front.ts) takes every case.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_TASK_TTL_MS } from "../../src/mcp/tasks.ts";
import { INIT, openFront, type Front } from "../helpers/front.ts";

let front: Front;
let seq = 0;
const nextId = () => `p${++seq}`;

/** Sends one request and returns its reply. */
async function call(method: string, params?: unknown, extra: Record<string, unknown> = {}) {
  const id = nextId();
  front.write({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }), ...extra });
  return front.reply(id);
}

beforeAll(async () => {
  front = openFront();
  // Before initialize: only ping is served.
  front.write({ jsonrpc: "2.0", id: "pre-list", method: "tools/list" });
  front.write({ jsonrpc: "2.0", id: "pre-call", method: "tools/call", params: { name: "list_tiers", arguments: {} } });
  front.write({ jsonrpc: "2.0", id: "pre-ping", method: "ping" });
  await front.reply("pre-ping");
  front.write(INIT(0, { tasks: { requests: { tools: { call: {} } } } }));
  await front.reply(0);
  front.write({ jsonrpc: "2.0", method: "notifications/initialized" });
});

afterAll(async () => {
  await front.close();
});

describe("lifecycle", () => {
  test("requests before initialize are refused (-32002) and never run; ping is answered", async () => {
    for (const id of ["pre-list", "pre-call"]) {
      const reply = await front.reply(id);
      expect(reply.error?.code).toBe(-32002);
      expect(reply.error?.message).toContain("send initialize first");
      expect(reply.result).toBeUndefined();
    }
    expect((await front.reply("pre-ping")).result).toEqual({});
    expect((await call("tools/list")).result?.tools).toBeDefined();
  });

  test('a request whose id is "orchestrate-replayed-initialize" is answered like any other', async () => {
    front.write({ jsonrpc: "2.0", id: "orchestrate-replayed-initialize", method: "tools/call", params: { name: "list_tiers", arguments: {} } });
    const reply = await front.reply("orchestrate-replayed-initialize");
    expect(reply.result?.structuredContent).toBeDefined();
    expect(front.replies.filter((r) => r.id === "orchestrate-replayed-initialize")).toHaveLength(1);
  });
});

describe("_meta.progressToken is a string or an integer", () => {
  const bad: [string, unknown][] = [
    ["an object", { a: 1 }],
    ["null", null],
    ["a boolean", true],
    ["a fraction", 1.5],
    ["a huge number", 2 ** 64],
    ["an array", [1]],
  ];
  for (const [what, token] of bad) {
    test(`${what} is refused with -32602, naming the field`, async () => {
      const reply = await call("tools/call", { name: "list_tiers", arguments: {}, _meta: { progressToken: token } });
      expect(reply.error?.code).toBe(-32602);
      expect(reply.error?.message).toContain("params._meta.progressToken");
    });
  }

  test("a string and an integer token are served", async () => {
    for (const token of ["tok", 7]) {
      const reply = await call("tools/call", { name: "list_tiers", arguments: {}, _meta: { progressToken: token } });
      expect(reply.error).toBeUndefined();
      expect(reply.result?.structuredContent).toBeDefined();
    }
  });
});

describe("malformed params are invalid params, not internal errors", () => {
  const cases: [string, string, unknown][] = [
    ["tools/call without a name", "tools/call", { arguments: {} }],
    ["tools/call with arguments that are not an object", "tools/call", { name: "list_tiers", arguments: "x" }],
    ["prompts/get with a number for a name", "prompts/get", { name: 5 }],
    ["tools/call with a task ttl that is text", "tools/call", { name: "route", arguments: {}, task: { ttl: "long" } }],
    ["tasks/get without a taskId", "tasks/get", {}],
  ];
  for (const [what, method, params] of cases) {
    test(what, async () => {
      const reply = await call(method, params);
      expect(reply.error?.code).toBe(-32602);
      expect(reply.error?.message).toStartWith("Invalid params: params.");
    });
  }

  test("an unknown top-level key is an invalid request (-32600), answered by id", async () => {
    const reply = await call("tools/list", undefined, { extra: 1 });
    expect(reply.error?.code).toBe(-32600);
  });

  test("a fractional id is refused by that id", async () => {
    front.write({ jsonrpc: "2.0", id: 2.5, method: "tools/list" });
    expect((await front.reply(2.5)).error?.code).toBe(-32600);
  });
});

describe("MCP Tasks", () => {
  test("a ttl of 2^31 ms or more is clamped: the task outlives its result and says its real ttl", async () => {
    const created = await call("tools/call", { name: "route", arguments: { prompt: "x", cwd: front.box.repo, tier: "heavy" }, task: { ttl: 2 ** 31 } });
    const task = created.result?.task as { taskId: string; ttl: number };
    expect(task.ttl).toBe(MAX_TASK_TTL_MS);
    const result = await call("tasks/result", { taskId: task.taskId });
    expect(result.result?.isError).toBe(true);
    const got = await call("tasks/get", { taskId: task.taskId });
    expect(got.error).toBeUndefined();
    expect(got.result).toMatchObject({ taskId: task.taskId, status: "failed" });
  });
});

describe("unknown methods", () => {
  test("named like Object's own members, they are method-not-found (-32601)", async () => {
    for (const method of ["constructor", "__proto__", "toString", "hasOwnProperty", "foo/bar"]) expect((await call(method)).error?.code).toBe(-32601);
  });
});

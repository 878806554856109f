import { afterAll, describe, expect, test } from "bun:test";
import { httpChannel } from "../../../src/runner/transports/http.ts";

/** A loopback server whose routes stream, hang, redirect or fail on purpose. */
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/stream") {
      // Two lines, the second only after the first was read: the reader must hand them over as they come.
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      gates.push(release);
      return new Response(
        new ReadableStream({
          async start(c) {
            c.enqueue(new TextEncoder().encode("data: one\n"));
            await gate;
            c.enqueue(new TextEncoder().encode("data: two"));
            c.close();
          },
        }),
        { headers: { "content-type": "text/event-stream", "retry-after": "3" } },
      );
    }
    if (path === "/hang") return new Promise<Response>(() => undefined);
    if (path === "/stall") return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("data: first\n")) }));
    if (path === "/redirect") return new Response(null, { status: 307, headers: { location: "http://127.0.0.1:1/elsewhere" } });
    if (path === "/big-error") return new Response("x".repeat(1 << 20), { status: 500 });
    return new Response("no", { status: 404 });
  },
});
const gates: (() => void)[] = [];
const base = `http://127.0.0.1:${server.port}`;
afterAll(() => server.stop(true));

function run(path: string, io: { timeoutMs?: number; stallMs?: number; signal?: AbortSignal; onLine?: (line: string) => void } = {}) {
  return httpChannel({ url: `${base}${path}`, headers: { "content-type": "application/json" }, body: "{}" }).run({
    timeoutMs: io.timeoutMs ?? 5000,
    ...(io.stallMs ? { stallMs: io.stallMs } : {}),
    signal: io.signal ?? new AbortController().signal,
    onLine: io.onLine ?? (() => undefined),
  });
}

describe("the http transport", () => {
  test("lines arrive as the body streams, the last one without a newline too; status and headers come back", async () => {
    const lines: string[] = [];
    const end = await run("/stream", {
      onLine: (line) => {
        lines.push(line);
        if (line === "data: one") gates.shift()?.();
      },
    });
    expect(lines).toEqual(["data: one", "data: two"]);
    expect(end).toMatchObject({ endReason: "exit", status: 200 });
    expect(end.headers["retry-after"]).toBe("3");
  });

  test("a hung endpoint ends at the leg's timeout, not later", async () => {
    const started = performance.now();
    const end = await run("/hang", { timeoutMs: 150 });
    expect(end.endReason).toBe("timeout");
    expect(end.status).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("a body that goes silent ends at the stall limit", async () => {
    const lines: string[] = [];
    const end = await run("/stall", { timeoutMs: 5000, stallMs: 150, onLine: (l) => lines.push(l) });
    expect(end).toMatchObject({ endReason: "stalled", status: 200 });
    expect(lines).toEqual(["data: first"]);
  });

  test("the caller's abort ends it with the caller's reason", async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort("shutdown"), 50);
    expect((await run("/hang", { signal: abort.signal })).endReason).toBe("shutdown");
  });

  test("no server: no response, a short reason, nothing about the request", async () => {
    const end = await httpChannel({ url: "http://127.0.0.1:1/v1/chat/completions", headers: { authorization: "Bearer sk-secret-123" }, body: "{}" }).run({
      timeoutMs: 2000,
      signal: new AbortController().signal,
      onLine: () => undefined,
    });
    expect(end).toMatchObject({ endReason: "spawn_failed", status: null });
    expect(end.startError).toBeString();
    expect(JSON.stringify(end)).not.toContain("sk-secret");
  });

  test("a redirect is not followed (it could carry the key elsewhere); an error body is read only so far", async () => {
    expect((await run("/redirect")).status).toBe(307);
    let chars = 0;
    const end = await run("/big-error", { onLine: (l) => (chars += l.length) });
    expect(end.status).toBe(500);
    expect(chars).toBeLessThanOrEqual(64 * 1024);
  });

  test("the channel's target is the origin only", () => {
    expect(httpChannel({ url: `${base}/v1/deployments/secret-name/chat`, headers: {}, body: "" }).target).toBe(base);
  });
});

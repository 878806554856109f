/**
 * ask and a provider's quota (docs/design.md, "Quota"): the rate-limit headers of a reply are
 * stored under the deployment's identity; the next ask skips a deployment with nothing remaining
 * before sending it anything, says until when, and the dry run and list_capabilities show it.
 * Through a real MCP client and the loopback fake provider, which sends the headers as each API does.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import type { ToolReply } from "../../fakes/lib/mcp-client.ts";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { quotaFromHeaders } from "../../src/backends/http/quota.ts";
import { openWorld, type World } from "../helpers/world.ts";

const p = startFakeProvider({});
afterAll(() => p.stop());

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

let n = 0;
const m = (name: string) => `${name}-quota-${++n}`;
const openai = (model: string) => `{ model: openai/${model}, baseUrl: "${p.openaiBase}" }`;
const anthropic = (model: string) => `{ model: anthropic/${model}, baseUrl: "${p.url}" }`;
const capability = (deployments: string[]) => `ask:\n  cooldownSec: 0\n  capabilities:\n    fast:\n      deployments: [${deployments.join(", ")}]\n`;

async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = (await world?.session.client.callTool({ name, arguments: args })) as ToolReply;
  return (reply.structuredContent ?? {}) as Record<string, unknown>;
}
const ask = (prompt = "q") => call("ask", { capability: "fast", prompt });
type DryDeployment = { id: string; model: string; quota?: string };
const dryDeployments = async () =>
  ((await call("ask", { capability: "fast", prompt: "q", dry_run: true })).dry_run as { deployments: DryDeployment[] }).deployments;
const CLOCK = /\d\d:\d\d:\d\d UTC \(\d+ s\)/;

describe("rate-limit headers as each provider sends them", () => {
  test("OpenAI's x-ratelimit-* and Anthropic's anthropic-ratelimit-*: used %, exhausted at 0, the reset", () => {
    const now = 1_900_000_000_000;
    expect(
      quotaFromHeaders(
        {
          "x-ratelimit-limit-requests": "500",
          "x-ratelimit-remaining-requests": "0",
          "x-ratelimit-reset-requests": "6m0s",
          "x-ratelimit-limit-tokens": "30000",
          "x-ratelimit-remaining-tokens": "29000",
          "x-ratelimit-reset-tokens": "2s",
        },
        200,
        now,
      ),
    ).toEqual([
      { kind: "quota", window: "requests", state: "exhausted", usedPercent: 100, resetsAt: now + 360_000, source: "rate-limit headers" },
      { kind: "quota", window: "tokens", state: "ok", usedPercent: 3.3, resetsAt: now + 2000, source: "rate-limit headers" },
    ]);
    const reset = new Date(now + 45_000).toISOString();
    expect(
      quotaFromHeaders(
        {
          "anthropic-ratelimit-input-tokens-limit": "40000",
          "anthropic-ratelimit-input-tokens-remaining": "0",
          "anthropic-ratelimit-input-tokens-reset": reset,
        },
        429,
        now,
      ),
    ).toEqual([{ kind: "quota", window: "input-tokens", state: "exhausted", usedPercent: 100, resetsAt: now + 45_000, source: "rate-limit headers" }]);
    // A 429 that says only retry-after is exhausted that long; a 200's retry-after means nothing.
    expect(quotaFromHeaders({ "retry-after": "30" }, 429, now)).toEqual([
      { kind: "quota", window: "retry-after", state: "exhausted", resetsAt: now + 30_000, source: "rate-limit headers" },
    ]);
    expect(quotaFromHeaders({ "retry-after": "30" }, 200, now)).toEqual([]);
  });
});

describe("ask skips a deployment out of quota before sending", () => {
  test("nothing remaining after an answer: the next ask goes to the other deployment, the first hears nothing", async () => {
    const [a, b] = [m("a"), m("b")];
    p.script(a, {
      kind: "ok",
      text: "from a",
      rateLimit: { requests: { limit: 200, remaining: 0, resetSec: 120 }, tokens: { limit: 40000, remaining: 30000, resetSec: 3 } },
    });
    p.script(b, { kind: "ok", text: "from b" });
    world = await openWorld(capability([openai(a), openai(b)]));
    expect(await ask()).toMatchObject({ ok: true, content: "from a" });
    const shown = await dryDeployments();
    expect(shown.find((d) => d.model === `openai/${a}`)?.quota).toMatch(new RegExp(`^requests exhausted until ${CLOCK.source}$`));

    expect(await ask()).toMatchObject({ ok: true, content: "from b", fallback_used: true });
    expect(p.received(a)).toHaveLength(1);
    const listed = (await call("list_capabilities", {})).capabilities as { deployments: DryDeployment[] }[];
    expect(listed[0]?.deployments.find((d) => d.model === `openai/${a}`)?.quota).toContain("requests exhausted until");
  });

  test("the only deployment out of quota: no_deployment, naming the window and its reset; nothing sent", async () => {
    const a = m("only");
    p.script(a, { kind: "ok", text: "first", rateLimit: { tokens: { limit: 80000, remaining: 0, resetSec: 90 } } });
    world = await openWorld(capability([anthropic(a)]));
    expect(await ask()).toMatchObject({ ok: true, content: "first" });
    const second = await ask();
    expect(second).toMatchObject({ ok: false, error: { code: "no_deployment" } });
    expect((second.error as { message: string }).message).toMatch(new RegExp(`fast/.+: quota_exhausted: tokens exhausted until ${CLOCK.source}`));
    expect(p.received(a)).toHaveLength(1);
  });

  test("a 429's retry-after is the reset, even with cooldowns off; a window with room left only shows its use", async () => {
    const [a, b] = [m("limited"), m("roomy")];
    p.script(a, { kind: "status", status: 429, retryAfter: "600" });
    p.script(b, { kind: "ok", text: "from b", rateLimit: { requests: { limit: 100, remaining: 60, resetSec: 30 } } });
    world = await openWorld(capability([openai(a), openai(b)]));
    expect(await ask()).toMatchObject({ ok: true, content: "from b", fallback_used: true });
    expect(await ask()).toMatchObject({ ok: true, content: "from b" });
    expect(p.received(a)).toHaveLength(1);
    const shown = await dryDeployments();
    expect(shown.find((d) => d.model === `openai/${a}`)?.quota).toMatch(/^retry-after exhausted until/);
    expect(shown.find((d) => d.model === `openai/${b}`)?.quota).toMatch(/^ok: requests 40 % used, resets/);
  });
});

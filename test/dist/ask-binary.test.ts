/**
 * ask from the compiled binary (bun build --compile --minify --bytecode): the lazily imported
 * validator (schemasafe generates its checks with `Function`) and the http transport work there
 * exactly as under bun — a structured reply is validated and repaired, a prose one streamed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { connect, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { compile, hostName, tmp } from "./support.ts";

const KEY = ["sk", "bin", "C0mp1l3dB1n4ryK3y000"].join("-");
const provider = startFakeProvider({ keys: { openai: KEY } });
let out = "";
let box: Sandbox;
let session: ClientSession;

beforeAll(async () => {
  out = await tmp("ask-bin");
  const built = await compile(["--out", out]);
  if (built.code !== 0) throw new Error(`host build failed:\n${built.stderr}`);
  box = makeSandbox({ BIN_KEY: KEY });
  box.writeConfig(
    `ask:\n  capabilities:\n    extract:\n      deployments: [{ model: openai/bin-model, baseUrl: "${provider.openaiBase}", apiKeyEnv: BIN_KEY }]\n`,
  );
  session = await connect(box.env, { command: [join(out, `orchestrate-${hostName()}`)] });
}, 120_000);

afterAll(async () => {
  await session?.close().catch(() => undefined);
  box?.cleanup();
  await provider.stop();
  await rm(out, { recursive: true, force: true });
});

describe("ask in the compiled binary", () => {
  test("structured: an invalid reply is repaired with the validator's complaint, the valid one is data", async () => {
    provider.script("bin-model", { kind: "json", value: { city: 7 } }, { kind: "json", value: { city: "Oslo" } });
    const reply = (await session.client.callTool({
      name: "ask",
      arguments: {
        capability: "extract",
        prompt: "Which city?",
        response_schema: { type: "object", required: ["city"], properties: { city: { type: "string", format: "hostname" } } },
      },
    })) as ToolReply;
    expect(reply.structuredContent).toMatchObject({ ok: true, content: null, data: { city: "Oslo" }, error: null });
    expect(provider.received("bin-model")[1]?.messages[2]?.content).toContain("schema violation at /city: failed the 'type' constraint");
  });

  test("prose streams through the http transport", async () => {
    provider.script("bin-model", { kind: "ok", text: "Compiled and answering.", chunks: 5 });
    const reply = (await session.client.callTool({ name: "ask", arguments: { capability: "extract", prompt: "Are you there?" } })) as ToolReply;
    expect(reply.structuredContent).toMatchObject({ ok: true, content: "Compiled and answering.", fallback_used: false });
  });
});

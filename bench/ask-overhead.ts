/**
 * The ask path's cost, each side against a reference measured in the same run:
 * - overhead: `ask` through the compiled server (raw JSON-RPC over stdio, so no client library sits
 *   inside the interval) to the loopback fake provider, against a direct `fetch` of the very request
 *   the server sent (read back from the fake) with its stream read to the end; a bare `ping` round
 *   trip through the same session shows what of the difference is the stdio hop itself;
 * - structured: validating a ~100 KB reply against a realistic schema (schemasafe, compiled schema
 *   cached), against JSON.parse of the same text; the first compile of a new schema and the
 *   validator's import are reported beside it;
 * - startup: spawn → tools/list with capabilities configured, against the same config without them,
 *   interleaved (the ask group is advertised from the raw file, loading nothing).
 */
import { makeSandbox } from "../fakes/lib/sandbox.ts";
import { startFakeProvider } from "../fakes/lib/fake-provider.ts";
import { BUN, interleave, iterations, median, ms, orchestrateBinary, ratio, rssOf, say, section, type Row } from "./helpers.ts";
import { INITIALIZE_PARAMS, measureStartup, spawnRaw } from "./jsonrpc.ts";

const KEY = ["sk", "bench", "0123456789abcdefABCDEF"].join("-");
const BASE_CONFIG = "agents:\n  oc: { backend: opencode, model: deepseek/deepseek-v4 }\ntiers:\n  light: [oc]\n  standard: [oc]\n  heavy: [oc]\n";

function askConfig(base: string): string {
  return `${BASE_CONFIG}ask:\n  capabilities:\n    fast:\n      description: Quick answers.\n      deployments: [{ model: openai/bench-model, baseUrl: "${base}", apiKeyEnv: BENCH_KEY }]\n`;
}

export async function run(): Promise<Row[]> {
  section("ask: overhead over a direct fetch, 100 KB validation, startup with capabilities");
  return [...(await overhead()), ...(await validation()), ...(await startup())];
}

async function overhead(): Promise<Row[]> {
  const provider = startFakeProvider({ keys: { openai: KEY } });
  provider.script("bench-model", { kind: "ok", text: "The answer is forty-two, as computed.", chunks: 4 });
  const box = makeSandbox({ BENCH_KEY: KEY });
  box.writeConfig(askConfig(provider.openaiBase));
  const s = spawnRaw([orchestrateBinary()], box.env, box.repo);
  let id = 10;
  const rpc = async (method: string, params?: unknown): Promise<number> => {
    const t0 = performance.now();
    const reply = await s.request(++id, method, params);
    if (reply.message.error) throw new Error(`${method}: ${JSON.stringify(reply.message.error)}`);
    // A failed envelope would be a fast wrong answer: every measured ask must have been answered.
    const result = reply.message.result as { structuredContent?: { ok?: boolean; content?: string } } | undefined;
    if (method === "tools/call" && result?.structuredContent?.ok !== true) throw new Error(`ask did not answer: ${JSON.stringify(result).slice(0, 300)}`);
    return reply.at - t0;
  };
  try {
    await s.request(1, "initialize", INITIALIZE_PARAMS);
    s.notify("notifications/initialized");
    const askCall = { name: "ask", arguments: { capability: "fast", prompt: "What is six times seven?" } };
    // The first call loads the SDK, arktype, the config and the store.
    await rpc("tools/call", askCall);
    const sent = provider.received("bench-model").at(-1);
    if (!sent) throw new Error("the fake provider received nothing");
    const direct = () => timed(() => directFetch(`${provider.openaiBase}/chat/completions`, sent.body));
    const n = iterations(200);
    const samples = await interleave({ ask: () => rpc("tools/call", askCall), direct, ping: () => rpc("ping") }, n, 5);
    const [a, d, p] = [median(samples.ask), median(samples.direct), median(samples.ping)];
    const over = a - d;
    say(`ask ${ms(a)}  direct fetch ${ms(d)}  overhead ${ms(over)}  (stdio ping ${ms(p)})  n=${n}`);
    return [
      {
        benchmark: "ask overhead (ask − direct fetch), p50",
        value: ms(over),
        reference: `ask ${ms(a)}, direct ${ms(d)}`,
        ratio: ratio(a, d),
        target: "≤ 2 ms",
        pass: over <= 2,
        note: `compiled binary, raw JSON-RPC over stdio; of it, the bare stdio round trip (ping) is ${ms(p)}; n=${n}`,
      },
    ];
  } finally {
    await s.close();
    box.cleanup();
    await provider.stop();
  }
}

/** The request the server made, made directly: POST, then the SSE stream read to its end. */
async function directFetch(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
  await res.text();
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["summary", "items"],
  properties: {
    summary: { type: "string", maxLength: 2000 },
    items: {
      type: "array",
      maxItems: 5000,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "name", "tags", "score"],
        properties: {
          id: { type: "integer", minimum: 0 },
          name: { type: "string", minLength: 1, maxLength: 200 },
          tags: { type: "array", items: { enum: ["a", "b", "c", "d"] } },
          score: { type: "number", minimum: 0, maximum: 1 },
          email: { type: "string", format: "email" },
        },
      },
    },
  },
};

function reply100k(): string {
  const items = [];
  for (let i = 0; JSON.stringify(items).length < 100_000; i++)
    items.push({ id: i, name: `item number ${i}`, tags: ["a", "b", "c"].slice(0, (i % 3) + 1), score: (i % 100) / 100, email: `u${i}@example.com` });
  return JSON.stringify({ summary: "x".repeat(400), items });
}

async function validation(): Promise<Row[]> {
  const importMs = schemasafeImportMs();
  const { prepareSchema } = await import("../src/services/ask/structured.ts");
  const t0 = performance.now();
  const first = await prepareSchema(SCHEMA, 1_000_000);
  const firstCompileMs = performance.now() - t0;
  if (!first.ok) throw new Error(first.error.message);
  const text = reply100k();
  const n = iterations(200);
  const samples = await interleave(
    {
      validate: async () => {
        const t = performance.now();
        const prepared = await prepareSchema(SCHEMA, 1_000_000);
        if (!prepared.ok || prepared.value.check(JSON.parse(text)) !== undefined) throw new Error("the reply should validate");
        return performance.now() - t;
      },
      parse: async () => {
        const t = performance.now();
        JSON.parse(text);
        return performance.now() - t;
      },
    },
    n,
    5,
  );
  const [v, p] = [median(samples.validate), median(samples.parse)];
  say(
    `100 KB reply (${text.length} chars): parse + validate ${ms(v)}, parse alone ${ms(p)}; first compile ${ms(firstCompileMs)}; import ${ms(importMs)}  n=${n}`,
  );
  return [
    {
      benchmark: "structured: validate a 100 KB reply, p50",
      value: ms(v),
      reference: `JSON.parse alone ${ms(p)}`,
      ratio: ratio(v, p),
      target: "≤ 5 ms",
      pass: v <= 5,
      note: `schemasafe, schema compiled once and cached by its text; the first compile of a new schema ${ms(firstCompileMs)}; importing schemasafe ${ms(importMs)} under bun (loaded only when a schema is used)`,
    },
  ];
}

/** A fresh bun process, so the import is cold. */
function schemasafeImportMs(): number {
  const out = Bun.spawnSync([BUN, "-e", 'const t = performance.now(); await import("@exodus/schemasafe"); console.log(performance.now() - t)'], {
    cwd: `${import.meta.dir}/..`,
  });
  return Number(out.stdout.toString().trim());
}

async function startup(): Promise<Row[]> {
  const provider = startFakeProvider();
  const plain = makeSandbox();
  const withAsk = makeSandbox();
  plain.writeConfig(BASE_CONFIG);
  withAsk.writeConfig(askConfig(provider.openaiBase));
  try {
    const binary = orchestrateBinary();
    const n = iterations(20);
    const samples = await interleave(
      { plain: () => measureStartup([binary], plain.env, plain.repo, rssOf), ask: () => measureStartup([binary], withAsk.env, withAsk.repo, rssOf) },
      n,
      2,
    );
    const advertised = samples.ask.at(-1)?.tools.length ?? 0;
    const [a, b] = [median(samples.ask.map((x) => x.toolsListMs)), median(samples.plain.map((x) => x.toolsListMs))];
    say(`spawn → tools/list with capabilities ${ms(a)} (${advertised} tools), without ${ms(b)}  n=${n}`);
    return [
      {
        benchmark: "startup → tools/list with ask capabilities vs without",
        value: ms(a),
        reference: ms(b),
        ratio: ratio(a, b),
        target: "≤ 1.1×",
        pass: a <= 1.1 * b,
        note: `same binary and config but the ask: block; ${advertised} tools advertised with it`,
      },
    ];
  } finally {
    plain.cleanup();
    withAsk.cleanup();
    await provider.stop();
  }
}

if (import.meta.main)
  console.log((await run()).map((r) => `${r.benchmark}: ${r.value} vs ${r.reference} = ${r.ratio} (${r.target}: ${r.pass ? "pass" : "MISS"})`).join("\n"));

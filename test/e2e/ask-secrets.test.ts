/**
 * No secret of an ask reaches the database: a key planted in the server's environment (in a shape
 * the scrubber does not know) and pasted into the prompt, a credential-shaped secret in the context,
 * the provider echoing the key in its 401 and the model repeating it in its answer — checked on every
 * table and on the raw db, -wal and -shm bytes after a checkpoint, over the real server and client.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { openWorld, type World } from "../helpers/world.ts";
import { everythingStored } from "./stored-bytes.ts";

/** No known credential prefix: only scrubbing by value can keep it out. */
const PLAIN_KEY = ["plain", "Q7hx2Lw9Rk4Vt8Ns3Jm6Pb1Zc5"].join("-");
const SHAPED = ["sk", "proj", "C0ntextS3cretAb3dEf6hIj9kLm2nOp5qR"].join("-");

const p = startFakeProvider({ keys: { openai: PLAIN_KEY } });
afterAll(() => p.stop());

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("ask: secrets", () => {
  test("the key from the environment and secrets in the prompt, context, a 401 and the answer are in no table and no byte of the file", async () => {
    p.script("gpt-echo", { kind: "status", status: 401, echoKey: true });
    p.script("gpt-answers", { kind: "ok", text: `Your key ${PLAIN_KEY} looks fine.` });
    const dep = (model: string) => `{ model: openai/${model}, baseUrl: "${p.openaiBase}", apiKeyEnv: OPENAI_KEY }`;
    world = await openWorld(`ask:\n  cooldownSec: 0\n  capabilities:\n    fast:\n      deployments: [${dep("gpt-echo")}, ${dep("gpt-answers")}]\n`, {
      OPENAI_KEY: PLAIN_KEY,
    });
    const { box, session } = world;
    const reply = await session.client.callTool({
      name: "ask",
      arguments: { capability: "fast", prompt: `Is ${PLAIN_KEY} valid?`, context: `token = ${SHAPED}` },
    });
    expect((reply.structuredContent as { ok?: boolean } | undefined)?.ok).toBe(true);
    // Closed first, so everything the server wrote is in the file before it is read.
    await session.close();

    const stored = everythingStored(box.dbPath);
    // Not vacuous: the ask, its legs and the answer were stored, scrubbed.
    expect(stored.rows).toContain("Is [REDACTED:key] valid?");
    expect(stored.rows).toContain("Your key [REDACTED:key] looks fine.");
    expect(stored.rows).toContain("token = [REDACTED");
    expect(stored.rows).toContain('"outcome":"failed"');
    for (const secret of [PLAIN_KEY, SHAPED]) {
      expect(stored.rows.includes(secret), "secret in a table").toBe(false);
      expect(stored.bytes.includes(secret), "secret in the raw file").toBe(false);
    }
    // Only the base URL's host is kept, never the URL itself.
    expect(stored.rows).not.toContain(p.openaiBase);
    expect(stored.rows).toContain(new URL(p.url).host);
  });
});

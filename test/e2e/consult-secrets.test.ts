/**
 * Secrets planted in a consult's prompt and context, in the consulted CLI's answer (FAKE_REPLY) and
 * in a CLI's error text never reach the database file — checked on the raw bytes after a checkpoint,
 * not only through queries — nor any reply. The file is 0600 in a 0700 directory.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { FAKES_DIR, makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { call, envOf } from "./consult-helpers.ts";
import { everythingStored } from "./stored-bytes.ts";

const SECRETS = {
  prompt: "ghp_Pr0mptS3cretAb3dEf6hIj9kLm2nOp5qRs8t",
  context: "sk-ant-api03-C0ntextS3cret9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1",
  reply: "AKIAREPLYSECRET12345",
  error: "ghp_Err0rS3cretAb3dEf6hIj9kLm2nOp5qRs8tU",
  route: "sk-proj-R0uteS3cretAb3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
};

let box: Sandbox | undefined;
let session: ClientSession | undefined;
afterEach(async () => {
  await session?.close().catch(() => undefined);
  box?.cleanup();
  session = undefined;
  box = undefined;
});

/** A codex that fails an answer run with the secret in its error text, and is itself otherwise. */
function leakyCodex(root: string): string {
  const path = join(root, "codex-leaky");
  writeFileSync(
    path,
    `#!/bin/sh\nif [ "$1" = "exec" ]; then echo "Error: could not parse profile: unexpected value ${SECRETS.error} at line 3" >&2; exit 1; fi\nexec ${join(FAKES_DIR, "codex")} "$@"\n`,
    { mode: 0o755 },
  );
  return path;
}

function config(leaky: string): string {
  return `agents:
  cl: { backend: claude, model: claude-opus-5-5, scores: { coding: 90 }, env: { FAKE_REPLY: "the key is ${SECRETS.reply} ok" } }
  cx: { backend: codex, model: gpt-5.5, command: "${leaky}", scores: { coding: 10 } }
tiers: { light: [cl], standard: null, heavy: null }
`;
}

describe("consult: secrets and file modes", () => {
  test("planted secrets are absent from every table, the raw file and every reply", async () => {
    box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
    box.writeConfig(config(leakyCodex(box.root)));
    session = await connectInProcess(box.env);
    const replies: ToolReply[] = [];
    const keep = (r: ToolReply) => (replies.push(r), r);

    const answered = keep(
      await call(session, "consult", { prompt: `Why does ${SECRETS.prompt} fail?`, context: `token = ${SECRETS.context}`, capability: "coding" }),
    );
    expect(envOf(answered).ok).toBe(true);
    // The answer came back, scrubbed: the scrubber ran on it rather than the text going missing.
    expect(textOf(answered)).toContain("the key is [REDACTED");
    const failed = keep(await call(session, "consult", { prompt: "And now?", capability: "coding", agent: "cx" }));
    expect(failed.isError).toBe(true);
    expect(envOf(failed).error?.message).toContain("unexpected value [REDACTED");
    const background = keep(
      await call(session, "consult", { prompt: `Background ${SECRETS.prompt}`, context: SECRETS.context, capability: "coding", background: true }),
    );
    const jobId = (background.structuredContent?.job as { id?: string } | undefined)?.id;
    if (jobId) keep(await call(session, "job_wait", { id: jobId, waitSec: 30 }));
    keep(await call(session, "route", { prompt: `Fix it with ${SECRETS.route}`, cwd: box.repo, tier: "light" }));
    for (const r of replies.slice(0, 2)) keep(await call(session, "get_consultation", { id: envOf(r).consultation_id }));
    await session.close();
    session = undefined;

    const stored = everythingStored(box.dbPath);
    // Not vacuous: the prompts and the error were stored, with the secrets scrubbed out.
    expect(stored.rows).toContain("Why does [REDACTED:github] fail?");
    expect(stored.rows).toContain("unexpected value [REDACTED");
    expect(stored.rows).toContain("Fix it with [REDACTED");
    expect(stored.rows).toContain("Background [REDACTED:github]");
    for (const [where, secret] of Object.entries(SECRETS)) {
      expect(stored.rows.includes(secret), `${where} secret in a table`).toBe(false);
      expect(stored.bytes.includes(secret), `${where} secret in the raw file`).toBe(false);
      for (const r of replies) expect(JSON.stringify(r).includes(secret), `${where} secret in a reply`).toBe(false);
    }
  });

  test("the database file is 0600 inside a 0700 directory, WAL files too", async () => {
    box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
    box.writeConfig(config(leakyCodex(box.root)));
    session = await connectInProcess(box.env);
    expect(envOf(await call(session, "consult", { prompt: "q", capability: "coding" })).ok).toBe(true);
    expect(statSync(dirname(box.dbPath)).mode & 0o777).toBe(0o700);
    for (const path of [box.dbPath, `${box.dbPath}-wal`, `${box.dbPath}-shm`].filter(existsSync)) expect(statSync(path).mode & 0o777, path).toBe(0o600);
  });
});

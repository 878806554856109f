/**
 * consult end to end: a real MCP client over stdio, the real server process, the fake CLIs (codex,
 * claude) and a real SQLite file. Each rule has a test that fails without it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { FAKES_DIR, makeSandbox, type Recording, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

interface AgentSpec {
  backend: string;
  model?: string;
  score?: number;
  env?: Record<string, string>;
  command?: string;
}

function configOf(agents: Record<string, AgentSpec>): string {
  const lines = ["agents:"];
  for (const [id, a] of Object.entries(agents)) {
    const env = a.env
      ? `, env: { ${Object.entries(a.env)
          .map(([k, v]) => `${k}: "${v}"`)
          .join(", ")} }`
      : "";
    lines.push(
      `  ${id}: { backend: ${a.backend}${a.model ? `, model: ${a.model}` : ""}, scores: { coding: ${a.score ?? 80} }${a.command ? `, command: "${a.command}"` : ""}${env} }`,
    );
  }
  lines.push("tiers: { light: null, standard: null, heavy: null }", "");
  return lines.join("\n");
}

async function start(
  agents: Record<string, AgentSpec>,
  env: Record<string, string> = { ORCHESTRATE_HOST_RUNTIME: "gemini" },
  clientName?: string,
): Promise<ClientSession> {
  box = makeSandbox(env);
  box.writeConfig(configOf(agents));
  session = await connectInProcess(box.env, clientName ? { clientName } : {});
  return session;
}

async function ask(s: ClientSession, args: Record<string, unknown> = {}): Promise<ToolReply> {
  return (await s.client.callTool({ name: "consult", arguments: { prompt: "Is this loop correct?", capability: "coding", ...args } })) as ToolReply;
}

type Envelope = {
  ok: boolean;
  consultation_id?: string;
  agent?: string;
  backend?: string;
  model?: string | null;
  model_verification?: string;
  content?: Record<string, unknown> | null;
  usage?: Record<string, number>;
  latency_ms?: number;
  error?: { code: string; message: string; hint?: string };
};
const envOf = (r: ToolReply) => r.structuredContent as unknown as Envelope;
const execOf = (recs: Recording[]) => recs.filter((r) => r.argv[0] !== "export" && (r.cli !== "codex" || r.argv[0] === "exec"));

function expectFullEnvelope(e: Envelope): void {
  expect(e.ok).toBe(true);
  expect(e.consultation_id).toMatch(/^[0-9A-Z]{26}$/);
  expect(e.content).toEqual({ answer: "PONG-FROM-FAKE", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] });
  expect(typeof e.latency_ms).toBe("number");
  expect(e.usage?.inputTokens).toBeGreaterThan(0);
}

describe("consult: answers", () => {
  test("codex answers answer-only with --output-schema and a verified model read from its rollout", async () => {
    const s = await start({ cx: { backend: "codex", model: "gpt-5.5" } });
    const reply = await ask(s);
    expect(reply.isError).toBeFalsy();
    const e = envOf(reply);
    expectFullEnvelope(e);
    expect([e.agent, e.backend, e.model, e.model_verification]).toEqual(["cx", "codex", "gpt-5.5", "verified"]);
    const rec = execOf(box!.recordings("codex"))[0]!;
    expect(rec.argv).toContain("--output-schema");
    expect(rec.argv).toContain("read-only");
    expect(rec.argv).toContain("--ignore-user-config");
    // The prompt travels on stdin (`-`), never in argv.
    expect(rec.argv.at(-1)).toBe("-");
    expect(rec.stdin).toContain("ORCHESTRATE_JSON_ENVELOPE");
    // An empty scratch dir, not the server's cwd or any project, and gone afterwards.
    expect(rec.cwd).toContain("orchestrate-consult-");
    expect(existsSync(rec.cwd)).toBe(false);
    expect(textOf(reply)).toContain("PONG-FROM-FAKE");
  });

  test("claude answers with --json-schema, no tools, no MCP", async () => {
    const s = await start({ cl: { backend: "claude", model: "claude-opus-5-5" } });
    const e = envOf(await ask(s));
    expectFullEnvelope(e);
    expect([e.backend, e.model_verification]).toEqual(["claude", "verified"]);
    const rec = box!.recordings("claude")[0]!;
    expect(rec.argv).toContain("--json-schema");
    expect(rec.argv).toContain("--strict-mcp-config");
    expect(rec.argv[rec.argv.indexOf("--tools") + 1]).toBe("");
    expect(rec.stdin).toContain("ORCHESTRATE_JSON_ENVELOPE");
  });

  test("an alias model the CLI cannot contradict is unverified, never verified", async () => {
    const s = await start({ cl: { backend: "claude", model: "opus" } });
    const e = envOf(await ask(s));
    expect(e.ok).toBe(true);
    expect(e.model_verification).toBe("unverified");
  });
});

describe("consult: host runtime", () => {
  test("the host's own runtime is never consulted, even when it scores higher", async () => {
    const s = await start(
      { cl: { backend: "claude", model: "claude-opus-5-5", score: 99 }, cx: { backend: "codex", model: "gpt-5.5", score: 10 } },
      { ORCHESTRATE_HOST_RUNTIME: "claude" },
    );
    const e = envOf(await ask(s));
    expect(e.agent).toBe("cx");
    expect(box!.recordings("claude")).toHaveLength(0);
    const refused = await ask(s, { agent: "cl" });
    expect(envOf(refused).error?.code).toBe("agent_not_eligible");
    expect(box!.recordings("claude")).toHaveLength(0);
  });

  test("the client's clientInfo identifies a well-known host when the env is silent", async () => {
    const s = await start(
      { cl: { backend: "claude", model: "claude-opus-5-5", score: 99 }, cx: { backend: "codex", model: "gpt-5.5", score: 10 } },
      {},
      "claude-code",
    );
    expect(envOf(await ask(s)).agent).toBe("cx");
  });

  test("an unknown host is refused before anything runs", async () => {
    const s = await start({ cx: { backend: "codex", model: "gpt-5.5" } }, {}, "some-editor");
    const reply = await ask(s);
    expect(reply.isError).toBe(true);
    expect(envOf(reply).error?.code).toBe("host_unknown");
    expect(textOf(reply)).toContain("ORCHESTRATE_HOST_RUNTIME");
    expect(box!.recordings()).toHaveLength(0);
  });

  test("list_agents shows scores and eligibility for this host, and no env values", async () => {
    const s = await start(
      {
        cl: { backend: "claude", model: "claude-opus-5-5", env: { SECRET_THING: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789" } },
        cx: { backend: "codex", model: "gpt-5.5" },
      },
      { ORCHESTRATE_HOST_RUNTIME: "claude" },
    );
    const reply = (await s.client.callTool({ name: "list_agents", arguments: {} })) as ToolReply;
    const agents = reply.structuredContent?.agents as { id: string; eligible: boolean; scores: Record<string, number>; excluded_reason?: string }[];
    expect(agents.map((a) => [a.id, a.eligible])).toEqual([
      ["cl", false],
      ["cx", true],
    ]);
    expect(agents[0]?.excluded_reason).toContain("host");
    expect(agents[1]?.scores).toEqual({ coding: 80 });
    expect(JSON.stringify(reply)).not.toContain("sk-ant");
  });
});

describe("consult: sessions", () => {
  test.each([
    ["codex", "gpt-5.5", (argv: string[], id: string) => argv.includes("resume") && argv.includes(id)],
    ["claude", "claude-opus-5-5", (argv: string[], id: string) => argv[argv.indexOf("--resume") + 1] === id],
  ] as const)("%s: consultation_id resumes the same native session", async (backend, model, resumed) => {
    const s = await start({ a: { backend, model } });
    const first = envOf(await ask(s));
    const again = envOf(await ask(s, { consultation_id: first.consultation_id, prompt: "And the edge case?" }));
    expect(again.ok).toBe(true);
    expect(again.consultation_id).toBe(first.consultation_id);
    const stored = (await s.client.callTool({ name: "get_consultation", arguments: { id: first.consultation_id } })) as ToolReply;
    const native = stored.structuredContent?.native_session_id as string;
    expect(native).toBeTruthy();
    const recs = execOf(box!.recordings(backend));
    expect(recs).toHaveLength(2);
    expect(resumed(recs[0]!.argv, native)).toBe(false);
    expect(resumed(recs[1]!.argv, native)).toBe(true);
    expect((stored.structuredContent?.turns as unknown[]).length).toBe(2);
  });

  test("a consultation pinned to one agent refuses another", async () => {
    const s = await start({ cx: { backend: "codex", model: "gpt-5.5", score: 90 }, cl: { backend: "claude", model: "claude-opus-5-5" } });
    const first = envOf(await ask(s));
    expect(first.agent).toBe("cx");
    const reply = await ask(s, { consultation_id: first.consultation_id, agent: "cl" });
    expect(reply.isError).toBe(true);
    expect(envOf(reply).error?.code).toBe("session_target_mismatch");
    expect(box!.recordings("claude")).toHaveLength(0);
  });

  test("a config change of the pinned agent's model is a mismatch, in a new server process", async () => {
    const s = await start({ cx: { backend: "codex", model: "gpt-5.5" } });
    const first = envOf(await ask(s));
    await s.close();
    box!.writeConfig(configOf({ cx: { backend: "codex", model: "gpt-5.4" } }));
    session = await connectInProcess(box!.env);
    const reply = await ask(session, { consultation_id: first.consultation_id });
    expect(envOf(reply).error?.code).toBe("session_target_mismatch");
    expect(execOf(box!.recordings("codex"))).toHaveLength(1);
  });

  test("a consultation survives a server restart", async () => {
    const s = await start({ cl: { backend: "claude", model: "claude-opus-5-5" } });
    const first = envOf(await ask(s, { context: "def f(): pass" }));
    await s.close();
    session = await connectInProcess(box!.env);
    const stored = (await session.client.callTool({ name: "get_consultation", arguments: { id: first.consultation_id } })) as ToolReply;
    expect(stored.isError).toBeFalsy();
    const sc = stored.structuredContent as { agent: string; turns: { prompt: string; context: string; content: { answer: string } }[] };
    expect(sc.agent).toBe("cl");
    expect(sc.turns[0]).toMatchObject({ prompt: "Is this loop correct?", context: "def f(): pass", content: { answer: "PONG-FROM-FAKE" } });
    const again = envOf(await ask(session, { consultation_id: first.consultation_id }));
    expect(again.ok).toBe(true);
  });

  test("an unknown consultation id is refused", async () => {
    const s = await start({ cx: { backend: "codex", model: "gpt-5.5" } });
    const reply = (await s.client.callTool({ name: "get_consultation", arguments: { id: "NOPE" } })) as ToolReply;
    expect(reply.isError).toBe(true);
    expect(envOf(reply).error?.code).toBe("not_found");
  });
});

describe("consult: failures are answers, never prose", () => {
  test.each(["codex", "claude"] as const)("%s wrong-model → configured_model_unavailable with no content", async (backend) => {
    const model = backend === "codex" ? "gpt-5.5" : "claude-opus-5-5";
    const s = await start({ a: { backend, model, env: { [`FAKE_${backend.toUpperCase()}_SCENARIO`]: "wrong-model" } } });
    const reply = await ask(s);
    expect(reply.isError).toBe(true);
    const e = envOf(reply);
    expect(e.error?.code).toBe("configured_model_unavailable");
    expect(e.content ?? null).toBeNull();
    expect(e.model_verification).toBe("mismatch");
    expect(textOf(reply)).not.toContain("PONG-FROM-FAKE");
  });

  test("a prose answer gets one repair turn on the same session, then bad_output", async () => {
    const s = await start({ cl: { backend: "claude", model: "claude-opus-5-5", env: { FAKE_CLAUDE_SCENARIO: "prose-answer" } } });
    const reply = await ask(s);
    expect(reply.isError).toBe(true);
    expect(envOf(reply).error?.code).toBe("bad_output");
    expect(envOf(reply).content ?? null).toBeNull();
    expect(textOf(reply)).not.toContain("PONG-FROM-FAKE");
    const recs = box!.recordings("claude");
    expect(recs).toHaveLength(2);
    expect(recs[1]!.argv).toContain("--resume");
  });

  test("a repair turn that returns JSON succeeds, on the same session", async () => {
    box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
    // A claude that answers prose on a new session and JSON when resumed.
    const wrapper = join(box.root, "claude-prose-then-json");
    writeFileSync(
      wrapper,
      `#!/bin/sh\ncase "$*" in *--resume*) FAKE_CLAUDE_SCENARIO=json-answer;; *) FAKE_CLAUDE_SCENARIO=prose-answer;; esac\nexport FAKE_CLAUDE_SCENARIO\nexec ${join(FAKES_DIR, "claude")} "$@"\n`,
      { mode: 0o755 },
    );
    box.writeConfig(configOf({ cl: { backend: "claude", model: "claude-opus-5-5", command: wrapper } }));
    session = await connectInProcess(box.env);
    const e = envOf(await ask(session));
    expect(e.ok).toBe(true);
    expect(e.content?.answer).toBe("PONG-FROM-FAKE");
    expect((e as { repaired?: boolean }).repaired).toBe(true);
    const recs = box.recordings("claude");
    expect(recs.map((r) => r.scenario)).toEqual(["prose-answer", "json-answer"]);
    const stored = (await session.client.callTool({ name: "get_consultation", arguments: { id: e.consultation_id } })) as ToolReply;
    expect(recs[1]!.argv[recs[1]!.argv.indexOf("--resume") + 1]).toBe(stored.structuredContent?.native_session_id as string);
  });

  test.each(["codex", "claude"] as const)("%s: an acting tool event fails the turn closed", async (backend) => {
    const s = await start({
      a: { backend, model: backend === "codex" ? "gpt-5.5" : "claude-opus-5-5", env: { [`FAKE_${backend.toUpperCase()}_SCENARIO`]: "action" } },
    });
    const reply = await ask(s);
    expect(reply.isError).toBe(true);
    expect(envOf(reply).error?.code).toBe("action_attempted");
    expect(envOf(reply).content ?? null).toBeNull();
  });

  test.each([
    ["codex", "gpt-5.5", "codex login"],
    ["claude", "claude-opus-5-5", "claude auth login"],
  ] as const)("%s auth failure returns the login command, with no fallback", async (backend, model, login) => {
    const other = backend === "codex" ? { backend: "claude", model: "claude-opus-5-5", score: 10 } : { backend: "codex", model: "gpt-5.5", score: 10 };
    const s = await start({ a: { backend, model, score: 90, env: { [`FAKE_${backend.toUpperCase()}_SCENARIO`]: "auth-fail" } }, b: other });
    const reply = await ask(s);
    expect(reply.isError).toBe(true);
    const e = envOf(reply);
    expect(e.error?.code).toBe("auth_required");
    expect(e.error?.hint).toContain(login);
    expect(textOf(reply)).toContain(login);
    expect(box!.recordings(other.backend)).toHaveLength(0);
    const stored = (await s.client.callTool({ name: "get_consultation", arguments: { id: e.consultation_id } })) as ToolReply;
    expect((stored.structuredContent?.turns as { error: { code: string } }[])[0]?.error.code).toBe("auth_required");
  });
});

/** `orchestrate check` for ACP agents: the handshake against fakes/acp, and a launch that speaks no ACP. */
import { describe, expect, test } from "bun:test";
import { validateConfigObject } from "../../src/config/validate.ts";
import { adapters } from "../../src/backends/index.ts";
import { acpProblems, acpReport, formatAcpAgent } from "../../src/doctor/acp.ts";
import { acpHandshake } from "../../src/runner/transports/acp-probe.ts";
import { BUN_DIR, FAKES_DIR } from "../../fakes/lib/sandbox.ts";

const env = { HOME: "/tmp", PATH: `${FAKES_DIR}:${BUN_DIR}:/usr/bin:/bin` };

function config(yaml: string) {
  const result = validateConfigObject(Bun.YAML.parse(yaml), { format: "yaml" }, env);
  if (!result.ok) throw new Error(result.errors.join("\n"));
  return result.value.config;
}

describe("check: ACP agents", () => {
  test("each ACP agent's protocol version, agent, capabilities and sign-in command; a launch that is no ACP agent is a problem", async () => {
    const reports = await acpReport(
      config(
        "agents:\n  q: { backend: acp, provider: x, command: [acp, --acp] }\n  t: { backend: acp, provider: x, command: ['true'] }\n  h: { backend: gemini, model: m }\n",
      ),
      env,
    );
    expect(reports.map((r) => r.id)).toEqual(["q", "t"]);
    const [q, t] = reports;
    expect(q).toMatchObject({ ok: true, protocolVersion: 1, agent: "fake-acp", version: "9.9.9", login: "fake-agent login" });
    expect(q?.ok && q.capabilities).toEqual(["loadSession", "prompt:embeddedContext", "mcp:http"]);
    expect(formatAcpAgent(q!)).toContain("ACP 1 · fake-acp 9.9.9 · loadSession, prompt:embeddedContext, mcp:http · sign in: fake-agent login");
    expect(t).toMatchObject({ ok: false, problem: "it exited before answering ACP's initialize (exit 0)" });
  });

  test("an agent still starting when its time runs out is reported as slow, not as exited", async () => {
    const slow = config("agents:\n  s: { backend: acp, provider: x, command: [sleep, '30'] }\n").agents.s;
    if (!slow) throw new Error("agent s missing");
    const report = await acpHandshake(slow, adapters.acp, env, 3, 1000);
    expect(report).toMatchObject({ ok: false, problem: "it did not answer ACP's initialize within 1 s" });
    expect(acpProblems([{ id: "s", backend: "acp", ...report }])[0]?.hint).toContain("slow to answer");
  });
});

/**
 * What the CLIs refuse, end to end (issue 11 §5), and prompts of any size (§3), for claude, codex,
 * opencode and pi: a route whose delegate was blocked is answered, but never as a plain success —
 * the trace lists each refused call and the reply carries a notice; a 300 KiB prompt travels on
 * stdin and no prompt text is in any child's argv.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

async function route(config: string, prompt = "do the thing", setup?: (s: Sandbox) => void): Promise<ToolReply> {
  box = makeSandbox();
  setup?.(box);
  box.writeConfig(config);
  session = await connectInProcess(box.env);
  return (await session.client.callTool({ name: "route", arguments: { prompt, cwd: box.repo, tier: "heavy" } })) as ToolReply;
}

const one = (agent: string) => `agents:\n  a1: ${agent}\ntiers: { light: null, standard: null, heavy: [a1] }\n`;
type Attempt = { agent: string; outcome: string; refusals?: { tool: string; detail?: string; message?: string }[]; treeChanged?: boolean | null };
const attemptsOf = (reply: ToolReply) => (reply.structuredContent?.attempts ?? []) as Attempt[];

describe("a delegate the CLI blocked is not a plain success", () => {
  test("claude (acceptEdits) refused a python write: ok, but the trace lists the refusal and the reply says so", async () => {
    const reply = await route(one("{ backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: bash-python } }"));
    expect(reply.isError).toBeFalsy();
    expect(reply.structuredContent?.ok).toBe(true);
    const [attempt] = attemptsOf(reply);
    expect(attempt).toMatchObject({ outcome: "ok", treeChanged: false });
    expect(attempt?.refusals).toEqual([
      { tool: "Bash", detail: `python3 -c "open('py-created.txt','w').write('x')"`, message: "This command requires approval" },
    ]);
    expect(String(reply.structuredContent?.refusalNotice)).toContain("a1's CLI refused 1 tool call, so the task may not be done: Bash (python3 -c");
    const text = textOf(reply);
    expect(text).toContain("1 tool call refused");
    expect(text).toContain("Notice: a1's CLI refused 1 tool call");
    expect(text).toContain("PONG-FROM-FAKE after tool");
    expect(existsSync(join(box!.repo, "py-created.txt"))).toBe(false);
  });

  test("claude allowed what its allowlist names: no refusal, no notice, the work done", async () => {
    const reply = await route(one(`{ backend: claude, model: opus, allowedTools: ["Bash(python3:*)"], env: { FAKE_CLAUDE_SCENARIO: bash-python } }`));
    expect(attemptsOf(reply)[0]?.refusals).toBeUndefined();
    expect(reply.structuredContent?.refusalNotice).toBeUndefined();
    expect(existsSync(join(box!.repo, "py-created.txt"))).toBe(true);
  });

  test("codex under read-only had its patch rejected (stderr only): the trace and the reply show it", async () => {
    const reply = await route(one("{ backend: codex, model: gpt-5.5, sandbox: read-only, env: { FAKE_CODEX_SCENARIO: patch } }"));
    expect(reply.structuredContent?.ok).toBe(true);
    expect(attemptsOf(reply)[0]?.refusals).toEqual([
      { tool: "apply_patch", message: "patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings" },
    ]);
    expect(textOf(reply)).toContain("Notice: a1's CLI refused 1 tool call, so the task may not be done: apply_patch. The working tree is unchanged.");
  });

  test("codex under workspace-write applies the same patch: nothing refused", async () => {
    const reply = await route(one("{ backend: codex, model: gpt-5.5, env: { FAKE_CODEX_SCENARIO: patch } }"));
    expect(attemptsOf(reply)[0]).toMatchObject({ outcome: "ok", treeChanged: true });
    expect(attemptsOf(reply)[0]?.refusals).toBeUndefined();
  });
});

/** The person's pi knows provider `fake` from its models.json. */
function piKnowsFake(s: Sandbox): void {
  const dir = join(s.home, ".pi", "agent");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "models.json"),
    JSON.stringify({ providers: { fake: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "dummy", models: [{ id: "fake-model" }] } } }),
  );
}

describe("a 300 KiB prompt routes on stdin; no prompt text in any child's argv", () => {
  const agents: [string, string, ((s: Sandbox) => void)?][] = [
    ["claude", "{ backend: claude, model: opus }"],
    ["codex", "{ backend: codex, model: gpt-5.5 }"],
    ["opencode", "{ backend: opencode, model: openai/gpt-5 }"],
    ["pi", "{ backend: pi, provider: fake, model: fake-model }", piKnowsFake],
  ];
  for (const [cli, agent, setup] of agents) {
    test(cli, async () => {
      // Over the kernel's 128 KiB per-argument limit, with a marker at each end.
      const prompt = `BEGIN-${"x".repeat(300 * 1024)}-END`;
      const reply = await route(one(agent), prompt, setup);
      expect(reply.isError).toBeFalsy();
      expect(textOf(reply)).toContain("PONG-FROM-FAKE");
      const runs = box!.recordings(cli);
      expect(runs.some((r) => r.stdin === prompt)).toBe(true);
      for (const r of runs) expect(r.argv.join(" ")).not.toContain("BEGIN-");
    });
  }
});

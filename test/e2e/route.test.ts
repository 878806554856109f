/**
 * route end to end: a real MCP client, the real server (in this process — fakes/lib/in-process.ts —
 * or spawned where its stderr is the subject), the fake CLIs, real git and a real SQLite file.
 * Fallback must fire on each fast clean failure class and on nothing else.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess, type InProcessSession } from "../../fakes/lib/in-process.ts";
import { FAKES_DIR, git, makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
let session: ClientSession | InProcessSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

/** heavy = [first (claude, scenario under test), second (claude, ok)]: same provider, no crossing. */
function twoClaudes(firstEnv: Record<string, string>, extra = ""): string {
  const env = Object.entries(firstEnv)
    .map(([k, v]) => `      ${k}: "${v}"`)
    .join("\n");
  return `agents:
  first:
    backend: claude
    model: opus
${env ? `    env:\n${env}\n` : ""}${extra}
  second:
    backend: claude
    model: sonnet
tiers:
  light: null
  standard: null
  heavy: [first, second]
`;
}

async function route(env: Record<string, string>, config: string, args: Record<string, unknown> = {}): Promise<ToolReply> {
  box = makeSandbox(env);
  box.writeConfig(config);
  session = await connectInProcess(box.env);
  return (await session.client.callTool({ name: "route", arguments: { prompt: "do the thing", cwd: box.repo, tier: "heavy", ...args } })) as ToolReply;
}

type Attempt = { agent: string; outcome: string; fellBack: boolean; treeChanged?: boolean | null };
const attemptsOf = (reply: ToolReply) => (reply.structuredContent?.attempts ?? []) as Attempt[];

describe("route: fallback only on a fast clean failure", () => {
  test.each(["auth-fail", "rate-limit", "overload", "transport"])("falls back after %s with an unchanged tree", async (scenario) => {
    const reply = await route({}, twoClaudes({ FAKE_CLAUDE_SCENARIO: scenario }));
    expect(reply.isError).toBeFalsy();
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.fellBack])).toEqual([
      ["first", "unavailable", true],
      ["second", "ok", false],
    ]);
    expect((reply.structuredContent?.servedBy as { agent: string }).agent).toBe("second");
    expect(textOf(reply)).toContain("PONG-FROM-FAKE");
  });

  test("falls back when the first backend is not installed, without spawning it", async () => {
    const reply = await route({}, twoClaudes({}, "    command: /nonexistent/bin/claude\n"));
    expect(attemptsOf(reply).map((a) => a.outcome)).toEqual(["unavailable", "ok"]);
    expect(box!.recordings("claude")).toHaveLength(1);
  });

  const mutations: [string, (repo: string) => void][] = [
    ["edit-file", () => undefined],
    ["new-untracked", () => undefined],
    ["delete", () => undefined],
    ["rename", () => undefined],
    ["mode", () => undefined],
    ["commit", () => undefined],
    ["stage", (repo) => writeFileSync(join(repo, "README.md"), "dirty before the run\n")],
  ];
  test.each(mutations)("a failure after the tree changed (%s) is terminal", async (mutation, prepare) => {
    box = makeSandbox({});
    prepare(box.repo);
    box.writeConfig(twoClaudes({ FAKE_CLAUDE_SCENARIO: "edits-then-fails", FAKE_MUTATION: mutation }));
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply).map((a) => [a.agent, a.fellBack, a.treeChanged])).toEqual([["first", false, true]]);
    expect(box.recordings("claude")).toHaveLength(1);
  });

  test("an edit to an already-dirty file is caught (git status alone would not see it)", async () => {
    box = makeSandbox({});
    writeFileSync(join(box.repo, "README.md"), "already dirty\n");
    box.writeConfig(twoClaudes({ FAKE_CLAUDE_SCENARIO: "edits-then-fails", FAKE_MUTATION: "edit-file" }));
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    expect(attemptsOf(reply).map((a) => a.treeChanged)).toEqual([true]);
  });

  test("an edit to an existing untracked file is caught", async () => {
    box = makeSandbox({});
    writeFileSync(join(box.repo, "notes.txt"), "untracked\n");
    box.writeConfig(twoClaudes({ FAKE_CLAUDE_SCENARIO: "edits-then-fails", FAKE_MUTATION: "edit-file", FAKE_MUTATION_FILE: "notes.txt" }));
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    expect(attemptsOf(reply).map((a) => a.treeChanged)).toEqual([true]);
  });

  test("a delegate that plants core.fsmonitor and a filter driver: orchestrate's git runs neither, and the tree changed", async () => {
    box = makeSandbox({});
    const marker = join(box.root, "planted-ran");
    box.writeConfig(twoClaudes({ FAKE_CLAUDE_SCENARIO: "edits-then-fails", FAKE_MUTATION: "plant-git", FAKE_PLANT_MARKER: marker }));
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    expect(attemptsOf(reply).map((a) => [a.agent, a.fellBack, a.treeChanged])).toEqual([["first", false, true]]);
    // The fingerprint after the attempt ran git status in the planted repository.
    expect(existsSync(marker)).toBe(false);
  });

  test("a change to an ignored file leaves the fingerprint alone, but an agent that wrote is still terminal", async () => {
    const reply = await route({}, twoClaudes({ FAKE_CLAUDE_SCENARIO: "edits-then-fails", FAKE_MUTATION: "ignored" }));
    expect(attemptsOf(reply).map((a) => [a.treeChanged, a.fellBack])).toEqual([[false, false]]);
    expect(textOf(reply)).toContain("ran a tool that can change state");
  });

  test("community grok's own ./.grok/settings.json does not block a fallback", async () => {
    const reply = await route(
      {},
      `agents:
  g1: { backend: grok, model: grok-code-fast-1, env: { FAKE_GROK_SCENARIO: rate-limit } }
  g2: { backend: grok, model: grok-4 }
tiers: { light: null, standard: null, heavy: [g1, g2] }
`,
    );
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.treeChanged])).toEqual([
      ["g1", "unavailable", false],
      ["g2", "ok", false],
    ]);
    expect(existsSync(join(box!.repo, ".grok", "settings.json"))).toBe(true);
  });

  test("a timeout is terminal", async () => {
    const reply = await route({}, twoClaudes({ FAKE_CLAUDE_SCENARIO: "hang" }, "    limits: { maxWallSec: 2 }\n"));
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply).map((a) => [a.outcome, a.fellBack])).toEqual([["timeout", false]]);
  });

  test("a non-git cwd makes a post-spawn failure terminal", async () => {
    box = makeSandbox({});
    const plain = join(box.projects, "plain");
    mkdirSync(plain);
    box.writeConfig(twoClaudes({ FAKE_CLAUDE_SCENARIO: "rate-limit" }));
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: plain, tier: "heavy" } })) as ToolReply;
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply).map((a) => [a.outcome, a.fellBack])).toEqual([["unavailable", false]]);
    expect(textOf(reply)).toContain("not a git work tree");
  });

  test("a task failure (not unavailable) is terminal", async () => {
    const reply = await route({}, twoClaudes({ FAKE_CLAUDE_SCENARIO: "bad-model" }));
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply)).toHaveLength(1);
  });
});

describe("route: cross-provider consent", () => {
  const crossing = (allow: boolean, model = "deepseek/v4") => `agents:
  cl: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: rate-limit } }
  oc: { backend: opencode, model: ${model} }
tiers:
  light: null
  standard: [oc]
  heavy: [cl]
fallbacks: { heavy: standard }
allowCrossProviderFallback: ${allow}
`;

  test("without consent the hop to another provider is not taken", async () => {
    const reply = await route({}, crossing(false));
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply).map((a) => a.agent)).toEqual(["cl"]);
    expect(box!.recordings("opencode")).toHaveLength(0);
  });

  test("with consent it is taken and announced", async () => {
    const reply = await route({}, crossing(true));
    expect(reply.isError).toBeFalsy();
    expect(attemptsOf(reply).map((a) => a.agent)).toEqual(["cl", "oc"]);
    expect(String(reply.structuredContent?.crossProviderNotice)).toContain("anthropic");
  });

  test("an aggregator prefix counts as a crossing", async () => {
    box = makeSandbox({});
    box.writeConfig(`agents:
  a: { backend: opencode, model: openai/gpt-5, env: { FAKE_OPENCODE_SCENARIO: rate-limit } }
  b: { backend: opencode, model: openrouter/openai/gpt-5 }
tiers: { light: [a, b], standard: null, heavy: null }
`);
    session = await connectInProcess(box.env);
    const dry = (await session.client.callTool({ name: "router_dry_run", arguments: { cwd: box.repo, tier: "light" } })) as ToolReply;
    const decisions = dry.structuredContent?.decisions as { agent: string; decision: string; reason: string }[];
    expect(decisions.find((d) => d.agent === "b")).toMatchObject({ decision: "skip" });
    expect(decisions.find((d) => d.agent === "b")?.reason).toContain("aggregator");
  });
});

describe("route: shared cooldowns", () => {
  test("a cooldown armed by one server process is honoured by a second on the same store", async () => {
    const reply = await route({}, twoClaudes({ FAKE_CLAUDE_SCENARIO: "rate-limit" }));
    expect(attemptsOf(reply).map((a) => a.outcome)).toEqual(["unavailable", "ok"]);
    const other = await connect(box!.env);
    try {
      const dry = (await other.client.callTool({ name: "router_dry_run", arguments: { cwd: box!.repo, tier: "heavy" } })) as ToolReply;
      const decisions = dry.structuredContent?.decisions as { agent: string; decision: string; reason: string }[];
      expect(decisions.find((d) => d.agent === "first")).toMatchObject({ decision: "skip" });
      expect(decisions.find((d) => d.agent === "first")?.reason).toContain("cooling");
      const second = (await other.client.callTool({ name: "route", arguments: { prompt: "again", cwd: box!.repo, tier: "heavy" } })) as ToolReply;
      expect(attemptsOf(second).map((a) => a.agent)).toEqual(["second"]);
    } finally {
      await other.close();
    }
  });
});

describe("list_tiers: presence only", () => {
  test("says which tiers are configured and which CLIs exist — never model ids, counts or the config path", async () => {
    box = makeSandbox({});
    box.writeConfig(twoClaudes({}));
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "list_tiers", arguments: {} })) as ToolReply;
    expect(reply.structuredContent?.tiers).toEqual({ light: false, standard: false, heavy: true });
    const everything = JSON.stringify(reply);
    for (const secret of ["opus", "sonnet", box.configPath, "first", "second"]) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/"heavy":\s*\d/);
  });
});

describe("route: input and safety refusals", () => {
  test("a cwd outside the roots is refused with its fix", async () => {
    const reply = await route({}, twoClaudes({}), { cwd: "/" });
    expect(reply.isError).toBe(true);
    expect((reply.structuredContent?.error as { code: string }).code).toMatch(/cwd/);
    expect(box!.recordings()).toHaveLength(0);
  });

  test("bad arguments get a typed error, not a crash", async () => {
    const reply = await route({}, twoClaudes({}), { tier: "ultra", timeoutSec: 5 });
    expect(reply.isError).toBe(true);
    expect((reply.structuredContent?.error as { code: string }).code).toBe("invalid_arguments");
    expect(textOf(reply)).toContain("tier");
  });

  test("a nested orchestrate past the depth limit refuses to delegate", async () => {
    const reply = await route({ ORCHESTRATE_DEPTH: "1" }, twoClaudes({}));
    expect(reply.isError).toBe(true);
    expect((reply.structuredContent?.error as { code: string }).code).toBe("recursion_limit");
  });

  test("children get ORCHESTRATE_DEPTH+1 and never the server's control variables", async () => {
    await route({ ORCHESTRATE_ALLOW_INIT: "1" }, twoClaudes({}));
    const rec = box!.recordings("claude")[0]!;
    expect(rec.env.ORCHESTRATE_DEPTH).toBe("1");
    expect(rec.env.ORCHESTRATE_CONFIG).toBeUndefined();
    expect(rec.env.ORCHESTRATE_ALLOW_INIT).toBeUndefined();
    expect(rec.argv).toContain("--strict-mcp-config");
    expect(rec.argv).toContain("--setting-sources");
  });

  test("advisory entries return their hint without spawning", async () => {
    const reply = await route(
      {},
      `agents:
  cx: { backend: codex, advisory: true }
tiers: { light: null, standard: null, heavy: [cx] }
`,
    );
    expect(reply.isError).toBeFalsy();
    expect(textOf(reply)).toContain("Nothing was sent");
    expect(box!.recordings()).toHaveLength(0);
  });
});

describe("route: both programs called grok", () => {
  const GROK = `agents:
  g: { backend: grok, model: grok-code-fast-1 }
tiers: { light: null, standard: null, heavy: [g] }
`;
  test("xAI's Grok Build is detected from its help and driven with its own flags", async () => {
    const reply = await route({ FAKE_GROK_VARIANT: "official" }, GROK);
    expect(reply.isError).toBeFalsy();
    expect(textOf(reply)).toContain("PONG-FROM-FAKE");
    const run = box!.recordings("grok").find((r) => r.argv.includes("-p"));
    expect(run?.argv).toEqual(expect.arrayContaining(["--output-format", "streaming-json", "--always-approve"]));
  });

  test("the community CLI gets its own flags (no streaming-json, no -k)", async () => {
    const reply = await route({}, GROK);
    expect(reply.isError).toBeFalsy();
    const run = box!.recordings("grok").find((r) => r.argv.includes("-p"));
    expect(run?.argv).toEqual(expect.arrayContaining(["-d", box!.repo]));
    expect(run?.argv).not.toContain("--output-format");
    expect(run?.argv).not.toContain("-k");
  });
});

describe("route: what copilot refuses is surfaced, not hidden in a plain success", () => {
  test("a write copilot denies (the person's own --deny-tool) shows in the trace and the answer; nothing changed", async () => {
    box = makeSandbox({ FAKE_COPILOT_SCENARIO: "action" });
    // The person's copilot, wrapped with a deny rule of their own: deny beats --allow-all-tools.
    const wrapper = join(box.root, "copilot-denying");
    writeFileSync(wrapper, `#!/bin/sh\nexec ${join(FAKES_DIR, "copilot")} "$@" "--deny-tool=shell(touch)"\n`);
    chmodSync(wrapper, 0o755);
    box.writeConfig(`agents:\n  cp: { backend: copilot, model: gpt-4o, command: "${wrapper}" }\ntiers: { light: null, standard: null, heavy: [cp] }\n`);
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "touch a file", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    const attempt = (reply.structuredContent?.attempts as { refusals?: { tool: string; message?: string }[] }[])[0];
    expect(attempt?.refusals).toEqual([{ tool: "bash", message: "Permission to run this tool was denied due to the following rules: `shell(touch)`" }]);
    expect(reply.structuredContent?.refusalNotice).toEqual(expect.stringContaining("cp"));
    expect(textOf(reply)).toContain("refused");
    expect(existsSync(join(box.repo, "created-by-tool.txt"))).toBe(false);
  });
});

describe("route: the user's MCP servers stay out of a delegated copilot", () => {
  test("every server in ~/.copilot/mcp-config.json is switched off by name", async () => {
    box = makeSandbox({});
    mkdirSync(join(box.home, ".copilot"), { recursive: true });
    writeFileSync(
      join(box.home, ".copilot", "mcp-config.json"),
      JSON.stringify({ mcpServers: { orchestrate: { command: "/x" }, "team-tools": { command: "/y" } } }),
    );
    box.writeConfig(`agents:
  cp: { backend: copilot, model: gpt-4o }
tiers: { light: null, standard: null, heavy: [cp] }
`);
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    expect(reply.isError).toBeFalsy();
    // The run, not a probe: its prompt came on stdin (copilot never gets it in argv).
    const argv = box.recordings("copilot").find((r) => r.stdin === "x")?.argv ?? [];
    expect(argv).toEqual(expect.arrayContaining(["--disable-mcp-server=orchestrate", "--disable-mcp-server=team-tools", "--disable-builtin-mcps"]));
  });
});

describe("route: the user's MCP servers stay out of a delegated opencode", () => {
  test("servers of the global and the repo's opencode config are disabled by name; providers stay", async () => {
    box = makeSandbox({});
    mkdirSync(join(box.home, ".config", "opencode"), { recursive: true });
    writeFileSync(join(box.home, ".config", "opencode", "opencode.json"), JSON.stringify({ mcp: { orchestrate: { type: "local", command: ["/x"] } } }));
    writeFileSync(join(box.repo, "opencode.json"), JSON.stringify({ mcp: { "repo-tools": { type: "local", command: ["/y"] } } }));
    box.writeConfig(`agents:
  oc: { backend: opencode, model: deepseek/v4 }
tiers: { light: null, standard: null, heavy: [oc] }
`);
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    const run = box.recordings("opencode").find((r) => r.argv[0] === "run");
    expect(JSON.parse(run?.env.OPENCODE_CONFIG_CONTENT ?? "{}")).toEqual({ mcp: { orchestrate: { enabled: false }, "repo-tools": { enabled: false } } });
    expect(reply.structuredContent?.attempts).toBeDefined();
  });
});

describe("route: the user's MCP servers stay out of a delegated codex", () => {
  test("each [mcp_servers.NAME] of config.toml is switched off with -c …enabled=false", async () => {
    box = makeSandbox({ OPENAI_API_KEY: "sk-test-not-a-real-key-1234567890" });
    writeFileSync(join(box.home, ".codex", "config.toml"), '[mcp_servers.orchestrate]\ncommand = "/x"\n');
    box.writeConfig(`agents:
  cx: { backend: codex, model: gpt-5.5 }
tiers: { light: null, standard: null, heavy: [cx] }
`);
    session = await connectInProcess(box.env);
    const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    expect(reply.isError).toBeFalsy();
    const run = box.recordings("codex").find((r) => r.argv[0] === "exec");
    expect(run?.argv).toEqual(expect.arrayContaining(["-c", "mcp_servers.orchestrate.enabled=false"]));
  });
});

describe("route: seed-000 config.json works unchanged", () => {
  test("mcp-router config.json through MCP_ROUTER_CONFIG", async () => {
    box = makeSandbox({});
    const dir = join(box.home, ".config", "mcp-router");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, "config.json");
    writeFileSync(
      path,
      JSON.stringify({
        tiers: {
          light: null,
          standard: { backend: "opencode", model: "deepseek/deepseek-v4" },
          heavy: { backend: "claude", model: "opus", permissionMode: "acceptEdits" },
        },
        capabilities: { vision: { backend: "opencode", model: "deepseek/deepseek-v4-vl", capabilities: ["vision"] } },
        fallbacks: { light: "standard", heavy: "standard" },
        allowCrossProviderFallback: false,
      }),
      { mode: 0o600 },
    );
    chmodSync(path, 0o600);
    const env = { ...box.env, MCP_ROUTER_CONFIG: path };
    delete (env as Record<string, string | undefined>).ORCHESTRATE_CONFIG;
    // A server process: what it says on stderr is part of the test.
    const stdio = await connect(env);
    session = stdio;
    const reply = (await stdio.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } })) as ToolReply;
    expect(reply.isError).toBeFalsy();
    expect((reply.structuredContent?.servedBy as { backend: string }).backend).toBe("claude");
    const argv = box.recordings("claude")[0]!.argv;
    expect(argv).toContain("acceptEdits");
    expect(stdio.stderr()).toContain("MCP_ROUTER_CONFIG");
    void git;
  });
});

/**
 * The CLI transport against small shell scripts: what prepare finds, refuses and completes, and
 * that its channel runs the invocation in a registered process group.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Adapter, RunRequest } from "../../../src/backends/contract.ts";
import { claudeAdapter } from "../../../src/backends/claude/index.ts";
import { liveCount } from "../../../src/process/live.ts";
import { cliTransport } from "../../../src/runner/transports/cli.ts";
import type { PrepareInput, Prepared } from "../../../src/runner/transports/types.ts";
import { agent } from "../../helpers/config.ts";

function script(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "orch-cli-"));
  const path = join(dir, "cli");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir() };
const route: RunRequest = { mode: "route", prompt: "p", cwd: tmpdir() };
/** Runs the prompt as a shell command, so a test sees what the child got. */
const { mcpConfigFiles: _mcp, variant: _variant, ...claudeWithoutFiles } = claudeAdapter;
const shAdapter: Adapter = {
  ...claudeWithoutFiles,
  preflight: false,
  invocation: (r) => ({ args: ["-c", r.prompt], stdin: "from stdin", env: { ADDED: "1" } }),
};

function prepare(adapter: Adapter, command: string, more: Partial<PrepareInput> = {}): Promise<Prepared> {
  return cliTransport.prepare({ agent: agent("a", "claude", { command }), adapter, request: route, env, ...more });
}

describe("cli transport: prepare", () => {
  test("a command found nowhere is not_installed, named", async () => {
    expect(await prepare(shAdapter, "orchestrate-no-such-cli")).toEqual({
      ok: false,
      failure: "not_installed",
      reason: "orchestrate-no-such-cli was not found on PATH or in the usual install locations",
    });
  });

  test("a build the backend refuses is not_installed with its message, never run", async () => {
    const cli = script('[ "$1" = --version ] && echo "cli 0.9" && exit 0; echo RAN; exit 0');
    const adapter: Adapter = {
      ...shAdapter,
      variant: {
        argv: ["--version"],
        read: (o) => (o.stdout.includes("0.9") ? "old" : "new"),
        traits: (v) => (v === "old" ? { refuse: "cli 0.9 writes nothing to a pipe; install 1.0 or later" } : {}),
      },
    };
    expect(await prepare(adapter, cli)).toEqual({
      ok: false,
      failure: "not_installed",
      reason: "cli 0.9 writes nothing to a pipe; install 1.0 or later",
      target: cli,
    });
  });

  test("the installed build completes the request", async () => {
    const cli = script('[ "$1" = --version ] && echo "cli 2.1"; exit 0');
    const adapter: Adapter = { ...shAdapter, variant: { argv: ["--version"], read: (o) => (o.stdout.includes("2.") ? "two" : "one"), traits: () => ({}) } };
    const prepared = await prepare(adapter, cli);
    expect(prepared.ok && prepared.request.variant).toBe("two");
  });

  test("a pre-flighted CLI whose readiness probe says no is auth / unavailable, with its path", async () => {
    const cli = script('[ "$1" = auth ] && exit 1; exit 0');
    const adapter: Adapter = { ...shAdapter, preflight: true, probes: { ...shAdapter.probes, auth: ["auth", "status"] } };
    expect(await prepare(adapter, cli)).toEqual({ ok: false, failure: "auth", reason: "unavailable", target: cli });
  });

  test("the pre-flight asks the installed build's own probe, with the agent's env", async () => {
    const cli = script('[ "$1" = --version ] && echo "cli 1.5" && exit 0; [ "$1" = check ] && [ "$TOKEN_HOME" = agent ] && exit 0; exit 1');
    const adapter: Adapter = {
      ...shAdapter,
      preflight: true,
      probes: { ...shAdapter.probes, auth: ["auth", "status"] },
      variant: { argv: ["--version"], read: () => "one-five", traits: () => ({ probes: { ...shAdapter.probes, auth: ["check"] } }) },
    };
    const prepared = await prepare(adapter, cli, { agent: agent("a", "claude", { command: cli, env: { TOKEN_HOME: "agent" } }) });
    expect(prepared.ok).toBe(true);
  });

  test("the user's MCP servers are switched off by name; an answer run reads no repo config", async () => {
    const home = mkdtempSync(join(tmpdir(), "orch-mcp-"));
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ servers: { mine: {}, orchestrate: {} } }));
    const seenCwd: (string | undefined)[] = [];
    const adapter: Adapter = {
      ...shAdapter,
      mcpConfigFiles: (ctx) => (seenCwd.push(ctx.cwd), [{ path: join(home, "mcp.json"), format: "json", key: "servers" }]),
    };
    const cli = script("exit 0");
    const routed = await prepare(adapter, cli);
    expect(routed.ok && routed.request.disableMcpServers).toEqual(["mine", "orchestrate"]);
    await prepare(adapter, cli, { request: { ...route, mode: "answer" } });
    expect(seenCwd).toEqual([tmpdir(), undefined]);
  });
});

describe("cli transport: the channel", () => {
  test("runs the invocation: args, stdin, the agent's env plus the backend's, no control variables", async () => {
    const cli = script('exec /bin/sh "$@"');
    const prepared = await prepare(shAdapter, cli, {
      agent: agent("a", "claude", { command: cli, env: { AGENT_VAR: "yes" } }),
      env: { ...env, ORCHESTRATE_CONFIG: "/secret/config.yaml" },
      request: { ...route, prompt: 'read s; echo "$s|$AGENT_VAR|$ADDED|${ORCHESTRATE_CONFIG:-unset}|$ORCHESTRATE_DEPTH"; echo oops >&2; exit 3' },
    });
    if (!prepared.ok) throw new Error(prepared.reason);
    expect(prepared.channel.target).toBe(cli);
    const lines: string[] = [];
    const end = await prepared.channel.run({ timeoutMs: 10_000, signal: new AbortController().signal, onLine: (l) => lines.push(l) });
    expect(lines).toEqual(["from stdin|yes|1|unset|1"]);
    expect(end).toEqual({ endReason: "exit", exitCode: 3, signal: null, stderrTail: "oops\n", rawStdoutTail: "from stdin|yes|1|unset|1" });
  });

  test("a running channel is a live group; an abort ends it with the abort's reason", async () => {
    const cli = script("echo started; exec sleep 30");
    const prepared = await prepare(shAdapter, cli, { request: { ...route, prompt: "unused" }, agent: agent("a", "claude", { command: cli }) });
    if (!prepared.ok) throw new Error(prepared.reason);
    const abort = new AbortController();
    const before = liveCount();
    let during = -1;
    const end = await prepared.channel.run({
      timeoutMs: 10_000,
      signal: abort.signal,
      onLine: () => {
        during = liveCount();
        abort.abort("budget_exceeded");
      },
    });
    expect(during).toBe(before + 1);
    expect(end.endReason).toBe("budget_exceeded");
    expect(liveCount()).toBe(before);
  });
});

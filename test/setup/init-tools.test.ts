/**
 * The opt-in init tools over a real MCP stdio session: preview writes nothing, apply stages only
 * `<config>.pending` (0600) and never touches the live file, risks are computed by the server.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { j, secretGenerator } from "../helpers/fake-secrets.ts";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { usualLocationSandbox } from "./helpers.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

const LIVE = "agents:\n  a:\n    backend: opencode\n    model: opencode/big-pickle\ntiers:\n  light: [a]\n";
const RISKY = { agents: { b: { backend: "claude", model: "opus", permissionMode: "bypassPermissions" } }, tiers: { heavy: ["b"] } };

async function open(env: Record<string, string> = {}): Promise<ClientSession> {
  box = usualLocationSandbox(["opencode", "claude"], { ORCHESTRATE_ALLOW_INIT: "1", FAKE_MODELS: "opencode/big-pickle,opencode/other", ...env });
  box.writeConfig(LIVE);
  session = await connectInProcess(box.env);
  return session;
}

const call = async (s: ClientSession, name: string, args: Record<string, unknown> = {}) => (await s.client.callTool({ name, arguments: args })) as ToolReply;

describe("init tools (ORCHESTRATE_ALLOW_INIT=1)", () => {
  test("init_apply stages <config>.pending 0600 and leaves the live file's bytes and mtime alone", async () => {
    const s = await open();
    const path = (box as Sandbox).configPath;
    const before = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
    const reply = await call(s, "init_apply", { spec: RISKY });
    expect(reply.isError).toBeFalsy();
    expect(readFileSync(path)).toEqual(before.bytes);
    expect(statSync(path).mtimeMs).toBe(before.mtime);
    const pending = `${path}.pending`;
    expect(statSync(pending).mode & 0o777).toBe(0o600);
    expect(readFileSync(pending, "utf8")).toContain("permissionMode: bypassPermissions");
    expect(reply.structuredContent?.staged).toBe(pending);
    expect((reply.structuredContent?.risks as { code: string }[]).map((r) => r.code)).toContain("bypass_permissions");
    expect(textOf(reply)).toContain("accept-pending");
  }, 60_000);

  test("init_preview returns diff and server-computed risks and writes nothing", async () => {
    const s = await open();
    const path = (box as Sandbox).configPath;
    const reply = await call(s, "init_preview", {
      spec: {
        ...RISKY,
        fallbacks: { heavy: "light" },
        allowCrossProviderFallback: true,
        agents: { ...RISKY.agents, a: { backend: "opencode", model: "opencode/big-pickle" } },
        tiers: { heavy: ["b"], light: ["a"] },
      },
    });
    expect(reply.isError).toBeFalsy();
    const codes = (reply.structuredContent?.risks as { code: string }[]).map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(["bypass_permissions", "cross_provider_fallback"]));
    expect(String(reply.structuredContent?.diff)).toContain("+    permissionMode: bypassPermissions");
    expect(existsSync(`${path}.pending`)).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(LIVE);
  }, 60_000);

  test("an invalid spec is an isError result with one line per bad key, and nothing is staged", async () => {
    const s = await open();
    const reply = await call(s, "init_apply", { spec: { agents: { x: { backend: "codex", model: "m", permissionMode: "bypassPermissions" } }, tierz: {} } });
    expect(reply.isError).toBe(true);
    expect((reply.structuredContent?.error as { code: string }).code).toBe("config_invalid");
    expect((reply.structuredContent?.errors as string[]).join("\n")).toContain("tierz");
    expect(existsSync(`${(box as Sandbox).configPath}.pending`)).toBe(false);
  }, 60_000);

  test("init_status reports installed CLIs, what they list, and tier presence only", async () => {
    const s = await open();
    const reply = await call(s, "init_status");
    expect(reply.isError).toBeFalsy();
    const data = reply.structuredContent as {
      backends: { backend: string; installed: boolean }[];
      models: Record<string, string[]>;
      tiers: Record<string, boolean>;
    };
    expect(
      data.backends
        .filter((b) => b.installed)
        .map((b) => b.backend)
        .sort(),
    ).toEqual(["claude", "opencode"]);
    expect(data.models.opencode).toEqual(["opencode/big-pickle", "opencode/other"]);
    expect(data.tiers).toEqual({ light: true, standard: false, heavy: false });
  }, 60_000);

  test("MCP_ROUTER_ALLOW_INIT=1 (the seed's name) also enables them", async () => {
    box = usualLocationSandbox(["opencode"], { MCP_ROUTER_ALLOW_INIT: "1" });
    session = await connectInProcess(box.env);
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["init_status", "init_preview", "init_apply"]));
  }, 60_000);

  test("init_preview and init_apply never hand the current or proposed env secrets back; the staged file keeps them", async () => {
    const rand = secretGenerator(2102);
    const key = j("sk-proj-", rand(48));
    const password = `pw-${rand(14)}`;
    const plain = `v-${rand(12)}`;
    const live = `agents:\n  a:\n    backend: opencode\n    model: opencode/big-pickle\n    env:\n      OPENAI_API_KEY: ${key}\n      DATABASE_URL: "postgres://app:${password}@db.internal/app"\n      SOME_SETTING: ${plain}\ntiers:\n  light: [a]\n`;
    const s = await open();
    const path = (box as Sandbox).configPath;
    writeFileSync(path, live);
    const spec = {
      agents: { a: { backend: "opencode", model: "opencode/big-pickle", env: { OPENAI_API_KEY: key, SOME_SETTING: plain, EXTRA: `x-${password}` } } },
      tiers: { light: ["a"] },
    };
    for (const name of ["init_preview", "init_apply"]) {
      const reply = await call(s, name, { spec });
      expect(reply.isError).toBeFalsy();
      const shown = JSON.stringify(reply);
      for (const secret of [key, password, plain]) expect(shown).not.toContain(secret);
      // Still a diff a person can read: the changed key is there, its value is not.
      expect(String(reply.structuredContent?.diff)).toContain("+      EXTRA: [REDACTED:env]");
    }
    expect(readFileSync(`${path}.pending`, "utf8")).toContain(key);
    expect(readFileSync(path, "utf8")).toBe(live);
  }, 60_000);
});

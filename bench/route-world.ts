/**
 * The world the route benchmarks share: a sandbox (HOME, config, SQLite file, fakes first on PATH)
 * whose light tier is the fake opencode answering at once, extra small git repos as further cwds,
 * and one MCP session against the compiled binary, kept open across iterations.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type McpSession, type ToolReply } from "../fakes/lib/mcp-client.ts";
import { git, makeSandbox, type Sandbox } from "../fakes/lib/sandbox.ts";
import { orchestrateBinary } from "./helpers.ts";

const CONFIG = `agents:
  oc: { backend: opencode, model: deepseek/deepseek-v4 }
tiers:
  light: [oc]
  standard: null
  heavy: null
`;

export interface RouteWorld {
  box: Sandbox;
  session: McpSession;
  /** Extra repos under the projects root (the sandbox's own repo is box.repo). */
  repos: string[];
  route(cwd: string): Promise<ToolReply>;
  close(): Promise<void>;
}

export async function openRouteWorld(extraRepos = 0, env: Record<string, string> = {}): Promise<RouteWorld> {
  const box = makeSandbox({ FAKE_SCENARIO: "ok", ...env });
  box.writeConfig(CONFIG);
  const repos = Array.from({ length: extraRepos }, (_, i) => smallRepo(join(box.projects, `repo-${i}`)));
  const session = await connect(box.env, { command: [orchestrateBinary()] });
  return {
    box,
    session,
    repos,
    async route(cwd: string) {
      const reply = (await session.client.callTool({ name: "route", arguments: { prompt: "say pong", cwd, tier: "light" } })) as ToolReply;
      if (reply.isError) throw new Error(`route failed: ${reply.content.map((c) => c.text ?? "").join("\n")}`);
      return reply;
    },
    async close() {
      await session.close().catch(() => undefined);
      box.cleanup();
    },
  };
}

/** A few committed files, like the sandbox's own repo. */
export function smallRepo(dir: string): string {
  mkdirSync(join(dir, "src"), { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "README.md"), "# demo\n");
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, "src", `f${i}.ts`), `export const v${i} = ${i};\n`);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "init");
  return dir;
}

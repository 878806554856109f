/** Shared set-up for the consult-* end-to-end tests: a sandbox, a config, a real MCP session. */
import type { ClientSession, ToolReply } from "../../fakes/lib/mcp-client.ts";
import type { Recording, Sandbox } from "../../fakes/lib/sandbox.ts";
import { openWorld, type World } from "../helpers/world.ts";

export interface AgentSpec {
  backend: string;
  model?: string;
  score?: number;
  env?: Record<string, string>;
}

export function configOf(agents: Record<string, AgentSpec>, extra: string[] = []): string {
  const lines = ["agents:"];
  for (const [id, a] of Object.entries(agents)) {
    const env = a.env
      ? `, env: { ${Object.entries(a.env)
          .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
          .join(", ")} }`
      : "";
    lines.push(`  ${id}: { backend: ${a.backend}${a.model ? `, model: ${JSON.stringify(a.model)}` : ""}, scores: { coding: ${a.score ?? 80} }${env} }`);
  }
  lines.push("tiers: { light: null, standard: null, heavy: null }", ...extra, "");
  return lines.join("\n");
}

export type { World };

export function startWorld(agents: Record<string, AgentSpec>, env: Record<string, string> = { ORCHESTRATE_HOST_RUNTIME: "gemini" }): Promise<World> {
  return openWorld(configOf(agents), env);
}

export async function call(s: ClientSession, name: string, args: Record<string, unknown> = {}): Promise<ToolReply> {
  return (await s.client.callTool({ name, arguments: args })) as ToolReply;
}

export function ask(s: ClientSession, args: Record<string, unknown> = {}): Promise<ToolReply> {
  return call(s, "consult", { prompt: "Is this loop correct?", capability: "coding", ...args });
}

export type Envelope = {
  ok: boolean;
  consultation_id?: string;
  agent?: string;
  backend?: string;
  model?: string | null;
  model_verification?: string;
  content?: Record<string, unknown> | null;
  error?: { code: string; message: string; hint?: string };
};

export const envOf = (r: ToolReply) => r.structuredContent as unknown as Envelope;

/** The recordings of answer runs only: status probes, `--help`, `opencode export` are not answers. */
export function answerRuns(recs: Recording[]): Recording[] {
  return recs.filter((r) => {
    const argv = r.argv;
    switch (r.cli) {
      case "codex":
        return argv[0] === "exec";
      case "opencode":
        return argv[0] === "run";
      case "gemini":
        return argv.includes("stream-json");
      case "grok":
        return argv.includes("-p") || argv.some((a) => a.startsWith("--prompt=") || a.startsWith("--single="));
      case "copilot":
        // The prompt comes on stdin; probes (--version, --help) never ask for JSON output.
        return argv.includes("--output-format");
      default:
        return argv.includes("-p");
    }
  });
}

/**
 * What pi keeps around a run, as data: its traits, history, model list and the setup wizard's
 * hint. pi has no MCP client on 0.73 and, on 1.x, one whose `pi mcp add` the 0.73 line would read
 * as a prompt (it has no `mcp` command), so orchestrate never registers itself automatically.
 */
import type { BackendMachine } from "../contract.ts";
import { isLine1 } from "./variant.ts";

/**
 * `pi --list-models` prints a table (`provider  model  context  max-out  thinking  images`); the
 * ids are offered as `provider/model`, which pi's `--model` accepts alongside `--provider`.
 */
export function piListedModels(stdout: string): string[] {
  return stdout.split("\n").flatMap((line) => {
    const [provider, model] = line.trim().split(/\s+/);
    if (!provider || !model || (provider === "provider" && model === "model")) return [];
    return [`${provider}/${model}`];
  });
}

export const piMachine = {
  // Usage per model call in every assistant message_end, as the run goes; the served model only
  // when the server names another one (`responseModel`); pi has no sandbox and no permission
  // prompts (bash, edit and write run at once headless; docs/backends/pi.md).
  traits: { usage: { tokens: "streamed", cost: "streamed", turns: "streamed" }, identity: "stream", resumedUsage: "per-turn", containment: "none" },
  writes: { isolatedWrite: false, patch: true, why: "pi has no sandbox and no permission prompt: its bash and write tools reach the whole machine" },
  // npm installs only: the usual npm prefixes are searched for every backend.
  installDirs: [],
  history: "~/.pi/agent/sessions/--<cwd>--/ ($PI_CODING_AGENT_DIR; $PI_CODING_AGENT_SESSION_DIR)",
  registrationHelp: (name, self) => `  pi mcp add ${name} -- ${self.join(" ")}   (pi 1.x only; 0.73 has no MCP)`,
  // 0.73 prints the table to stderr when stdin is not a terminal; 1.x to stdout.
  models: { argv: (variant) => (isLine1(variant) ? ["--list-models", "--offline"] : undefined), read: piListedModels },
  wizard: { modelHint: "a model id pi lists for the agent's provider (`pi --list-models`); pi agents also need provider:" },
} satisfies BackendMachine;

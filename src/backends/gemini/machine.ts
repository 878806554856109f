/** What gemini keeps around a run, as data: history and registration. */
import { join } from "node:path";
import type { BackendMachine } from "../contract.ts";

/**
 * The pause before the re-run. Measured against the real 0.61.0 on a loopback server (scripts/smoke/
 * gemini-capacity.sh): its start-up (~2–3.5 s on 2 cores) already puts the second request ~3 s
 * after the first, about gemini's own shortest backoff (3.5 s), so the pause adds little.
 */
export const GEMINI_RERUN_DELAY_MS = 500;

export const geminiMachine = {
  // stats arrive in the final result event; the served model is named in the stream.
  traits: {
    usage: { tokens: "final", cost: "none", turns: "none" },
    identity: "stream",
    resumedUsage: "per-turn",
    containment: "permission-mode",
    // gemini waits 5 s ±30 % before its own second attempt; starting it again takes ~2.5 s, so
    // its retries are capped at one (invocation.ts) and the runner re-runs it once instead.
    capacityRerun: { delayMs: GEMINI_RERUN_DELAY_MS },
  },
  writes: {
    isolatedWrite: true,
    patch: true,
    why: "gemini in auto_edit approves its edit tools, which refuse paths outside the workspace; shell commands need an approval headless mode cannot give",
    // docs/backends/gemini.md, "How a run is started": auto_edit's request offers no run_shell_command; its tool_result carries an id and a status, never an exit code.
    commandsDenied: "gemini in auto_edit, its contained mode, is offered no run_shell_command (only yolo has it, with no sandbox), so no test command can run",
  },
  // gemini calls flash-lite for its own chores (routing, "summarize the user's intent";
  // docs/backends/gemini.md) beside the model that answers; where the stream gives no roles, it is
  // told apart by name.
  helperModel: /flash-lite/i,
  installDirs: [],
  history: "~/.gemini/tmp/<project>/chats",
  client: { names: /^gemini/i },
  registration: ({ name, self, env, home }) => {
    const [command = "", ...args] = self;
    return { kind: "file", file: join(env.GEMINI_CLI_HOME ?? join(home, ".gemini"), "settings.json"), path: ["mcpServers", name], entry: { command, args } };
  },
  registrationHelp: (name, self) => `  gemini mcp add ${name} ${self.join(" ")}`,
  // gemini has no model-listing command; -m takes these ids from its own bundle, and `auto` lets it route.
  wizard: { modelHint: "a Gemini model id, e.g. gemini-2.5-pro", suggested: ["auto", "gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite"] },
} satisfies BackendMachine;

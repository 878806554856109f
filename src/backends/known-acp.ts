/**
 * ACP launch commands the setup wizard looks for on PATH (docs/acp.md, "Setup"). Each names the
 * config entry it becomes: a known backend switched to ACP, or a generic `backend: acp` agent from
 * its launch alone (its provider is the one it signs in to by default; the person can change it).
 * Data only: adding an agent here is a line, never code.
 */
import type { Backend } from "./index.ts";

export interface KnownAcpLaunch {
  /** The executable looked for on PATH. */
  executable: string;
  /** The full launch, executable first. */
  launch: string[];
  /** How the wizard names it. */
  label: string;
  /** The config entry's fields besides model: backend, and for a generic agent its command and provider. */
  entry: { backend: Backend; transport?: "acp"; command?: string[]; provider?: string };
}

export const KNOWN_ACP_LAUNCHES: readonly KnownAcpLaunch[] = [
  { executable: "claude-agent-acp", launch: ["claude-agent-acp"], label: "Claude over ACP (claude-agent-acp)", entry: { backend: "claude", transport: "acp" } },
  { executable: "codex-acp", launch: ["codex-acp"], label: "Codex over ACP (codex-acp)", entry: { backend: "codex", transport: "acp" } },
  { executable: "gemini", launch: ["gemini", "--acp"], label: "Gemini CLI over ACP (gemini --acp)", entry: { backend: "gemini", transport: "acp" } },
  { executable: "opencode", launch: ["opencode", "acp"], label: "opencode over ACP (opencode acp)", entry: { backend: "opencode", transport: "acp" } },
  { executable: "copilot", launch: ["copilot", "--acp"], label: "Copilot CLI over ACP (copilot --acp)", entry: { backend: "copilot", transport: "acp" } },
  { executable: "qwen", launch: ["qwen", "--acp"], label: "Qwen Code (qwen --acp)", entry: { backend: "acp", command: ["qwen", "--acp"], provider: "qwen" } },
  { executable: "goose", launch: ["goose", "acp"], label: "Goose (goose acp)", entry: { backend: "acp", command: ["goose", "acp"], provider: "goose" } },
  {
    executable: "auggie",
    launch: ["auggie", "--acp"],
    label: "Augment's auggie (auggie --acp)",
    entry: { backend: "acp", command: ["auggie", "--acp"], provider: "augment" },
  },
];

/** What claude keeps around a run, as data: history, registration, and the settings the wizard asks about. */
import type { AgentFacts, BackendMachine } from "../contract.ts";
import { claudeAllowedTools, claudePermissionMode } from "./options.ts";

export const claudeMachine = {
  options: {
    permissionMode: "codex has sandbox; other backends have no such switch",
    allowedTools: "only claude takes a tool allowlist",
  },
  advisoryHint: (agent) => {
    const model = agent.model ? ` (model ${agent.model})` : "";
    return `Advisory entry "${agent.id}": spawn a subagent yourself${model} for this task instead of delegating through orchestrate. Nothing was sent.`;
  },
  risks: (agent) => claudeRisks(agent),
  // Usage per assistant message and in the result; the served models are the result's modelUsage keys.
  traits: { usage: { tokens: "streamed", cost: "final", turns: "streamed" }, identity: "stream", resumedUsage: "per-turn", containment: "permission-mode" },
  writes: {
    isolatedWrite: true,
    patch: true,
    why: "claude -p in acceptEdits auto-approves edits inside the cwd only; anything else (Bash, paths outside) needs an approval headless mode cannot give, so it is denied",
    // docs/backends/claude.md, "Refusals": acceptEdits ran `touch` and `echo >>` but answered `python3 -c …` with
    // "This command requires approval" (is_error, permission_denials); allowing Bash would let commands write outside the worktree.
    commandsDenied:
      "claude -p in acceptEdits, its contained mode, runs only file-system commands such as touch or mkdir unasked; a test runner (npm test, pytest, python3) needs an approval headless mode cannot give, so no test command would run",
  },
  installDirs: [".claude/local"],
  history: "~/.claude/projects ($CLAUDE_CONFIG_DIR)",
  client: { names: /^claude[- ]code$|^claude-ai$|^claude$/i, requestTimeoutSec: 60 },
  registration: ({ name, self }) => ({ kind: "command", args: ["mcp", "add", "--scope", "user", name, "--", ...self] }),
  registrationHelp: (name, self) => `  claude mcp add -s user ${name} -- ${self.join(" ")}`,
  wizard: {
    modelHint: "a model id your CLI accepts",
    // claude prints no model list; these aliases it resolves itself to its current models
    // (docs/backends/claude.md: sonnet, opus, haiku were sent as claude-*-5-5).
    suggested: ["opus", "sonnet", "haiku"],
    questions: [
      {
        key: "permissionMode",
        title: "claude permission mode",
        choices: [
          { value: "acceptEdits", label: "acceptEdits", hint: "edits allowed, Bash denied headless (default)" },
          { value: "bypassPermissions", label: "bypassPermissions", hint: "⚠ no sandbox, full host access" },
        ],
      },
    ],
  },
} satisfies BackendMachine;

/** bypassPermissions, and Bash allow rules that amount to the same (a rule is escaped by chaining commands). */
function claudeRisks(agent: AgentFacts): { code: string; message: string }[] {
  const risks: { code: string; message: string }[] = [];
  if (claudePermissionMode(agent.options) === "bypassPermissions")
    risks.push({
      code: "bypass_permissions",
      message: `${agent.id}: claude bypassPermissions means no sandbox and full host access — an untrusted prompt can act as you`,
    });
  const bash = claudeAllowedTools(agent.options).filter((rule) => /^Bash\b/i.test(rule.trim()));
  if (bash.length)
    risks.push({
      code: "bash_allow_rule",
      message: `${agent.id}: allowedTools ${bash.join(", ")} — Bash rules are escapable by command chaining: effectively a full shell, the same risk as bypassPermissions`,
    });
  return risks;
}

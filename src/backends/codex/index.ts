/**
 * Adapter for OpenAI Codex CLI, written against codex-cli 0.171.0 in `codex exec --json` mode
 * (JSONL ThreadEvent stream: thread.started, turn.started, item.started/updated/completed,
 * turn.completed, turn.failed, error). Facts: research/cli-codex-claude.md §2.
 *
 * Codex never names the model in the --json stream; it is only in the session rollout file, so
 * this module also exports pure helpers to locate a rollout and read the model out of it.
 */
import type { AcpProfile, Adapter, AgentEvent, ExitOutcome, FailureClass, Invocation, RunRequest } from "../contract.ts";
import { codexSandbox, type CodexSandbox } from "./options.ts";
import { codexMachine } from "./machine.ts";
import { codexQuotaFile } from "./quota.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";
import { failureFromText } from "../events.ts";

/** Built from the options the exec subcommand takes; see research help/codex-exec--help.txt. */
export function codexInvocation(req: RunRequest): Invocation {
  const answer = req.mode === "answer";
  const sandbox: CodexSandbox = answer ? "read-only" : (codexSandbox(req.options) ?? "workspace-write");
  const args = ["exec", "--json"];
  // Answer mode runs in a scratch dir that is not a git repo; route mode keeps codex's own guard
  // (it refuses a non-git cwd, where nothing could undo its edits).
  if (answer) args.push("--skip-git-repo-check", "--ignore-user-config", "--ignore-rules");
  if (req.resumeSessionId) {
    // `exec resume` accepts neither --sandbox nor --cd; the config key works everywhere, and the
    // spawn cwd already is req.cwd.
    args.push("-c", `sandbox_mode="${sandbox}"`);
  } else {
    args.push("-C", req.cwd, "-s", sandbox);
  }
  if (req.model) args.push("-m", req.model);
  if (answer) args.push(...ANSWER_ONLY_KEYS, "-c", `web_search="${req.web ? "live" : "disabled"}"`);
  // Route mode keeps the person's config (providers, auth); their MCP servers are switched off one
  // by one — `-c mcp_servers={}` does not (it merges); `.enabled=false` does (checked on 0.171.0).
  if (!answer) for (const name of req.disableMcpServers ?? []) args.push("-c", `mcp_servers.${name}.enabled=false`);
  if (!answer) args.push(...retryCaps(req.configuredProvider));
  if (answer && req.outputSchemaPath) args.push("--output-schema", req.outputSchemaPath);
  if (req.resumeSessionId) args.push("resume", req.resumeSessionId);
  // The prompt goes on stdin, which is then closed: `-` reads it from there, for exec and for
  // `exec resume` alike (their help). In argv a prompt over the kernel's 128 KiB per-argument
  // limit fails the spawn (E2BIG), and argv is visible to every local user in `ps`.
  args.push("-");
  return { args, stdin: req.prompt };
}

/**
 * Answer mode offers the model no tool that can run anything, so no command runs at all (not one
 * that runs and then fails the turn): approvals never asked (a headless run cannot answer them),
 * the shell tools off (`shell_tool`, and `unified_exec`, which offers exec_command/write_stdin),
 * subagents off (`multi_agent`, `multi_agent_v2`). Config keys, not flags: `exec resume` takes
 * neither --ask-for-approval nor --sandbox. Checked on 0.171.0 by the consult row of
 * scripts/smoke/real-clis.sh, which records the tools each request offered the model.
 */
export const ANSWER_ONLY_KEYS: readonly string[] = [
  "-c",
  `approval_policy="never"`,
  "-c",
  "features.shell_tool=false",
  "-c",
  "features.unified_exec=false",
  "-c",
  "features.multi_agent=false",
  "-c",
  "features.multi_agent_v2=false",
];

/** Provider ids codex reserves: `-c model_providers.openai.…` is a fatal config error (research §1.1). */
const BUILT_IN_PROVIDERS = new Set(["openai", "ollama", "lmstudio", "oss"]);

/**
 * codex's own retry caps, which exist only as keys of a custom provider (the built-in `openai`
 * refuses them). By default a 503 is retried 4× silently by the HTTP layer and then 5× per stream
 * attempt (30 requests, 25 s) and a 429 5× (research/retries-and-trust.md §1.1). With
 * `request_max_retries=0` the first failure is announced at once (`Reconnecting... 1/1`, 0.42 s
 * instead of 3.45 s); `stream_max_retries=1` keeps one retry, so a single transient 429/503 still
 * recovers, and a persistent one ends with codex's own `turn.failed` after two requests.
 */
export function retryCaps(provider: string | undefined): string[] {
  if (!provider || BUILT_IN_PROVIDERS.has(provider) || !/^[A-Za-z0-9_-]{1,64}$/.test(provider)) return [];
  return ["-c", `model_providers.${provider}.request_max_retries=0`, "-c", `model_providers.${provider}.stream_max_retries=1`];
}

/**
 * A patch or command codex's sandbox or approval policy rejected never shows in the --json stream
 * (no item at all): only stderr logs it, as `… ERROR codex_core::tools::router: error=patch
 * rejected: writing is blocked by read-only sandbox; rejected by user approval settings`
 * (research/cli-codex-claude.md §2.2).
 */
export function parseCodexStderr(line: string): AgentEvent[] {
  const error = /codex_core::tools::router: error=(.*)$/.exec(line)?.[1]?.trim();
  if (!error || !/rejected|blocked|denied|not permitted|sandbox/i.test(error)) return [];
  const tool = /^patch\b/i.test(error) ? "apply_patch" : /^exec|command/i.test(error) ? "shell" : "tool";
  return [{ kind: "refusal", tool, message: error }];
}

export function parseCodexLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  switch (obj.type) {
    case "thread.started":
      return typeof obj.thread_id === "string" ? [{ kind: "session", sessionId: obj.thread_id }] : [];
    case "item.started":
    case "item.updated":
    case "item.completed":
      return itemEvents(asObject(obj.item), obj.type);
    case "turn.completed":
      return [
        { kind: "usage", usage: usageOf(asObject(obj.usage)) },
        { kind: "final", ok: true },
      ];
    case "turn.failed":
      return [{ kind: "final", ok: false, message: str(asObject(obj.error)?.message) ?? "turn failed" }];
    case "error":
      return topLevelError(str(obj.message) ?? "");
    default:
      return [];
  }
}

/** Top-level `error` lines are retry notices ("Reconnecting... 2/5 (…)") unless they lack that prefix. */
function topLevelError(message: string): AgentEvent[] {
  if (message.startsWith("Reconnecting...")) return [retryNotice(message)];
  const failure = codexFailureFromText(message);
  return [{ kind: "error", message, ...(failure ? { failure } : {}) }];
}

/**
 * A retry notice says what failed in its parenthesis: `(exceeded retry limit, last status: 429 Too
 * Many Requests)`, `(unexpected status 503 Service Unavailable: …)`, `(Selected model is at
 * capacity…)` are capacity; `(stream disconnected …)` transport (research/retries-and-trust.md
 * §1.1). Offline, codex never exits: after its 5 retries it loops on "waiting for network" (§2.4).
 */
function retryNotice(message: string): AgentEvent {
  if (/waiting for network/i.test(message)) return { kind: "retry", message, hopeless: true, failure: "transport" };
  const failure = codexFailureFromText(message);
  return { kind: "retry", message, ...(failure === "capacity" || failure === "transport" ? { failure } : {}) };
}

function itemEvents(item: Json | undefined, phase: string): AgentEvent[] {
  if (!item) return [];
  const completed = phase === "item.completed";
  switch (item.type) {
    case "agent_message":
      return completed && typeof item.text === "string" ? [{ kind: "text", text: item.text }] : [];
    case "reasoning":
      return completed ? [thinking(item.text)] : [];
    case "command_execution":
      return [commandEvent(item, completed)];
    case "file_change":
      return fileChangeEvents(item, completed);
    case "mcp_tool_call":
      return [toolEvent(`mcp:${str(item.server) ?? "?"}/${str(item.tool) ?? "?"}`, undefined, completed, true)];
    case "web_search":
      return [webSearchEvent(item, completed)];
    case "error":
      return completed ? itemNotice(str(item.message) ?? "") : [];
    default:
      return [];
  }
}

/**
 * A hosted web search (research/cli-codex-claude.md §2.2): `action` says whether the model searched
 * (`query`) or opened a page (`url`); the item's duplicate `id` key makes ids useless here.
 */
function webSearchEvent(item: Json, completed: boolean): AgentEvent {
  const action = asObject(item.action);
  const url = str(action?.url);
  const detail = url ?? str(action?.query) ?? str(item.query);
  return toolEvent("web_search", detail, completed, false, url ? "fetch" : "search");
}

function commandEvent(item: Json, completed: boolean): AgentEvent {
  const exitCode = typeof item.exit_code === "number" ? item.exit_code : undefined;
  const base = toolEvent("shell", str(item.command), completed, true);
  return completed && exitCode !== undefined && base.kind === "tool" ? { ...base, exitCode } : base;
}

function toolEvent(name: string, detail: string | undefined, completed: boolean, acts: boolean, web?: "search" | "fetch"): AgentEvent {
  return { kind: "tool", name, phase: completed ? "end" : "start", acts, ...(detail ? { detail } : {}), ...(web ? { web } : {}) };
}

function fileChangeEvents(item: Json, completed: boolean): AgentEvent[] {
  const tool = toolEvent("apply_patch", undefined, completed, true);
  if (!completed || item.status !== "completed") return [tool];
  const changes = Array.isArray(item.changes) ? item.changes : [];
  const files = changes.flatMap((change): AgentEvent[] => {
    const c = asObject(change);
    const path = str(c?.path);
    return path ? [{ kind: "file_change", path, change: changeKind(c?.kind) }] : [];
  });
  return [tool, ...files];
}

function changeKind(kind: unknown): "add" | "update" | "delete" | "unknown" {
  return kind === "add" || kind === "update" || kind === "delete" ? kind : "unknown";
}

/**
 * Non-fatal `error` items are warnings: codex goes on with the turn, nothing is retried. The one
 * that matters is the server rerouting the model — the only place the --json stream reveals which
 * model actually served.
 */
function itemNotice(message: string): AgentEvent[] {
  const rerouted = /^model rerouted: (\S+) -> (\S+)/.exec(message);
  const notice: AgentEvent = { kind: "warning", message };
  return rerouted?.[2] ? [{ kind: "model", model: rerouted[2] }, notice] : [notice];
}

function usageOf(usage: Json | undefined): { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number } {
  if (!usage) return {};
  return {
    ...(typeof usage.input_tokens === "number" ? { inputTokens: usage.input_tokens } : {}),
    ...(typeof usage.output_tokens === "number" ? { outputTokens: usage.output_tokens } : {}),
    ...(typeof usage.cached_input_tokens === "number" ? { cachedInputTokens: usage.cached_input_tokens } : {}),
  };
}

const AUTH = /\b401\b|unauthorized|missing bearer|incorrect api key|invalid_api_key|not logged in|refresh token|token (?:has )?expired/i;
const CAPACITY = /\b429\b|too many requests|usage limit|rate limit|at capacity|high demand|\b50[23]\b|\b529\b|overloaded|service unavailable|quota/i;
const TRANSPORT =
  /stream disconnected|failed to lookup address|name does not resolve|connection failed|error sending request|connection refused|connection reset|waiting for network|dns error|tls handshake|timed out/i;

/** Recognizable failure wordings of 0.171.0 (§2.4, §2.6) and public issues. */
export function codexFailureFromText(text: string): FailureClass | undefined {
  return failureFromText(text, { auth: AUTH, capacity: CAPACITY, transport: TRANSPORT });
}

export function classifyCodex(outcome: ExitOutcome): FailureClass | undefined {
  if (outcome.exitCode === 127 || /ENOENT|command not found/.test(outcome.stderrTail)) return "not_installed";
  const final = lastFinal(outcome.events);
  if (final?.ok && outcome.exitCode === 0) return hasAnswer(outcome.events) ? undefined : "empty_answer";
  const texts = failureTexts(outcome, final);
  for (const text of texts) {
    const failure = codexFailureFromText(text);
    if (failure) return failure;
  }
  if (final) return "task_failed";
  // Killed mid-stream (a crash, or by us): the partial last line is not a format problem.
  if (outcome.signal) return "task_failed";
  // No terminal record: garbage on stdout, or a "success" exit that never finished the turn.
  if (outcome.rawStdoutTail.trim() || outcome.exitCode === 0) return "bad_output";
  return "task_failed";
}

function failureTexts(outcome: ExitOutcome, final: Extract<AgentEvent, { kind: "final" }> | undefined): string[] {
  const errors = outcome.events.flatMap((e) => (e.kind === "error" ? [e.message] : []));
  // Retry notices count only when the run never reached a verdict (e.g. killed while "waiting for network").
  const retries = final ? [] : outcome.events.flatMap((e) => (e.kind === "retry" ? [e.message] : []));
  return [final?.message ?? "", ...errors, ...retries.reverse(), outcome.stderrTail].filter((t) => t !== "");
}

function lastFinal(events: readonly AgentEvent[]): Extract<AgentEvent, { kind: "final" }> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.kind === "final") return event;
  }
  return undefined;
}

function hasAnswer(events: readonly AgentEvent[]): boolean {
  return events.some((e) => (e.kind === "text" && e.text.trim() !== "") || (e.kind === "final" && e.structured !== undefined));
}

export { codexHomeFor, codexModelFromRollout, codexRolloutDirFor, isCodexRolloutFor } from "./machine.ts";

/**
 * codex over ACP (`codex-acp`, 0.16.0; docs/acp.md): the headless `-c` switches (the person's MCP
 * servers off by name, the custom provider's retries capped). Answer mode is `read-only` (its
 * sandbox refuses writes; a patch asks, and a rejected one ends the turn `cancelled`); a route is
 * `auto`. It has no session/set_model: the model goes through the `model` config option. Its
 * sandboxed children outlive session/cancel and it never exits on a closed stdin, so its group is
 * ended at once.
 */
export const codexAcp: AcpProfile = {
  launch: ["codex-acp"],
  args: (req) => [...(req.disableMcpServers ?? []).flatMap((name) => ["-c", `mcp_servers.${name}.enabled=false`]), ...retryCaps(req.configuredProvider)],
  modes: { answer: "read-only", route: "auto" },
  setModel: "config_option",
  exitGraceMs: 0,
  writes: { isolatedWrite: false, patch: true, why: "codex-acp has no containment test of its own; its sandbox under ACP is not proven" },
  // codex-acp answers only {stopReason}: usage_update{used,size} is the context window, not usage.
  traits: { usage: { tokens: "none", cost: "none", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};

export const codexAdapter: Adapter = {
  backend: "codex",
  acp: codexAcp,
  provider: { kind: "fixed", provider: "openai" },
  // `-c web_search="live"` offers the hosted web_search tool, "disabled" withholds it (peers' argv).
  web: { tools: "web_search" },
  ...codexMachine,
  quotaFile: codexQuotaFile,
  invocation: codexInvocation,
  parse: parseCodexLine,
  parseStderr: parseCodexStderr,
  classify: classifyCodex,
  preflight: true,
  // `login status` does not count API keys in the environment, but `exec` uses them (research §2.3).
  readiness: (out, env) => (out.exitCode === 0 || Boolean(env.OPENAI_API_KEY || env.CODEX_API_KEY) ? "ready" : "not_ready"),
  probes: {
    version: ["--version"],
    help: ["exec", "--help"],
    // "since" is the version these were verified on; older releases may have some of them.
    requiredFlags: [
      { flag: "--json", since: "0.171.0" },
      { flag: "--skip-git-repo-check", since: "0.171.0" },
      { flag: "--output-schema", since: "0.171.0" },
      { flag: "--ignore-user-config", since: "0.171.0" },
      { flag: "--ignore-rules", since: "0.171.0" },
      { flag: "--sandbox", since: "0.171.0" },
      { flag: "--cd", since: "0.171.0" },
      { flag: "--model", since: "0.171.0" },
    ],
    auth: ["login", "status"],
    loginHint: "codex login",
    // `codex --version` prints "codex-cli 0.171.0" for @openai/codex 0.171.0: an npm install is read from the file instead of starting the CLI (other installs are asked).
    packageVersion: "@openai/codex",
  },
  supportsResume: true,
};

/**
 * GitHub Copilot CLI adapter, written against `@github/copilot` 1.0.102 in
 * `copilot -p … --output-format json` mode (JSONL on stdout: `{"type","data","id","timestamp",…}`
 * lines ending with a `{"type":"result","sessionId","exitCode","usage"}` record).
 * Facts: research/cli-opencode-gemini-copilot-grok.md §C, help/others/copilot*.
 *
 * Isolation choice: COPILOT_HOME is NOT moved to req.isolatedHome. The sign-in (config.json's
 * logged-in user, keychain lookup) and the session-state/ needed by `--resume` both live under
 * COPILOT_HOME, so isolating it would break login and follow-ups. Answer mode instead denies every
 * acting tool (`--deny-tool` rules beat every allow rule, even --allow-all-tools), disables the
 * built-in GitHub MCP servers and drops a COPILOT_ALLOW_ALL inherited from the user's shell.
 */
import { foldEvents } from "../fold.ts";
import type { AcpProfile, Adapter, AgentEvent, ExitOutcome, FailureClass, Invocation, ProbeSpec, RunRequest, Usage } from "../contract.ts";
import { copilotMachine } from "./machine.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";

/** Tools that only read (copilot 1.0.102 tool list from the captured requests). Anything else may act. */
const READ_ONLY_TOOLS = new Set([
  "view",
  "rg",
  "grep",
  "glob",
  "read_bash",
  "list_bash",
  "fetch_copilot_cli_documentation",
  "skill",
  "read_agent",
  "list_agents",
  "session_store_sql",
  "report_intent",
  "think",
  "web_fetch",
  "web_search",
]);

/** Permission rules for answer mode: `shell` with no argument = every command, `write` = every file tool. */
const ANSWER_DENY_RULES = ["shell", "write"];

export const COPILOT_USAGE_FILE = "copilot-usage.json";

/**
 * copilot over ACP (`copilot --acp`, 1.0.102; docs/acp.md): the headless switches (no built-in
 * GitHub MCP servers, the person's own switched off by name, shell and write denied in answer
 * mode, no inherited COPILOT_ALLOW_ALL) and `allow_all` off, so its agent mode asks before a
 * shell command or a write. set_model accepts any id and the next request uses it; the served
 * model is never reported. An API failure does not fail the prompt: it ends `end_turn` with an
 * "Error: Failed to get response from the AI model …" message, which reads as the failure it is.
 */
export const copilotAcp: AcpProfile = {
  launch: ["copilot", "--acp", "--no-auto-update"],
  args: (req) => [
    "--disable-builtin-mcps",
    ...(req.disableMcpServers ?? []).map((name) => `--disable-mcp-server=${name}`),
    ...(req.mode === "answer" ? ANSWER_DENY_RULES.map((rule) => `--deny-tool=${rule}`) : []),
  ],
  env: () => ({ COPILOT_ALLOW_ALL: undefined }),
  configOptions: { answer: { allow_all: "off" }, route: { allow_all: "off" } },
  setModel: "set_model",
  exitGraceMs: 1000,
  failedTurnText: /^\s*Error: Failed to get response from the AI model/,
  writes: {
    isolatedWrite: false,
    patch: true,
    why: "copilot over ACP has no containment test of its own; its agent mode asks, and an allowed act reaches the machine",
  },
  // PromptResponse.usage with the answer; its usage_update has no cost.
  traits: { usage: { tokens: "final", cost: "none", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};

export const copilotAdapter: Adapter = {
  backend: "copilot",
  acp: copilotAcp,
  provider: { kind: "fixed", provider: "github" },
  ...copilotMachine,
  // Answer mode asks copilot for a usage file: the only place its tokens and model are written.
  sideChannel: { kind: "file", path: (ctx) => copilotUsageFilePath(ctx.request), read: copilotUsageFromUsageFile },
  invocation: copilotInvocation,
  parse: parseCopilotLine,
  classify: classifyCopilot,
  probes: copilotProbes(),
  supportsResume: true,
};

/**
 * The prompt goes on stdin, never in argv: without -p copilot reads a piped stdin to EOF as the
 * prompt and runs headless (research §C.1, `copilot-fake-stdin-json`; checked again on 1.0.102
 * with a 300 KiB prompt), so there is no 128 KiB argument limit, no prompt in `ps`, and a
 * dash-leading prompt cannot be read as a flag.
 */
function copilotInvocation(req: RunRequest): Invocation {
  const args = ["--output-format", "json", "--no-auto-update", "--no-ask-user", "--disable-builtin-mcps"];
  if (req.model) args.push("--model", req.model);
  if (req.resumeSessionId) args.push(`--resume=${req.resumeSessionId}`);
  // A delegate must not reach the user's MCP servers (orchestrate itself may be one of them).
  for (const name of req.disableMcpServers ?? []) args.push(`--disable-mcp-server=${name}`);
  if (req.mode === "route") return { args: [...args, "--allow-all-tools"], stdin: req.prompt };
  for (const rule of ANSWER_DENY_RULES) args.push(`--deny-tool=${rule}`);
  const usageFile = copilotUsageFilePath(req);
  if (usageFile) args.push("--usage-output-file", usageFile);
  // A user-level COPILOT_ALLOW_ALL=true would auto-approve tools and trust the cwd's hooks.
  return { args, stdin: req.prompt, env: { COPILOT_ALLOW_ALL: undefined } };
}

/**
 * Where answer mode asks copilot to write its final usage (tokens are not on stdout). The service
 * reads it after the run and folds it with `copilotUsageFromUsageFile`.
 */
export function copilotUsageFilePath(req: Pick<RunRequest, "mode" | "isolatedHome">): string | undefined {
  if (req.mode !== "answer" || !req.isolatedHome) return undefined;
  return `${req.isolatedHome.replace(/\/+$/, "")}/${COPILOT_USAGE_FILE}`;
}

/** Session directory of a run: `$COPILOT_HOME/session-state/<id>/` (COPILOT_HOME defaults to ~/.copilot). */
export function copilotSessionDir(env: { COPILOT_HOME?: string; HOME?: string }, sessionId: string): string {
  const home = env.COPILOT_HOME ?? `${env.HOME ?? ""}/.copilot`;
  return `${home}/session-state/${sessionId}`;
}

/** Tokens and model from a `--usage-output-file` JSON (modelMetrics keyed by model). Pure. */
export function copilotUsageFromUsageFile(text: string): { usage: Usage; models: string[] } | undefined {
  const doc = parseObject(text);
  const metrics = doc && asObject(doc.modelMetrics);
  if (!metrics) return undefined;
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  for (const entry of Object.values(metrics)) addModelUsage(usage, asObject(entry));
  const models = Object.keys(metrics);
  const current = typeof doc.currentModel === "string" ? [doc.currentModel] : [];
  return { usage, models: [...new Set([...current, ...models])] };
}

function addModelUsage(total: Usage, entry: Json | undefined): void {
  const usage = entry && asObject(entry.usage);
  if (!usage) return;
  total.inputTokens = (total.inputTokens ?? 0) + num(usage.inputTokens);
  total.outputTokens = (total.outputTokens ?? 0) + num(usage.outputTokens);
  total.cachedInputTokens = (total.cachedInputTokens ?? 0) + num(usage.cacheReadTokens);
}

// ---------------------------------------------------------------------------------------------
// parse

export function parseCopilotLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj || typeof obj.type !== "string") return [];
  const data = asObject(obj.data) ?? {};
  switch (obj.type) {
    case "assistant.message":
      return assistantMessage(data);
    case "assistant.reasoning":
      return [thinking(str(data.content))];
    case "tool.execution_start":
      return [toolStart(data)];
    case "tool.execution_complete":
      return toolEnd(data);
    case "model.call_failure":
      return callFailure(data);
    case "assistant.turn_retry":
      // The retry itself; the failure it follows was already marked by model.call_failure, so
      // this one carries no class: marking it too would count one transient 429 twice.
      return [{ kind: "retry", message: `model call failed, retrying (${str(data.reason) ?? "unknown"})` }];
    case "session.error":
      return [sessionError(data)];
    case "result":
      return resultRecord(obj);
    default:
      return [];
  }
}

function assistantMessage(data: Json): AgentEvent[] {
  const events: AgentEvent[] = [];
  const model = str(data.model);
  if (model) events.push({ kind: "model", model });
  const content = str(data.content);
  if (content) events.push({ kind: "text", text: content });
  return events;
}

function toolStart(data: Json): AgentEvent {
  const name = str(data.toolName) ?? "tool";
  const args = asObject(data.arguments) ?? {};
  const detail = str(args.command) ?? str(args.path) ?? str(data.toolTitle);
  return { kind: "tool", name, phase: "start", acts: copilotToolActs(name), ...(detail ? { detail } : {}) };
}

/** The completion record carries no tool name; the start event already said whether it acts. */
function toolEnd(data: Json): AgentEvent[] {
  const exitCode = asObject(data.shellExecution)?.exitCode;
  const error = asObject(data.error);
  const message = str(error?.message);
  const end: AgentEvent = {
    kind: "tool",
    name: str(data.toolName) ?? "tool",
    phase: "end",
    acts: false,
    ...(typeof exitCode === "number" ? { exitCode } : {}),
    ...(message ? { detail: message } : {}),
  };
  return error?.code === "denied" ? [end, refusal(data, message)] : [end];
}

/**
 * A write copilot refused (research retries-and-trust §3): without --allow-all-tools a writing
 * shell command or file tool ends `success:false`, `error.code:"denied"`, and the run goes on to
 * exit 0 with nothing changed; a --deny-tool rule refuses the same way. The record names no tool:
 * the file tools' telemetry says which (`create`, `edit`), a shell refusal says `permission_denied`.
 */
function refusal(data: Json, message: string | undefined): AgentEvent {
  const telemetry = asObject(asObject(data.toolTelemetry)?.properties);
  const tool = str(telemetry?.command) ?? (telemetry?.shell_error_category === "permission_denied" ? "bash" : "tool");
  const id = str(data.toolCallId);
  return { kind: "refusal", tool, ...(id ? { id } : {}), ...(message ? { message } : {}) };
}

/**
 * copilot's retry signal (research retries-and-trust §1.5): `model.call_failure` with the HTTP
 * status, ~5 ms after each failed request — 429 and 5xx are capacity; other statuses (401's
 * transient-auth retries) are only a retry. It has no retry-after: copilot's retryAfter is
 * internal, and the "try again in 20s" of an OpenAI message body is not a header.
 */
function callFailure(data: Json): AgentEvent[] {
  const status = num(data.statusCode);
  const capacity = status === 429 || (status >= 500 && status < 600);
  return [
    {
      kind: "retry",
      message: `model call failed (HTTP ${status || "?"}, attempt ${num(data.retryAttempt) + 1})`,
      ...(capacity ? { failure: "capacity" as const } : {}),
    },
  ];
}

export function copilotToolActs(name: string): boolean {
  return !READ_ONLY_TOOLS.has(name);
}

function sessionError(data: Json): AgentEvent {
  const message = str(data.message) ?? "copilot session error";
  const failure = copilotErrorClass(str(data.errorType), num(data.statusCode), message);
  return { kind: "error", message, failure };
}

/** `session.error` errorType (authentication | rate_limit | query | …) plus status and text. */
export function copilotErrorClass(errorType: string | undefined, status: number, message: string): FailureClass {
  if (errorType === "authentication" || status === 401 || status === 403) return "auth";
  if (errorType === "rate_limit" || status === 429) return "capacity";
  if ([500, 502, 503, 504, 529].includes(status) || /overloaded|capacity|quota/i.test(message)) return "capacity";
  if (TRANSPORT_RE.test(message)) return "transport";
  return "task_failed";
}

const TRANSPORT_RE =
  /network fetch failed|fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|getaddrinfo|socket hang up|Connection error|error sending request/i;

function resultRecord(obj: Json): AgentEvent[] {
  const events: AgentEvent[] = [];
  const sessionId = str(obj.sessionId);
  if (sessionId) events.push({ kind: "session", sessionId });
  const changes = asObject(asObject(obj.usage)?.codeChanges);
  const files = Array.isArray(changes?.filesModified) ? changes.filesModified : [];
  for (const path of files) if (typeof path === "string") events.push({ kind: "file_change", path, change: "unknown" });
  const exitCode = num(obj.exitCode);
  events.push({ kind: "final", ok: exitCode === 0, ...(exitCode === 0 ? {} : { message: `copilot exitCode ${exitCode}` }) });
  return events;
}

// ---------------------------------------------------------------------------------------------
// classify

export function classifyCopilot(outcome: ExitOutcome): FailureClass | undefined {
  if (isNotInstalled(outcome)) return "not_installed";
  const streamError = outcome.events.find((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  if (streamError) return streamError.failure ?? "task_failed";
  const fromStderr = stderrClass(outcome.stderrTail);
  if (fromStderr) return fromStderr;
  const final = outcome.events.findLast((e) => e.kind === "final");
  if (!final) return noFinalClass(outcome);
  if (!final.ok || outcome.exitCode !== 0) return "task_failed";
  return foldEvents(outcome.events).text.trim() ? undefined : "empty_answer";
}

function stderrClass(stderr: string): FailureClass | undefined {
  if (/No authentication information found/.test(stderr)) return "auth";
  if (/could not be validated/.test(stderr)) return TRANSPORT_RE.test(stderr) ? "transport" : "auth";
  if (/rate limit/i.test(stderr)) return "capacity";
  if (/^Error: /m.test(stderr) || /^error: /m.test(stderr)) return "task_failed";
  return undefined;
}

function noFinalClass(outcome: ExitOutcome): FailureClass {
  if (outcome.signal || (outcome.exitCode ?? 0) !== 0) return "task_failed";
  return "bad_output";
}

function isNotInstalled(outcome: ExitOutcome): boolean {
  if (outcome.exitCode === 127) return true;
  return outcome.exitCode === null && !outcome.signal && /ENOENT|command not found/.test(outcome.stderrTail);
}

// ---------------------------------------------------------------------------------------------
// probes

function copilotProbes(): ProbeSpec {
  const since = "1.0.102";
  const flags = [
    "--output-format",
    "--allow-all-tools",
    "--deny-tool",
    "--resume",
    "--no-auto-update",
    "--no-ask-user",
    "--disable-builtin-mcps",
    "--usage-output-file",
  ];
  return {
    version: ["--version"],
    help: ["--help"],
    requiredFlags: flags.map((flag) => ({ flag, since })),
    // copilot has no offline auth-status command; readiness shows only on a real run.
    loginHint: "copilot login (or set COPILOT_GITHUB_TOKEN / GH_TOKEN, or `gh auth login`)",
    // `copilot --version` prints "GitHub Copilot CLI 1.0.102." for @github/copilot 1.0.102: an npm install is read from the file instead of starting the CLI (other installs are asked).
    packageVersion: "@github/copilot",
  };
}

/** `GitHub Copilot CLI 1.0.102.` → `1.0.102`. */
export function copilotVersionFrom(text: string): string | undefined {
  return /Copilot CLI (\d+\.\d+\.\d+(?:-[\w.]+)?)/.exec(text)?.[1];
}

// ---------------------------------------------------------------------------------------------
// small JSON helpers (kept local: adapters never import each other)

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

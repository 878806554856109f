/**
 * Adapter for Claude Code, written against Claude Code 2.1.332 in
 * `claude -p --output-format stream-json --verbose` mode (JSONL SDKMessage stream: system/init,
 * system/api_retry, assistant, user, result). Facts: research/cli-codex-claude.md §3.
 *
 * Key order in these lines is not stable across versions and line 1 is not always `init`, so
 * everything is parsed by key. API failures arrive as `subtype:"success"` with `is_error:true`.
 */
import type { AcpProfile, Adapter, AgentEvent, ExitOutcome, FailureClass, Invocation, RunRequest, Usage } from "../contract.ts";
import { claudeMachine } from "./machine.ts";
import { claudeAllowedTools, claudePermissionMode } from "./options.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";

/** Always passed: no MCP servers, hooks or settings of the user's own leak into a delegated run. */
export const CLAUDE_ISOLATION_ARGS = ["--strict-mcp-config", "--mcp-config", '{"mcpServers":{}}', "--setting-sources", ""] as const;

/**
 * Claude retries 401/429/5xx up to 10 times over ~3 minutes by default (§3.6). One retry absorbs
 * a blip; orchestrate's own fallback and cooldowns handle the rest.
 */
export const CLAUDE_MAX_RETRIES = "1";

/** Claude Code's own web tools: WebSearch (a server-side search) and WebFetch (one URL). */
export const CLAUDE_WEB_TOOLS = ["WebSearch", "WebFetch"] as const;
const WEB_KIND: Record<string, "search" | "fetch"> = { WebSearch: "search", WebFetch: "fetch" };

export function claudeInvocation(req: RunRequest): Invocation {
  const args = ["-p", "--output-format", "stream-json", "--verbose", ...CLAUDE_ISOLATION_ARGS];
  if (req.mode === "answer") {
    // --safe-mode also drops CLAUDE.md, skills, plugins and hooks; --tools "" sends no tools at all.
    // With web granted the only tools sent are the two web ones, pre-approved (dontAsk denies the rest).
    const web = req.web ? CLAUDE_WEB_TOOLS.join(",") : "";
    args.push("--safe-mode", "--tools", web, "--permission-mode", "dontAsk");
    if (req.web) args.push("--allowedTools", ...CLAUDE_WEB_TOOLS);
    if (req.outputSchema) args.push("--json-schema", req.outputSchema);
  } else {
    // bypassPermissions is refused as root unless IS_SANDBOX=1 — deliberately not set here.
    args.push("--permission-mode", claudePermissionMode(req.options) ?? "acceptEdits");
    const allowed = claudeAllowedTools(req.options);
    if (allowed.length) args.push("--allowedTools", ...allowed);
  }
  if (req.model) args.push("--model", req.model);
  if (req.resumeSessionId) args.push("--resume", req.resumeSessionId);
  // The prompt goes on stdin (closed after writing): several options are variadic and would
  // swallow a trailing positional prompt, and argv is visible to every local user.
  return { args, stdin: req.prompt, env: claudeEnv(req) };
}

/**
 * The retry cap, and two inherited variables a router must not pass on (research/
 * retries-and-trust.md §1.2, §5.6): any non-empty `IS_SANDBOX` (common in containers) turns off
 * claude's own stop after 3 consecutive 529s (2.45 s becomes 175 s), and
 * `CLAUDE_CODE_RETRY_WATCHDOG` retries 429/529 for up to 6 hours. `IS_SANDBOX` stays only where a
 * person's bypassPermissions needs it: claude refuses that mode as root without `IS_SANDBOX=1`,
 * and the cap of one retry keeps a 529 short anyway.
 */
function claudeEnv(req: RunRequest): Record<string, string | undefined> {
  const bypass = req.mode === "route" && claudePermissionMode(req.options) === "bypassPermissions";
  return { CLAUDE_CODE_MAX_RETRIES: CLAUDE_MAX_RETRIES, CLAUDE_CODE_RETRY_WATCHDOG: undefined, ...(bypass ? {} : { IS_SANDBOX: undefined }) };
}

export function parseClaudeLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  switch (obj.type) {
    case "system":
      return systemEvents(obj);
    case "assistant":
      return assistantEvents(obj);
    case "user":
      return userEvents(obj);
    case "result":
      return resultEvents(obj);
    case "rate_limit_event":
      return rateLimitEvents(asObject(obj.rate_limit_info));
    default:
      return [];
  }
}

const RATE_LIMIT_STATES: Record<string, "ok" | "warning" | "exhausted"> = { allowed: "ok", allowed_warning: "warning", rejected: "exhausted" };

/**
 * `rate_limit_event` on subscription sessions (research §3): `status` allowed / allowed_warning /
 * rejected, `resetsAt` in epoch seconds, `rateLimitType` five_hour / seven_day / …. Only these
 * fields are read; `utilization` (0–1) when present.
 */
function rateLimitEvents(info: Json | undefined): AgentEvent[] {
  const state = RATE_LIMIT_STATES[str(info?.status) ?? ""];
  if (!info || !state) return [];
  const resetsAt = num(info.resetsAt);
  const utilization = num(info.utilization);
  return [
    {
      kind: "quota",
      window: str(info.rateLimitType) ?? "unknown",
      state,
      source: "claude rate_limit_event",
      ...(resetsAt !== undefined ? { resetsAt: resetsAt < 1e12 ? resetsAt * 1000 : resetsAt } : {}),
      ...(utilization !== undefined ? { usedPercent: Math.round(utilization * 1000) / 10 } : {}),
    },
  ];
}

function systemEvents(obj: Json): AgentEvent[] {
  switch (obj.subtype) {
    case "init": {
      const out: AgentEvent[] = [];
      if (typeof obj.session_id === "string") out.push({ kind: "session", sessionId: obj.session_id });
      // init echoes --model: what was asked for, not what answered.
      if (typeof obj.model === "string") out.push({ kind: "model", model: obj.model, requested: true });
      return out;
    }
    case "api_retry":
      return [apiRetry(obj)];
    case "model_fallback":
      // --fallback-model is never passed, but a person's settings might switch models on 529:
      // what answers is then the fallback model (research/retries-and-trust.md §1.2).
      return typeof obj.fallback_model === "string" ? [{ kind: "model", model: obj.fallback_model }] : [];
    case "thinking_tokens":
      return [{ kind: "thinking" }];
    case "permission_denied":
      // 2.1.332 names a denial as it happens (2.1.197 only in the result's permission_denials).
      return typeof obj.tool_name === "string" ? [refusal(obj.tool_name, str(obj.tool_use_id), undefined, str(obj.message))] : [];
    default:
      return [];
  }
}

/**
 * `system/api_retry`, about 10 ms after each failed request (research/retries-and-trust.md §1.2):
 * a 429/5xx/529 or `rate_limit`/`overloaded` is capacity, a request that never got a status is
 * transport. `retry_delay_ms` is max(retry-after, the CLI's own backoff of min(500·2^(n-1), 32000)
 * ms plus up to 25 % jitter), so a delay above that backoff is the provider's `retry-after`.
 */
function apiRetry(obj: Json): AgentEvent {
  const message = retryMessage(obj);
  const status = num(obj.error_status);
  const kind = str(obj.error);
  const capacity = kind === "rate_limit" || kind === "overloaded" || (status !== undefined && (status === 429 || status >= 500));
  const transport = !capacity && status === undefined && (kind === undefined || kind === "unknown" || kind === "server_error");
  const retryAfterSec = providerWait(num(obj.attempt), num(obj.retry_delay_ms));
  return {
    kind: "retry",
    message,
    ...(capacity ? { failure: "capacity" } : transport ? { failure: "transport" } : {}),
    ...(capacity && retryAfterSec !== undefined ? { retryAfterSec } : {}),
  };
}

function providerWait(attempt: number | undefined, delayMs: number | undefined): number | undefined {
  if (attempt === undefined || delayMs === undefined) return undefined;
  const backoffMs = Math.min(500 * 2 ** Math.max(0, attempt - 1), 32_000) * 1.25;
  return delayMs > backoffMs ? Math.round(delayMs / 100) / 10 : undefined;
}

function retryMessage(obj: Json): string {
  const status = typeof obj.error_status === "number" ? String(obj.error_status) : "no status";
  return `API retry ${String(obj.attempt ?? "?")}/${String(obj.max_retries ?? "?")} (${status}, ${String(obj.error ?? "unknown")})`;
}

function assistantEvents(obj: Json): AgentEvent[] {
  const message = asObject(obj.message);
  if (!message) return [];
  const content = Array.isArray(message.content) ? message.content : [];
  // Locally generated error messages ("Not logged in", "API Error: …") are not answers.
  if (obj.is_api_error_message === true || typeof obj.error === "string") return apiErrorEvents(obj, content);
  const out: AgentEvent[] = [];
  if (typeof message.model === "string" && message.model !== "<synthetic>") out.push({ kind: "model", model: message.model });
  for (const block of content) out.push(...blockEvents(asObject(block)));
  // Each API message restates its usage on every content block: scoped by id, it counts once, and
  // a token limit can stop the run mid-stream instead of after the result (research §3).
  const usage = messageUsage(asObject(message.usage));
  if (usage && typeof message.id === "string") out.push({ kind: "usage", usage, scope: message.id });
  return out;
}

/** One message's tokens, and one turn: each API message is a model turn. */
function messageUsage(usage: Json | undefined): Usage | undefined {
  if (!usage) return undefined;
  const input = num(usage.input_tokens);
  const output = num(usage.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const cached = num(usage.cache_read_input_tokens);
  return { inputTokens: input ?? 0, outputTokens: output ?? 0, ...(cached ? { cachedInputTokens: cached } : {}), turns: 1 };
}

function apiErrorEvents(obj: Json, content: unknown[]): AgentEvent[] {
  const text = content
    .map((b) => str(asObject(b)?.text) ?? "")
    .join("")
    .trim();
  const message = text || `API error (${String(obj.error ?? "unknown")})`;
  const failure = claudeFailureOf(str(obj.error), num(obj.api_error_status), str(obj.api_error), message);
  return [{ kind: "error", message, ...(failure ? { failure } : {}) }];
}

function blockEvents(block: Json | undefined): AgentEvent[] {
  if (!block) return [];
  if (block.type === "text" && typeof block.text === "string") return [{ kind: "text", text: block.text }];
  if (block.type === "thinking") return [thinking(block.thinking)];
  if (block.type !== "tool_use" || typeof block.name !== "string") return [];
  const detail = toolDetail(asObject(block.input));
  const web = WEB_KIND[block.name];
  return [{ kind: "tool", name: block.name, phase: "start", acts: claudeToolActs(block.name), ...(detail ? { detail } : {}), ...(web ? { web } : {}) }];
}

/** Tools that only read or answer; anything else (Bash, Edit, Write, Task, Skill, mcp__*) can act. */
const READ_ONLY_TOOLS = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "NotebookRead",
  "WebSearch",
  "WebFetch",
  "TodoWrite",
  "ToolSearch",
  "ListAgents",
  "CronList",
  "StructuredOutput",
]);

export function claudeToolActs(name: string): boolean {
  return !READ_ONLY_TOOLS.has(name);
}

function toolDetail(input: Json | undefined): string | undefined {
  if (!input) return undefined;
  return str(input.command) ?? str(input.file_path) ?? str(input.path) ?? str(input.pattern) ?? str(input.url) ?? str(input.query);
}

/** `user` lines carry tool results; Write/Edit results name the file they touched. */
function userEvents(obj: Json): AgentEvent[] {
  const result = asObject(obj.tool_use_result);
  const path = str(result?.filePath);
  if (!path) return [];
  const change = result?.type === "create" ? "add" : "update";
  return [{ kind: "file_change", path, change }];
}

/**
 * A tool call claude refused under its permission mode or allowlist. The run goes on and ends
 * `success`, exit 0 (research/retries-and-trust.md §2): this list is the only sign the work was
 * blocked.
 */
function refusal(tool: string, id: string | undefined, input: Json | undefined, message: string | undefined): AgentEvent {
  const detail = toolDetail(input);
  return { kind: "refusal", tool, ...(id ? { id } : {}), ...(detail ? { detail } : {}), ...(message ? { message } : {}) };
}

function denials(obj: Json): AgentEvent[] {
  const list = Array.isArray(obj.permission_denials) ? obj.permission_denials : [];
  return list.flatMap((item): AgentEvent[] => {
    const d = asObject(item);
    const tool = str(d?.tool_name);
    return tool ? [refusal(tool, str(d?.tool_use_id), asObject(d?.tool_input), undefined)] : [];
  });
}

function resultEvents(obj: Json): AgentEvent[] {
  const out: AgentEvent[] = [...denials(obj)];
  if (typeof obj.session_id === "string") out.push({ kind: "session", sessionId: obj.session_id });
  for (const model of Object.keys(asObject(obj.modelUsage) ?? {})) out.push({ kind: "model", model });
  out.push({ kind: "usage", usage: resultUsage(obj) });
  if (obj.is_error === true) return [...out, ...resultFailure(obj)];
  const structured = obj.structured_output;
  out.push({ kind: "final", ok: true, text: str(obj.result) ?? "", ...(structured !== undefined ? { structured } : {}) });
  return out;
}

function resultFailure(obj: Json): AgentEvent[] {
  const errors = Array.isArray(obj.errors) ? obj.errors.filter((e): e is string => typeof e === "string") : [];
  const message = str(obj.result) || errors.join("; ") || `claude failed (${String(obj.subtype ?? "error")})`;
  const failure = claudeFailureOf(undefined, num(obj.api_error_status), str(obj.api_error), message);
  return [
    { kind: "error", message, ...(failure ? { failure } : {}) },
    { kind: "final", ok: false, message },
  ];
}

function resultUsage(obj: Json): Usage {
  const usage = asObject(obj.usage);
  const out: Usage = {};
  if (typeof usage?.input_tokens === "number") out.inputTokens = usage.input_tokens;
  if (typeof usage?.output_tokens === "number") out.outputTokens = usage.output_tokens;
  if (typeof usage?.cache_read_input_tokens === "number") out.cachedInputTokens = usage.cache_read_input_tokens;
  if (typeof obj.total_cost_usd === "number") out.costUsd = obj.total_cost_usd;
  if (typeof obj.num_turns === "number") out.turns = obj.num_turns;
  return out;
}

// ---- failure classification ----

const ERROR_KINDS: Record<string, FailureClass> = {
  authentication_failed: "auth",
  rate_limit: "capacity",
  overloaded: "capacity",
  billing_error: "capacity",
};

const AUTH = /not logged in|please run \/login|invalid api key|oauth token|authentication_error|invalid x-api-key/i;
const CAPACITY = /rate limit|\b429\b|hit your limit|usage limit|overloaded|\b529\b|\b50[023]\b|credit balance is too low/i;
const TRANSPORT = /can't reach the api server|unable to connect|enotfound|econnrefused|connectionrefused|econnreset|fetch failed|socket hang up|network/i;

/** From the assistant `error` kind, the HTTP status, `api_error` and finally the text (§3.4, §3.6). */
export function claudeFailureOf(kind: string | undefined, status: number | undefined, apiError: string | undefined, text: string): FailureClass | undefined {
  if (kind && ERROR_KINDS[kind]) return ERROR_KINDS[kind];
  if (status === 401 || status === 403) return "auth";
  if (status === 429 || status === 529 || status === 503 || status === 500 || status === 502) return "capacity";
  if (apiError === "connection_failed") return "transport";
  if (AUTH.test(text)) return "auth";
  if (CAPACITY.test(text)) return "capacity";
  if (TRANSPORT.test(text)) return "transport";
  return undefined;
}

const ROOT_BYPASS = "cannot be used with root/sudo privileges";

export function classifyClaude(outcome: ExitOutcome): FailureClass | undefined {
  if (outcome.exitCode === 127 || /ENOENT|native binary not installed/.test(outcome.stderrTail)) return "not_installed";
  const final = lastFinal(outcome.events);
  if (final?.ok && outcome.exitCode === 0) return hasAnswer(final) ? undefined : "empty_answer";
  for (const event of outcome.events) if (event.kind === "error" && event.failure) return event.failure;
  if (final) return "task_failed";
  // Killed mid-stream (a crash, or by us): the partial last line is not a format problem.
  if (outcome.signal) return "task_failed";
  if (outcome.stderrTail.includes(ROOT_BYPASS)) return "task_failed";
  const fromText = claudeFailureOf(undefined, undefined, undefined, outcome.rawStdoutTail);
  if (fromText) return fromText;
  if (outcome.rawStdoutTail.trim() || outcome.exitCode === 0) return "bad_output";
  return "task_failed";
}

/**
 * A readable reason for failures that leave no event on stdout (claude writes only to stderr),
 * for the service to surface. Undefined when the events already say it.
 */
export function explainClaudeFailure(outcome: ExitOutcome): string | undefined {
  if (outcome.stderrTail.includes(ROOT_BYPASS)) {
    return "claude refused permissionMode bypassPermissions because it runs as root; it allows that only inside a sandbox (IS_SANDBOX=1 in its environment). Use permissionMode acceptEdits or run orchestrate as a normal user.";
  }
  if (outcome.events.length > 0) return undefined;
  const line = outcome.stderrTail.split("\n").find((l) => l.trim() !== "");
  return line ? `claude exited ${String(outcome.exitCode)}: ${line.trim()}` : undefined;
}

function lastFinal(events: readonly AgentEvent[]): Extract<AgentEvent, { kind: "final" }> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.kind === "final") return event;
  }
  return undefined;
}

function hasAnswer(final: Extract<AgentEvent, { kind: "final" }>): boolean {
  return (final.text ?? "").trim() !== "" || final.structured !== undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

/**
 * claude over ACP (`claude-agent-acp`, 0.23.1 bundling Claude Code 2.1.83; docs/acp.md): the
 * headless retry cap, and `IS_SANDBOX` removed — the adapter offers bypassPermissions for any
 * non-empty value but the claude it starts allows it as root only for exactly "1", so an
 * inherited `IS_SANDBOX=yes` breaks every session/new; without it there is no bypass mode and
 * plan mode asks. Answer mode is `default` (it asks before Bash and writes); a route is
 * `acceptEdits`, as headless. set_model accepts any id (its config option only the aliases); the
 * served model is never reported. It never exits on a closed stdin: its group is ended at once.
 * The person's MCP servers cannot be switched off through the adapter; their tools are kind
 * `other`, which answer-only fails closed on.
 */
export const claudeAcp: AcpProfile = {
  launch: ["claude-agent-acp"],
  env: () => ({ CLAUDE_CODE_MAX_RETRIES: CLAUDE_MAX_RETRIES, CLAUDE_CODE_RETRY_WATCHDOG: undefined, IS_SANDBOX: undefined }),
  modes: { answer: "default", route: "acceptEdits" },
  setModel: "set_model",
  exitGraceMs: 0,
  writes: {
    isolatedWrite: false,
    patch: true,
    why: "claude-agent-acp has no containment test of its own; acceptEdits over ACP is not the proven headless setup",
  },
  // PromptResponse.usage with the answer; usage_update carries the running cost in USD.
  traits: { usage: { tokens: "final", cost: "streamed", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};

export const claudeAdapter: Adapter & { explain(outcome: ExitOutcome): string | undefined } = {
  backend: "claude",
  acp: claudeAcp,
  provider: { kind: "fixed", provider: "anthropic" },
  web: { tools: CLAUDE_WEB_TOOLS.join(", ") },
  ...claudeMachine,
  // `claude auth status` prints JSON with loggedIn and exits 1 when signed out (research §3.3).
  readiness: (out) => (out.exitCode === 0 && !/"loggedIn"\s*:\s*false/.test(out.stdout) ? "ready" : "not_ready"),
  invocation: claudeInvocation,
  parse: parseClaudeLine,
  classify: classifyClaude,
  explain: explainClaudeFailure,
  probes: {
    version: ["--version"],
    help: ["--help"],
    // All present in 2.1.197 and 2.1.332, the two versions captured.
    requiredFlags: [
      { flag: "--print", since: "2.1.197" },
      { flag: "--output-format", since: "2.1.197" },
      { flag: "--verbose", since: "2.1.197" },
      { flag: "--strict-mcp-config", since: "2.1.197" },
      { flag: "--mcp-config", since: "2.1.197" },
      { flag: "--setting-sources", since: "2.1.197" },
      { flag: "--permission-mode", since: "2.1.197" },
      { flag: "--allowedTools", since: "2.1.197" },
      { flag: "--tools", since: "2.1.197" },
      { flag: "--json-schema", since: "2.1.197" },
      { flag: "--resume", since: "2.1.197" },
      { flag: "--safe-mode", since: "2.1.197" },
    ],
    auth: ["auth", "status"],
    loginHint: "claude auth login",
    // `claude --version` prints "2.1.197 (Claude Code)" for @anthropic-ai/claude-code 2.1.197: an npm install is read from the file instead of starting the CLI (other installs are asked).
    packageVersion: "@anthropic-ai/claude-code",
  },
  supportsResume: true,
};

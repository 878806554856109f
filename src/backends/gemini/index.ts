/**
 * Gemini CLI adapter — written against @google/gemini-cli 0.61.0, `gemini -o stream-json`
 * (research: cli-opencode-gemini-copilot-grok.md §B). JSONL events: `init` (session_id, requested
 * model — literally "auto" without -m), `message` (user echo, assistant `delta:true` chunks),
 * `tool_use`, `tool_result`, `error` (non-fatal, with severity), `result` (terminal; status
 * success|error, token stats, and the models actually called as the keys of `stats.models`).
 * Exit codes: 41 auth, 42 bad input, 44 sandbox, 52 config, 53 turn limit, 54 tool error,
 * 55 untrusted folder, 130 cancelled; API errors exit with HTTP status % 256 (401→145, 429→173,
 * 503→247).
 */
import { join } from "node:path";
import type { AcpProfile, Adapter, AgentEvent, Env, ExitOutcome, FailureClass, HomeOverlay, Invocation, Json, RunRequest } from "../contract.ts";
import { GEMINI_RERUN_DELAY_MS, geminiMachine } from "./machine.ts";
import { geminiQuotaEvents } from "./quota.ts";
import { asObject as asRecord, parseObject } from "../events.ts";
import { failureFromText } from "../events.ts";

/**
 * A server name nobody has: with `--allowed-mcp-server-names` set, gemini keeps only the named
 * servers (extensions' included), so this drops every MCP server the person configured.
 */
export const GEMINI_NO_MCP = "orchestrate-no-mcp";

/** Tools from the read-only set gemini offers headless in default mode; anything else acts. */
const READ_ONLY_TOOLS = new Set([
  "read_file",
  "read_many_files",
  "list_directory",
  "grep_search",
  "search_file_content",
  "glob",
  "google_web_search",
  "web_fetch",
  "update_topic",
  "enter_plan_mode",
  "exit_plan_mode",
  "write_todos",
  "get_internal_docs",
  // Offered in the read-only default set (research §B.1); its sub-agents inherit that policy.
  "invoke_agent",
]);
const EDIT_TOOLS: Record<string, "update" | "unknown"> = { replace: "update", write_file: "unknown" };

/** HTTP status % 256, as gemini exits on API errors. */
const EXIT_CLASSES: Record<number, FailureClass> = {
  41: "auth",
  130: "cancelled",
  [401 % 256]: "auth",
  [403 % 256]: "auth",
  [429 % 256]: "capacity",
  [503 % 256]: "capacity",
};

/**
 * Trust for this run only (research retries-and-trust §4.1): gemini refuses, exit 55, any folder
 * it was never told to trust — a route's repository as much as a consult's throw-away cwd — and
 * in an untrusted folder it would also drop auto_edit back to the read-only default. The variable
 * (exactly "true") is read before any trust file and nothing is written: the person's
 * trustedFolders.json stays as it was. It also overrides an inherited "false".
 */
const TRUST_THIS_RUN = { GEMINI_CLI_TRUST_WORKSPACE: "true" } as const;

function invocation(req: RunRequest): Invocation {
  // Route: auto_edit is the safest mode that can edit headless — checked against the real 0.61.0
  // request bodies (retries-and-trust §4.2): it offers replace, write_file and web_fetch and
  // applies their edits, and offers no run_shell_command, so a delegate cannot run arbitrary
  // commands (yolo would, with no sandbox: --sandbox needs a Docker image). Answer: `default`
  // explicitly, so a settings.json defaultApprovalMode cannot widen it; it offers only reads.
  const approval = req.mode === "answer" ? "default" : "auto_edit";
  const args = ["-o", "stream-json", "--approval-mode", approval, "--allowed-mcp-server-names", GEMINI_NO_MCP];
  if (req.mode === "answer") args.push("-e", "none");
  if (req.model) args.push("-m", req.model);
  if (req.resumeSessionId) args.push("--resume", req.resumeSessionId);
  // The prompt goes on stdin (headless when stdin is not a TTY): no argv length limit, no
  // dash-prefixed prompt read as a flag. Sign-in stays in ~/.gemini, so the home is not isolated.
  return { args, stdin: req.prompt, env: { ...TRUST_THIS_RUN } };
}

/**
 * gemini announces each retry only on stderr (retries-and-trust §1.4), ~50 ms after the failure:
 *   `Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {…}` (and 503),
 *   `Attempt 1 failed. Retrying with backoff... Error: exception TypeError: fetch failed …`,
 *   `Suggested retry after 20s.. Retrying after 21409ms...` (a Google RetryInfo body; the HTTP
 *   retry-after header is ignored), and a lone `Suggested retry after 400s.` when the wait is
 *   too long to retry at all. Stack lines and gemini's start-up noise match none of these.
 */
const STATUS_RETRY = /^Attempt \d+ failed with status (\d{3})\. Retrying with backoff/;
const FETCH_RETRY = /^Attempt \d+ failed\. Retrying with backoff\.\.\. Error: .*fetch failed/;
const SUGGESTED_WAIT = /^Suggested retry after (\d+(?:\.\d+)?)s\./;

/**
 * gemini retries a 429/503 ten times over ~4 minutes by default, and the only cap is
 * `general.maxAttempts` in its settings file — no flag, no variable (research §1.4, verified: 1
 * request and the `result` ~0.4 s later with 1; 2 requests 4.4 s apart with 2). The person's
 * ~/.gemini/settings.json is never edited: each run gets a private GEMINI_CLI_HOME whose .gemini
 * links every entry of the person's own (sign-in, sessions, trust, extensions) and whose
 * settings.json is theirs with the cap. One attempt: gemini's own backoff before a second one is
 * a fixed 5 s ±30 %, longer than starting gemini again (~2.5 s), so a transient failure is retried
 * by the runner re-running the agent once (traits.capacityRerun, machine.ts) — answered sooner —
 * and a persistent one falls back right after that re-run fails. A cap of the person's own is kept.
 */
export const GEMINI_MAX_ATTEMPTS = 1;

function homeOverlay(ctx: { env: Env; home: string }): HomeOverlay {
  return {
    envVar: "GEMINI_CLI_HOME",
    root: ctx.env.GEMINI_CLI_HOME || ctx.home,
    // .agents holds the person's user-level skills, read from beside .gemini.
    entries: [".gemini", ".agents"],
    settings: { ".gemini/settings.json": capAttempts },
    // Where gemini keeps sessions and history: created first so they are linked, not copied.
    keep: [".gemini/tmp", ".gemini/history"],
  };
}

export function capAttempts(settings: Json): Json {
  const general = asRecord(settings.general) ?? {};
  const own = typeof general.maxAttempts === "number" ? general.maxAttempts : undefined;
  return { ...settings, general: { ...general, maxAttempts: own !== undefined && own < GEMINI_MAX_ATTEMPTS ? own : GEMINI_MAX_ATTEMPTS } };
}

function parseStderr(line: string): AgentEvent[] {
  const text = line.trim();
  const quota = geminiQuotaEvents(text);
  if (quota.length > 0) return quota;
  const status = STATUS_RETRY.exec(text)?.[1];
  if (status) return [{ kind: "retry", message: text.slice(0, 200), ...(status === "429" || status.startsWith("5") ? { failure: "capacity" as const } : {}) }];
  if (FETCH_RETRY.test(text)) return [{ kind: "retry", message: text.slice(0, 200), failure: "transport" }];
  const wait = SUGGESTED_WAIT.exec(text)?.[1];
  if (wait) return [{ kind: "retry", message: text.slice(0, 200), failure: "capacity", retryAfterSec: Number(wait) }];
  return [];
}

function parse(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  switch (obj.type) {
    case "init":
      return typeof obj.session_id === "string" ? [{ kind: "session", sessionId: obj.session_id }] : [];
    case "message":
      return obj.role === "assistant" && typeof obj.content === "string" && obj.content
        ? [{ kind: "text", text: obj.content, ...(obj.delta === true ? { delta: true } : {}) }]
        : [];
    case "tool_use":
      return toolUse(obj);
    case "tool_result":
      return [toolResult(obj)];
    case "error":
      // Non-fatal by design (the terminal verdict is `result`), e.g. loop detection warnings.
      return typeof obj.message === "string" ? [{ kind: "retry", message: obj.message }] : [];
    case "result":
      return resultEvents(obj);
    default:
      return [];
  }
}

/** gemini's own web tools; headless answer mode already offers google_web_search (research §B). */
const WEB_TOOLS: Record<string, "search" | "fetch" | undefined> = { google_web_search: "search", web_fetch: "fetch" };

function toolUse(obj: Record<string, unknown>): AgentEvent[] {
  const name = typeof obj.tool_name === "string" ? obj.tool_name : "unknown";
  const params = asRecord(obj.parameters);
  const web = WEB_TOOLS[name];
  const detail = firstString(params?.command, params?.file_path, params?.dir_path, params?.pattern, params?.query, params?.prompt);
  const tool: AgentEvent = { kind: "tool", name, phase: "start", acts: !READ_ONLY_TOOLS.has(name), ...(detail ? { detail } : {}), ...(web ? { web } : {}) };
  const change = EDIT_TOOLS[name];
  const path = firstString(params?.file_path);
  return change && path ? [tool, { kind: "file_change", path, change }] : [tool];
}

/** tool_result carries only the id, which gemini builds as `<tool_name>__<tool_name>_<ts>_<n>`. */
function toolResult(obj: Record<string, unknown>): AgentEvent {
  const id = typeof obj.tool_id === "string" ? obj.tool_id : "";
  const name = id.includes("__") ? id.slice(0, id.indexOf("__")) : "unknown";
  const error = asRecord(obj.error);
  const detail = obj.status === "error" ? firstString(error?.message, "failed") : undefined;
  return { kind: "tool", name, phase: "end", acts: !READ_ONLY_TOOLS.has(name), ...(detail ? { detail } : {}) };
}

/**
 * The models actually called are the keys of `stats.models` (router + main under `auto`); the
 * init line's model only echoes the request, so it is not reported as evidence.
 */
/** A model that only served gemini's own chores (`roles: { utility_router }`, no `main`) did not answer. */
function choreOnly(entry: Record<string, unknown> | undefined): boolean {
  const roles = asRecord(entry?.roles);
  return roles !== undefined && Object.keys(roles).length > 0 && !("main" in roles);
}

function resultEvents(obj: Record<string, unknown>): AgentEvent[] {
  const stats = asRecord(obj.stats);
  const models = Object.entries(asRecord(stats?.models) ?? {}).filter(([, entry]) => !choreOnly(asRecord(entry)));
  const events: AgentEvent[] = models.map(([model]) => ({ kind: "model", model }));
  if (stats) events.push({ kind: "usage", usage: usageOf(stats) });
  if (obj.status === "success") return [...events, { kind: "final", ok: true }];
  const message = firstString(asRecord(obj.error)?.message) ?? "gemini reported an error";
  const failure = textFailure(message);
  return [
    ...events,
    ...suggestedWait(message),
    ...geminiQuotaEvents(message),
    { kind: "error", message, ...(failure ? { failure } : {}) },
    { kind: "final", ok: false, message },
  ];
}

/**
 * With one attempt gemini never prints its "Suggested retry after Ns." stderr line; the wait the
 * provider asked for (a Google RetryInfo body) is then only in the result's text (research §1.4:
 * `…\nSuggested retry after 20s.`). Read as the capacity wait it is: it cools the agent down, and
 * a failure that asked for a wait is not re-run at once.
 */
const SUGGESTED_IN_RESULT = /Suggested retry after (\d+(?:\.\d+)?)s\./;

function suggestedWait(message: string): AgentEvent[] {
  const wait = SUGGESTED_IN_RESULT.exec(message)?.[1];
  return wait ? [{ kind: "retry", message: message.slice(0, 200), failure: "capacity", retryAfterSec: Number(wait) }] : [];
}

function usageOf(stats: Record<string, unknown>): { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number } {
  return {
    ...numberField("inputTokens", stats.input_tokens),
    ...numberField("outputTokens", stats.output_tokens),
    ...numberField("cachedInputTokens", stats.cached),
  };
}

const AUTH_TEXT = /API key not valid|UNAUTHENTICATED|PERMISSION_DENIED|Please set an Auth method|Invalid auth method|"code":\s*40[13]\b/i;
const CAPACITY_TEXT =
  /Resource has been exhausted|RESOURCE_EXHAUSTED|exhausted your daily quota|quota|rate limit|overloaded|high traffic|"code":\s*(429|503)\b/i;
const TRANSPORT_TEXT = /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|socket hang up|network error/i;

/**
 * Since 2026-06-18 gemini no longer serves individual Google accounts (AI Pro/Ultra, free Code
 * Assist for individuals): the token is accepted, the client refused on tier, exit 1 with
 * `IneligibleTierError: This client is no longer supported for Gemini Code Assist for
 * individuals…` on stderr (cli-agy.md §7, gemini 0.58–0.60; exit 55 in ACP mode). A Workspace
 * account reads `IneligibleTierError: DASHER_USER`. Both are sign-in failures.
 */
const RETIRED_TIER = /IneligibleTierError|UNSUPPORTED_CLIENT|no longer supported for Gemini Code Assist for individuals|migrate to the Antigravity suite/i;
const INDIVIDUALS_RETIRED = /UNSUPPORTED_CLIENT|no longer supported for Gemini Code Assist for individuals|migrate to the Antigravity suite/i;

function textFailure(text: string): FailureClass | undefined {
  if (RETIRED_TIER.test(text)) return "auth";
  return failureFromText(text, { auth: AUTH_TEXT, capacity: CAPACITY_TEXT, transport: TRANSPORT_TEXT });
}

/** A refused account tier, which signing in again cannot fix; the hint names what can. */
export function explainGeminiFailure(outcome: ExitOutcome): string | undefined {
  const text = [outcome.stderrTail, ...outcome.events.flatMap((e) => (e.kind === "error" ? [e.message] : []))].join("\n");
  if (INDIVIDUALS_RETIRED.test(text)) {
    return "gemini no longer serves individual Google accounts (AI Pro, Ultra, free Code Assist for individuals) since 2026-06-18, so signing in again will not help. Use the agy backend (Google's Antigravity CLI, `agy`) for this account; gemini still works with a paid GEMINI_API_KEY, Vertex AI, or a Code Assist Standard/Enterprise licence.";
  }
  if (/IneligibleTierError:\s*DASHER_USER/.test(text)) {
    return "gemini refused this Google Workspace account's tier (IneligibleTierError: DASHER_USER); it needs a Code Assist Standard/Enterprise licence, Vertex AI, or a paid GEMINI_API_KEY.";
  }
  return undefined;
}

function classify(outcome: ExitOutcome): FailureClass | undefined {
  const code = outcome.exitCode;
  if (code === 127) return "not_installed";
  const byExit = code === null ? undefined : EXIT_CLASSES[code];
  if (byExit) return byExit;
  const errors = outcome.events.filter((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  const classified = errors.find((e) => e.failure)?.failure;
  if (classified) return classified;
  if (errors.length > 0 || outcome.signal || code === null) return "task_failed";
  // 42 input, 44 sandbox, 52 config, 53 turn limit, 54 tool, 55 untrusted folder, 1 general.
  if (code !== 0) return textFailure(outcome.stderrTail) ?? "task_failed";
  return classifyExitZero(outcome);
}

/** gemini always ends a run with a `result` line; exit 0 without one means the stream was broken. */
function classifyExitZero(outcome: ExitOutcome): FailureClass | undefined {
  const final = outcome.events.findLast((e) => e.kind === "final");
  if (final?.kind !== "final") return "bad_output";
  if (!final.ok) return "task_failed";
  const answered = outcome.events.some((e) => e.kind === "text" && e.text.trim() !== "");
  return answered ? undefined : "empty_answer";
}

/**
 * gemini over ACP (`gemini --acp`, 0.61.0; docs/acp.md): the headless isolation switches apply
 * to the ACP mode too (no MCP server of the person's, no extensions in answer mode, the workspace
 * trusted for this run only) and so does the private home capping its retries at one attempt.
 * Answer mode is gemini's `default` mode, where it asks before a write or a shell command it does
 * not deem read-only (a harmless `echo` runs unasked in every mode: the transport's fail-closed
 * catches it); a route is `autoEdit`. set_model accepts any id; the served model comes back in
 * `_meta.quota.model_usage` (the only agent that says so), with the router's `auto` beside it.
 * It announces a mode change as a `[MODE_UPDATE] <mode>` message chunk, dropped from the answer.
 * It takes 6–7 s to exit on a closed stdin, so its group is ended after a second. Its session
 * files are named by the minute they were opened and session/load re-opens that name before it
 * looks (0.61): a follow-up within the same minute found "No previous sessions found for this
 * project" — the runner moves the file aside first (sessionFiles).
 */
export const geminiAcp: AcpProfile = {
  launch: ["gemini", "--acp"],
  args: (req) => ["--allowed-mcp-server-names", GEMINI_NO_MCP, ...(req.mode === "answer" ? ["-e", "none"] : [])],
  env: () => ({ ...TRUST_THIS_RUN }),
  modes: { answer: "default", route: "autoEdit" },
  setModel: "set_model",
  exitGraceMs: 1000,
  failures: { auth: AUTH_TEXT, capacity: CAPACITY_TEXT, transport: TRANSPORT_TEXT },
  fromMeta: (meta) => {
    const quota = asRecord(meta.quota);
    const served = Array.isArray(quota?.model_usage)
      ? quota.model_usage.map((u) => asRecord(u)?.model).filter((m): m is string => typeof m === "string" && m !== "auto")
      : [];
    const count = asRecord(quota?.token_count);
    return { models: served, ...(count ? { usage: usageOf(count) } : {}) };
  },
  noiseText: /^\[MODE_UPDATE\] \S+$/,
  // The person's own .gemini/tmp (the private home links it): where the sessions outlive the run.
  sessionFiles: {
    root: (env, home) => join(env.GEMINI_CLI_HOME || home, ".gemini", "tmp"),
    name: (sessionId, minute) => `session-${minute}-${sessionId.slice(0, 8)}.jsonl`,
  },
  writes: {
    isolatedWrite: false,
    patch: true,
    why: "gemini over ACP (its autoEdit mode) has no containment test of its own; the headless proof does not carry over",
  },
  // Tokens in PromptResponse._meta.quota.token_count with the answer; no cost; the served model in the same _meta.
  // Retries are capped at one attempt as headless, so the runner re-runs it once (machine.ts).
  traits: {
    usage: { tokens: "final", cost: "none", turns: "none" },
    identity: "stream",
    resumedUsage: "per-turn",
    containment: "none",
    capacityRerun: { delayMs: GEMINI_RERUN_DELAY_MS },
  },
};

export const geminiAdapter: Adapter = {
  backend: "gemini",
  acp: geminiAcp,
  provider: { kind: "fixed", provider: "google" },
  // Its answer mode offers google_web_search either way: ungranted, a search fails the turn closed.
  web: { tools: "google_web_search" },
  ...geminiMachine,
  invocation,
  homeOverlay,
  parse,
  parseStderr,
  classify,
  explain: explainGeminiFailure,
  probes: {
    version: ["--version"],
    help: ["--help"],
    requiredFlags: ["--output-format", "--approval-mode", "--allowed-mcp-server-names", "--extensions", "--model", "--resume"].map((flag) => ({
      flag,
      since: "0.61.0",
    })),
    // gemini has no auth-status command: sign-in is settings.json or env (research §B.3).
    loginHint: "gemini (sign in interactively once) or set GEMINI_API_KEY",
    // Without it gemini re-launches itself in a second node process (to raise its heap) before
    // printing its version or help: twice the ~0.8 s of CPU each probe costs.
    env: { GEMINI_CLI_NO_RELAUNCH: "true" },
    // `gemini --version` prints the version its release build baked in, the one its package.json
    // carries (0.61.0: both "0.61.0"); reading the file saves ~1 s of node start-up.
    packageVersion: "@google/gemini-cli",
  },
  supportsResume: true,
};

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === "string" && v !== "");
}

function numberField<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === "number" && Number.isFinite(value) ? ({ [key]: value } as Partial<Record<K, number>>) : {};
}

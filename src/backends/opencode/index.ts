/**
 * opencode adapter — written against opencode-ai 1.18.33, `opencode run --format json`
 * (research: cli-opencode-gemini-copilot-grok.md §A). One JSON object per stdout line:
 * `step_start`, `text` (whole finished parts, no deltas), `reasoning` (only with --thinking),
 * `tool_use` (completed/errored tools only), `step_finish` (tokens + cost of that step), `error`.
 * There is no terminal record: the run ends when the session goes idle, and the exit code is 1
 * iff an `error` line was written. The model is never in the stream — only `opencode export`.
 */
import type { AcpProfile, Adapter, AgentEvent, ExitOutcome, FailureClass, Invocation, Json, RunRequest } from "../contract.ts";
import { opencodeMachine } from "./machine.ts";
import { asObject as asRecord, parseObject, thinking } from "../events.ts";
import { failureFromText } from "../events.ts";

/** Tools that only read; anything else (bash, edit, write, patch, task, MCP `<server>_<tool>`) acts. */
const READ_ONLY_TOOLS = new Set([
  "read",
  "grep",
  "glob",
  "list",
  "lsp",
  "webfetch",
  "websearch",
  "codesearch",
  "todoread",
  "todowrite",
  "skill",
  "question",
  "plan_enter",
  "plan_exit",
  "invalid",
]);
const EDIT_TOOLS: Record<string, "update" | "unknown"> = {
  edit: "update",
  multiedit: "update",
  patch: "update",
  apply_patch: "update",
  write: "unknown",
};

/** argv that prints a session as JSON on stdout (`Exporting session: …` goes to stderr). */
export function opencodeExportArgv(sessionId: string): string[] {
  return ["export", sessionId];
}

/**
 * The model that actually answered, as `provider/model`, from `opencode export` output: the last
 * assistant message's providerID/modelID, else the session's `info.model`.
 */
export function opencodeModelFromExport(jsonText: string): string | undefined {
  const doc = parseObject(jsonText.slice(Math.max(0, jsonText.indexOf("{"))));
  if (!doc) return undefined;
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  for (const message of [...messages].reverse()) {
    const info = asRecord(asRecord(message)?.info);
    if (info?.role !== "assistant") continue;
    const id = joinModel(info.providerID, info.modelID);
    if (id) return id;
  }
  const model = asRecord(asRecord(doc.info)?.model);
  return joinModel(model?.providerID, model?.id);
}

/**
 * opencode's own web tools: webfetch (one URL, fetched by opencode itself) and websearch (offered
 * by opencode only for its own provider or with OPENCODE_ENABLE_EXA). A denied tool is not even
 * offered to the model (checked against 1.18.33: `read` alone in the request's tools).
 */
const WEB_TOOLS: Record<string, "search" | "fetch"> = { webfetch: "fetch", websearch: "search" };

/**
 * Answer mode's config, passed inline (OPENCODE_CONFIG_CONTENT, verified in research §A.1): every
 * tool denied except the read-only ones, no MCP servers, no plugins. `small_model` follows the
 * model so the title call does not go to a provider the person never chose. With web granted
 * (RunRequest.web) its two web tools are allowed too, and nothing else that acts. The config home
 * is isolated, so the providers the person declared in their own config come along (`providers`):
 * without them a custom provider's model is "not found" (headless) or refused -32602 (ACP).
 */
export function opencodeAnswerConfig(model: string | undefined, web = false, providers?: Json): string {
  const webPermission = web ? "allow" : "deny";
  const permission = {
    "*": "deny",
    read: "allow",
    grep: "allow",
    glob: "allow",
    list: "allow",
    edit: "deny",
    bash: "deny",
    webfetch: webPermission,
    websearch: webPermission,
    task: "deny",
    external_directory: "deny",
  };
  return JSON.stringify({
    $schema: "https://opencode.ai/config.json",
    permission,
    mcp: {},
    plugin: [],
    autoupdate: false,
    share: "disabled",
    ...(providers ? { provider: providers } : {}),
    ...(model ? { model, small_model: model } : {}),
  });
}

function invocation(req: RunRequest): Invocation {
  // --print-logs puts the real cause of `UnknownError` lines (e.g. ProviderModelNotFoundError) on
  // stderr, where classify and the person can see it.
  const args = ["run", "--format", "json", "--print-logs", "--log-level", "ERROR", "--dir", req.cwd];
  if (req.mode === "answer") args.push("--pure");
  if (req.model) args.push("-m", req.model);
  if (req.resumeSessionId) args.push("-s", req.resumeSessionId);
  // The prompt goes on stdin (then closed): positional words that contain spaces reach the model
  // wrapped in quotes, and a dash-prefixed prompt would parse as a flag.
  if (req.mode === "route") return { args, stdin: req.prompt, ...routeEnv(req) };
  return { args, stdin: req.prompt, env: answerEnv(req) };
}

/**
 * Route mode keeps the person's config but switches their MCP servers off by name: an inline config
 * of `{ "mcp": { name: { "enabled": false } } }` merges over theirs and keeps their providers
 * (checked against opencode 1.18.33).
 */
function routeEnv(req: RunRequest): Pick<Invocation, "env"> {
  const names = req.disableMcpServers ?? [];
  if (names.length === 0) return {};
  const mcp = Object.fromEntries(names.map((name) => [name, { enabled: false }]));
  return { env: { OPENCODE_CONFIG_CONTENT: JSON.stringify({ mcp }) } };
}

/**
 * Route mode keeps the person's own config (providers, credentials, agents): the default `build`
 * agent edits and runs bash, and without `--auto` every permission that would *ask* (e.g. paths
 * outside the project) is rejected. Answer mode isolates the config home instead.
 */
function answerEnv(req: RunRequest): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    OPENCODE_CONFIG_CONTENT: opencodeAnswerConfig(req.model, req.web === true, req.providerDefinitions),
    OPENCODE_DISABLE_PROJECT_CONFIG: "true",
    OPENCODE_CONFIG: undefined,
    OPENCODE_CONFIG_DIR: undefined,
    OPENCODE_PERMISSION: undefined,
  };
  // Credentials live under XDG_DATA_HOME (auth.json), so moving the config home keeps sign-in.
  if (req.isolatedHome) env.XDG_CONFIG_HOME = req.isolatedHome;
  return env;
}

function parse(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj || typeof obj.type !== "string") return [];
  const part = asRecord(obj.part);
  switch (obj.type) {
    case "step_start":
      // The model began a step: the first sign of life after a retry, well before its text.
      return [...sessionOf(obj), { kind: "step" }];
    case "text":
      return typeof part?.text === "string" && part.text ? [{ kind: "text", text: part.text }] : [];
    case "reasoning":
      return [thinking(part?.text)];
    case "tool_use":
      return part ? toolEvents(part) : [];
    case "step_finish":
      return part ? stepFinish(part) : [];
    case "error":
      return [...sessionOf(obj), ...errorEvents(asRecord(obj.error))];
    default:
      return [];
  }
}

/**
 * opencode's only retry signal: with `--print-logs` each failed model call logs one line at once,
 * `… level=ERROR … message="stream error" … error.error="AI_APICallError: Rate limit reached …"`,
 * while stdout stays silent for the whole retry schedule (research/retries-and-trust.md §1.3). The
 * line has no status, only the provider's text. Other log lines (e.g. "Failed to fetch models.dev")
 * are not retries.
 */
export function parseOpencodeStderr(line: string): AgentEvent[] {
  if (!line.includes('message="stream error"')) return [];
  const text = /error\.error="((?:[^"\\]|\\.)*)"/.exec(line)?.[1]?.replace(/\\(.)/g, "$1") ?? "";
  const failure = textFailure(text);
  const message = `stream error${text ? `: ${text.replace(/^AI_APICallError: /, "")}` : ""}`;
  return [{ kind: "retry", message, ...(failure === "capacity" || failure === "transport" ? { failure } : {}) }];
}

function sessionOf(obj: Record<string, unknown>): AgentEvent[] {
  return typeof obj.sessionID === "string" ? [{ kind: "session", sessionId: obj.sessionID }] : [];
}

function toolEvents(part: Record<string, unknown>): AgentEvent[] {
  const name = typeof part.tool === "string" ? part.tool : "unknown";
  const state = asRecord(part.state);
  const input = asRecord(state?.input);
  const web = WEB_TOOLS[name];
  if (web) return webToolEvents(name, web, firstString(input?.url, input?.query, state?.title));
  const exit = asRecord(state?.metadata)?.exit;
  const detail = firstString(state?.title, input?.command, input?.filePath);
  const tool: AgentEvent = {
    kind: "tool",
    name,
    phase: "end",
    acts: !READ_ONLY_TOOLS.has(name),
    ...(detail ? { detail } : {}),
    ...(typeof exit === "number" ? { exitCode: exit } : {}),
  };
  const change = EDIT_TOOLS[name];
  const path = firstString(input?.filePath);
  if (!change || !path || state?.status !== "completed") return [tool];
  return [tool, { kind: "file_change", path, change }];
}

/**
 * A web call, with the URL or query as its detail (the title adds the content type). opencode
 * writes a tool only once it has finished, so that one record is both the call's start (what the
 * web turn limit and the sources count, services/answer/turn.ts) and its end.
 */
function webToolEvents(name: string, web: "search" | "fetch", detail: string | undefined): AgentEvent[] {
  const tool = { kind: "tool", name, acts: false, web, ...(detail ? { detail } : {}) } as const;
  return [
    { ...tool, phase: "start" },
    { ...tool, phase: "end" },
  ];
}

/** Each step reports its own tokens and cost, so the events are deltas that fold adds up. */
function stepFinish(part: Record<string, unknown>): AgentEvent[] {
  const tokens = asRecord(part.tokens);
  const cache = asRecord(tokens?.cache);
  const events: AgentEvent[] = [
    {
      kind: "usage",
      delta: true,
      usage: {
        ...numberField("inputTokens", tokens?.input),
        ...numberField("outputTokens", tokens?.output),
        ...numberField("cachedInputTokens", cache?.read),
        ...numberField("costUsd", part.cost),
      },
    },
  ];
  if (part.reason === "stop") events.push({ kind: "final", ok: true });
  if (part.reason === "length") events.push({ kind: "final", ok: false, message: "output truncated (finish reason: length)" });
  return events;
}

function errorEvents(error: Record<string, unknown> | undefined): AgentEvent[] {
  const data = asRecord(error?.data);
  const name = typeof error?.name === "string" ? error.name : "Error";
  const ref = typeof data?.ref === "string" ? ` (ref ${data.ref})` : "";
  const message = `${name}: ${firstString(data?.message) ?? "unknown error"}${ref}`;
  const failure = apiFailure(name, data);
  return [
    { kind: "error", message, ...(failure ? { failure } : {}) },
    { kind: "final", ok: false, message },
  ];
}

/** Structured errors are classifiable with high precision (statusCode, name); text is the fallback. */
function apiFailure(name: string, data: Record<string, unknown> | undefined): FailureClass | undefined {
  if (name === "ProviderAuthError") return "auth";
  const status = data?.statusCode;
  if (status === 401 || status === 403) return "auth";
  if (status === 429 || status === 503 || status === 529) return "capacity";
  if (status === 502 || status === 504) return "transport";
  return textFailure(`${firstString(data?.message) ?? ""} ${firstString(data?.responseBody) ?? ""}`);
}

const AUTH_TEXT = /invalid[ _]api[ _]key|incorrect api key|unauthori[sz]ed|authentication (failed|error)|invalid x-api-key|no credentials/i;
const CAPACITY_TEXT = /rate[ _]limit|too many requests|overloaded|quota|capacity|usage limit|resource[ _]exhausted/i;
const TRANSPORT_TEXT =
  /cannot connect to api|unable to connect|ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|fetch failed|socket hang up|network error/i;

function textFailure(text: string): FailureClass | undefined {
  return failureFromText(text, { auth: AUTH_TEXT, capacity: CAPACITY_TEXT, transport: TRANSPORT_TEXT });
}

/**
 * Signed out of the model's provider, opencode does not load it, so it cannot find the model: the
 * stream says only `UnknownError` "Unexpected server error" (~2 s), and the --print-logs line names
 * `ProviderModelNotFoundError` (research §A.3). A misspelt model id reads the same; both are a
 * fast, clean failure at launch, so it counts as auth (fall back, cool down) and `explain` names both.
 */
const MODEL_NOT_FOUND = /ProviderModelNotFoundError: Model not found: (\S+?)\.?(?=[\s")\]]|$)/;

function signedOutOrUnknownModel(outcome: ExitOutcome, errors: readonly Extract<AgentEvent, { kind: "error" }>[]): boolean {
  return errors.some((e) => e.message.startsWith("UnknownError")) && MODEL_NOT_FOUND.test(outcome.stderrTail);
}

function explain(outcome: ExitOutcome): string | undefined {
  const model = MODEL_NOT_FOUND.exec(outcome.stderrTail)?.[1];
  if (!model) return undefined;
  return `opencode could not load ${model}: its provider is not signed in (opencode auth login, or the provider's API key variable) or the model id is misspelt (\`opencode models\` lists what it can use)`;
}

function classify(outcome: ExitOutcome): FailureClass | undefined {
  if (outcome.exitCode === 127) return "not_installed";
  const errors = outcome.events.filter((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  const classified = errors.find((e) => e.failure)?.failure;
  if (classified) return classified;
  if (signedOutOrUnknownModel(outcome, errors)) return "auth";
  if (errors.length > 0) return "task_failed";
  if (outcome.signal || outcome.exitCode === null) return "task_failed";
  if (outcome.exitCode !== 0) return textFailure(outcome.stderrTail) ?? "task_failed";
  return classifyExitZero(outcome);
}

/** Exit 0 with no error line is success when there is an answer; the stream has no terminal record. */
function classifyExitZero(outcome: ExitOutcome): FailureClass | undefined {
  const final = outcome.events.findLast((e) => e.kind === "final");
  if (final?.kind === "final" && !final.ok) return "task_failed";
  const answered = outcome.events.some((e) => e.kind === "text" && e.text.trim() !== "");
  if (answered) return undefined;
  if (final) return "empty_answer";
  if (outcome.events.length === 0 || outcome.rawStdoutTail.trim() !== "") return "bad_output";
  return "empty_answer";
}

/**
 * opencode over ACP (`opencode acp`, 1.18.33; docs/acp.md): the headless configs exactly — answer
 * mode's inline config denies every tool but the read-only ones, with no MCP servers or plugins
 * (opencode never asks for a permission unless its config says `ask`, and its `plan` mode still
 * runs bash); a route keeps the person's config with their MCP servers switched off by name. It
 * refuses an unknown model (-32602), so the model goes through the session's `model` option.
 * Signed out it does not fail: it runs on a free hosted model, so its readiness probe runs first.
 */
export const opencodeAcp: AcpProfile = {
  launch: ["opencode", "acp"],
  env: (req) => (req.mode === "answer" ? answerEnv(req) : (routeEnv(req).env ?? {})),
  setModel: "config_option",
  exitGraceMs: 1000,
  failures: { auth: AUTH_TEXT, capacity: CAPACITY_TEXT, transport: TRANSPORT_TEXT },
  preflight: true,
  writes: { isolatedWrite: false, patch: true, why: "opencode over ACP keeps the person's config, whose build agent runs bash without approval" },
  // PromptResponse.usage with the answer; usage_update carries the running cost.
  traits: { usage: { tokens: "final", cost: "streamed", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};

export const opencodeAdapter: Adapter = {
  backend: "opencode",
  acp: opencodeAcp,
  // Answer mode allows these two only with web granted (opencodeAnswerConfig).
  web: { tools: Object.keys(WEB_TOOLS).join(", ") },
  // `auth list` exits 0 even with no credentials, and lists provider keys found in the environment
  // in a block of their own (research §A.3). No pre-flight: orchestrate always passes -m, and a
  // provider without credentials then fails in ~2 s; only a run without -m hangs on the free model.
  // Providers configured in opencode.json with an inline key show as 0 credentials too, so this bit
  // is advice for list_agents and the doctor, never a reason to skip a run.
  readiness: (out) => {
    const text = stripAnsi(out.stdout);
    if (out.exitCode !== 0) return "not_ready";
    return /(^|\s)0 credentials/.test(text) && !/[1-9]\d* environment variables?/.test(text) ? "not_ready" : "ready";
  },
  provider: { kind: "model-prefix", example: "<provider>/<model>" },
  ...opencodeMachine,
  // The stream never names the model; `opencode export` does, from the run's own cwd.
  sideChannel: {
    kind: "command",
    argv: opencodeExportArgv,
    read: (stdout) => {
      const model = opencodeModelFromExport(stdout);
      return model ? { models: [model], requested: true } : undefined;
    },
    // export pretty-prints the whole session; a resumed consultation can be long.
    maxLines: 200_000,
  },
  invocation,
  parse,
  parseStderr: parseOpencodeStderr,
  classify,
  explain,
  probes: {
    version: ["--version"],
    help: ["run", "--help"],
    requiredFlags: ["--format", "--session", "--model", "--dir", "--print-logs", "--log-level", "--pure"].map((flag) => ({
      flag,
      since: "1.18.33",
    })),
    auth: ["auth", "list"],
    loginHint: "opencode auth login",
    // `opencode --version` prints "1.18.33" for opencode-ai 1.18.33: an npm install is read from the file instead of starting the CLI (other installs are asked).
    packageVersion: "opencode-ai",
  },
  supportsResume: true,
};

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === "string" && v !== "");
}

function joinModel(provider: unknown, model: unknown): string | undefined {
  return typeof provider === "string" && typeof model === "string" && provider && model ? `${provider}/${model}` : undefined;
}

function numberField<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === "number" && Number.isFinite(value) ? ({ [key]: value } as Partial<Record<K, number>>) : {};
}

function stripAnsi(text: string): string {
  // biome-ignore lint: the escape character is the point
  return text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
}

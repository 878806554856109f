/**
 * Grok adapter for the two programs that answer to `grok` (research §D):
 *  - community `@vibe-kit/grok-cli` 0.0.34 (prints 1.0.1): `grok -p PROMPT -d DIR [-m MODEL]`, no
 *    output flag; after the whole run it prints one OpenAI-style message per line
 *    (`{"role":"user"|"assistant"|"tool",…}`), exits 0 even on API errors
 *    (`Sorry, I encountered an error: Grok API error: <status> <msg>`), no sessions, no model, no usage,
 *    auto-approves every tool in headless mode (there is no flag to turn tools off).
 *  - xAI's official Grok Build CLI, from its docs only (not runnable here): `-p`, `--output-format
 *    streaming-json` (`thought` / `text` chunks / `error` / terminal `end` with sessionId),
 *    `--resume`, `--always-approve`, `--cwd`, `--no-auto-update`.
 * Never passes `-k/-u`: the community CLI would persist them to ~/.grok/user-settings.json and echo
 * on stdout, and argv is visible to every local user.
 */
import { foldEvents } from "../fold.ts";
import type { Adapter, AgentEvent, ExitOutcome, FailureClass, Invocation, ProbeSpec, RunRequest, Usage } from "../contract.ts";
import { grokMachine } from "./machine.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";

/** Community tools that only read or keep the agent's own todo list. */
const COMMUNITY_READ_ONLY = new Set(["view_file", "search", "create_todo_list", "update_todo_list"]);

/** Which of the two programs answering to `grok` is installed (SPEC §2). */
export type GrokVariant = "community" | "official";

export const grokAdapter: Adapter = {
  backend: "grok",
  provider: { kind: "fixed", provider: "xai" },
  ...grokMachine,
  invocation: grokInvocation,
  // Neither program reads a prompt from stdin or a file orchestrate can rely on (community 0.0.34:
  // commander's -p only, stdin never read — research §D.1 and its dist/index.js; Grok Build's
  // `--prompt-file` is seen only in third-party adapters, §D.2), so the prompt is one argument:
  // over Linux's 128 KiB per argument the transport refuses it as prompt_too_large, unspawned.
  promptOnArgv: true,
  // The community CLI writes ./.grok/settings.json into the working dir on every run (research §D.1).
  stateFiles: (req) => ((req.variant ?? "community") === "community" ? [".grok/settings.json"] : []),
  // Two programs answer to `grok`; `--help` tells them apart (an unreadable one counts as community).
  variant: {
    argv: ["--help"],
    read: (out) => (out.stdout.trim() ? detectGrokVariant(out.stdout) : "community"),
    traits: (variant) => ({
      label: variant === "official" ? "Grok Build" : "community grok-cli",
      supportsResume: grokSupportsResume(variant),
      probes: grokProbesFor(variant),
    }),
  },
  // Grok Build records the served model in its session summary; the community CLI has no sessions.
  sideChannel: {
    kind: "file",
    path: (ctx) => (ctx.sessionId ? grokBuildSummaryPath(ctx.home, ctx.request.cwd, ctx.sessionId) : undefined),
    read: (text) => {
      const model = grokModelFromSummary(text);
      return model ? { models: [model] } : undefined;
    },
  },
  parse: parseGrokLine,
  classify: classifyGrok,
  probes: grokProbesFor("community"),
  // Community (the default variant) has no sessions; use grokSupportsResume(variant) when known.
  supportsResume: false,
};

export function grokSupportsResume(variant: string): boolean {
  return variant === "official";
}

/** Which grok is installed, from `grok --help` (decisive) or `grok --version` output. Pure. */
export function detectGrokVariant(versionOrHelpText: string): GrokVariant {
  const text = versionOrHelpText.trim();
  if (/streaming-json|always-approve|grok build|x\.ai\/cli|--session-id|grok login/i.test(text)) return "official";
  if (/max-tool-rounds|text editor capabilities|GROK_API_KEY|^1\.0\.1$/.test(text)) return "community";
  // A bare version other than the community's hard-coded 1.0.1 is not the community CLI.
  if (/^v?\d+\.\d+\.\d+\S*$/.test(text)) return "official";
  return "community";
}

function grokInvocation(req: RunRequest): Invocation {
  return req.variant === "official" ? officialInvocation(req) : communityInvocation(req);
}

/**
 * Community: no permission or tool flags exist, so answer mode can only confine the run to the
 * answer cwd (-d); any tool it still runs shows up as a `tool` event and is caught by the caller.
 * Resume is impossible (no sessions) and ignored; the service refuses it via grokSupportsResume.
 */
function communityInvocation(req: RunRequest): Invocation {
  const args = [...promptArgs(req.prompt, "--prompt"), "-d", req.cwd];
  if (req.model) args.push("-m", req.model);
  return { args };
}

function officialInvocation(req: RunRequest): Invocation {
  const args = [...promptArgs(req.prompt, "--single"), "--output-format", "streaming-json", "--cwd", req.cwd, "--no-auto-update"];
  if (req.model) args.push("-m", req.model);
  if (req.resumeSessionId) args.push("--resume", req.resumeSessionId);
  // Route mode acts in the user's tree; answer mode leaves tools unapproved (headless denies them).
  if (req.mode === "route") args.push("--always-approve");
  return { args };
}

/** A dash-leading prompt after `-p` would parse as a flag; the `=` form keeps it a value. */
function promptArgs(prompt: string, longFlag: string): string[] {
  return prompt.startsWith("-") ? [`${longFlag}=${prompt}`] : ["-p", prompt];
}

/** Grok Build keeps `summary.json` (with `model`) per session: ~/.grok/sessions/<urlencoded cwd>/<id>/. */
export function grokBuildSummaryPath(home: string, cwd: string, sessionId: string): string {
  return `${home}/.grok/sessions/${encodeURIComponent(cwd)}/${sessionId}/summary.json`;
}

/** The model a Grok Build session used, from its summary.json text. Pure. */
export function grokModelFromSummary(text: string): string | undefined {
  const doc = parseObject(text);
  return doc ? str(doc.model) : undefined;
}

// ---------------------------------------------------------------------------------------------
// parse: community lines carry `role`, official streaming-json lines carry `type`

export function parseGrokLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  if (typeof obj.role === "string") return communityMessage(obj);
  if (typeof obj.type === "string") return officialEvent(obj);
  return [];
}

const SORRY = "Sorry, I encountered an error:";

function communityMessage(msg: Json): AgentEvent[] {
  if (msg.role === "tool") return [{ kind: "tool", name: "tool", phase: "end", acts: false }];
  if (msg.role !== "assistant") return [];
  const content = str(msg.content) ?? "";
  if (content.startsWith(SORRY)) return [apiError(content.slice(SORRY.length).trim())];
  const events: AgentEvent[] = Array.isArray(msg.tool_calls) ? msg.tool_calls.map(toolCall) : [];
  if (content.startsWith("Error: ")) return [...events, { kind: "error", message: content, failure: grokErrorClass(content) }];
  if (content) events.push({ kind: "text", text: content });
  return events;
}

function toolCall(call: unknown): AgentEvent {
  const fn = asObject(asObject(call)?.function) ?? {};
  const name = str(fn.name) ?? "tool";
  const args = parseObject(str(fn.arguments) ?? "") ?? {};
  const detail = str(args.command) ?? str(args.path) ?? str(args.query);
  return { kind: "tool", name, phase: "start", acts: !COMMUNITY_READ_ONLY.has(name), ...(detail ? { detail } : {}) };
}

function apiError(message: string): AgentEvent {
  return { kind: "error", message, failure: grokErrorClass(message) };
}

/** `Grok API error: 429 Rate limit…`, `Grok API error: Connection error.`, or free text. */
export function grokErrorClass(message: string): FailureClass {
  const status = Number(/\b([45]\d\d)\b/.exec(message)?.[1] ?? 0);
  if (status === 401 || status === 403 || /not signed in|unauthori[sz]ed|invalid api key|api key required/i.test(message)) return "auth";
  if (status === 429 || status >= 500 || /rate limit|overloaded|quota|capacity|resource exhausted/i.test(message)) return "capacity";
  if (/Connection error|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|fetch failed|network|timed out/i.test(message)) return "transport";
  return "task_failed";
}

function officialEvent(ev: Json): AgentEvent[] {
  switch (ev.type) {
    case "thought":
      return [thinking(str(ev.data))];
    case "text":
      return str(ev.data) ? [{ kind: "text", text: str(ev.data) as string, delta: true }] : [];
    case "error": {
      const message = str(ev.message) ?? str(ev.data) ?? "grok error";
      return [apiError(message)];
    }
    case "end":
      return endEvent(ev);
    default:
      return [];
  }
}

function endEvent(ev: Json): AgentEvent[] {
  const events: AgentEvent[] = [];
  const sessionId = str(ev.sessionId);
  if (sessionId) events.push({ kind: "session", sessionId });
  const usage = officialUsage(ev);
  if (usage) events.push({ kind: "usage", usage });
  const stop = str(ev.stopReason) ?? "EndTurn";
  events.push({ kind: "final", ok: stop === "EndTurn", ...(stop === "EndTurn" ? {} : { message: `stopReason ${stop}` }) });
  return events;
}

/** The `end` usage object is only known from third-party adapters; accept both key spellings. */
function officialUsage(ev: Json): Usage | undefined {
  const u = asObject(ev.usage) ?? {};
  const usage: Usage = {};
  const input = pickNum(u, "input_tokens", "inputTokens");
  const output = pickNum(u, "output_tokens", "outputTokens");
  const cached = pickNum(u, "cache_read_input_tokens", "cachedInputTokens");
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (typeof ev.total_cost_usd === "number") usage.costUsd = ev.total_cost_usd;
  if (typeof ev.num_turns === "number") usage.turns = ev.num_turns;
  return Object.keys(usage).length ? usage : undefined;
}

// ---------------------------------------------------------------------------------------------
// classify

export function classifyGrok(outcome: ExitOutcome): FailureClass | undefined {
  if (isNotInstalled(outcome)) return "not_installed";
  const streamError = outcome.events.find((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  if (streamError) return streamError.failure ?? "task_failed";
  if (/API key required|Not signed in/i.test(outcome.stderrTail)) return "auth";
  const final = outcome.events.findLast((e) => e.kind === "final");
  if (final && !final.ok) return "task_failed";
  if (outcome.signal || (outcome.exitCode ?? 0) !== 0) return "task_failed";
  if (foldEvents(outcome.events).text.trim()) return undefined;
  return outcome.rawStdoutTail.trim() ? "bad_output" : "empty_answer";
}

function isNotInstalled(outcome: ExitOutcome): boolean {
  if (outcome.exitCode === 127) return true;
  return outcome.exitCode === null && !outcome.signal && /ENOENT|command not found/.test(outcome.stderrTail);
}

// ---------------------------------------------------------------------------------------------
// probes

export function grokProbesFor(variant: string): ProbeSpec {
  if (variant === "official") {
    const flags = ["-p", "--output-format", "--always-approve", "--resume", "--cwd", "--no-auto-update"];
    return {
      version: ["--version"],
      help: ["--help"],
      requiredFlags: flags.map((flag) => ({ flag, since: "documented" })),
      auth: ["models"],
      loginHint: "grok login (or `grok login --device-code`, or set XAI_API_KEY)",
    };
  }
  const flags = ["--prompt", "--directory", "--model"];
  return {
    version: ["--version"],
    help: ["--help"],
    requiredFlags: flags.map((flag) => ({ flag, since: "1.0.1" })),
    loginHint: "export GROK_API_KEY=<key from console.x.ai> (never pass -k: it is saved to ~/.grok/user-settings.json)",
  };
}

// ---------------------------------------------------------------------------------------------
// small JSON helpers (kept local: adapters never import each other)

function pickNum(obj: Json, ...keys: string[]): number | undefined {
  for (const key of keys) if (typeof obj[key] === "number") return obj[key] as number;
  return undefined;
}

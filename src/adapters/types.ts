/**
 * The contract every backend adapter implements. Adapters are pure: they turn a request into an
 * invocation (argv, stdin, env additions) and turn the CLI's output lines into normalized events.
 * They never spawn, never read files and never import one another; `process/` runs what they build
 * and `services/` composes the two.
 */

export const BACKENDS = ["codex", "claude", "opencode", "grok", "gemini", "copilot"] as const;
export type Backend = (typeof BACKENDS)[number];

/** route = agentic work in the user's tree; answer = consult-style, no tools that act. */
export type RunMode = "route" | "answer";

export type CodexSandbox = "read-only" | "workspace-write" | "danger-full-access";
export type ClaudePermissionMode = "acceptEdits" | "bypassPermissions";

/** Which of the two programs answering to `grok` is installed (see SPEC §2). */
export type GrokVariant = "community" | "official";

export interface RunRequest {
  mode: RunMode;
  prompt: string;
  /** Absolute, already validated against the roots allowlist. */
  cwd: string;
  /** Omitted means "the CLI's own default"; never invented by orchestrate. */
  model?: string;
  /** Native session to resume (codex thread id, claude session id, …). */
  resumeSessionId?: string;
  /** codex only. */
  sandbox?: CodexSandbox;
  /** claude only. */
  permissionMode?: ClaudePermissionMode;
  /** claude only: pass-through to --allowedTools. */
  allowedTools?: string[];
  /** grok only: which grok program is installed. */
  grokVariant?: GrokVariant;
  /**
   * Answer mode: an absolute path to a JSON Schema file the CLI should enforce natively
   * (codex --output-schema) and the schema text itself (claude --json-schema).
   */
  outputSchemaPath?: string;
  outputSchema?: string;
  /** Answer mode: a throw-away directory the CLI may use as its isolated config home. */
  isolatedHome?: string;
  /**
   * The user's own MCP servers, by name, to switch off for this run where the CLI can only do it
   * by name (copilot's --disable-mcp-server). Read from the CLI's config by the service.
   */
  disableMcpServers?: string[];
}

/** What process/ needs to start the CLI. */
export interface Invocation {
  args: string[];
  /** Text written to stdin and then closed; undefined means stdin is not a pipe at all. */
  stdin?: string;
  /** Variables added to (or, with undefined, removed from) the child's environment. */
  env?: Record<string, string | undefined>;
}

/** Token and cost figures as the CLI reported them; absent fields were not reported. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  costUsd?: number;
  turns?: number;
}

/**
 * The normalized event union. Every CLI's stream folds into these; unknown lines are dropped.
 * `activity` events describe what the delegate is doing, for progress messages.
 */
export type AgentEvent =
  | { kind: "session"; sessionId: string }
  /** `requested` marks an echo of the model asked for (claude's init line): no evidence of what served. */
  | { kind: "model"; model: string; requested?: boolean }
  | { kind: "thinking"; text?: string }
  /** `delta` marks a streamed chunk (gemini, Grok Build): consecutive chunks form one message. */
  | { kind: "text"; text: string; delta?: boolean }
  /** A tool the delegate ran. `acts` is true for anything that can change state (shell, edit, MCP). */
  | { kind: "tool"; name: string; detail?: string; phase: "start" | "end"; acts: boolean; exitCode?: number }
  | { kind: "file_change"; path: string; change: "add" | "update" | "delete" | "unknown" }
  /** Cumulative figures (later wins), or with `delta` one step's own figures (they add up). */
  | { kind: "usage"; usage: Usage; delta?: boolean }
  /**
   * A transient problem the CLI is retrying by itself (not final). `hopeless` marks a retry that
   * will never end on its own (codex offline loops on "waiting for network" forever).
   */
  | { kind: "retry"; message: string; hopeless?: boolean }
  /** A final error reported in the stream. */
  | { kind: "error"; message: string; failure?: FailureClass }
  /** The CLI's own terminal record (claude `result`, codex `turn.completed`, copilot `result`, …). */
  | { kind: "final"; ok: boolean; text?: string; structured?: unknown; message?: string };

/**
 * Why an attempt did not produce an answer. The first four are "unavailable": the backend never
 * got to work, so a fallback is allowed when the tree is also unchanged.
 */
export type FailureClass =
  | "not_installed"
  | "auth"
  | "capacity"
  | "transport"
  | "timeout"
  | "budget"
  | "stalled"
  | "cancelled"
  | "task_failed"
  | "empty_answer"
  | "tree_changed"
  | "bad_output";

export const UNAVAILABLE_CLASSES: readonly FailureClass[] = ["not_installed", "auth", "capacity", "transport"];

/** Everything known about a finished process, for classification. */
export interface ExitOutcome {
  exitCode: number | null;
  signal: string | null;
  events: AgentEvent[];
  stderrTail: string;
  /** Lines on stdout that were not JSON (some CLIs print plain text errors there). */
  rawStdoutTail: string;
}

/** Static facts used by the doctor's compatibility probe. */
export interface ProbeSpec {
  /** argv that prints the version, e.g. ["--version"]. */
  version: string[];
  /** argv whose output lists the flags we rely on, e.g. ["exec", "--help"]. */
  help: string[];
  /** Flags orchestrate relies on, with the first version known to have them. */
  requiredFlags: { flag: string; since: string }[];
  /** A quick, offline readiness check (e.g. `codex login status`), when the CLI has one. */
  auth?: string[];
  /** The command a person runs to sign in, quoted in errors. */
  loginHint: string;
}

export type Readiness = "ready" | "not_ready" | "unknown";

/** What a readiness probe (`codex login status`, `claude auth status`, …) printed. */
export interface ProbeOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface Adapter {
  backend: Backend;
  /** Provider derived from backend and model (opencode: its `<provider>/` prefix). */
  provider(model: string | undefined): string;
  /** argv + stdin + env for one run. Pure. */
  invocation(req: RunRequest): Invocation;
  /** One stdout line → zero or more events. Pure; must not throw on garbage. */
  parse(line: string): AgentEvent[];
  /** undefined = success. Reads exit code, final events and stderr text. */
  classify(outcome: ExitOutcome): FailureClass | undefined;
  probes: ProbeSpec;
  /** Whether this backend can resume a native session in answer mode. */
  supportsResume: boolean;
  /**
   * Reads the auth probe's output as one bit, without reading credentials. Default: exit 0 is
   * ready, any other exit is not.
   */
  readiness?(out: ProbeOutput, env: Record<string, string | undefined>): Readiness;
  /**
   * Probe readiness before a route attempt: set for CLIs whose unauthenticated run does not fail
   * fast (codex loops reconnecting forever; opencode falls back to a hosted model for ~66 s), so
   * "auth at launch" stays a fast, clean failure.
   */
  preflight?: boolean;
  /** Files (relative to the cwd) the CLI writes on every run as its own bookkeeping, not task work. */
  stateFiles?(req: RunRequest): string[];
}

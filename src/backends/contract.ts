import type { AgentEvent, ExitOutcome, FailureClass, FailurePatterns, Json, QuotaEvent, Usage } from "./events.ts";

export type { AgentEvent, ExitOutcome, FailureClass, FailurePatterns, Json, QuotaEvent, Usage } from "./events.ts";
export { UNAVAILABLE_CLASSES } from "./events.ts";

/**
 * The contract every backend implements: everything particular to one CLI, as pure data and pure
 * functions, in that backend's own folder (src/backends/<id>/). A backend turns a request into an
 * invocation (argv, stdin, env additions), turns the CLI's output lines into normalized events,
 * classifies how a run ended, and describes — as data the services act on — where the CLI keeps
 * what orchestrate needs around a run: its MCP config, its side channels, its history, its
 * registration file. Backends never spawn, never read files and never import one another;
 * `process/` and `runner/` run what they build and `services/` composes the rest.
 *
 * The registry (./index.ts) is the one list of backends; every table elsewhere is derived from it.
 */

/** route = agentic work in the user's tree; answer = consult-style, no tools that act. */
export type RunMode = "route" | "answer";

/** One backend-only setting's value, as the config gave it (a word, or a list such as claude's allowedTools). */
export type OptionValue = string | readonly string[];
/** An agent's backend-only settings by key; each backend reads and checks its own (its machine's `options`). */
export type OptionValues = Readonly<Record<string, OptionValue>>;

export interface RunRequest {
  mode: RunMode;
  prompt: string;
  /** Absolute, already validated against the roots allowlist. */
  cwd: string;
  /** Omitted means "the CLI's own default"; never invented by orchestrate. */
  model?: string;
  /**
   * The agent's provider, for CLIs that take it apart from the model (pi's `--provider`: one pi
   * serves many providers and a model id alone may match several). Filled from the agent's
   * resolved provider; backends whose provider is fixed or in the model id ignore it.
   */
  provider?: string;
  /** Native session to resume (codex thread id, claude session id, …). */
  resumeSessionId?: string;
  /** The agent's backend-only settings (codex's sandbox, claude's permissionMode…), read by that backend alone. */
  options?: OptionValues;
  /**
   * Which build of the CLI is installed, as the backend's own `variant.read` named it (grok:
   * community | official; pi: its release line). Absent when the backend has no variants.
   */
  variant?: string;
  /**
   * Answer mode: an absolute path to a JSON Schema file the CLI should enforce natively
   * (codex --output-schema) and the schema text itself (claude --json-schema).
   */
  outputSchemaPath?: string;
  outputSchema?: string;
  /**
   * Answer mode: offer the CLI's own web tools (Adapter.web), and nothing else that acts. Absent or
   * false: the web tools are switched off where the CLI can do that.
   */
  web?: boolean;
  /** Answer mode: a throw-away directory the CLI may use as its isolated config home. */
  isolatedHome?: string;
  /**
   * The user's own MCP servers, by name, to switch off for this run where the CLI can only do it
   * by name (copilot's --disable-mcp-server). Read from the CLI's config by the service.
   */
  disableMcpServers?: string[];
  /**
   * The model provider the CLI's own config selects (codex's `model_provider` in config.toml),
   * read by the runner where the backend says where: retry caps exist only as keys of a custom
   * provider (codex `model_providers.<id>.stream_max_retries`). Absent: the config names none.
   */
  configuredProvider?: string;
  /**
   * The person's own provider definitions from the CLI's config (opencode's `provider` table), read
   * by the runner where the backend says where: an answer run whose config home is isolated must
   * still reach a provider the person declared only there (a custom OpenAI-compatible endpoint).
   */
  providerDefinitions?: Json;
  /**
   * The attempt's wall-clock budget in seconds, for CLIs that end a run on a clock of their own
   * and must have it raised to match (agy's --print-timeout defaults to 5 minutes on some builds).
   * The runner's own timer still decides; absent means the backend must not cut the run short.
   */
  timeoutSec?: number;
}

/** What process/ needs to start the CLI. */
export interface Invocation {
  args: string[];
  /** Text written to stdin and then closed; undefined means stdin is not a pipe at all. */
  stdin?: string;
  /** Variables added to (or, with undefined, removed from) the child's environment. */
  env?: Record<string, string | undefined>;
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
  /**
   * Variables set for these probes only, never for a run (gemini: GEMINI_CLI_NO_RELAUNCH, so
   * `--version` does not start a second node process to raise its own heap: half the CPU).
   */
  env?: Record<string, string>;
  /**
   * The npm package whose package.json, beside the resolved binary, holds exactly the version
   * `--version` prints (the CLI reads it from there itself): the wizard's listing reads it instead
   * of starting the CLI once more. The doctor still asks the CLI.
   */
  packageVersion?: string;
}

export type Readiness = "ready" | "not_ready" | "unknown";

/** What a readiness probe (`codex login status`, `claude auth status`, …) printed. */
export interface ProbeOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export type Env = Record<string, string | undefined>;

/**
 * Where an agent's provider comes from (docs/design.md, "Delegation"). The provider decides
 * whether a fallback crosses providers, so it is derived and never trusted from the file; a
 * declared provider that disagrees is a config error, except under `declared`, where the
 * declaration is the only source.
 */
export type ProviderRule =
  /** codex→openai, claude→anthropic, … */
  | { kind: "fixed"; provider: string }
  /** opencode: whatever precedes the first slash of the model id; `example` is quoted in errors. */
  | { kind: "model-prefix"; example: string }
  /** pi: the agent's `provider:` key, required (a model id alone names no provider). */
  | { kind: "declared" };

/**
 * A private copy of the CLI's home for one run, for a setting the CLI reads only from its own
 * settings file (gemini's general.maxAttempts: no flag, no variable). The transport builds it in
 * a fresh 0700 directory and points `envVar` at it for that run only: each of `entries` (paths
 * relative to `root`) is a link to the person's own, except the directories on the way to a file
 * in `settings`, which become real directories of links; each such file is the person's own
 * (comments allowed, absent = {}) passed through its function. A file that cannot be read as
 * JSON means no copy at all: the person's settings stay in force, unchanged. The copy is removed
 * after the run and nothing of the person's is written, except that the `keep` directories are
 * created in the person's home first (what gemini itself would do), so what the CLI stores there
 * (sessions, history) lands in the person's home and not in the throw-away copy.
 */
export interface HomeOverlay {
  envVar: string;
  /** The directory `envVar` means when unset (gemini: $GEMINI_CLI_HOME, else $HOME). */
  root: string;
  entries: string[];
  settings: Record<string, (current: Json) => Json>;
  keep: string[];
}

/**
 * The config keys this backend owns, each with the note shown when another backend's entry sets it
 * (`remove sandbox; <note>`). A key set on an entry of another backend is a config error. The
 * values' schema is the backend's own `*_OPTION_DEFS`, gathered in ./index.ts for the config schema.
 */
export type AgentOptions = Readonly<Record<string, string>>;

/** An agent as the backend's hints and risk notes see it (a subset of the resolved config). */
export interface AgentFacts {
  id: string;
  model?: string;
  options: OptionValues;
}

/** A config file of the CLI's that lists the user's own MCP servers under `key`. */
export interface McpConfigFile {
  path: string;
  format: "json" | "toml";
  /** The top-level key holding the servers by name (`mcpServers`, `mcp`, `mcp_servers`). */
  key: string;
  /** Server names the CLI's switch-off flag can carry (codex's `-c` takes bare keys only). */
  names?: RegExp;
}

/**
 * A config file of the CLI's whose top-level `key` names the model provider it uses (`name`, the
 * default: into RunRequest.configuredProvider) or holds the person's provider definitions
 * (`definitions`: an object, into RunRequest.providerDefinitions).
 */
export interface ProviderConfigFile {
  path: string;
  format: "json" | "toml";
  key: string;
  holds?: "name" | "definitions";
}

/** What a side channel revealed about a finished run. Nothing found means "unverified". */
export interface SideReport {
  models: string[];
  /**
   * The models are what the CLI asked for (codex's rollout, opencode's export record the requested
   * model, never the one a server answered with): a reroute the stream revealed supersedes them.
   */
  requested?: boolean;
  /** Usage the stream did not carry (copilot writes tokens only to its usage file). */
  usage?: Usage;
}

export interface SideChannelContext {
  env: Env;
  /** $HOME, resolved by the caller. */
  home: string;
  request: RunRequest;
  sessionId: string | undefined;
}

/**
 * Where a CLI reveals, beyond its stream, which model served (and sometimes usage). Described as
 * data so one service does the I/O for every backend, best effort.
 */
export type SideChannel =
  /** A file found by name anywhere under `root` (codex: its rollout, named after the thread id). */
  | {
      kind: "file-search";
      root(ctx: SideChannelContext): string | undefined;
      matches(fileName: string, sessionId: string): boolean;
      read(text: string): SideReport | undefined;
    }
  /** A file at a known path (copilot's usage file, Grok Build's session summary). */
  | { kind: "file"; path(ctx: SideChannelContext): string | undefined; read(text: string): SideReport | undefined }
  /** A command of the CLI's own, run in the request's cwd (opencode export). */
  | { kind: "command"; argv(sessionId: string): string[]; read(stdout: string): SideReport | undefined; maxLines?: number };

/**
 * Where a CLI writes its rate-limit windows outside its stream (codex: its session rollout), as
 * data: after a run the runner takes, from the first of `dirs` that holds any, the newest file
 * that `matches` and was written during the run, reads at most `tailBytes` of its end and hands
 * them to `read`, which keeps only the rate-limit fields (docs/design.md, "Quota").
 */
export interface QuotaFile {
  /** Folders to look in, the likeliest first (codex: today's and yesterday's day folder). */
  dirs(ctx: { env: Env; home: string; now: Date }): string[];
  matches(fileName: string): boolean;
  /** How much of the file's end to read: the windows are restated near the end of every turn. */
  tailBytes: number;
  /** The windows of the last report in this text; a first line may be cut. Pure. */
  read(text: string): QuotaEvent[];
}

/**
 * Programs that differ under one name (grok: community vs Grok Build) or one name across release
 * lines with different flags (pi 0.73 vs 1.x): probed once per binary, read by the backend.
 */
export interface VariantProbe {
  /** argv whose output tells the variants apart (`--help`, `--version`). */
  argv: string[];
  /** The variant this output names; called with "" when the probe printed nothing or failed. */
  read(out: ProbeOutput): string;
  /** What the variant can do; absent fields fall back to the adapter's own. */
  traits(variant: string): VariantTraits;
}

export interface VariantTraits {
  /** How the doctor names this build ("Grok Build", "community grok-cli", "pi 0.73 line"). */
  label?: string;
  supportsResume?: boolean;
  probes?: ProbeSpec;
  /**
   * Set when orchestrate must not drive this build at all (agy builds whose print mode writes
   * nothing to a pipe): the message names the version needed. A refused build is `not_installed`.
   */
  refuse?: string;
}

/** How orchestrate registers itself with this CLI when it is the MCP client. */
export type Registration =
  /** The CLI's own `mcp add` command. */
  | { kind: "command"; args: string[] }
  /** One key added to a JSON config file: `path` is [section, name]. */
  | { kind: "file"; file: string; path: [string, string]; entry: Record<string, unknown> };

export interface RegistrationContext {
  /** The server name to register under ("orchestrate"). */
  name: string;
  /** How to start this binary: [absolute executable, …args]. */
  self: string[];
  env: Env;
  home: string;
}

/** A multiple-choice question the setup wizard asks for each new agent on this backend. */
export interface WizardQuestion {
  /** One of the backend's own option keys (its machine's `options`). */
  key: string;
  title: string;
  choices: { value: string; label: string; hint: string }[];
}

/** The figures a token/cost/turn limit reads. */
export type UsageFigure = "tokens" | "cost" | "turns";
export type UsageArrival = "streamed" | "final" | "none";

/** Facts the runner and services read instead of asking which backend this is. */
export interface BackendTraits {
  /**
   * When each usage figure arrives, in route mode: during the run (a limit on it stops the run
   * mid-stream), only at its end (a limit can only fail the run afterwards), or never (a limit on
   * it can never fire, so the config refuses it).
   */
  usage: Record<UsageFigure, UsageArrival>;
  /** Where the served model shows: in the stream, only in a side channel, or nowhere. */
  identity: "stream" | "side-channel" | "none";
  /** A resumed session reports usage cumulatively (codex) or per turn (the rest). */
  resumedUsage: "cumulative" | "per-turn";
  /** What can keep a route run inside its cwd: an OS sandbox, a permission mode, or nothing. */
  containment: "os-sandbox" | "permission-mode" | "none";
  /**
   * Run the same agent once more, `delayMs` after it ended, when an attempt failed on capacity
   * having done nothing (no acting tool, tree unchanged) and no long wait was announced: for a CLI
   * whose own retry waits longer than starting it again takes (its retries are then capped to
   * one attempt), so a transient failure is answered sooner and a persistent one falls back sooner.
   */
  capacityRerun?: { delayMs: number };
}

/** See Adapter.writes. */
export interface WriteContainment {
  isolatedWrite: boolean;
  patch: boolean;
  why: string;
  /**
   * Set where a contained run cannot execute commands (its shell denied or not offered), so an
   * isolated_write test step would observe no command: the reason, quoted in that step's refusal.
   */
  commandsDenied?: string;
}

/**
 * How one agent speaks the Agent Client Protocol (JSON-RPC over stdio), driven by
 * src/runner/transports/acp.ts for agents with `transport: acp` (and every `backend: acp` agent).
 * ACP standardises the conversation, not the agent: what it isolates, which mode asks before
 * acting, how it fails and whether it says which model served stay each agent's own, so they are
 * declared here, in the agent's folder, beside its headless facts (docs/acp.md).
 */
export interface AcpProfile {
  /** The launch command when the agent's config names none: executable, then arguments. */
  launch: string[];
  /** The backend has no headless mode: its agents are always driven over ACP. */
  only?: boolean;
  /**
   * Arguments appended per run: the agent's own switches (ACP's `mcpServers: []` isolates from
   * nothing — every captured agent still loaded the person's MCP servers from its own config).
   */
  args?(req: RunRequest): string[];
  /** Variables added to (undefined: removed from) the child's environment, per run. */
  env?(req: RunRequest, env: Env): Record<string, string | undefined>;
  /**
   * The `_meta` sent with session/new and session/load: the agent's own switches that only a
   * session takes (claude-agent-acp hands `claudeCode.options` to the Claude Agent SDK, whose
   * `strictMcpConfig` and `settingSources` keep the person's MCP servers, hooks and settings out).
   */
  sessionMeta?(req: RunRequest): Json;
  /**
   * The session mode chosen per orchestrate mode: in answer mode the one in which the agent asks
   * before it acts, so every act meets a rejection; absent: the agent's own default mode.
   */
  modes?: Partial<Record<RunMode, string>>;
  /** Session config options set per mode (copilot's allow_all off), by config id. */
  configOptions?: Partial<Record<RunMode, Record<string, string>>>;
  /**
   * How a configured model is selected: `session/set_model`, the session's `model` config option,
   * `auto` (the config option when the session offers one, else set_model when it lists models),
   * or not at all (the agent's own config decides, and identity stays unverified).
   */
  setModel: "set_model" | "config_option" | "auto" | "none";
  /**
   * How long the agent gets to exit by itself once its stdin is closed before its group is ended
   * (claude-agent-acp and codex-acp never exit on a closed stdin: 0).
   */
  exitGraceMs: number;
  /** The agent's wording of the three unavailable failures, in JSON-RPC errors and failed turns. */
  failures?: FailurePatterns;
  /**
   * Text that, as the last message of a turn ending `end_turn`, means the model call failed
   * (copilot reports an API failure only as an "Error: Failed to get response …" chunk).
   */
  failedTurnText?: RegExp;
  /**
   * What a PromptResponse's `_meta` reports beyond the protocol: the models that served and the
   * usage (gemini: `quota.model_usage[].model` and `quota.token_count`; no other agent names the
   * served model over ACP).
   */
  fromMeta?(meta: Json): { models: string[]; usage?: Usage };
  /**
   * Run the backend's readiness probe first (opencode signed out runs on a free hosted model for
   * a minute instead of failing): a "not ready" is a fast, clean auth failure.
   */
  preflight?: boolean;
  /** Message chunks that are the agent's bookkeeping, not its answer (gemini's `[MODE_UPDATE] x`). */
  noiseText?: RegExp;
  /**
   * Where the agent keeps each session in a file named by the UTC minute it was opened (gemini:
   * `<root>/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`). Its session/load opens this
   * minute's name afresh before it looks, so a resume in the session's own minute would erase it.
   * The files are the agent's: the runner only lists them, and waits for the minute to turn before
   * such a resume (runner/session-minute.ts).
   */
  sessionFiles?: { root(env: Env, home: string): string; name(sessionId: string, minute: string): string };
  /**
   * What an ACP run of this agent can be trusted with, declared per transport and never inherited
   * from the headless driver: the ACP launch has other modes and switches, so a headless proof
   * (containment, usage arrival) says nothing about it. Conservative unless a test proves it.
   */
  writes: WriteContainment;
  /** When usage arrives over ACP, where the served model shows, and any capacity re-run. */
  traits: BackendTraits;
}

/** The claims and traits an agent is judged by: its ACP profile's when driven over ACP (docs/acp.md). */
export interface DrivenFacts {
  writes: WriteContainment;
  traits: BackendTraits;
}

/**
 * The half of the contract each backend keeps in its own machine.ts: what surrounds a run (traits,
 * files the CLI writes and reads, registration, models, wizard hints), apart from how a run is
 * driven (invocation.ts, parse.ts, classify.ts, probes.ts; docs/architecture.md, "Where a new thing
 * goes"). Declared once here; every machine.ts ends in `satisfies BackendMachine`, so its keys keep
 * their precise types and the adapter it is spread into still checks what is required.
 */
export type BackendMachine = Partial<
  Pick<
    Adapter,
    | "advisoryHint"
    | "client"
    | "helperModel"
    | "history"
    | "installDirs"
    | "mcpConfigFiles"
    | "models"
    | "options"
    | "providerConfigFiles"
    | "registration"
    | "registrationHelp"
    | "risks"
    | "quotaFile"
    | "sideChannel"
    | "traits"
    | "wizard"
    | "writes"
  >
>;

export interface Adapter {
  /** The registry key; a test checks that they agree. */
  backend: string;
  /** Present when the agent can be driven over ACP (`transport: acp`); see AcpProfile. */
  acp?: AcpProfile;
  /**
   * Set where an agent may name no model (an agent known only by its ACP launch, whose models
   * orchestrate cannot list): it then runs on its own default, and its identity stays unverified.
   */
  modelOptional?: boolean;
  /**
   * What a workflow step may ask of this backend (seed 001's execution modes), the backend's side
   * of the intersection with the agent's execution_modes. `isolatedWrite`: a route run with the
   * backend's defaults (no sandbox/permission options from the agent) writes only inside its cwd,
   * a git worktree — proven per backend by test/workflow/containment.test.ts. `patch`: an
   * answer-only run (no tool acts) whose reply carries the diff. `why` is quoted in a refusal.
   */
  writes: WriteContainment;
  /** Where this backend's agents get their provider. */
  provider: ProviderRule;
  /**
   * Present when an answer-only run can be given the CLI's own web tools (RunRequest.web) and the
   * parser marks their use (`web` on tool events): `tools` names them, for plans and refusals.
   */
  web?: { tools: string };
  /** Config keys only this backend (and perhaps a few others) accepts. */
  options?: AgentOptions;
  /**
   * Present when an agent may be `advisory: true`: the hint returned instead of spawning.
   * Nothing is sent anywhere.
   */
  advisoryHint?(agent: AgentFacts): string;
  /** Notes the setup wizard and `init_preview` show for risky settings of this backend. */
  risks?(agent: AgentFacts): { code: string; message: string }[];
  /** argv + stdin + env for one run. Pure. */
  invocation(req: RunRequest): Invocation;
  /**
   * Set when the CLI takes its prompt only as an argument, with no stdin or file alternative
   * (community grok's -p): one argument is capped at MAX_ARG_STRLEN (128 KiB on Linux) and shows
   * in `ps`. The transport refuses an invocation that would not fit, as prompt_too_large, before
   * spawning (never "not installed"). Absent: the prompt travels on stdin.
   */
  promptOnArgv?: boolean;
  /** A private settings copy for each run (see HomeOverlay); absent: the CLI's home as it is. */
  homeOverlay?(ctx: { env: Env; home: string; request: RunRequest }): HomeOverlay | undefined;
  /** One stdout line → zero or more events. Pure; must not throw on garbage. */
  parse(line: string): AgentEvent[];
  /**
   * One stderr line → events, for CLIs that announce what they are doing only there (opencode's
   * `--print-logs` "stream error" line is its only retry signal). Pure; absent: stderr is only a tail.
   */
  parseStderr?(line: string): AgentEvent[];
  /** undefined = success. Reads exit code, final events and stderr text. */
  classify(outcome: ExitOutcome): FailureClass | undefined;
  /**
   * What a failed run's class alone does not say, in words a person can act on (claude refusing
   * bypassPermissions as root; gemini no longer serving individual accounts, so use agy; an agy
   * build too old to drive). Undefined when the class and the CLI's own message say enough.
   * Services add it to the failure's message or hint; it never changes the class.
   */
  explain?(outcome: ExitOutcome): string | undefined;
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
  traits: BackendTraits;
  /**
   * A model the CLI calls for its own chores (routing, titles) and reports beside the one that
   * answered; identity checks leave it out, unless it is the configured model itself.
   */
  helperModel?: RegExp;
  /** Probed once per binary when two programs (or release lines) share the name. */
  variant?: VariantProbe;
  /** Where the served model (and usage) can be read after a run. */
  sideChannel?: SideChannel;
  /** Where the CLI writes its rate-limit windows beside its stream, read after every run. */
  quotaFile?: QuotaFile;
  /**
   * The CLI's config files listing the user's MCP servers, for CLIs that can only switch them off
   * by name (the names reach `invocation` as `disableMcpServers`). Absent: isolated by flags alone.
   */
  mcpConfigFiles?(ctx: { env: Env; home: string; cwd?: string; mode: RunMode }): McpConfigFile[];
  /**
   * Where the CLI's config names its model provider, in order (the first file that sets the key
   * wins); the runner reads it into `configuredProvider`. Absent: the invocation needs no provider.
   */
  providerConfigFiles?(ctx: { env: Env; home: string; cwd?: string; mode: RunMode }): ProviderConfigFile[];
  /** Directories under $HOME the CLI's own installer uses (`.local/bin`, `.opencode/bin`). */
  installDirs: string[];
  /** Where the CLI keeps its own session history, quoted when orchestrate deletes its rows. */
  history: string;
  /**
   * MCP `initialize` clientInfo.name values of this CLI when it is the host, and the request
   * timeout it enforces on a tool call (the sync budget stays under it).
   */
  client?: { names: RegExp; requestTimeoutSec?: number };
  /** How orchestrate registers with this CLI as an MCP server; undefined where it cannot. */
  registration?(ctx: RegistrationContext): Registration | undefined;
  /** The line `orchestrate` prints at a terminal telling a person how to register with this CLI. */
  registrationHelp?(name: string, self: string[]): string;
  /**
   * How the CLI lists its models (untrusted, only ever offered as choices): `argv` is undefined
   * where the installed variant lists none.
   */
  models?: { argv(variant: string | undefined): string[] | undefined; read(stdout: string): string[] };
  wizard?: {
    modelHint: string;
    validModel?(id: string): boolean;
    /**
     * Model ids or aliases the CLI's own documentation names, offered as choices for a CLI that
     * prints no model list (claude's aliases, gemini's documented ids). Never a default.
     */
    suggested?: string[];
    questions?: WizardQuestion[];
  };
}

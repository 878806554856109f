/**
 * One ACP conversation in one process group: spawn (process/), `initialize`, `session/new` with
 * the cwd and no MCP servers (or `session/load` to resume), the mode and model, one
 * `session/prompt`, then the end — stdin closed, a short wait, the group ended (claude-agent-acp
 * and codex-acp never exit on a closed stdin; every attempt is a fresh process, so claude's stale
 * `end_turn` after a cancel never meets a later prompt). Each step is written as a record line
 * (backends/acp/records.ts) to the runner's stream.
 *
 * What orchestrate answers the agent: permission requests by policy (answer-only rejects every
 * one; a route allows or rejects by the agent's config), `fs/*` inside the cwd only (a missing
 * file reads as empty content, which gemini needs to create one), `-32601` for anything else.
 * Answer-only fails closed: the first tool call whose kind acts ends the turn (session/cancel,
 * then the group), whatever the agent asked or not. A cancel from outside sends session/cancel
 * and gives the agent a moment to stop its own children before the group is killed.
 */
import type { ClientContext, NewSessionRequest } from "@agentclientprotocol/sdk/unstable";
import { acpLine, loginHintOf, type AcpPhase, type AcpRecord, type RoutePermissions } from "../../backends/acp/index.ts";
import type { AcpProfile, RunRequest } from "../../backends/contract.ts";
import { asObject, str, type Json } from "../../backends/events.ts";
import { runProcess, type ProcessResult } from "../../process/spawn.ts";
import { VERSION } from "../../version.ts";
import { clientHandlers, type ClientPolicy } from "./acp-client.ts";
import { Wire } from "./acp-wire.ts";
import type { StreamIO, TransportEnd } from "./types.ts";

type Sdk = typeof import("@agentclientprotocol/sdk/unstable");

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The executable as configured, for sign-in hints that name the agent's own launch. */
  name: string;
}

export interface ConversationSpec {
  launch: Launch;
  request: RunRequest;
  profile: AcpProfile;
  /** The session mode to select, if any. */
  mode: string | undefined;
  routePermissions: RoutePermissions;
  io: StreamIO;
}

/** How long an agent gets to stop its own children after session/cancel before its group is killed. */
export const CANCEL_GRACE_MS = 1000;
/** How long a violation waits for its session/cancel to be written before the group is ended. */
const CANCEL_WRITE_MS = 100;
/** How long a conversation gets to record how it ended once its agent is gone. */
const LAST_WORDS_MS = 500;
/** The SDK's bound on one JSON-RPC message; a line over it ends the connection. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

export async function runConversation(spec: ConversationSpec): Promise<TransportEnd> {
  const sdk = await import("@agentclientprotocol/sdk/unstable");
  const wire = new Wire();
  const done = new AbortController();
  const kill = new AbortController();
  const emit = (record: AcpRecord): void => spec.io.onLine(acpLine(record));
  const proc = runProcess({
    command: spec.launch.command,
    args: spec.launch.args,
    cwd: spec.request.cwd,
    env: spec.launch.env,
    stdinPipe: (pipe) => wire.attach(pipe),
    done: done.signal,
    signal: kill.signal,
    timeoutMs: spec.io.timeoutMs,
    ...(spec.io.stallMs ? { stallMs: spec.io.stallMs } : {}),
    onLine: (line) => wire.fromAgent(line),
    ...(spec.io.onStderrLine ? { onStderrLine: spec.io.onStderrLine } : {}),
  }).finally(() => wire.close());
  const session = new Session(sdk, spec, wire, emit, () => done.abort());
  const stopCancel = forwardCancel(spec.io.signal, kill, session);
  try {
    const talking = session.run();
    await Promise.race([talking, proc]);
    wire.endInput();
    await settle(proc, spec.profile.exitGraceMs);
    done.abort();
    const result = await proc;
    // An agent that went away mid-step: the error its closed connection causes belongs to this run.
    await settle(talking, LAST_WORDS_MS);
    return endOf(result);
  } finally {
    stopCancel();
    session.close();
  }
}

/** A cancel (or a guard, or shutdown) from outside: session/cancel first, the group a moment later. */
function forwardCancel(signal: AbortSignal, kill: AbortController, session: Session): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (): void => {
    const sent = session.cancel();
    if (!sent) {
      kill.abort(signal.reason);
      return;
    }
    timer = setTimeout(() => kill.abort(signal.reason), CANCEL_GRACE_MS);
    void session.settled.then(() => kill.abort(signal.reason));
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return () => {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  };
}

async function settle(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function endOf(result: ProcessResult): TransportEnd {
  return {
    endReason: result.endReason,
    exitCode: result.exitCode,
    signal: result.signal,
    ...(result.spawnError ? { startError: result.spawnError } : {}),
    stderrTail: result.stderrTail,
    rawStdoutTail: result.rawStdoutTail,
  };
}

/** The conversation itself. */
class Session {
  private ctx: ClientContext | undefined;
  private connection: { close(): void } | undefined;
  private sessionId: string | undefined;
  private prompting = false;
  private ending = false;
  private phase: AcpPhase = "initialize";
  private login: string | undefined;
  private resolveSettled: () => void = () => undefined;
  /** Resolves when the conversation is over, however it ended. */
  readonly settled = new Promise<void>((resolve) => (this.resolveSettled = resolve));

  constructor(
    private readonly sdk: Sdk,
    private readonly spec: ConversationSpec,
    private readonly wire: Wire,
    private readonly emit: (record: AcpRecord) => void,
    private readonly end: () => void,
  ) {}

  async run(): Promise<void> {
    const policy: ClientPolicy = {
      mode: this.spec.request.mode,
      routePermissions: this.spec.routePermissions,
      cwd: this.spec.request.cwd,
      onUpdate: (sessionId, update) => this.update(sessionId, update),
      onRecord: this.emit,
      onViolation: (what, kind) => this.violation(what, kind),
    };
    const app = clientHandlers(this.sdk, policy);
    const connection = app.connect(this.sdk.ndJsonStream(this.wire.writable, this.wire.readable, { maxMessageBytes: MAX_MESSAGE_BYTES }));
    this.connection = connection;
    this.ctx = connection.agent;
    try {
      await this.converse(connection.agent);
    } finally {
      this.resolveSettled();
    }
  }

  private async converse(ctx: ClientContext): Promise<void> {
    const init = await this.step("initialize", () =>
      ctx.request("initialize", {
        protocolVersion: this.sdk.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
        clientInfo: { name: "orchestrate", version: VERSION },
      }),
    );
    if (!init) return;
    this.login = loginHintOf(init.authMethods, this.spec.launch.name);
    this.emit({
      acp: "init",
      protocolVersion: init.protocolVersion,
      ...(init.agentInfo?.name ? { agent: init.agentInfo.name } : {}),
      ...(init.agentInfo?.version ? { version: init.agentInfo.version } : {}),
      ...(this.login ? { login: this.login } : {}),
    });
    if (init.protocolVersion !== this.sdk.PROTOCOL_VERSION)
      return this.fail("initialize", `the agent speaks ACP version ${init.protocolVersion}; orchestrate speaks ${this.sdk.PROTOCOL_VERSION}`);
    const opened = await this.open(ctx, init.agentCapabilities?.loadSession === true);
    if (!opened) return;
    if (!(await this.selectMode(ctx, opened)) || !(await this.selectModel(ctx, opened))) return;
    this.phase = "prompt";
    this.prompting = true;
    const response = await this.step("prompt", () =>
      ctx.request("session/prompt", { sessionId: opened.sessionId, prompt: [{ type: "text", text: this.spec.request.prompt }] }),
    );
    this.prompting = false;
    if (response)
      this.emit({
        acp: "result",
        stopReason: response.stopReason,
        ...(response.usage ? { usage: { ...response.usage } } : {}),
        ...(response._meta ? { meta: response._meta } : {}),
      });
  }

  /** `session/new`, or `session/load` of the session to resume (its replayed history is not forwarded). */
  private async open(ctx: ClientContext, canLoad: boolean): Promise<OpenedSession | undefined> {
    this.phase = "session";
    const { cwd, resumeSessionId } = this.spec.request;
    if (resumeSessionId && !canLoad) return this.fail("session", "the agent cannot load a session (no loadSession capability), so it cannot resume one");
    // The agent's own session switches go with a load as with a new session: each starts its tools afresh.
    const meta = this.spec.profile.sessionMeta?.(this.spec.request);
    const params: NewSessionRequest = { cwd, mcpServers: [], ...(meta ? { _meta: meta } : {}) };
    const opened = resumeSessionId
      ? await this.step("session", () =>
          ctx.request("session/load", { ...params, sessionId: resumeSessionId }).then((r) => ({ ...r, sessionId: resumeSessionId })),
        )
      : await this.step("session", () => ctx.request("session/new", params));
    if (!opened) return undefined;
    this.sessionId = opened.sessionId;
    this.emit({ acp: "session", sessionId: opened.sessionId, loaded: resumeSessionId !== undefined });
    return { sessionId: opened.sessionId, modes: modeIds(opened.modes), options: optionsOf(opened.configOptions) };
  }

  /** The mode by `session/set_mode`, else by the session's `mode` config option (opencode has no modes). */
  private async selectMode(ctx: ClientContext, session: OpenedSession): Promise<boolean> {
    this.phase = "mode";
    const { mode } = this.spec;
    if (mode !== undefined) {
      const option = session.options.find((o) => o.category === "mode" || o.id === "mode");
      if (session.modes.includes(mode)) {
        if (!(await this.step("mode", () => ctx.request("session/set_mode", { sessionId: session.sessionId, modeId: mode })))) return false;
      } else if (option?.values.includes(mode)) {
        if (!(await this.setOption(ctx, session.sessionId, option.id, mode))) return false;
      } else {
        this.fail("mode", `the agent offers no mode ${mode} (it offers ${[...session.modes, ...(option?.values ?? [])].join(", ") || "none"})`);
        return false;
      }
    }
    for (const [id, value] of Object.entries(this.spec.profile.configOptions?.[this.spec.request.mode] ?? {})) {
      if (!session.options.some((o) => o.id === id)) continue;
      if (!(await this.setOption(ctx, session.sessionId, id, value))) return false;
    }
    return true;
  }

  private async selectModel(ctx: ClientContext, session: OpenedSession): Promise<boolean> {
    this.phase = "model";
    const { model } = this.spec.request;
    const how = this.spec.profile.setModel;
    if (model === undefined || how === "none") return true;
    const option = session.options.find((o) => o.category === "model" || o.id === "model");
    if (how === "config_option" || (how === "auto" && option)) {
      if (!option) return this.fail("model", `the agent offers no model option to set ${model}`) !== undefined;
      // opencode lists only the models of the providers its config declares and refuses the rest
      // (-32602): the refusal then names what it does list.
      const listed = option.values.length > 0 && !option.values.includes(model) ? ` (it lists: ${option.values.slice(0, 20).join(", ")})` : "";
      return this.setOption(ctx, session.sessionId, option.id, model, listed);
    }
    // SDK 2.4 has no constant for session/set_model (an unstable method): sent by name.
    return (await this.step("model", () => ctx.request("session/set_model", { sessionId: session.sessionId, modelId: model }))) !== undefined;
  }

  private async setOption(ctx: ClientContext, sessionId: string, configId: string, value: string, onRefusal = ""): Promise<boolean> {
    return (await this.step(this.phase, () => ctx.request("session/set_config_option", { sessionId, configId, value }), onRefusal)) !== undefined;
  }

  /**
   * One request; a JSON-RPC error (or the connection going away) is recorded, with `onRefusal`
   * after the agent's message, and ends the conversation.
   */
  private async step<T>(phase: AcpPhase, call: () => Promise<T>, onRefusal = ""): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (!this.ending) {
        const record = errorRecord(phase, error, this.login);
        this.emit(record.acp === "error" ? { ...record, message: `${record.message}${onRefusal}` } : record);
      }
      return undefined;
    }
  }

  private fail(phase: AcpPhase, message: string): undefined {
    this.emit({ acp: "error", phase, message });
    return undefined;
  }

  /** Updates count from the prompt on: a loaded session's replayed history is not this turn. */
  private update(sessionId: string, update: Json): void {
    if (!this.prompting || sessionId !== this.sessionId || this.ending) return;
    this.emit({ acp: "update", update });
  }

  /** The turn is over the moment it reaches for an act: session/cancel on its way, then the group. */
  private violation(what: string, kind: string): void {
    if (this.ending) return;
    this.emit({ acp: "violation", what, kind });
    const sent = this.cancelNotice();
    this.ending = true;
    void settle(sent, CANCEL_WRITE_MS).then(this.end);
  }

  /** Sends session/cancel during a prompt; false when there is no turn to cancel. */
  cancel(): boolean {
    if (!this.prompting) return false;
    void this.cancelNotice();
    return true;
  }

  private cancelNotice(): Promise<void> {
    if (!this.ctx || !this.sessionId || !this.prompting) return Promise.resolve();
    return this.ctx.notify("session/cancel", { sessionId: this.sessionId }).catch(() => undefined);
  }

  close(): void {
    this.ending = true;
    try {
      this.connection?.close();
    } catch {
      // Closing twice is harmless.
    }
  }
}

interface ConfigOptionView {
  id: string;
  category?: string;
  values: string[];
}

interface OpenedSession {
  sessionId: string;
  modes: string[];
  options: ConfigOptionView[];
}

function modeIds(modes: unknown): string[] {
  const available = asObject(modes)?.availableModes;
  return Array.isArray(available) ? available.flatMap((m) => (str(asObject(m)?.id) ? [str(asObject(m)?.id) as string] : [])) : [];
}

/** A select option's values, flattened out of groups; a boolean option's are on/off as strings. */
function optionsOf(options: unknown): ConfigOptionView[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((raw) => {
    const option = asObject(raw);
    const id = str(option?.id);
    if (!option || !id) return [];
    const category = str(option.category);
    return [{ id, ...(category ? { category } : {}), values: valuesOf(option.options) }];
  });
}

function valuesOf(options: unknown): string[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((raw) => {
    const item = asObject(raw);
    if (!item) return [];
    if (Array.isArray(item.options)) return valuesOf(item.options);
    const value = str(item.value);
    return value !== undefined ? [value] : [];
  });
}

function errorRecord(phase: AcpPhase, error: unknown, login: string | undefined): AcpRecord {
  const obj = asObject(error);
  const code = typeof obj?.code === "number" ? obj.code : undefined;
  const message = error instanceof Error ? error.message : (str(obj?.message) ?? String(error));
  const data = obj?.data === undefined ? undefined : JSON.stringify(obj.data).slice(0, 500);
  // ACP's -32000 is "authentication required": the sign-in command goes with it.
  return {
    acp: "error",
    phase,
    message: message.slice(0, 1000),
    ...(code !== undefined ? { code } : {}),
    ...(data ? { data } : {}),
    ...(code === -32000 && login ? { login } : {}),
  };
}

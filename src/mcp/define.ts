/**
 * Tools are data. A tool is declared once, in tools/<group>/def.ts: its name, group, hints, whether
 * it may run as an MCP task, and lazy imports of its arktype schemas and its handler. defineTool
 * turns that into a value that lists without loading anything and, when called, does what every
 * tool needs alike — validate (one formatted error), run, shape structuredContent + text + isError,
 * cap the text — so the server only looks a tool up and calls it. The wire JSON Schemas are
 * generated from the same schemas at build time (src/mcp/generated/), so listing never loads arktype.
 */
import type { ArkErrors } from "arktype";
import type { RawConfig } from "../config/presence.ts";
import type { Failure } from "../result.ts";
import { failureReply, toolReply, type ToolOutcome, type ToolReply } from "./outcome.ts";

export type ToolGroup = "core" | "consult" | "jobs" | "review" | "workflow" | "ask" | "init" | "history";

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a handler sees besides its validated input. */
export interface ToolContext {
  signal: AbortSignal;
  /** Sends a progress notification when the client gave a token; a no-op otherwise. */
  progress(message: string, progress?: number, total?: number): void;
  /** True when the client sent a progress token. */
  wantsProgress: boolean;
  clientName?: string;
  /** Running as an MCP task: wait for the end instead of turning into a job at the sync budget. */
  runToCompletion?: boolean;
  /**
   * Puts a question to the person through the client (MCP elicitation); present only when the client
   * declared the capability. "failed" when the client could not ask.
   */
  elicit?: (message: string) => Promise<"accept" | "decline" | "failed">;
  /** The client is written against a seed's envelopes (mcp/tools/names.ts seedClient). */
  seedClient?: boolean;
}

/** An arktype type as a tool uses it: a validator that can also publish its JSON Schema. */
export interface ToolSchema<T> {
  (data: unknown): T | ArkErrors;
  toJsonSchema(): object;
}

export type ToolHandler<I> = (input: I, ctx: ToolContext) => Promise<ToolOutcome>;

export interface ToolSpec<I> {
  name: string;
  group: ToolGroup;
  /** When to use the tool, briefly; long ones come from a .txt beside the def. */
  description: string;
  annotations: ToolAnnotations;
  /** May run as an MCP task (tools/list says taskSupport: optional). */
  task?: boolean;
  /** The arktype input and output types: imported on the first call, and by the schema generator. */
  schemas: () => Promise<{ input: ToolSchema<I>; output: ToolSchema<object> }>;
  handler: () => Promise<ToolHandler<I>>;
  /**
   * Shapes a failure that happens before or around the handler (arguments that do not validate, an
   * unexpected throw) the way the tool's own failures look — ask answers every outcome in seed
   * 002's envelope. Default: the plain isError reply.
   */
  refusal?: (failure: Failure, args: unknown, ctx: ToolContext) => Promise<ToolOutcome>;
  /** The reply is a seed's envelope (ask, consult): for a seed's client its text block is that envelope as JSON. */
  seedEnvelope?: boolean;
  /**
   * The advertised input schema, from the generated one and the raw config file (ask: the
   * capability enum and the configured size limits). Runs for tools/list, so it must stay light:
   * no arktype, no validated config.
   */
  advertise?: (generated: Record<string, unknown>, raw: RawConfig | undefined) => Record<string, unknown>;
}

export interface ToolDef {
  readonly name: string;
  readonly group: ToolGroup;
  readonly description: string;
  readonly annotations: ToolAnnotations;
  readonly task: boolean;
  readonly advertise?: ToolSpec<unknown>["advertise"];
  /** Set by activeTools when the tool is advertised under a seed's name (mcp/tools/names.ts); `name` stays orchestrate's. */
  readonly wireName?: string;
  /** Set by activeTools for a tool with `advertise`: the wire input schema, bound to this process's config. */
  readonly wireInput?: (generated: Record<string, unknown>) => Record<string, unknown>;
  /** The arktype types (validators that also publish their JSON Schema); the e2e client checks every reply against `output`. */
  schemas(): Promise<{ input: ToolSchema<unknown>; output: ToolSchema<object> }>;
  /** Validates, runs and shapes one call; answers every failure as an isError result, never throws. */
  call(args: unknown, ctx: ToolContext): Promise<ToolReply>;
}

export function defineTool<I>(spec: ToolSpec<I>): ToolDef {
  let loading: ReturnType<typeof load<I>> | undefined;
  return {
    name: spec.name,
    group: spec.group,
    description: spec.description.trim(),
    annotations: spec.annotations,
    task: spec.task === true,
    ...(spec.advertise ? { advertise: spec.advertise } : {}),
    schemas: spec.schemas,
    call: async (args, ctx) => {
      const reply = await answer(spec, () => (loading ??= load(spec)), args, ctx);
      return spec.seedEnvelope && ctx.seedClient ? asJsonText(reply) : reply;
    },
  };
}

/** The text block as the seeds write it: the whole structuredContent as JSON (never cut: a cut one would not parse). */
function asJsonText(reply: ToolReply): ToolReply {
  return { ...reply, content: [{ type: "text", text: JSON.stringify(reply.structuredContent) }] };
}

async function answer<I>(spec: ToolSpec<I>, loaded: () => ReturnType<typeof load<I>>, args: unknown, ctx: ToolContext): Promise<ToolReply> {
  try {
    const { schemas, handler, validate } = await loaded();
    const input = validate(schemas.input, args);
    if (!input.ok) return refuse(spec, { code: "invalid_arguments", message: input.message, hint: "Fix the arguments named above and call again." }, args, ctx);
    return toolReply(await handler(input.value, ctx));
  } catch (error) {
    // A handler never throws on purpose; if one does, the client still gets a typed answer.
    void import("../log.ts").then(({ log }) => log.error(`tool ${spec.name} failed unexpectedly`, error));
    // A store whose pages are damaged opens fine and throws on the first query that reads them.
    const { isCorruption, corruptStore } = await import("../store/corrupt.ts");
    if (isCorruption(error)) return refuse(spec, corruptStore(undefined, `SQLite: ${(error as Error).message}`).error, args, ctx);
    // Any other SQLite error (disk full, read-only, locked) is the store's, and says so.
    const { isStoreError, storeReason } = await import("../services/shared/store-writes.ts");
    if (isStoreError(error))
      return refuse(
        spec,
        {
          code: "store_unavailable",
          message: `The history store refused ${spec.name}'s write (${storeReason(error)}).`,
          hint: "Check the store path's permissions and free space, or set ORCHESTRATE_DB to another file; `orchestrate check` shows the store.",
        },
        args,
        ctx,
      );
    return refuse(
      spec,
      {
        code: "internal_error",
        message: `orchestrate hit an unexpected error in ${spec.name}.`,
        hint: "See the server's stderr log; the call had no effect you should rely on.",
      },
      args,
      ctx,
    );
  }
}

async function refuse<I>(spec: ToolSpec<I>, failure: Failure, args: unknown, ctx: ToolContext): Promise<ToolReply> {
  if (!spec.refusal) return failureReply(failure);
  return toolReply(await spec.refusal(failure, args, ctx).catch(() => ({ ok: false as const, error: failure })));
}

/** The schemas, the handler and arktype's validator, loaded together on the first call. */
async function load<I>(spec: ToolSpec<I>) {
  const [schemas, handler, { validate }] = await Promise.all([spec.schemas(), spec.handler(), import("./validate.ts")]);
  return { schemas, handler, validate };
}

/**
 * orchestrate's side of an ACP conversation: the requests an agent makes of its client, answered
 * by policy (backends/acp/policy.ts), and the update stream watched for acts in answer-only mode.
 *
 *  - `session/request_permission`: answer-only rejects every request (and one for a tool whose
 *    kind acts is a violation: the turn ends); a route allows once, or rejects by the agent's
 *    config.
 *  - `fs/read_text_file`: paths inside the cwd only; a missing file is empty content, not an
 *    error — gemini's existence check before a write maps no error object to ENOENT, so any
 *    error breaks the creation of a file (docs/acp.md).
 *  - `fs/write_text_file`: a route writes inside the cwd only; answer-only never writes, and the
 *    attempt is a violation.
 *  - anything else: `-32601` (qwen's `craft/drainMidTurnQueue` included, which it survives).
 */
import type { ClientApp } from "@agentclientprotocol/sdk/unstable";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { kindActs, permissionAnswer, type AcpRecord, type RoutePermissions } from "../../backends/acp/index.ts";
import type { RunMode } from "../../backends/contract.ts";
import { asObject, str, type Json } from "../../backends/events.ts";

type Sdk = typeof import("@agentclientprotocol/sdk/unstable");

export interface ClientPolicy {
  mode: RunMode;
  routePermissions: RoutePermissions;
  cwd: string;
  onUpdate(sessionId: string, update: Json): void;
  onRecord(record: AcpRecord): void;
  onViolation(what: string, kind: string): void;
}

/** A file served to the agent is read whole; one larger than this is refused. */
const MAX_READ_BYTES = 8 * 1024 * 1024;
/** Tool call ids remembered per run, so a runaway stream cannot grow the set without bound. */
const MAX_TOOL_IDS = 10_000;

export function clientHandlers(sdk: Sdk, policy: ClientPolicy): ClientApp {
  const watch = actWatch(policy);
  return sdk
    .client({ name: "orchestrate" })
    .onNotification("session/update", ({ params }) => {
      const update = asObject(params.update) ?? {};
      policy.onUpdate(params.sessionId, update);
      watch(update);
    })
    .onRequest("session/request_permission", ({ params }) => {
      const call = asObject(params.toolCall) ?? {};
      const title = str(call.title) ?? "a tool call";
      const kind = str(call.kind) ?? "other";
      const { answer, allowed } = permissionAnswer(policy.mode, policy.routePermissions, params.options);
      policy.onRecord({ acp: "permission", title, kind, answer: allowed ? "allowed" : "rejected" });
      if (policy.mode === "answer" && kindActs(call.kind)) policy.onViolation(title, kind);
      return { outcome: answer };
    })
    .onRequest("fs/read_text_file", ({ params }) => ({
      content: readInside(sdk, policy.cwd, params.path, params.line ?? undefined, params.limit ?? undefined),
    }))
    .onRequest("fs/write_text_file", ({ params }) => {
      if (policy.mode === "answer") {
        policy.onViolation(`a write to ${params.path}`, "edit");
        throw sdk.RequestError.internalError(undefined, "writes are refused in an answer-only consultation");
      }
      writeInside(sdk, policy.cwd, params.path, params.content);
      return {};
    })
    .onRequest("*", ({ method }) => {
      throw sdk.RequestError.methodNotFound(method);
    })
    .onNotification("*", () => undefined);
}

/**
 * Answer-only: the first tool call whose kind acts is a violation, announced or not — an update
 * for a call never announced counts as its announcement (the kind it names, else `other`).
 */
function actWatch(policy: ClientPolicy): (update: Json) => void {
  const seen = new Set<string>();
  return (update) => {
    if (policy.mode !== "answer") return;
    if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") return;
    const id = str(update.toolCallId) ?? "";
    if (update.sessionUpdate === "tool_call_update" && seen.has(id) && update.kind === undefined) return;
    if (seen.size < MAX_TOOL_IDS) seen.add(id);
    if (kindActs(update.kind)) policy.onViolation(str(update.title) ?? "a tool call", str(update.kind) ?? "other");
  };
}

function inside(sdk: Sdk, cwd: string, path: string): string {
  const full = resolve(cwd, path);
  const rel = relative(cwd, full);
  if (!isAbsolute(path) || rel.startsWith("..") || isAbsolute(rel))
    throw sdk.RequestError.invalidParams({ path }, "orchestrate serves files inside the session's cwd only");
  return full;
}

function readInside(sdk: Sdk, cwd: string, path: string, line: number | undefined, limit: number | undefined): string {
  const full = inside(sdk, cwd, path);
  if (!existsSync(full)) return "";
  if (statSync(full).size > MAX_READ_BYTES) throw sdk.RequestError.internalError({ path }, "the file is too large to serve");
  const text = readFileSync(full, "utf8");
  if (line === undefined && limit === undefined) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  return lines.slice(start, limit !== undefined ? start + limit : undefined).join("\n");
}

function writeInside(sdk: Sdk, cwd: string, path: string, content: string): void {
  const full = inside(sdk, cwd, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
}

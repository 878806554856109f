/**
 * What orchestrate answers an ACP agent, as pure functions: which tool kinds act, how a
 * permission request is answered per mode, and the sign-in command an agent's auth methods name.
 */
import type { RunMode } from "../contract.ts";
import { asObject, str, type Json } from "../events.ts";

/**
 * ACP's tool kinds that only look. Every other kind acts: edit, delete, move, execute, `other`
 * (it says nothing: an MCP tool, a todo list, anything the agent did not classify; a kind left
 * out is `other`, the schema's default), `switch_mode` (leaving plan mode is how an agent starts
 * acting) and any kind a later protocol adds. Answer-only fails closed on all of them.
 */
const LOOKS = new Set(["read", "search", "think", "fetch"]);

export function kindActs(kind: unknown): boolean {
  return typeof kind !== "string" || !LOOKS.has(kind);
}

/** How a route run answers permission requests: the agent's config says, allowing by default. */
export type RoutePermissions = "allow" | "reject";

export type PermissionOutcome = { outcome: "selected"; optionId: string } | { outcome: "cancelled" };

/**
 * Answer-only rejects every request, whatever it is for; a route allows once (or rejects, by the
 * agent's config). An agent offering no option of the wanted sort is answered `cancelled`, which
 * every agent treats as a refusal — never an allow it did not offer.
 */
export function permissionAnswer(mode: RunMode, route: RoutePermissions, options: unknown): { answer: PermissionOutcome; allowed: boolean } {
  const allow = mode === "route" && route === "allow";
  const wanted = allow ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
  const offered = Array.isArray(options) ? options.flatMap((o) => (asObject(o) ? [asObject(o) as Json] : [])) : [];
  for (const kind of wanted) {
    const id = str(offered.find((o) => o.kind === kind)?.optionId);
    if (id !== undefined) return { answer: { outcome: "selected", optionId: id }, allowed: allow };
  }
  return { answer: { outcome: "cancelled" }, allowed: false };
}

/**
 * The command a person runs to sign in, as the agent's own auth methods say it: copilot's
 * `_meta["terminal-auth"]` command, qwen's terminal method (its own launch with `args`), the
 * backticked command of a description (opencode: "Run `opencode auth login` in the terminal"),
 * or the variable an env_var method names (codex-acp). orchestrate never calls `authenticate`:
 * gemini's writes a terminal login onto the protocol stream and codex-acp's opens a browser.
 */
export function loginHintOf(authMethods: unknown, launch: string): string | undefined {
  if (!Array.isArray(authMethods)) return undefined;
  for (const raw of authMethods) {
    const method = asObject(raw);
    if (!method) continue;
    const hint = terminalAuth(method, launch) ?? backticked(method) ?? envVar(method);
    if (hint) return hint;
  }
  return undefined;
}

function terminalAuth(method: Json, launch: string): string | undefined {
  const meta = asObject(method._meta);
  const terminal = asObject(meta?.["terminal-auth"]);
  const command = str(terminal?.command);
  if (command) return [command, ...strings(terminal?.args)].join(" ");
  if (meta?.type === "terminal" || method.type === "terminal") return [launch, ...strings(meta?.args ?? method.args)].join(" ");
  return undefined;
}

function backticked(method: Json): string | undefined {
  return /`([^`]+)`/.exec(str(method.description) ?? "")?.[1];
}

function envVar(method: Json): string | undefined {
  if (method.type !== "env_var" || !Array.isArray(method.vars)) return undefined;
  const name = str(asObject(method.vars[0])?.name);
  return name ? `export ${name}=…` : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

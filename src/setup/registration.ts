/**
 * Registering orchestrate with the MCP clients found on this machine. Each plan says exactly what
 * will change — the command to run, or the JSON file and the diff — and uses absolute paths, since
 * GUI-launched clients have a small PATH. Nothing happens until the person confirms that plan.
 */
import { lstatSync } from "node:fs";
import { adapters, type Backend } from "../backends/index.ts";
import { homeDir, type Env } from "../config/paths.ts";
import { writeConfigAtomic } from "../config/write.ts";
import { fail, ok, type Result } from "../result.ts";
import { capture } from "../process/capture.ts";
import type { BackendProbe } from "../doctor/detect.ts";
import { currentText } from "./proposal.ts";
import { lineDiff } from "./diff.ts";

export const SERVER_NAME = "orchestrate";

export type RegistrationPlan =
  | { client: Backend; kind: "command"; path: string; args: string[]; describe: string }
  | { client: Backend; kind: "file"; file: string; text: string; describe: string };

/** `self` is how to start this binary: [absolute executable, …args]. */
export function planRegistrations(probes: BackendProbe[], self: string[], env: Env): { plans: RegistrationPlan[]; skipped: string[] } {
  const plans: RegistrationPlan[] = [];
  const skipped: string[] = [];
  for (const probe of probes) {
    if (!probe.path) continue;
    const plan = planFor(probe.backend, probe.path, self, env);
    if (typeof plan === "string") skipped.push(plan);
    else if (plan) plans.push(plan);
  }
  return { plans, skipped };
}

function planFor(client: Backend, cliPath: string, self: string[], env: Env): RegistrationPlan | string | undefined {
  // Each backend says how its CLI takes an MCP server: its own `mcp add`, or a key in a JSON file.
  const how = adapters[client].registration?.({ name: SERVER_NAME, self, env, home: homeDir(env) });
  if (!how) return undefined;
  if (how.kind === "command")
    return { client, kind: "command", path: cliPath, args: how.args, describe: `run: ${[cliPath, ...how.args].map(quote).join(" ")}` };
  return jsonPlan(client, how.file, how.path, how.entry);
}

/** Adds one key to the client's JSON config; a file that is not plain JSON is left to the person. */
function jsonPlan(client: Backend, file: string, path: string[], entry: Record<string, unknown>): RegistrationPlan | string {
  const before = currentText(file);
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = before.trim() ? JSON.parse(before) : {};
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    data = parsed as Record<string, unknown>;
  } catch {
    return `${client}: ${file} is not plain JSON (comments?); add this under ${path.join(".")} yourself: ${JSON.stringify(entry)}`;
  }
  const [section = "", key = ""] = path;
  const existing = data[section];
  const holder = typeof existing === "object" && existing !== null && !Array.isArray(existing) ? { ...(existing as Record<string, unknown>) } : {};
  holder[key] = entry;
  const text = `${JSON.stringify({ ...data, [section]: holder }, null, 2)}\n`;
  if (text === before) return `${client}: already registered in ${file}`;
  return { client, kind: "file", file, text, describe: `edit ${file}:\n${lineDiff(before, text, { before: `${file} (current)`, after: `${file} (new)` })}` };
}

export async function applyRegistration(plan: RegistrationPlan, env: Env): Promise<Result<string>> {
  if (plan.kind === "file") {
    if (lstatSync(plan.file, { throwIfNoEntry: false })?.isSymbolicLink()) return fail("symlink", `${plan.file} is a symlink; edit it yourself`);
    const written = writeConfigAtomic(plan.file, plan.text);
    return written.ok ? ok(`registered with ${plan.client} in ${plan.file}`) : written;
  }
  const out = await capture(plan.path, plan.args, env, { timeoutMs: 30_000 });
  if (out.ok) return ok(`registered with ${plan.client}`);
  return fail("register_failed", `${plan.client} mcp add failed: ${(out.stderr || out.stdout || out.problem || "").trim().slice(0, 500)}`);
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

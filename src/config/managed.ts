/**
 * The dashboard's managed file: consult agents and the reviewer selection a person edits in the
 * browser when `dashboard.editable` is true. For an orchestrate config it sits beside the config
 * as `managed.yaml`; for an Orchestrator MCP (seed 001) config it is that tool's own
 * `agents.yaml` (`consult.managed_agents_path`), in its agent shape, so the seed's agents and ours
 * stay in one file. Either is read with the config's own hardened rules (regular file, 0600, yours,
 * a directory nobody else can write) and written the same way; the main config is never
 * rewritten. The loader merges it into the config before validation, so one set of rules judges both.
 */
import { lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { expandHome } from "./paths.ts";
import { seedShapeOf } from "./seed-shape.ts";
import { errorLine } from "./format-errors.ts";
import { parseConfigText, type FileFormat } from "./parse.ts";
import type { Checked } from "./schema.ts";
import { readSecureFile } from "./secure-read.ts";
import { readsBackAs, renderYaml, writeConfigAtomic, type WriteCode } from "./write.ts";
import type { Result } from "../result.ts";

export const MANAGED_FILE = "managed.yaml";

/** What the editor writes: agents by id, and who reviews in each mode. */
export interface ManagedFile {
  agents?: Record<string, Record<string, unknown>>;
  review?: { reviewers?: string[]; deep_reviewers?: string[] };
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

export function managedPathFor(configPath: string): string {
  return join(dirname(configPath), MANAGED_FILE);
}

/** Where Orchestrator MCP's dashboard writes its agents (its consult/managed.py DEFAULT_MANAGED_PATH). */
export const SEED_MANAGED_PATH = "~/.orchestrator-mcp/agents.yaml";

/**
 * The managed file the loader merges, and where its agents go. An Orchestrator MCP config keeps
 * its browser-managed agents in `consult.managed_agents_path` (default SEED_MANAGED_PATH), in its
 * own agent shape, merged into `consult.agents` — an id in both is refused, as the seed does.
 * Any other config: `managed.yaml` beside it, merged at the top level.
 */
export function managedSourceFor(configPath: string, raw: unknown, env: Record<string, string | undefined>): { path: string; seed: boolean } {
  if (seedShapeOf(raw) !== "orchestrator" || !isObject(raw) || !isObject(raw.consult)) return { path: managedPathFor(configPath), seed: false };
  const named = raw.consult.managed_agents_path;
  return { path: resolve(dirname(configPath), expandHome(typeof named === "string" && named !== "" ? named : SEED_MANAGED_PATH, env)), seed: true };
}

/**
 * A seed managed file merged into the seed config: its agents into consult.agents, and the
 * reviewer selection our editor adds (`review:`, the seed's own reviewers/deep_reviewers keys)
 * over consult.review.
 */
export function mergeSeedManaged(main: unknown, managed: ManagedFile, path: string): Checked<unknown> {
  if (!isObject(main) || !isObject(main.consult)) return { ok: true, value: main };
  const agents = isObject(main.consult.agents) ? main.consult.agents : {};
  const added = managed.agents ?? {};
  const clashes = Object.keys(added).filter((id) => id in agents);
  if (clashes.length)
    return {
      ok: false,
      errors: clashes.map((id) =>
        errorLine(`${path}: agents.${id}`, "is also defined in consult.agents of the main config", "rename it or remove it from one of the two"),
      ),
    };
  const consult: Raw = { ...main.consult };
  if (Object.keys(added).length) consult.agents = { ...agents, ...added };
  if (managed.review) consult.review = { ...(isObject(consult.review) ? consult.review : {}), ...managed.review };
  return { ok: true, value: { ...main, consult } };
}

/** Where the editor writes, and in which shape: the loader's own choice (managedSourceFor). */
export interface ManagedTarget {
  path: string;
  /** Orchestrator MCP's agents.yaml: agents in its shape (runtime:), merged into consult.agents. */
  seed: boolean;
}

export function managedExists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** The managed file as data; absent → empty. Insecure or unreadable → the loader's own refusal. */
export function readManaged(path: string): Checked<ManagedFile> | { ok: false; refusal: ReturnType<typeof readSecureFile> & { ok: false } } {
  if (!managedExists(path)) return { ok: true, value: {} };
  const read = readSecureFile(path);
  if (!read.ok) return { ok: false, refusal: read };
  const parsed = parseConfigText(read.value, "yaml" satisfies FileFormat, path);
  if (!parsed.ok) return parsed;
  return shapeOf(parsed.value, path);
}

function shapeOf(value: unknown, path: string): Checked<ManagedFile> {
  if (!isObject(value)) return { ok: false, errors: [errorLine(path, "the managed file must hold a mapping", "delete it; the dashboard writes it again")] };
  const unknown = Object.keys(value).filter((k) => k !== "agents" && k !== "review");
  if (unknown.length)
    return { ok: false, errors: unknown.map((k) => errorLine(`${path}: ${k}`, "is not a key of the managed file (agents, review)", "remove it")) };
  const agents = value.agents;
  const review = value.review;
  if (agents !== undefined && !(isObject(agents) && Object.values(agents).every(isObject)))
    return { ok: false, errors: [errorLine(`${path}: agents`, "must map agent ids to agent entries", "fix it in the dashboard, or delete the file")] };
  if (review !== undefined && !isObject(review))
    return {
      ok: false,
      errors: [errorLine(`${path}: review`, "must be a mapping (reviewers, deep_reviewers)", "fix it in the dashboard, or delete the file")],
    };
  return { ok: true, value: value as ManagedFile };
}

/**
 * The main file's data with the managed agents added and the reviewer selection applied. An id
 * in both is an error, not an override: the main config is the person's own and always wins.
 */
export function mergeManaged(main: unknown, managed: ManagedFile, path: string): Checked<unknown> {
  if (!isObject(main)) return { ok: true, value: main };
  const agents = isObject(main.agents) ? main.agents : {};
  const clashes = Object.keys(managed.agents ?? {}).filter((id) => id in agents);
  if (clashes.length)
    return {
      ok: false,
      errors: clashes.map((id) => errorLine(`${path}: agents.${id}`, "is also defined in the main config", "rename it or remove it in the dashboard")),
    };
  const merged: Raw = { ...main };
  if (managed.agents && Object.keys(managed.agents).length) merged.agents = { ...agents, ...managed.agents };
  if (managed.review) {
    const consult = isObject(main.consult) ? main.consult : {};
    const review = isObject(consult.review) ? consult.review : {};
    merged.consult = { ...consult, review: { ...review, ...managed.review } };
  }
  return { ok: true, value: merged };
}

/**
 * Writes the managed file, then reads back what reached the disk before it replaces the old one:
 * it must parse to exactly `file`, and the main config merged with it must validate — the same
 * checks the editor ran on the form, now on the bytes the server will read.
 */
export async function writeManaged(
  target: ManagedTarget,
  file: ManagedFile,
  configPath: string,
  env: Record<string, string | undefined>,
): Promise<Result<string, WriteCode>> {
  const { path } = target;
  const header =
    "# Written by `orchestrate dashboard` (editable mode). The main config is never rewritten;\n# this file is merged into it when orchestrate starts. Restart the server to pick up changes.\n";
  const validate = await validator(configPath, target, env);
  const roundTrip = readsBackAs({ ...file });
  return writeConfigAtomic(path, header + renderYaml({ ...file }), (written) => {
    const lost = roundTrip(written);
    if (lost.length > 0) return lost;
    const back = shapeOf(Bun.YAML.parse(written), path);
    return back.ok ? validate(back.value) : back.errors;
  });
}

/**
 * Would the server accept the main config with this managed file? The same read, merge and
 * validation the loader does, run before the editor writes anything.
 */
export async function checkManaged(
  configPath: string,
  target: ManagedTarget,
  candidate: ManagedFile,
  env: Record<string, string | undefined>,
): Promise<Checked<unknown>> {
  const errors = (await validator(configPath, target, env))(candidate);
  return errors.length === 0 ? { ok: true, value: undefined } : { ok: false, errors };
}

/** The loader's read, merge and validation of the main config with a candidate managed file. */
async function validator(configPath: string, target: ManagedTarget, env: Record<string, string | undefined>): Promise<(candidate: ManagedFile) => string[]> {
  const read = readSecureFile(configPath);
  if (!read.ok) return () => [read.error.message];
  const { formatOf } = await import("./parse.ts");
  const { validateConfigObject } = await import("./validate.ts");
  const format = formatOf(configPath, read.value);
  const parsed = parseConfigText(read.value, format, configPath);
  return (candidate) => {
    if (!parsed.ok) return parsed.errors;
    const merged = (target.seed ? mergeSeedManaged : mergeManaged)(parsed.value, candidate, target.path);
    if (!merged.ok) return merged.errors;
    const validated = validateConfigObject(merged.value, { path: configPath, format }, env);
    return validated.ok ? [] : validated.errors;
  };
}

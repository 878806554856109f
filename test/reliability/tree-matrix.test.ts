/**
 * The tree-mutation matrix at volume (test/e2e/route.test.ts proves one claude case per kind):
 * every mutation kind × every fast failure a backend's fake can produce × several backends, all
 * through real servers, real git and the real fingerprint. Rules under test (SPEC §4):
 *
 *  - silent: the tree changes but the event stream shows only a clean fast failure, so only the
 *    fingerprint can catch it → zero fallbacks, except `ignored` (an ignored file is not tracked,
 *    staged or untracked-not-ignored state: the tree is byte-identical, the failure is clean, the
 *    fallback fires);
 *  - acting: the fake's own edits-then-fails, which reports a write tool event → terminal for
 *    every kind, `ignored` included (the delegate ran something that acts; routing/fallback.ts
 *    refuses on `acted` before it looks at the tree);
 *  - clean: no mutation → 100% fallback, served by the second agent.
 *
 * Every backend's rows run in the normal suite (issue 11 §7): claude, codex, opencode, gemini,
 * copilot, grok, agy and pi, each with every fast failure its fake imitates, clean, silent and
 * acting. By default the repeated combinations are cut to a covering set (see silentPairs and
 * actingMutations): every backend × every failure clean and silent, `ignored` × every failure on
 * every backend, every mutation silent on every backend and acting on at least two, and every
 * mutation × failure pair somewhere — 130 routes. STRESS=1 runs the whole product, 289 routes.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type McpSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { freshRepo, makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { attemptsOf, elapsed, pool, STEERED_FAKE, STRESS } from "./helpers.ts";

const MUTATIONS = ["edit-file", "new-untracked", "delete", "rename", "mode", "stage", "commit", "ignored"] as const;
type Mutation = (typeof MUTATIONS)[number];

interface BackendSpec {
  model: string;
  /** Extra agent env (`, KEY: value` pairs), as a user's own setup would provide it. */
  env?: string;
  /** Extra agent keys (`, key: value` pairs): pi's declared provider. */
  agent?: string;
  /** The fast failures its fake imitates (scenario names). */
  failures: string[];
  /**
   * false when the CLI's failure output carries no tool events (community grok prints its messages
   * only at the end, and not on an API error): its edits-then-fails is then as silent as ours.
   */
  reportsEdits?: boolean;
  /** Failures after which the runner re-runs the agent once (its capacityRerun trait) when nothing changed. */
  rerunsOn?: string[];
}

const ALL: Record<string, BackendSpec> = {
  // No retry-after on claude's 429 here: a provider's wait now outlasts the zero TTLs below (the
  // cooldown is the longer of the two), and the matrix needs `first` tried on every call.
  claude: { model: "opus", env: ", FAKE_RETRY_AFTER: ''", failures: ["rate-limit", "auth-fail", "overload", "transport"] },
  // No "transport" for codex: offline, real codex never exits (research cli-codex-claude.md §1: it
  // loops on "Reconnecting... waiting for network"), and so does its fake; the run ends only at the
  // stall/budget limit, which is terminal by design. Reported to the lead as a gap, not tested here.
  codex: { model: "gpt-5.1-codex", failures: ["rate-limit", "auth-fail", "overload"] },
  opencode: { model: "openai/gpt-5", failures: ["rate-limit", "auth-fail", "overload", "transport"] },
  // Every repo here is one gemini was never told to trust: the adapter trusts it for the run.
  gemini: { model: "gemini-2.5-pro", failures: ["rate-limit", "overload", "transport"], rerunsOn: ["rate-limit", "overload"] },
  copilot: { model: "gpt-5", failures: ["rate-limit", "overload", "transport"] },
  grok: { model: "grok-4", failures: ["rate-limit", "overload", "transport"], reportsEdits: false },
  // No auth-fail for agy: its readiness probe refuses a signed-out agy before launch (nothing runs
  // to mutate). No rate-limit either: agy's is an exhausted quota whose reset (1h28m45s) is the
  // cooldown, so `first` would be skipped for the rest of the matrix; overload is its 429/503.
  agy: { model: "gemini-3.8-flash-high", env: ", FAKE_AGY_TIME_SCALE: '0'", failures: ["overload", "transport"] },
  pi: { model: "fake-model", agent: ", provider: fake", failures: ["rate-limit", "auth-fail", "overload"] },
};
// MATRIX_ONLY=<backend> runs one backend's rows (for debugging a fake or an adapter).
const BACKENDS = process.env.MATRIX_ONLY ? { [process.env.MATRIX_ONLY]: ALL[process.env.MATRIX_ONLY] as BackendSpec } : ALL;

type Kind = "silent" | "acting" | "clean";
interface Case {
  id: string;
  backend: string;
  kind: Kind;
  failure: string;
  mutation?: Mutation;
}

function cases(): Case[] {
  const out: Case[] = [];
  const met = new Set<string>();
  for (const [b, [backend, spec]] of Object.entries(BACKENDS).entries()) {
    for (const failure of spec.failures) out.push({ id: `${backend}-clean-${failure}`, backend, kind: "clean", failure });
    for (const [mutation, failure] of silentPairs(spec.failures, met))
      out.push({ id: `${backend}-silent-${failure}-${mutation}`, backend, kind: "silent", failure, mutation });
    for (const mutation of actingMutations(b))
      out.push({ id: `${backend}-acting-${mutation}`, backend, kind: "acting", failure: "edits-then-fails", mutation });
  }
  return out;
}

/**
 * One backend's silent rows. Under STRESS, every mutation × every failure. By default `ignored`
 * still meets every failure (its tree is unchanged, so the failure's own class decides the
 * fallback), and each other mutation runs once, with a failure it has met on no backend before
 * (`met`), else the one this backend has used least: every backend's every failure, and every
 * mutation × failure pair somewhere in the matrix.
 */
function silentPairs(failures: string[], met: Set<string>): [Mutation, string][] {
  const out: [Mutation, string][] = [];
  const used = new Map<string, number>();
  for (const mutation of MUTATIONS) {
    if (STRESS || mutation === "ignored") {
      for (const failure of failures) out.push([mutation, failure]);
      continue;
    }
    const fresh = failures.filter((f) => !met.has(`${mutation}|${f}`));
    const [pick = ""] = [...(fresh.length ? fresh : failures)].sort((x, y) => (used.get(x) ?? 0) - (used.get(y) ?? 0));
    met.add(`${mutation}|${pick}`);
    used.set(pick, (used.get(pick) ?? 0) + 1);
    out.push([mutation, pick]);
  }
  return out;
}

/**
 * The acting rows of the b-th backend. Under STRESS, every mutation. By default `ignored` (where a
 * CLI that reports no tool events on failure differs) and two of the others, in turn across the
 * backends, so every mutation acts on at least two of them.
 */
function actingMutations(b: number): Mutation[] {
  if (STRESS) return [...MUTATIONS];
  const tracked = MUTATIONS.filter((m) => m !== "ignored");
  return ["ignored", tracked[(2 * b) % tracked.length] as Mutation, tracked[(2 * b + 1) % tracked.length] as Mutation];
}

/** first = the steered fake of the backend under test; second = a plain claude that answers. */
function configFor(backend: string, spec: BackendSpec): string {
  return `agents:
  first: { backend: ${backend}, model: ${spec.model}, command: "${STEERED_FAKE}", env: { STEER_CLI: ${backend}${spec.env ?? ""} }${spec.agent ?? ""} }
  second: { backend: claude, model: sonnet }
tiers: { light: null, standard: null, heavy: [first, second] }
allowCrossProviderFallback: true
# Zero TTLs: the matrix makes the first agent fail over and over; it must be tried every time.
cooldowns: { authSec: 0, capacitySec: 0, transportSec: 0, notInstalledSec: 0 }
`;
}

function promptFor(c: Case): string {
  if (c.kind === "clean") return `matrix ${c.id} [[scenario=${c.failure}]]`;
  if (c.kind === "silent") return `matrix ${c.id} [[scenario=${c.failure}]] [[mutate=${c.mutation}]]`;
  return `matrix ${c.id} [[scenario=edits-then-fails]] [[fake-mutation=${c.mutation}]]`;
}

type Row = [agent: string, outcome: string, fellBack: boolean, treeChanged: boolean | null | undefined];

function expected(c: Case): Row[] {
  // A clean capacity failure of a backend that re-runs shows the re-run first, not fallen back from.
  const rerun: Row[] = BACKENDS[c.backend]?.rerunsOn?.includes(c.failure) ? [["first", "unavailable", false, false]] : [];
  const fallsBack: Row[] = [...rerun, ["first", "unavailable", true, false], ["second", "ok", false, false]];
  if (c.kind === "clean") return fallsBack;
  if (c.kind === "silent") return c.mutation === "ignored" ? fallsBack : [["first", "unavailable", false, true]];
  if (c.mutation === "ignored" && BACKENDS[c.backend]?.reportsEdits === false) return fallsBack;
  return [["first", "unavailable", false, c.mutation !== "ignored"]];
}

/** agy's login file (no D-Bus here, research/cli-agy.md §6) and pi's provider in its models.json. */
function signInAgyAndPi(home: string): void {
  mkdirSync(join(home, ".gemini", "antigravity-cli"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "antigravity-cli", "antigravity-oauth-token"),
    JSON.stringify({ access_token: "ya29.fake", refresh_token: "1//fake", auth_method: "consumer" }),
  );
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  writeFileSync(
    join(home, ".pi", "agent", "models.json"),
    JSON.stringify({ providers: { fake: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "dummy", models: [{ id: "fake-model" }] } } }),
  );
}

let box: Sandbox | undefined;
const sessions: McpSession[] = [];

afterAll(async () => {
  for (const s of sessions) await s.close().catch(() => undefined);
  box?.cleanup();
});

async function runCase(s: McpSession, c: Case): Promise<{ c: Case; rows: Row[]; isError: boolean }> {
  const repo = freshRepo(join(box!.projects, c.id));
  // Staging a clean file changes nothing: give `stage` something to stage.
  if (c.mutation === "stage") writeFileSync(join(repo, "README.md"), "dirty before the run\n");
  const reply = (await s.client.callTool({ name: "route", arguments: { prompt: promptFor(c), cwd: repo, tier: "heavy" } }, undefined, {
    timeout: 120_000,
  })) as ToolReply;
  const rows = attemptsOf(reply).map((a): Row => [a.agent, a.outcome, a.fellBack, a.treeChanged]);
  return { c, rows, isError: reply.isError === true };
}

test("tree-mutation matrix: zero fallbacks after any mutation, 100% on clean fast failures", async () => {
  const started = performance.now();
  box = makeSandbox({});
  signInAgyAndPi(box.home);
  const all = cases();
  const results = await Promise.all(
    Object.entries(BACKENDS).map(async ([backend, spec]) => {
      const dir = join(box!.root, `config-${backend}`);
      mkdirSync(dir, { mode: 0o700 });
      const configPath = join(dir, "config.yaml");
      writeFileSync(configPath, configFor(backend, spec), { mode: 0o600 });
      const s = await connect({ ...box!.env, ORCHESTRATE_CONFIG: configPath });
      sessions.push(s);
      return pool(
        2,
        all.filter((c) => c.backend === backend).map((c) => () => runCase(s, c)),
      );
    }),
  );
  const flat = results.flat();
  expect(flat).toHaveLength(all.length);

  const mismatches = flat
    .filter((r) => JSON.stringify(r.rows) !== JSON.stringify(expected(r.c)))
    .map((r) => ({ id: r.c.id, got: r.rows, want: expected(r.c) }));
  expect(mismatches).toEqual([]);

  const mutated = flat.filter((r) => r.c.mutation && JSON.stringify(expected(r.c)) !== JSON.stringify(expected({ ...r.c, kind: "clean" })));
  const clean = flat.filter((r) => r.c.kind === "clean");
  const fallbacksAfterMutation = mutated.filter((r) => r.rows.some((row) => row[2])).length;
  const cleanFallbacks = clean.filter((r) => r.rows.some((row) => row[0] === "first" && row[2]) && !r.isError).length;
  expect({ fallbacksAfterMutation, cleanFallbacks }).toEqual({ fallbacksAfterMutation: 0, cleanFallbacks: clean.length });
  // A terminal attempt never reached the second agent.
  expect(mutated.every((r) => r.isError && r.rows.length === 1)).toBe(true);
  process.stderr.write(
    `[reliability] tree matrix: ${flat.length} routes (${mutated.length} mutated → 0 fallbacks; ${clean.length} clean → ${cleanFallbacks} fallbacks), ${elapsed(started)} ms\n`,
  );
}, 600_000);

/**
 * `orchestrate init` from start to finish: refuse an unsafe target before asking anything, detect
 * backends and models, ask, show the diff and every risk, confirm, write 0600 atomically, run the
 * check on what was written, offer to install the binary into ~/.local/bin, then offer client
 * registration with the installed path. A cancel anywhere writes nothing.
 */
import type { Backend } from "../backends/index.ts";
import { lstatSync } from "node:fs";
import { homeDir, type Env } from "../config/paths.ts";
import { parentProblems } from "../config/secure-read.ts";
import { writeConfigAtomic } from "../config/write.ts";
import { loadConfig } from "../config/load.ts";
import { runDoctor } from "../doctor/checks.ts";
import { formatDoctor, formatVerdict } from "../doctor/format.ts";
import { detectBackends, locateBackends, type BackendProbe } from "../doctor/detect.ts";
import { findAcpLaunches } from "./acp-launches.ts";
import { probeCachePath } from "../doctor/probe-cache.ts";
import { discoverModels } from "./models.ts";
import { prepareProposal } from "./proposal.ts";
import { clip, confirm, ui } from "./prompts.ts";
import { applyRegistration, planRegistrations } from "./registration.ts";
import { formatRisks } from "./risks.ts";
import { offerSelfInstall } from "./self-install.ts";
import { askForConfig } from "./wizard.ts";
import { stderr } from "../safety/egress.ts";

export interface InitOptions {
  path: string;
  env: Env;
  host?: Backend;
  /** How clients should start this binary (absolute paths). */
  self: string[];
  /** Where init runs (its parent is offered as the projects root); default process.cwd(). */
  cwd?: string;
}

const say = (text: string) => stderr.write(text.endsWith("\n") ? text : `${text}\n`);

/** Exit code: 0 written and valid, 1 refused, cancelled or failed. */
export async function runInit(opts: InitOptions): Promise<number> {
  const unsafe = parentProblems(opts.path);
  if (unsafe.length) {
    say(
      `✗ refusing to write ${opts.path}:\n${unsafe.map((p) => `  ${p.problem}\n  fix: ${p.fix}`).join("\n")}\nChoose a private directory (e.g. the default ~/.config/orchestrate/).`,
    );
    return 1;
  }
  const replacing = lstatSync(opts.path, { throwIfNoEntry: false }) !== undefined;
  say(
    `orchestrate setup — will write ${opts.path}${replacing ? " (it exists: replacing it; the new one starts blank, not a merge — you see the diff first)" : ""}.`,
  );
  const probes = await detectWithProgress(opts.env);
  if (probes.some((p) => p.path)) say("Reading the model lists the CLIs print…");
  const models = await discoverAll(probes, opts.env);
  const roots = { home: homeDir(opts.env), cwd: opts.cwd ?? process.cwd() };
  const acp = findAcpLaunches(opts.env);
  if (acp.length) say(`ACP agents on PATH: ${acp.map((a) => a.launch.join(" ")).join(", ")}`);
  const spec = await askForConfig({ probes, models, roots, acp, ...(opts.host ? { host: opts.host } : {}) });
  const proposal = await prepareProposal(spec, opts.path, opts.env, probes);
  if (!proposal.ok) {
    say(`✗ the answers do not make a valid config:\n${proposal.error.message}\nNothing was written.`);
    return 1;
  }
  say(`\n${proposal.value.diff}\n${formatRisks(proposal.value.risks)}`);
  // Enter keeps the work of the whole wizard: the default is to write.
  if (!(await confirm(`Write ${opts.path}?`, true))) {
    say("Nothing was written.");
    return 1;
  }
  const written = writeConfigAtomic(opts.path, proposal.value.text);
  if (!written.ok) {
    say(`✗ ${written.error.message}\n${written.error.hint ?? ""}\nNothing was written.`);
    return 1;
  }
  ui.success(`wrote ${written.value} (0600)`);
  const checked = await selfCheck(opts.path, opts.env);
  if (checked !== 0) return checked;
  const self = await offerSelfInstall({ self: opts.self, env: opts.env, ask: confirm, say });
  await offerRegistration(probes, { ...opts, self });
  return 0;
}

/**
 * Says at once which CLIs were found (resolving runs nothing), then prints each one's line as it
 * answers: the probes run in parallel, so a slow CLI (gemini's node bundle takes ~2 s to print
 * its version) no longer holds back the others' lines. The flag check (each CLI's `--help`) runs
 * after the lines, and says something only when a flag is missing; a binary seen before is read
 * from the probe cache in the state dir, so only its sign-in is checked again.
 */
async function detectWithProgress(env: Env): Promise<BackendProbe[]> {
  const located = locateBackends({ env });
  const found = located.filter((l) => l.path).map((l) => l.backend);
  const missing = located.filter((l) => !l.path).map((l) => l.backend);
  say(
    `Detecting backends… found ${found.length ? found.join(", ") : "none"}${missing.length ? `; not found: ${missing.join(", ")}` : ""}${found.length ? " — checking each (version, flags, sign-in):" : ""}`,
  );
  const lines = liveLines(located.filter((l) => l.path).map((l) => ({ backend: l.backend, text: `${l.path} · checking…` })));
  return detectBackends({
    env,
    onProbe: (p) => p.path && lines.update(p.backend, `${probeLine(p)} · checking flags…`),
    cacheFile: probeCachePath(env),
    listing: { onFlags: (p) => p.path && lines.update(p.backend, `${probeLine(p)}${p.missingFlags.length ? ` ${flagsLine(p)}` : ""}`) },
  });
}

/**
 * One line per CLI, printed at once and rewritten in place as that CLI answers (a terminal is
 * guaranteed here), so the screen shows progress from the first second instead of a static
 * "Detecting…" while the slowest CLI starts.
 */
function liveLines(rows: { backend: Backend; text: string }[]): { update(backend: Backend, text: string): void } {
  const line = (backend: Backend, text: string) => clip(`  ${backend.padEnd(8)} ${text}`);
  for (const row of rows) say(line(row.backend, row.text));
  return {
    update(backend, text) {
      const up = rows.length - rows.findIndex((r) => r.backend === backend);
      if (up > rows.length) return;
      stderr.write(`\x1b[${up}A\r\x1b[2K${line(backend, text)}\x1b[${up}B\r`);
    },
  };
}

function flagsLine(p: BackendProbe): string {
  return `⚠ \`${p.helpCommand}\` does not list ${p.missingFlags.map((m) => m.flag).join(", ")} (upgrade or reinstall it; \`orchestrate check\` says more)`;
}

function probeLine(p: BackendProbe): string {
  const ready = p.readiness === "ready" ? "signed in" : p.readiness === "not_ready" ? "NOT signed in" : "sign-in unknown";
  return `${p.path}${p.version ? ` v${p.version}` : ""} · ${ready}${p.flagsUnchecked ? ` · flags unchecked (help ${p.flagsUnchecked})` : ""}`;
}

async function discoverAll(probes: BackendProbe[], env: Env): Promise<Partial<Record<Backend, string[]>>> {
  const found = await Promise.all(
    probes
      .filter((p) => p.path)
      .map(
        async (p) =>
          [
            p.backend,
            await discoverModels({ backend: p.backend, path: p.path as string, env, ...(p.variant !== undefined ? { variant: p.variant } : {}) }),
          ] as const,
      ),
  );
  return Object.fromEntries(found);
}

/** The same hardened load the server uses, on the file just written. */
async function selfCheck(path: string, env: Env): Promise<number> {
  const loaded = await loadConfig({ env, path });
  if (!loaded.ok) {
    say(`✗ check failed on what was written: ${loaded.error.message}\n${loaded.error.hint ?? ""}`);
    return 1;
  }
  const report = await runDoctor(loaded.value, env);
  say(`orchestrate check ${path}:\n${formatDoctor(report)}${formatVerdict(path, report)}`);
  return 0;
}

async function offerRegistration(probes: BackendProbe[], opts: InitOptions): Promise<void> {
  const { plans, skipped } = planRegistrations(probes, opts.self, opts.env);
  for (const note of skipped) say(`  · ${note}`);
  for (const plan of plans) {
    say(`\nRegister with ${plan.client}? This will ${plan.describe}`);
    if (!(await confirm(`Register orchestrate with ${plan.client}?`, false))) continue;
    const done = await applyRegistration(plan, opts.env);
    say(done.ok ? `✓ ${done.value}` : `✗ ${done.error.message}`);
  }
  say(`\nRestart your MCP clients to pick up the server. Re-run the check any time: orchestrate check ${opts.path}`);
}

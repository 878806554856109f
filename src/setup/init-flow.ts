/**
 * `orchestrate init` from start to finish: refuse an unsafe target before asking anything, detect
 * backends and models, ask, show the diff and every risk, confirm, write 0600 atomically, run the
 * check on what was written, offer to install the binary into ~/.local/bin, then offer client
 * registration with the installed path. A cancel anywhere writes nothing.
 */
import type { Backend } from "../backends/index.ts";
import type { Env } from "../config/paths.ts";
import { parentProblems } from "../config/secure-read.ts";
import { writeConfigAtomic } from "../config/write.ts";
import { loadConfig } from "../config/load.ts";
import { runDoctor } from "../doctor/checks.ts";
import { formatDoctor, formatVerdict } from "../doctor/format.ts";
import { detectBackends, locateBackends, type BackendProbe } from "../doctor/detect.ts";
import { probeCachePath } from "../doctor/probe-cache.ts";
import { discoverModels } from "./models.ts";
import { prepareProposal } from "./proposal.ts";
import { confirm, ui } from "./prompts.ts";
import { applyRegistration, planRegistrations } from "./registration.ts";
import { formatRisks } from "./risks.ts";
import { offerSelfInstall } from "./self-install.ts";
import { askForConfig } from "./wizard.ts";

export interface InitOptions {
  path: string;
  env: Env;
  host?: Backend;
  /** How clients should start this binary (absolute paths). */
  self: string[];
}

const say = (text: string) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);

/** Exit code: 0 written and valid, 1 refused, cancelled or failed. */
export async function runInit(opts: InitOptions): Promise<number> {
  const unsafe = parentProblems(opts.path);
  if (unsafe.length) {
    say(`✗ refusing to write ${opts.path}:\n${unsafe.map((p) => `  ${p.problem}\n  fix: ${p.fix}`).join("\n")}\nChoose a private directory (e.g. the default ~/.config/orchestrate/).`);
    return 1;
  }
  say(`orchestrate setup — will write ${opts.path} (replacing it; it starts blank, not a merge).`);
  const probes = await detectWithProgress(opts.env);
  if (probes.some((p) => p.path)) say("Reading the model lists the CLIs print…");
  const models = await discoverAll(probes, opts.env);
  const spec = await askForConfig({ probes, models, ...(opts.host ? { host: opts.host } : {}) });
  const proposal = await prepareProposal(spec, opts.path, opts.env);
  if (!proposal.ok) {
    say(`✗ the answers do not make a valid config:\n${proposal.error.message}\nNothing was written.`);
    return 1;
  }
  say(`\n${proposal.value.diff}\n${formatRisks(proposal.value.risks)}`);
  if (!(await confirm(`Write ${opts.path}?`, false))) {
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
  say(`Detecting backends… found ${found.length ? found.join(", ") : "none"}${missing.length ? `; not found: ${missing.join(", ")}` : ""}${found.length ? " — checking each (version, flags, sign-in):" : ""}`);
  return detectBackends({
    env,
    onProbe: (p) => p.path && say(`  ${p.backend.padEnd(8)} ${probeLine(p)}`),
    cacheFile: probeCachePath(env),
    listing: { onFlags: (p) => p.missingFlags.length > 0 && say(`  ${p.backend.padEnd(8)} ${flagsLine(p)}`) },
  });
}

function flagsLine(p: BackendProbe): string {
  return `⚠ \`${p.helpCommand}\` does not list ${p.missingFlags.map((m) => m.flag).join(", ")}, which orchestrate passes (upgrade or reinstall it; \`orchestrate check\` says more)`;
}

function probeLine(p: BackendProbe): string {
  return `${p.path}${p.version ? ` v${p.version}` : ""} · ${p.readiness}${p.missingFlags.length ? ` · missing ${p.missingFlags.map((m) => m.flag).join(", ")}` : ""}`;
}

async function discoverAll(probes: BackendProbe[], env: Env): Promise<Partial<Record<Backend, string[]>>> {
  const found = await Promise.all(probes.filter((p) => p.path).map(async (p) => [p.backend, await discoverModels({ backend: p.backend, path: p.path as string, env, ...(p.variant !== undefined ? { variant: p.variant } : {}) })] as const));
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

/**
 * The risk summary derives what can never be used from the router's own planner, and with the
 * wizard's detection names agents whose CLI cannot run (issue 22); and it flags settings that let
 * code or prompts go where the person did not mean (issue 21, item 16).
 */
import { describe, expect, test } from "bun:test";
import type { BackendProbe } from "../../src/doctor/detect.ts";
import { computeRisks, formatRisks } from "../../src/setup/risks.ts";
import { zeroConfig } from "../../src/config/defaults.ts";
import { agent, configWith } from "../helpers/config.ts";

const codes = (risks: { code: string }[]) => risks.map((r) => r.code).sort();

function probe(backend: BackendProbe["backend"], extra: Partial<BackendProbe> = {}): BackendProbe {
  return {
    backend,
    command: backend,
    path: `/usr/bin/${backend}`,
    helpCommand: `${backend} --help`,
    missingFlags: [],
    readiness: "ready",
    problems: [],
    ...extra,
  };
}

/** A probe of a CLI that was not found: it has no path. */
function notFound(backend: BackendProbe["backend"], extra: Partial<BackendProbe>): BackendProbe {
  const { path: _path, ...probed } = probe(backend, extra);
  return probed;
}

describe("entries route can never use", () => {
  // light → standard → heavy, each on another provider, crossing answered No: every fallback is dead.
  const crossing = configWith([agent("l", "codex"), agent("s", "claude"), agent("h", "gemini")], {
    tiers: { light: ["l"], standard: ["s"], heavy: ["h"] },
    fallbacks: { light: "standard", standard: "heavy" },
    allowCrossProviderFallback: false,
  });

  test("a fallback that crosses providers with consent off is named, with both fixes", () => {
    const risks = computeRisks(crossing).filter((r) => r.code === "fallback_never_used");
    expect(risks.map((r) => r.message)).toEqual([
      "light: the fallback to s (standard tier, provider anthropic) can never be used — it would cross from provider openai and cross-provider fallback is off (fix: allow it with allowCrossProviderFallback: true, or fall back to a tier on openai)",
      "light: the fallback to h (heavy tier, provider google) can never be used — it would cross from provider openai and cross-provider fallback is off (fix: allow it with allowCrossProviderFallback: true, or fall back to a tier on openai)",
      "standard: the fallback to h (heavy tier, provider google) can never be used — it would cross from provider anthropic and cross-provider fallback is off (fix: allow it with allowCrossProviderFallback: true, or fall back to a tier on anthropic)",
    ]);
    expect(formatRisks(computeRisks(crossing))).not.toContain("none found");
  });

  test("with consent on, or on the same provider, no fallback is dead", () => {
    expect(codes(computeRisks({ ...crossing, allowCrossProviderFallback: true }))).toEqual(["cross_provider_fallback"]);
    const same = configWith([agent("a", "codex"), agent("b", "codex", { model: "m-2" })], {
      tiers: { light: ["a"], standard: ["b"], heavy: null },
      fallbacks: { light: "standard" },
    });
    expect(computeRisks(same)).toEqual([]);
  });

  test("with the wizard's detection, an agent whose CLI is signed out or not installed is named with its fix", () => {
    const config = configWith([agent("l", "codex"), agent("s", "claude")], { tiers: { light: ["l"], standard: ["s"], heavy: null } });
    const probes = [
      probe("codex", { readiness: "not_ready", problems: [{ problem: "codex is installed but not signed in", hint: "sign in: codex login", blocks: true }] }),
      notFound("claude", {
        problems: [{ problem: "claude: claude was not found on PATH or in the usual install locations", hint: "install claude", blocks: true }],
      }),
    ];
    const messages = computeRisks(config, { probes }).map((r) => r.message);
    expect(messages).toContain("l cannot be used as things stand: codex is installed but not signed in (fix: sign in: codex login)");
    expect(messages).toContain(
      "s cannot be used as things stand: claude: claude was not found on PATH or in the usual install locations (fix: install claude)",
    );
    // A probe that only timed out is no verdict.
    const slow = [probe("codex", { problems: [{ problem: "`codex exec --help` timed out after 8 s", hint: "run it again", blocks: false }] }), probe("claude")];
    expect(computeRisks(config, { probes: slow })).toEqual([]);
  });
});

describe("settings that load code or send prompts elsewhere (issue 21, item 16)", () => {
  test("env overrides that load code", () => {
    for (const name of ["NODE_OPTIONS", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES"]) {
      const risks = computeRisks(configWith([agent("a", "codex", { env: { [name]: "--require /tmp/x.js" } })]));
      expect(risks.map((r) => r.code)).toEqual(["env_loads_code"]);
      expect(risks[0]?.message).toContain(`a: env ${name} makes the CLI load code`);
    }
  });

  test("a foreign base URL names only its host, never the rest of the URL", () => {
    const risks = computeRisks(configWith([agent("a", "claude", { env: { ANTHROPIC_BASE_URL: "https://user:hunter2@proxy.example:8443/v1" } })]));
    expect(codes(risks)).toEqual(["foreign_base_url"]);
    expect(risks[0]?.message).toContain("to proxy.example:8443 instead of its provider's own servers");
    expect(risks[0]?.message).not.toContain("hunter2");
  });

  test("a command: that is not the backend's own CLI", () => {
    expect(codes(computeRisks(configWith([agent("a", "codex", { command: "/tmp/evil/run.sh" })])))).toEqual(["nonstandard_command"]);
    expect(computeRisks(configWith([agent("a", "codex", { command: "/opt/homebrew/bin/codex" })]))).toEqual([]);
  });

  test("roots: ~ (the whole home) and a root above it", () => {
    const env = { HOME: "/home/u" };
    expect(codes(computeRisks(configWith([], { roots: ["/home/u"] }), { env }))).toEqual(["root_is_home"]);
    expect(codes(computeRisks(configWith([], { roots: ["/home"] }), { env }))).toEqual(["root_is_home"]);
    expect(computeRisks(configWith([], { roots: ["/home/u/Projects"] }), { env })).toEqual([]);
  });

  test("zero cooldowns", () => {
    const risks = computeRisks(configWith([], { cooldowns: { ...zeroConfig().cooldowns, authSec: 0 } }));
    expect(codes(risks)).toEqual(["cooldowns_off"]);
    expect(risks[0]?.message).toContain("cooldowns authSec is 0");
  });
});

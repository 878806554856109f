/** The pure pieces of setup: version and flag reading, model lists, diff, risks, scores. */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareVersions, missingFlags, versionFrom } from "../../src/doctor/detect.ts";
import { adapters } from "../../src/backends/index.ts";

const listedIds = (backend: "opencode" | "grok", stdout: string) => adapters[backend].models?.read(stdout);
const codexCatalog = (stdout: string) => adapters.codex.models?.read(stdout);
import { lineDiff } from "../../src/setup/diff.ts";
import { computeRisks } from "../../src/setup/risks.ts";
import { parseScores } from "../../src/setup/wizard.ts";
import { agent, configWith } from "../helpers/config.ts";

describe("detect helpers", () => {
  test.each([
    ["codex-cli 0.171.0", "0.171.0"],
    ["2.1.332 (Claude Code)", "2.1.332"],
    ["GitHub Copilot CLI 1.0.102.", "1.0.102"],
    ["grok 0.1.0 (Grok Build)", "0.1.0"],
    ["\x1b[1m1.18.33\x1b[0m", "1.18.33"],
  ])("versionFrom(%p) = %p", (text, version) => expect(versionFrom(text)).toBe(version));

  test("a flag counts only as a word of its own", () => {
    const spec = {
      version: [],
      help: [],
      loginHint: "",
      requiredFlags: [
        { flag: "--pure", since: "1" },
        { flag: "--dir", since: "1" },
        { flag: "--model", since: "1" },
      ],
    };
    expect(missingFlags("  --purely  x\n  -m, --model <m>\n      --directory", spec).map((m) => m.flag)).toEqual(["--pure", "--dir"]);
  });

  test("compareVersions is numeric", () => {
    expect(compareVersions("1.18.33", "1.18.9")).toBe(1);
    expect(compareVersions("0.171.0", "0.171.0")).toBe(0);
    expect(compareVersions("2.1.197", "2.1.332")).toBe(-1);
  });
});

describe("model lists (untrusted)", () => {
  test("opencode: one provider/model per line; noise is dropped", () => {
    expect(listedIds("opencode", "opencode/big-pickle\nanthropic/claude-x\nWarning: something here\n")).toEqual(["opencode/big-pickle", "anthropic/claude-x"]);
  });
  test("grok: indented ids under a header", () => {
    expect(listedIds("grok", "Signed in to xAI.\nDefault model: grok-code-fast-1\n  grok-4\n  grok-3-mini\n")).toEqual(["grok-4", "grok-3-mini"]);
  });
  test("codex: the catalog's listed slugs, hidden ones skipped, garbage → nothing", () => {
    expect(
      codexCatalog(
        JSON.stringify({
          models: [
            { slug: "gpt-5.5", visibility: "list" },
            { slug: "secret", visibility: "hide" },
          ],
        }),
      ),
    ).toEqual(["gpt-5.5"]);
    expect(codexCatalog("not json")).toEqual([]);
  });
});

describe("lineDiff", () => {
  test("marks removed, added and kept lines", () => {
    expect(lineDiff("a\nb\nc\n", "a\nx\nc\n", { before: "old", after: "new" })).toBe("--- old\n+++ new\n a\n-b\n+x\n c\n");
    expect(lineDiff("same\n", "same\n")).toBe("(no changes)\n");
  });
});

describe("computeRisks", () => {
  test("flags every risky setting by code", () => {
    const config = configWith(
      [
        agent("x", "codex", { options: { sandbox: "danger-full-access" } }),
        agent("y", "claude", { options: { permissionMode: "bypassPermissions", allowedTools: ["WebFetch", "Bash(git status)"] } }),
        agent("z", "opencode", { model: "openrouter/some/model", aggregator: true }),
      ],
      { allowCrossProviderFallback: true, fallbacks: { heavy: "standard" }, maxDepth: 2 },
    );
    expect(
      computeRisks(config)
        .map((r) => r.code)
        .sort(),
    ).toEqual(["aggregator", "bash_allow_rule", "bypass_permissions", "cross_provider_fallback", "danger_full_access", "deep_delegation"]);
    expect(computeRisks(configWith([agent("ok", "claude", { options: { allowedTools: ["Read(./docs/**)"] } })]))).toEqual([]);
  });

  test("a config directory others can write is a risk", () => {
    const dir = mkdtempSync(join(tmpdir(), "risk-"));
    const shared = join(dir, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    try {
      expect(computeRisks(configWith([]), { targetPath: join(shared, "config.yaml") }).map((r) => r.code)).toEqual(["shared_config_dir"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("parseScores keeps name=0..100 pairs and names every other part as the problem", () => {
  const parsed = parseScores("coding=90, review:80, bad, web=101, x=");
  expect(parsed.scores).toEqual({ coding: 90, review: 80 });
  expect(parsed.problem).toContain('not a score: "bad", "web=101", "x="');
  expect(parseScores("banana").problem).toContain('"banana"');
  expect(parseScores("")).toEqual({ scores: {} });
  expect(parseScores("coding=90,")).toEqual({ scores: { coding: 90 } });
});

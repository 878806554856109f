/**
 * A help probe that answers slowly (issue 22: on a loaded 2-core machine `opencode run --help`
 * timed out and check said every flag was missing, "upgrade opencode to 1.18.33", with 1.18.33
 * installed). A probe that times out is tried once more with twice the time; one that never
 * answers says "timed out after N s" and leaves the flags unchecked, never missing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN_DIR, FAKES_DIR, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { loadConfig } from "../../src/config/load.ts";
import { runDoctor } from "../../src/doctor/checks.ts";
import { formatDoctor, formatVerdict } from "../../src/doctor/format.ts";
import { probeCachePath } from "../../src/doctor/probe-cache.ts";
import { usualLocationSandbox } from "../setup/helpers.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

/** codex whose `exec --help` sleeps `seconds` first — every time, or only the first time. */
function slowHelp(s: Sandbox, seconds: number, onlyFirst: boolean): void {
  const marker = join(s.root, "help-seen");
  const wait = onlyFirst ? `if [ ! -e ${marker} ]; then : > ${marker}; sleep ${seconds}; fi` : `sleep ${seconds}`;
  writeFileSync(
    join(s.home, ".local", "bin", "codex"),
    `#!/bin/sh\nif [ "$1 $2" = "exec --help" ]; then ${wait}; fi\nexec ${join(BUN_DIR, "bun")} ${join(FAKES_DIR, "codex")} "$@"\n`,
  );
  chmodSync(join(s.home, ".local", "bin", "codex"), 0o755);
}

async function doctor(s: Sandbox) {
  s.writeConfig("agents:\n  c: { backend: codex, model: gpt-5.5 }\ntiers: { light: [c], standard: null, heavy: null }\n");
  const config = await loadConfig({ env: s.env });
  if (!config.ok) throw new Error(config.error.message);
  const report = await runDoctor(config.value, s.env, { probeTimeoutMs: 1000 });
  return { report, text: formatDoctor(report) + formatVerdict("config.yaml", report), codex: report.clis.find((c) => c.backend === "codex") };
}

describe("a slow help probe", () => {
  test("that never answers in time says timed out, retried with twice the limit, and no flag is called missing", async () => {
    box = usualLocationSandbox(["codex"]);
    slowHelp(box, 30, false);
    const { text, codex } = await doctor(box);
    expect(codex?.missingFlags).toEqual([]);
    expect(codex?.flagsUnchecked).toBe("timed out after 1 s, and again after 2 s");
    expect(text).toContain("`codex exec --help` timed out after 1 s, and again after 2 s, so its flags are unchecked (not missing)");
    expect(text).toContain("flags unchecked (help timed out after 1 s, and again after 2 s)");
    expect(text).not.toContain("does not list");
    expect(text).not.toContain("upgrade");
    // No verdict on the CLI, so nothing blocks: check exits 0 with the warning shown.
    expect(text).toContain("valid, 1 problem (none blocks an agent)");
    // What was not read completely is not cached: the next check asks again.
    expect(existsSync(probeCachePath(box.env)) ? readFileSync(probeCachePath(box.env), "utf8") : "").not.toContain("codex");
  }, 60_000);

  test("that answers on the retry is read normally", async () => {
    box = usualLocationSandbox(["codex"]);
    slowHelp(box, 30, true);
    const { text, codex } = await doctor(box);
    expect(codex?.missingFlags).toEqual([]);
    expect(codex?.flagsUnchecked).toBeUndefined();
    expect(text).toContain("flags ok");
    expect(text).toContain("valid, no problems");
  }, 60_000);
});

/** The wizard offers the ACP agents found on PATH from its bundled list, and each pick is a valid agent. */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateConfigObject } from "../../src/config/validate.ts";
import { findAcpLaunches } from "../../src/setup/acp-launches.ts";
import { acpSpec, tierChoices } from "../../src/setup/wizard-agents.ts";

const bin = mkdtempSync(join(tmpdir(), "acp-launches-"));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
for (const name of ["qwen", "claude-agent-acp"]) {
  writeFileSync(join(bin, name), "#!/bin/sh\nexit 0\n");
  chmodSync(join(bin, name), 0o755);
}
// Present but not executable: never offered.
writeFileSync(join(bin, "codex-acp"), "");
const env = { PATH: bin, HOME: join(bin, "home") };

describe("ACP launches in setup", () => {
  test("only the known launches whose executable is on PATH are found", () => {
    const found = findAcpLaunches(env);
    expect(found.map((f) => [f.executable, f.path])).toEqual([
      ["claude-agent-acp", join(bin, "claude-agent-acp")],
      ["qwen", join(bin, "qwen")],
    ]);
  });

  test("they are offered beside the headless CLIs, named by their launch", () => {
    const choices = tierChoices({ value: "done", label: "Done" }, [], findAcpLaunches(env));
    expect(choices.map((c) => c.label)).toEqual(["Done", "Claude over ACP (claude-agent-acp)", "Qwen Code (qwen --acp)"]);
  });

  test("each pick becomes an agent the config accepts: a backend over ACP, or a generic agent from its launch", () => {
    const [claude, qwen] = findAcpLaunches(env);
    if (!claude || !qwen) throw new Error("launches missing");
    const agents = { a: acpSpec(claude, "sonnet"), q: acpSpec(qwen, undefined) };
    const result = validateConfigObject({ agents, tiers: { light: null, standard: null, heavy: ["a", "q"] } }, { format: "yaml" }, env);
    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.value.config.agents.a).toMatchObject({ backend: "claude", transport: "acp", model: "sonnet" });
    expect(result.value.config.agents.q).toMatchObject({ backend: "acp", transport: "acp", command: "qwen", commandArgs: ["--acp"], provider: "qwen" });
  });
});

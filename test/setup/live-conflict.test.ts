/** init/import never shadow a live config without saying so (issue 23 §1). */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { defaultConfigPath } from "../../src/config/paths.ts";
import { liveConflict } from "../../src/setup/target.ts";
import { privateDir, writeConfig } from "../config/helpers.ts";

const SEED = "consult:\n  agents:\n    c: { runtime: codex, model: gpt-5.5, scores: { coding: 90 } }\n";

describe("liveConflict", () => {
  test("writing orchestrate's default over Orchestrator MCP's ~/.orchestrator-mcp/config.yaml would shadow it", () => {
    const home = privateDir();
    const seed = writeConfig(join(home, ".orchestrator-mcp"), "config.yaml", SEED);
    const target = defaultConfigPath({ HOME: home });
    const conflict = liveConflict({ HOME: home }, target, privateDir());
    expect(conflict?.live.path).toBe(seed);
    expect(conflict?.message).toBe(
      `The server reads ${seed} today (Orchestrator MCP's init location). Writing ${target} would shadow it: from then on the server reads ${target}, and ${seed} — with whatever tools it turns on — is ignored.`,
    );
  });

  test("writing the default while ORCHESTRATOR_CONFIG names the live file: the new file would be ignored", () => {
    const home = privateDir();
    const seed = writeConfig(privateDir(), "config.yaml", SEED);
    const target = defaultConfigPath({ HOME: home });
    expect(liveConflict({ HOME: home, ORCHESTRATOR_CONFIG: seed }, target)?.message).toBe(
      `The server reads ${seed} (ORCHESTRATOR_CONFIG), not ${target}: a config written there has no effect while ORCHESTRATOR_CONFIG is set.`,
    );
  });

  test("no conflict when the target is the live file, or when nothing is live", () => {
    const home = privateDir();
    const live = writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    expect(liveConflict({ HOME: home }, live, privateDir())).toBeUndefined();
    expect(liveConflict({ HOME: privateDir() }, defaultConfigPath({ HOME: home }), privateDir())).toBeUndefined();
  });
});

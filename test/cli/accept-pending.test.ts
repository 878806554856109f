/** accept-pending: a human at a real terminal is the only way a staged config goes live. */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { usualLocationSandbox } from "../setup/helpers.ts";
import { KEY, spawnPty, type PtySession } from "../setup/pty.ts";

let box: Sandbox | undefined;
let term: PtySession | undefined;

afterEach(() => {
  term?.kill();
  term = undefined;
  box?.cleanup();
  box = undefined;
});

const LIVE = "agents:\n  a:\n    backend: opencode\n    model: opencode/big-pickle\ntiers:\n  light: [a]\n";
const STAGED = "agents:\n  b:\n    backend: claude\n    model: opus\n    permissionMode: bypassPermissions\ntiers:\n  heavy: [b]\n";

function staged(): Sandbox {
  const b = usualLocationSandbox(["opencode"]);
  b.writeConfig(LIVE);
  writeFileSync(`${b.configPath}.pending`, STAGED, { mode: 0o600 });
  chmodSync(`${b.configPath}.pending`, 0o600);
  return b;
}

describe("orchestrate accept-pending", () => {
  test("refuses without a terminal and changes nothing", async () => {
    box = staged();
    const out = await runCliInProcess(["accept-pending"], box.env, "y\n");
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("needs a terminal");
    expect(readFileSync(box.configPath, "utf8")).toBe(LIVE);
    expect(existsSync(`${box.configPath}.pending`)).toBe(true);
  }, 60_000);

  test("at a terminal it shows diff and risks, and promotes on yes (0600, staged file removed)", async () => {
    box = staged();
    term = spawnPty(["--accept-pending"], box.env);
    await term.expect("+    permissionMode: bypassPermissions");
    await term.expect("bypassPermissions means no sandbox");
    await term.expect("Replace");
    term.send("y\r");
    expect(await term.exited).toBe(0);
    expect(readFileSync(box.configPath, "utf8")).toBe(STAGED);
    expect(statSync(box.configPath).mode & 0o777).toBe(0o600);
    expect(existsSync(`${box.configPath}.pending`)).toBe(false);
  }, 60_000);

  test("Ctrl-C leaves the live file and the staged file as they were", async () => {
    box = staged();
    term = spawnPty(["accept-pending", box.configPath], box.env);
    await term.expect("Replace");
    term.send(KEY.ctrlC);
    // 130: interrupted, as src/cli/exit-codes.ts and README's exit codes say.
    expect(await term.exited).toBe(130);
    expect(readFileSync(box.configPath, "utf8")).toBe(LIVE);
    expect(readFileSync(`${box.configPath}.pending`, "utf8")).toBe(STAGED);
  }, 60_000);

  test("nothing staged: says so", async () => {
    box = usualLocationSandbox(["opencode"]);
    box.writeConfig(LIVE);
    term = spawnPty(["accept-pending"], box.env);
    expect(await term.exited).toBe(1);
    expect(term.screen()).toContain("nothing is staged");
  }, 60_000);
});

/**
 * The init wizard driven through a real pseudo-terminal, keystroke by keystroke, the way a person
 * runs it: a working config, a cancel that writes nothing, a refused world-writable parent.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { orchestrate, usualLocationSandbox } from "./helpers.ts";
import { KEY, spawnPty, type PtySession } from "./pty.ts";

let box: Sandbox | undefined;
let term: PtySession | undefined;

afterEach(() => {
  term?.kill();
  term = undefined;
  box?.cleanup();
  box = undefined;
});

/** light = opencode with the first listed model; standard and heavy left unconfigured. */
async function answerUpToTheDiff(t: PtySession): Promise<void> {
  await t.expect("light tier — which backend");
  t.send(KEY.down);
  await t.expect("● 2. opencode");
  t.send(KEY.enter);
  await t.expect("Model for opencode");
  await t.expect("Type another model id");
  t.send(KEY.enter);
  await t.expect("add entry 2");
  t.send(KEY.enter);
  await t.expect("standard tier — which backend");
  t.send(KEY.enter);
  await t.expect("heavy tier — which backend");
  t.send(KEY.enter);
  await t.expect("capability slot");
  t.send("n\r");
  await t.expect("consult");
  t.send("n\r");
  await t.expect("Where do your projects live?");
  t.send(KEY.enter);
}

describe("orchestrate init (through a pty)", () => {
  test("every answer pasted in one write before the first question: none is lost, a bad score is said and asked again, Enter writes", async () => {
    box = usualLocationSandbox(["opencode"], { FAKE_MODELS: "opencode/big-pickle" });
    mkdirSync(join(box.home, "work"));
    term = spawnPty(["init", "--host", "claude"], box.env);
    // light: opencode (2), "Type another model id" (2) then the id; done (1); standard and heavy
    // left unconfigured (1, 1); no capability slot; consult scores yes: "banana" (refused), then a
    // real one; roots typed by label; and Enter at "Write?". Lines end in \n, \r\n and \r alike.
    term.send("2\n2\nopencode/my-model\r\n1\n1\r1\nn\ny\nbanana\ncoding=90\nType directories\n~/work\n\n");
    await term.expect('not a score: "banana"');
    await term.expect("✔ Scores for light-opencode");
    await term.expect(`Write ${box.configPath}? (Y/n)`);
    await term.expect(": valid");
    await term.expect("Register orchestrate with opencode?");
    term.send("n\r");
    expect(await term.exited).toBe(0);
    const written = Bun.YAML.parse(readFileSync(box.configPath, "utf8")) as {
      agents: Record<string, { model: string; scores?: Record<string, number> }>;
      roots?: string[];
    };
    expect(written.agents["light-opencode"]?.model).toBe("opencode/my-model");
    expect(written.agents["light-opencode"]?.scores).toEqual({ coding: 90 });
    expect(written.roots).toEqual(["~/work"]);
    expect(term.screen()).not.toContain("undefined");
    // No file was there, so nothing is said to be replaced.
    expect(term.screen()).not.toContain("replacing");
  }, 60_000);

  test("an empty model id is said and asked again, never echoed as undefined", async () => {
    box = usualLocationSandbox(["claude"]);
    term = spawnPty(["init", "--host", "codex"], box.env);
    await term.expect("light tier — which backend");
    term.send("2\n");
    // claude lists no models: its documented aliases are offered.
    await term.expect("Model for claude (aliases and ids claude documents)");
    await term.expect("● 1. opus");
    term.send("4\n\n");
    await term.expect("a model is needed: orchestrate never picks one for you");
    term.send("sonnet\n");
    await term.expect("✔ Model id for claude");
    expect(term.screen()).not.toContain("undefined");
    term.send(KEY.ctrlC);
    expect(await term.exited).toBe(1);
  }, 60_000);

  test("writes a working 0600 config, self-checks it, registers with opencode; check then exits 0", async () => {
    box = usualLocationSandbox(["opencode"], { FAKE_MODELS: "opencode/big-pickle,anthropic/claude-x" });
    term = spawnPty(["init", "--host", "claude"], box.env);
    await answerUpToTheDiff(term);
    await term.expect("+    model: opencode/big-pickle");
    await term.expect(`Write ${box.configPath}? (Y/n)`);
    term.send("y\r");
    await term.expect(": valid");
    await term.expect("Register orchestrate with opencode?");
    term.send("y\r");
    expect(await term.exited).toBe(0);
    expect(statSync(box.configPath).mode & 0o777).toBe(0o600);
    const written = readFileSync(box.configPath, "utf8");
    expect(written).toContain("model: opencode/big-pickle");
    expect(written).toContain("runtime: claude");
    const check = await orchestrate(["check", box.configPath], box.env);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("light    light-opencode");
    const opencodeJson = JSON.parse(readFileSync(join(box.home, ".config", "opencode", "opencode.json"), "utf8"));
    expect(opencodeJson.mcp.orchestrate.type).toBe("local");
    expect(opencodeJson.mcp.orchestrate.command[0]).toMatch(/^\//);
  }, 60_000);

  test("Ctrl-C at the final confirmation writes nothing", async () => {
    box = usualLocationSandbox(["opencode"], { FAKE_MODELS: "opencode/big-pickle" });
    term = spawnPty(["init", "--host", "claude"], box.env);
    await answerUpToTheDiff(term);
    await term.expect(`Write ${box.configPath}?`);
    term.send(KEY.ctrlC);
    await term.expect("Cancelled — nothing was written.");
    expect(await term.exited).toBe(1);
    expect(existsSync(box.configPath)).toBe(false);
  }, 60_000);

  test("Ctrl-C at the first prompt writes nothing", async () => {
    box = usualLocationSandbox(["opencode"]);
    term = spawnPty(["init"], box.env);
    await term.expect("light tier — which backend");
    term.send(KEY.ctrlC);
    expect(await term.exited).toBe(1);
    expect(term.screen()).toContain("nothing was written");
    expect(existsSync(box.configPath)).toBe(false);
  }, 60_000);

  test("a world-writable parent directory is refused before any question", async () => {
    box = usualLocationSandbox(["opencode"]);
    const shared = join(box.root, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const target = join(shared, "config.yaml");
    term = spawnPty(["init", target], box.env);
    expect(await term.exited).toBe(1);
    expect(term.screen()).toContain(`refusing to write ${target}`);
    expect(term.screen()).toContain("chmod go-w");
    expect(term.screen()).not.toContain("light tier");
    expect(existsSync(target)).toBe(false);
  }, 60_000);

  test("without a terminal it refuses and writes nothing", async () => {
    box = usualLocationSandbox(["opencode"]);
    const out = await orchestrate(["--init"], box.env, "");
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("needs a terminal");
    expect(existsSync(box.configPath)).toBe(false);
  }, 60_000);
});

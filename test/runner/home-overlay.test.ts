/**
 * The private home a backend's HomeOverlay asks for (gemini's general.maxAttempts): links to the
 * person's own files, only the settings file replaced, nothing of the person's written, gone after.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HomeOverlay, Json } from "../../src/backends/contract.ts";
import { buildHomeOverlay, withoutComments } from "../../src/runner/home-overlay.ts";

const base = mkdtempSync(join(tmpdir(), "overlay-test-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function person(settings?: string): string {
  const home = mkdtempSync(join(base, "home-"));
  mkdirSync(join(home, ".gemini", "extensions", "ext"), { recursive: true });
  writeFileSync(join(home, ".gemini", "oauth_creds.json"), '{"token":"secret"}');
  writeFileSync(join(home, ".gemini", "trustedFolders.json"), '{"/elsewhere":"TRUST_FOLDER"}');
  if (settings !== undefined) writeFileSync(join(home, ".gemini", "settings.json"), settings);
  return home;
}

const cap = (s: Json): Json => ({ ...s, general: { maxAttempts: 2 } });
const spec = (root: string): HomeOverlay => ({
  envVar: "GEMINI_CLI_HOME",
  root,
  entries: [".gemini", ".agents"],
  settings: { ".gemini/settings.json": cap },
  keep: [".gemini/tmp", ".gemini/history"],
});

describe("home overlay", () => {
  test("every entry is a link to the person's own, the settings file is theirs adjusted, and it is all gone after", () => {
    const home = person('{ // mine\n "security": { "auth": { "selectedType": "oauth-personal" } }, "url": "http://x//y" }');
    const before = readFileSync(join(home, ".gemini", "settings.json"), "utf8");
    const built = buildHomeOverlay(spec(home), base);
    if (!built) throw new Error("no overlay");
    const copy = join(built.dir, ".gemini");
    expect(lstatSync(built.dir).mode & 0o777).toBe(0o700);
    for (const name of ["oauth_creds.json", "trustedFolders.json", "extensions", "tmp", "history"])
      expect(readlinkSync(join(copy, name))).toBe(join(home, ".gemini", name));
    expect(JSON.parse(readFileSync(join(copy, "settings.json"), "utf8"))).toEqual({
      security: { auth: { selectedType: "oauth-personal" } },
      url: "http://x//y",
      general: { maxAttempts: 2 },
    });
    expect(lstatSync(join(copy, "settings.json")).mode & 0o777).toBe(0o600);
    // .agents does not exist for this person: nothing is invented for it.
    expect(existsSync(join(built.dir, ".agents"))).toBe(false);
    // What the CLI writes into a kept directory lands in the person's home.
    writeFileSync(join(copy, "tmp", "session.jsonl"), "{}\n");
    built.remove();
    expect(existsSync(built.dir)).toBe(false);
    expect(readFileSync(join(home, ".gemini", "tmp", "session.jsonl"), "utf8")).toBe("{}\n");
    expect(readFileSync(join(home, ".gemini", "settings.json"), "utf8")).toBe(before);
    expect(readdirSync(join(home, ".gemini")).sort()).toEqual(["extensions", "history", "oauth_creds.json", "settings.json", "tmp", "trustedFolders.json"]);
  });

  test("no settings file reads as {}; a file that is not JSON means no overlay at all", () => {
    const fresh = buildHomeOverlay(spec(person()), base);
    expect(fresh && JSON.parse(readFileSync(join(fresh.dir, ".gemini", "settings.json"), "utf8"))).toEqual({ general: { maxAttempts: 2 } });
    fresh?.remove();
    expect(buildHomeOverlay(spec(person("{ not json")), base)).toBeUndefined();
    expect(readdirSync(base).filter((f) => f.startsWith("orchestrate-overlay-"))).toEqual([]);
  });

  test("comments go, strings that look like comments stay", () => {
    expect(JSON.parse(withoutComments('{ "a": "x // y", /* b */ "c": "/* z */" } // end'))).toEqual({ a: "x // y", c: "/* z */" });
  });
});

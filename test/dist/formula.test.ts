/** Rendering Formula/orchestrate.rb from SHA256SUMS: checksums carried over exactly, gaps refused. */
import { describe, expect, test } from "bun:test";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseSums, renderFormula, UNIX_TARGETS } from "../../build/formula.ts";
import { formulaPairs, ROOT, run, tmp } from "./support.ts";

function fakeSums(): Map<string, string> {
  // Distinct per file, so a swapped url/sha256 pair would show.
  return new Map(UNIX_TARGETS.map((t, i) => [t.file, String(i + 1).repeat(64)]));
}

describe("parseSums", () => {
  test("reads sha256sum text and binary-mode lines and ignores anything else", () => {
    const a = "a".repeat(64);
    const b = "b".repeat(64);
    const sums = parseSums(`${a}  orchestrate-linux-x64\n${b} *orchestrate-darwin-arm64\nnot a line\n${"c".repeat(63)}  short\n`);
    expect([...sums]).toEqual([
      ["orchestrate-linux-x64", a],
      ["orchestrate-darwin-arm64", b],
    ]);
  });
});

describe("renderFormula", () => {
  test("each platform block carries its own binary's url and sha256", () => {
    const sums = fakeSums();
    const rendered = renderFormula({ version: "1.2.3", sums });
    if (!rendered.ok) throw new Error(rendered.error.message);
    const pairs = formulaPairs(rendered.value);
    expect(pairs.size).toBe(4);
    for (const t of UNIX_TARGETS) {
      expect(pairs.get(`https://github.com/orchestrate-dev/orchestrate/releases/download/v1.2.3/${t.file}`)).toBe(sums.get(t.file) ?? "");
      // The pair sits inside the right on_macos/on_linux × on_arm/on_intel nesting.
      const osBlock = rendered.value.split(`\n  ${t.brewOs} do\n`)[1]?.split("\n  end\n")[0] ?? "";
      expect(osBlock).toContain(`    ${t.brewArch} do\n      url "https://github.com/orchestrate-dev/orchestrate/releases/download/v1.2.3/${t.file}"`);
    }
    expect(rendered.value).toContain('version "1.2.3"');
    expect(rendered.value).toContain('bin.install "orchestrate-#{os}-#{arch}" => "orchestrate"');
    expect(rendered.value).toContain("orchestrate init");
    expect(rendered.value).toContain('assert_match "serverInfo"');
  });

  test("a SHA256SUMS missing a platform is refused, naming it", () => {
    const sums = fakeSums();
    sums.delete("orchestrate-linux-arm64");
    const rendered = renderFormula({ version: "1.2.3", sums });
    expect(rendered.ok).toBe(false);
    if (!rendered.ok) expect(rendered.error.message).toContain("orchestrate-linux-arm64");
  });

  test("a version that is not plain semver never reaches the Ruby source", () => {
    const rendered = renderFormula({ version: '1.0"; system("x', sums: fakeSums() });
    expect(rendered.ok).toBe(false);
  });

  test("the download base is overridable", () => {
    const rendered = renderFormula({ version: "1.2.3", sums: fakeSums(), baseUrl: "https://example.test/rel/" });
    expect(rendered.ok && rendered.value).toContain('url "https://example.test/rel/v1.2.3/orchestrate-linux-x64"');
  });
});

describe("build/formula.ts", () => {
  test.skipIf(!Bun.which("ruby"))("renders a file that ruby -c accepts", async () => {
    const dir = await tmp("formula");
    const sums = [...fakeSums()].map(([f, h]) => `${h}  ${f}`).join("\n");
    await writeFile(join(dir, "SHA256SUMS"), `${sums}\n`);
    const out = join(dir, "orchestrate.rb");
    const res = await run([process.execPath, join(ROOT, "build/formula.ts"), "--sums", join(dir, "SHA256SUMS"), "--version", "0.9.0", "--out", out]);
    expect(res.code).toBe(0);
    const check = await run(["ruby", "-c", out]);
    expect(check.stdout).toContain("Syntax OK");
    expect([...formulaPairs(await Bun.file(out).text()).values()].sort()).toEqual([...fakeSums().values()].sort());
    await rm(dir, { recursive: true, force: true });
  });

  test("refuses when SHA256SUMS is absent", async () => {
    const dir = await tmp("formula-none");
    const res = await run([process.execPath, join(ROOT, "build/formula.ts"), "--sums", join(dir, "SHA256SUMS"), "--out", join(dir, "o.rb")]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("run npm run build:all first");
    expect(await Bun.file(join(dir, "o.rb")).exists()).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });
});

/**
 * `build:all`: every release target compiles (cross targets with Bun runtimes taken from the npm
 * registry), each binary is the right executable format with the bundle embedded, SHA256SUMS matches
 * them all, and the formula rendered from it parses and carries the same checksums.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { ALL_TARGETS, binaryName, hostTarget, runtimePackage, runtimePath, targetName, type Target } from "../../build/compile.ts";
import { parseSums, UNIX_TARGETS } from "../../build/formula.ts";
import { compile, formulaPairs, isolatedEnv, run, tmp, VERSION } from "./support.ts";

const host = hostTarget();
const cross = ALL_TARGETS.filter((t) => !host || targetName(t) !== targetName(host));

/** Why the cross build cannot run here, or null when every runtime is cached or the registry answers. */
async function unavailable(): Promise<string | null> {
  const cached = await Promise.all(
    cross.map((t) =>
      stat(runtimePath(t)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (cached.every(Boolean)) return null;
  const probe = cross[0];
  if (!probe) return null;
  const res = await run(["npm", "view", `${runtimePackage(probe)}@${Bun.version}`, "version", "--fetch-retries=0", "--fetch-timeout=15000"]);
  if (res.code === 0 && res.stdout.trim() === Bun.version) return null;
  return `cross runtimes not cached and ${runtimePackage(probe)}@${Bun.version} not reachable on the npm registry`;
}

const reason = Bun.which("npm") ? await unavailable() : "npm is not on PATH to fetch the cross runtimes";
if (reason) process.stderr.write(`skipping the all-targets build: ${reason}\n`);

describe.skipIf(reason !== null)(`build:all${reason ? ` (skipped: ${reason})` : ""}`, () => {
  let out = "";
  let formulaDir = "";
  let formula = "";

  beforeAll(async () => {
    out = await tmp("all-out");
    formulaDir = await tmp("all-formula");
    formula = join(formulaDir, "orchestrate.rb");
    const built = await compile(["--all", "--out", out, "--formula", formula]);
    if (built.code !== 0) throw new Error(`build:all failed:\n${built.stderr}`);
  }, 300_000);

  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
    await rm(formulaDir, { recursive: true, force: true });
  });

  test("every target is built under its predictable name", async () => {
    expect((await readdir(out)).sort()).toEqual([...ALL_TARGETS.map(binaryName), "SHA256SUMS"].sort());
  });

  test("each binary is an executable for its platform with the bundle embedded", async () => {
    for (const t of ALL_TARGETS) {
      const bytes = new Uint8Array(await readFile(join(out, binaryName(t))));
      expect({ target: targetName(t), header: header(bytes) }).toEqual({ target: targetName(t), header: expectedHeader(t) });
      // Bun names the embedded entry after the output file inside its standalone module graph.
      expect(Buffer.from(bytes.buffer).includes(`root/${binaryName(t)}`)).toBe(true);
      if (t.os === "darwin") expect(machoCommands(bytes)).toEqual(expect.arrayContaining(["segment:__BUN", "code_signature"]));
    }
  });

  test("SHA256SUMS lists every binary with its sha256", async () => {
    const sums = parseSums(await Bun.file(join(out, "SHA256SUMS")).text());
    expect([...sums.keys()].sort()).toEqual(ALL_TARGETS.map(binaryName).sort());
    for (const [file, hex] of sums) {
      expect(new Bun.CryptoHasher("sha256").update(await readFile(join(out, file))).digest("hex")).toBe(hex);
    }
  });

  test.skipIf(!host)("the host's binary from the full build runs", async () => {
    const res = await run([join(out, binaryName(host as Target)), "--version"], { env: isolatedEnv(formulaDir) });
    expect(res.stdout.trim()).toBe(VERSION);
  });

  test("the rendered formula carries SHA256SUMS' checksums and parses with ruby -c", async () => {
    const sums = parseSums(await Bun.file(join(out, "SHA256SUMS")).text());
    const pairs = formulaPairs(await Bun.file(formula).text());
    expect(pairs.size).toBe(UNIX_TARGETS.length);
    for (const t of UNIX_TARGETS) {
      expect(pairs.get(`https://github.com/orchestrate-dev/orchestrate/releases/download/v${VERSION}/${t.file}`)).toBe(sums.get(t.file) ?? "missing");
    }
    if (!Bun.which("ruby")) return;
    const check = await run(["ruby", "-c", formula]);
    expect(check.stdout).toContain("Syntax OK");
  });
});

type Header = { format: string; machine: number };

function header(b: Uint8Array): Header {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (view.getUint32(0, false) === 0x7f454c46) return { format: "elf", machine: view.getUint16(18, true) };
  if (view.getUint32(0, true) === 0xfeedfacf) return { format: "macho", machine: view.getUint32(4, true) };
  if (b[0] === 0x4d && b[1] === 0x5a) return { format: "pe", machine: view.getUint16(view.getUint32(0x3c, true) + 4, true) };
  return { format: "unknown", machine: 0 };
}

function expectedHeader(t: Target): Header {
  const machines = { elf: { x64: 0x3e, arm64: 0xb7 }, macho: { x64: 0x01000007, arm64: 0x0100000c }, pe: { x64: 0x8664, arm64: 0xaa64 } };
  const format = t.os === "linux" ? "elf" : t.os === "darwin" ? "macho" : "pe";
  return { format, machine: machines[format][t.arch] };
}

/** Load commands of a 64-bit Mach-O: segments by name, and whether a code signature is present. */
function machoCommands(b: Uint8Array): string[] {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const names: string[] = [];
  let off = 32;
  for (let i = 0; i < view.getUint32(16, true); i++) {
    const cmd = view.getUint32(off, true);
    if (cmd === 0x19)
      names.push(
        `segment:${Buffer.from(b.subarray(off + 8, off + 24))
          .toString("latin1")
          .replace(/\0+$/, "")}`,
      );
    if (cmd === 0x1d) names.push("code_signature");
    off += view.getUint32(off + 4, true);
  }
  return names;
}

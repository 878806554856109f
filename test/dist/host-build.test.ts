/**
 * The host binary: it builds, SHA256SUMS matches it, it speaks MCP over stdio, install.sh installs it
 * from a loopback "release" server (and refuses tampered or unsupported downloads leaving nothing
 * behind), and the rendered formula's install + test blocks work against it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmod, mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseSums, renderFormula } from "../../build/formula.ts";
import { compile, hostName, isolatedEnv, mcpHandshake, ROOT, run, tmp, VERSION } from "./support.ts";

const HOST = hostName();
const BIN_NAME = `orchestrate-${HOST}`;
let out = "";
let bin = "";
let scratch = "";

beforeAll(async () => {
  out = await tmp("host-out");
  scratch = await tmp("host-scratch");
  const built = await compile(["--out", out]);
  if (built.code !== 0) throw new Error(`host build failed:\n${built.stderr}`);
  bin = join(out, BIN_NAME);
}, 120_000);

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

describe("host build", () => {
  test("builds only the host binary, next to SHA256SUMS", async () => {
    expect((await readdir(out)).sort()).toEqual([BIN_NAME, "SHA256SUMS"].sort());
  });

  test("SHA256SUMS is sha256sum-format and matches the file", async () => {
    const text = await Bun.file(join(out, "SHA256SUMS")).text();
    expect(text).toMatch(new RegExp(`^[0-9a-f]{64}  ${BIN_NAME}\\n$`));
    const hasher = new Bun.CryptoHasher("sha256").update(await readFile(bin));
    expect(parseSums(text).get(BIN_NAME)).toBe(hasher.digest("hex"));
    if (Bun.which("sha256sum")) {
      const check = await run(["sha256sum", "-c", "SHA256SUMS"], { cwd: out });
      expect(check.code).toBe(0);
      expect(check.stdout).toContain(`${BIN_NAME}: OK`);
    }
  });

  test("the binary prints the package version", async () => {
    const res = await run([bin, "--version"], { env: isolatedEnv(scratch) });
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe(VERSION);
  });

  test("the binary answers MCP initialize and tools/list over stdio, then exits at EOF", async () => {
    const home = join(scratch, "mcp-home");
    await mkdir(home, { recursive: true });
    const hs = await mcpHandshake(bin, isolatedEnv(home));
    expect(hs.initialize.result).toMatchObject({ serverInfo: { name: "orchestrate", version: VERSION } });
    const tools = (hs.toolsList?.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toContain("route");
    expect(hs.exitCode).toBe(0);
  });

  test("the compiled binary runs `check` and `run` against the fakes (the same code paths as the server)", async () => {
    const { makeSandbox } = await import("../../fakes/lib/sandbox.ts");
    const box = makeSandbox({});
    try {
      box.writeConfig("agents:\n  oc: { backend: opencode, model: deepseek/v4 }\ntiers: { light: [oc], standard: null, heavy: null }\n");
      const check = Bun.spawnSync([bin, "check"], { env: box.env });
      expect(check.exitCode).toBe(0);
      expect(check.stdout.toString()).toContain("is valid");
      const routed = Bun.spawnSync([bin, "run", "--tier", "light", "--cwd", box.repo, "say pong"], { env: box.env });
      expect(routed.exitCode).toBe(0);
      expect(routed.stdout.toString()).toContain("PONG-FROM-FAKE");
      expect(routed.stderr.toString()).toContain("light:oc");
      box.writeConfig("tiers: { light: bogus }\n");
      expect(Bun.spawnSync([bin, "check"], { env: box.env }).exitCode).toBe(1);
    } finally {
      box.cleanup();
    }
  });

  test("the compiled binary serves route, consult and jobs over MCP (the lazily loaded chunks are in it)", async () => {
    const { makeSandbox } = await import("../../fakes/lib/sandbox.ts");
    const { connect } = await import("../../fakes/lib/mcp-client.ts");
    const box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "claude", OPENAI_API_KEY: "sk-test-not-a-real-key-000000000" });
    box.writeConfig(
      "agents:\n  cx: { backend: codex, model: gpt-5.5, scores: { coding: 90 } }\n  cl: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: rate-limit } }\ntiers: { light: null, standard: [cx], heavy: [cl] }\nfallbacks: { heavy: standard }\nallowCrossProviderFallback: true\n",
    );
    const session = await connect(box.env, { command: [bin] });
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        (await session.client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
      const routed = await call("route", { prompt: "x", cwd: box.repo, tier: "heavy" });
      expect(routed.isError).toBeFalsy();
      expect((routed.structuredContent?.attempts as { outcome: string }[]).map((a) => a.outcome)).toEqual(["unavailable", "ok"]);
      const consulted = await call("consult", { prompt: "q", capability: "coding" });
      expect(consulted.structuredContent?.model_verification).toBe("verified");
      const bg = await call("route", { prompt: "x", cwd: box.repo, tier: "standard", background: true });
      const id = (bg.structuredContent?.job as { id: string }).id;
      const waited = await call("job_wait", { id, waitSec: 20 });
      expect(waited.structuredContent?.status).toBe("ok");
      expect((await session.client.listPrompts()).prompts.map((p) => p.name)).toContain("consult");
    } finally {
      await session.close();
      box.cleanup();
    }
  });

  test("an unknown target is refused by name", async () => {
    const res = await compile(["--out", join(scratch, "never"), "--targets", "plan9-x64"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("unknown target(s): plan9-x64");
  });
});

describe("install.sh against a loopback release server", () => {
  let server: ReturnType<typeof Bun.serve>;
  const requests: string[] = [];

  beforeAll(async () => {
    const good = await Bun.file(join(out, "SHA256SUMS")).text();
    const tampered = new Uint8Array(await readFile(bin));
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 0xff;
    const noLine = good
      .split("\n")
      .filter((l) => !l.endsWith(BIN_NAME))
      .join("\n");
    // /<mode>/download/v<version>/<file> and /<mode>/latest/download/<file>, as on GitHub releases.
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        const path = new URL(req.url).pathname;
        requests.push(path);
        const m = /^\/(good|tampered|noline)\/(?:download\/v([^/]+)|latest\/download)\/([^/]+)$/.exec(path);
        if (!m || (m[2] !== undefined && m[2] !== VERSION)) return new Response("not found", { status: 404 });
        const [, mode, , file] = m;
        if (file === "SHA256SUMS") return new Response(mode === "noline" ? noLine : good);
        if (file !== BIN_NAME) return new Response("not found", { status: 404 });
        return new Response(mode === "tampered" ? tampered : Bun.file(bin));
      },
    });
  }, 60_000);

  afterAll(() => server.stop(true));

  interface Sandbox {
    dir: string;
    tmpdir: string;
    home: string;
  }

  async function sandbox(name: string): Promise<Sandbox> {
    const base = join(scratch, name);
    const sb = { dir: join(base, "install", "bin"), tmpdir: join(base, "tmp"), home: join(base, "home") };
    await mkdir(sb.tmpdir, { recursive: true });
    await mkdir(sb.home, { recursive: true });
    return sb;
  }

  function install(sb: Sandbox, mode: string, opts: { args?: string[]; env?: Record<string, string> } = {}) {
    const env = {
      PATH: process.env.PATH,
      HOME: sb.home,
      TMPDIR: sb.tmpdir,
      ORCHESTRATE_INSTALL_DIR: sb.dir,
      ORCHESTRATE_DOWNLOAD_BASE: `http://127.0.0.1:${server.port}/${mode}`,
      ...opts.env,
    };
    return run(["/bin/sh", join(ROOT, "install.sh"), ...(opts.args ?? [])], { env });
  }

  async function expectNothingLeft(sb: Sandbox): Promise<void> {
    expect(await readdir(join(sb.dir, "..")).catch(() => "absent")).toBe("absent");
    expect(await readdir(sb.tmpdir)).toEqual([]);
  }

  test("a pinned --version installs a verified binary that answers --version and initialize", async () => {
    const sb = await sandbox("pinned");
    const res = await install(sb, "good", { args: ["--version", VERSION] });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(requests).toContain(`/good/download/v${VERSION}/${BIN_NAME}`);
    expect(await readdir(sb.dir)).toEqual(["orchestrate"]);
    expect(await readdir(sb.tmpdir)).toEqual([]);
    const target = join(sb.dir, "orchestrate");
    expect((await run([target, "--version"], { env: isolatedEnv(sb.home) })).stdout.trim()).toBe(VERSION);
    const hs = await mcpHandshake(target, isolatedEnv(sb.home), false);
    expect(hs.initialize.result).toMatchObject({ serverInfo: { name: "orchestrate" } });
    // Not on PATH: a warning, and the next steps use the absolute path throughout.
    expect(res.stdout).toContain(`warning: ${sb.dir} is not on your PATH`);
    expect(res.stdout).toContain(`  ${target} init\n`);
    expect(res.stdout).toContain(`claude mcp add -s user orchestrate -- ${target}\n`);
    expect(res.stdout).toContain(`codex mcp add orchestrate -- ${target}\n`);
  });

  test("without a version it takes /latest/download; ORCHESTRATE_VERSION pins; no warning when on PATH", async () => {
    const latest = await sandbox("latest");
    const before = requests.length;
    const res = await install(latest, "good");
    expect(res.code).toBe(0);
    expect(requests.slice(before)).toEqual(["/good/latest/download/SHA256SUMS", `/good/latest/download/${BIN_NAME}`]);

    const pinned = await sandbox("env-pinned");
    await mkdir(pinned.dir, { recursive: true });
    const mark = requests.length;
    const res2 = await install(pinned, "good", { env: { ORCHESTRATE_VERSION: `v${VERSION}`, PATH: `${pinned.dir}:${process.env.PATH}` } });
    expect(res2.code).toBe(0);
    expect(requests.slice(mark)).toContain(`/good/download/v${VERSION}/${BIN_NAME}`);
    expect(res2.stdout).not.toContain("warning");
    expect(res2.stdout).toContain("\n  orchestrate init\n");
  });

  test("a tampered binary is refused and nothing is left behind", async () => {
    const sb = await sandbox("tampered");
    const res = await install(sb, "tampered", { args: ["--version", VERSION] });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(`checksum mismatch for ${BIN_NAME}`);
    await expectNothingLeft(sb);
  });

  test("a refused update leaves the existing install untouched", async () => {
    const sb = await sandbox("update");
    await mkdir(sb.dir, { recursive: true });
    await writeFile(join(sb.dir, "orchestrate"), "previous");
    const res = await install(sb, "tampered");
    expect(res.code).not.toBe(0);
    expect(await readdir(sb.dir)).toEqual(["orchestrate"]);
    expect(await Bun.file(join(sb.dir, "orchestrate")).text()).toBe("previous");
    expect(await readdir(sb.tmpdir)).toEqual([]);
  });

  test("a SHA256SUMS without this platform's line is refused", async () => {
    const sb = await sandbox("noline");
    const res = await install(sb, "noline");
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(`SHA256SUMS has no line for ${BIN_NAME}`);
    await expectNothingLeft(sb);
  });

  test("a version that does not exist fails the download and installs nothing", async () => {
    const sb = await sandbox("missing-version");
    const res = await install(sb, "good", { args: ["--version", "9.9.9"] });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("download failed");
    await expectNothingLeft(sb);
  });

  /** A PATH dir whose `uname` reports another platform. */
  async function unameShim(name: string, s: string, m: string): Promise<string> {
    const dir = join(scratch, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "uname"), `#!/bin/sh\ncase "$1" in -s) echo ${s} ;; -m) echo ${m} ;; *) echo ${s} ;; esac\n`);
    await chmod(join(dir, "uname"), 0o755);
    return dir;
  }

  test("an unsupported OS or architecture is refused before any download", async () => {
    for (const [s, m, message] of [
      ["FreeBSD", "x86_64", "unsupported operating system: FreeBSD"],
      ["Linux", "riscv64", "unsupported architecture: riscv64"],
    ] as const) {
      const sb = await sandbox(`unsupported-${s}-${m}`);
      const shim = await unameShim(`shim-${s}-${m}`, s, m);
      const before = requests.length;
      const res = await install(sb, "good", { env: { PATH: `${shim}:${process.env.PATH}` } });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain(message);
      expect(requests.length).toBe(before);
      await expectNothingLeft(sb);
    }
  });

  test("uname's arm64 spelling maps to the arm64 asset", async () => {
    const sb = await sandbox("aarch64");
    const shim = await unameShim("shim-aarch64", "Linux", "aarch64");
    const res = await install(sb, "noline", { env: { PATH: `${shim}:${process.env.PATH}` } });
    // The loopback release has no linux-arm64 line, so the refusal names the asset it looked for.
    expect(res.stderr).toContain("SHA256SUMS has no line for orchestrate-linux-arm64");
  });

  test("on a terminal the binary's download draws curl's progress bar; piped it stays quiet (the tests above)", async () => {
    const sb = await sandbox("tty");
    let screen = "";
    const proc = Bun.spawn(["/bin/sh", join(ROOT, "install.sh"), "--version", VERSION], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: sb.home,
        TMPDIR: sb.tmpdir,
        ORCHESTRATE_INSTALL_DIR: sb.dir,
        ORCHESTRATE_DOWNLOAD_BASE: `http://127.0.0.1:${server.port}/good`,
        TERM: "xterm",
      },
      terminal: { cols: 120, rows: 30, data: (_t, chunk) => void (screen += new TextDecoder().decode(chunk)) },
    });
    expect(await proc.exited).toBe(0);
    // curl --progress-bar ends its bar with the percentage; only the binary gets one, not SHA256SUMS.
    expect(screen.match(/100\.0%/g)).toHaveLength(1);
    expect(await readdir(sb.dir)).toEqual(["orchestrate"]);
  });

  test.skipIf(!Bun.which("wget"))("works with wget when curl is absent", async () => {
    const sb = await sandbox("wget");
    const tools = join(scratch, "no-curl-bin");
    await mkdir(tools, { recursive: true });
    for (const t of ["uname", "mktemp", "rm", "awk", "sha256sum", "chmod", "mkdir", "cp", "mv", "wget", "cat"]) {
      const path = Bun.which(t);
      if (path) await symlink(path, join(tools, t)).catch(() => undefined);
    }
    const res = await install(sb, "good", { env: { PATH: tools } });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(await readdir(sb.dir)).toEqual(["orchestrate"]);
  });
});

// A stand-in for Homebrew's DSL, just enough to load the rendered formula, pick this platform's
// url/sha256, run `def install` in a staging dir and run the `test do` block against the result.
const BREW_HARNESS = String.raw`
require "fileutils"
require "json"
require "open3"
require "pathname"
module OS
  def self.mac?; ENV.fetch("H_OS") == "darwin"; end
end
module Hardware
  module CPU
    def self.arm?; ENV.fetch("H_ARCH") == "arm64"; end
  end
end
class Pathname
  def install(map)
    mkpath
    map.each { |src, dst| FileUtils.mv(src, self / dst) }
  end
end
class Formula
  class << self
    attr_reader :picked, :test_block
    def desc(_); end
    def homepage(_); end
    def license(_); end
    def version(v = nil); v ? (@version = v) : @version; end
    def on_macos; yield if OS.mac?; end
    def on_linux; yield unless OS.mac?; end
    def on_arm; yield if Hardware::CPU.arm?; end
    def on_intel; yield unless Hardware::CPU.arm?; end
    def url(u); (@picked ||= {})["url"] = u; end
    def sha256(s); (@picked ||= {})["sha256"] = s; end
    def test(&blk); @test_block = blk; end
  end
  def version; self.class.version; end
  def bin; Pathname(ENV.fetch("H_PREFIX")) / "bin"; end
  def opt_bin; bin; end
  def shell_output(cmd, status = 0)
    out, st = Open3.capture2(cmd)
    raise "#{cmd} exited #{st.exitstatus}" unless st.exitstatus == status
    out
  end
  def pipe_output(cmd, input, status = nil)
    out, st = Open3.capture2(cmd.to_s, stdin_data: input)
    raise "#{cmd} exited #{st.exitstatus}" if status && st.exitstatus != status
    out
  end
  def assert_match(expected, actual)
    raise "#{expected.inspect} not found in #{actual.inspect}" unless actual.match?(expected)
  end
end
load ARGV.fetch(0)
formula = Orchestrate.new
Dir.chdir(ENV.fetch("H_STAGE")) { formula.install }
formula.instance_eval(&Orchestrate.test_block)
puts JSON.generate(Orchestrate.picked.merge("caveats" => formula.caveats, "test" => "passed"))
`;

describe.skipIf(!Bun.which("ruby"))("the rendered formula against the host binary", () => {
  test("picks this platform's url and sha256, installs it as orchestrate, and its test block passes", async () => {
    const realSums = parseSums(await Bun.file(join(out, "SHA256SUMS")).text());
    const sums = new Map(["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64"].map((t) => [`orchestrate-${t}`, "0".repeat(64)]));
    sums.set(BIN_NAME, realSums.get(BIN_NAME) ?? "");
    const rendered = renderFormula({ version: VERSION, sums });
    if (!rendered.ok) throw new Error(rendered.error.message);
    const dir = join(scratch, "brew");
    const stage = join(dir, "stage");
    await mkdir(stage, { recursive: true });
    await writeFile(join(dir, "orchestrate.rb"), rendered.value);
    await writeFile(join(dir, "harness.rb"), BREW_HARNESS);
    await Bun.write(join(stage, BIN_NAME), Bun.file(bin));
    await chmod(join(stage, BIN_NAME), 0o755);
    const [os, arch] = HOST.split("-");
    const env = { ...isolatedEnv(join(dir, "home")), H_OS: os, H_ARCH: arch, H_STAGE: stage, H_PREFIX: join(dir, "prefix") };
    await mkdir(join(dir, "home"), { recursive: true });
    const res = await run(["ruby", join(dir, "harness.rb"), join(dir, "orchestrate.rb")], { env });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const picked = JSON.parse(res.stdout) as Record<string, string>;
    expect(picked.url).toBe(`https://github.com/orchestrate-dev/orchestrate/releases/download/v${VERSION}/${BIN_NAME}`);
    expect(picked.sha256).toBe(realSums.get(BIN_NAME) ?? "missing");
    expect(picked.test).toBe("passed");
    expect(picked.caveats).toContain("orchestrate init");
    expect(picked.caveats).toContain(`claude mcp add -s user orchestrate -- ${join(dir, "prefix", "bin")}/orchestrate`);
    expect(await readdir(join(dir, "prefix", "bin"))).toEqual(["orchestrate"]);
    expect(await readdir(stage)).toEqual([]);
  });
});

#!/usr/bin/env bun
/**
 * Renders Formula/orchestrate.rb from a SHA256SUMS file, so the formula's checksums can only come
 * from the binaries that were actually built.
 *
 *   bun build/formula.ts [--sums dist/SHA256SUMS] [--version 0.1.0] [--out Formula/orchestrate.rb]
 *                        [--base-url https://github.com/orchestrate-dev/orchestrate/releases/download]
 */
import { join, resolve } from "node:path";
import { fail, ok, type Result } from "../src/result.ts";
import pkg from "../package.json" with { type: "json" };

const ROOT = resolve(import.meta.dir, "..");
export const DEFAULT_BASE_URL = "https://github.com/orchestrate-dev/orchestrate/releases/download";
export const HOMEPAGE = "https://github.com/orchestrate-dev/orchestrate";

/** The Homebrew platforms and the release asset each one installs. */
export const UNIX_TARGETS = [
  { brewOs: "on_macos", brewArch: "on_arm", file: "orchestrate-darwin-arm64" },
  { brewOs: "on_macos", brewArch: "on_intel", file: "orchestrate-darwin-x64" },
  { brewOs: "on_linux", brewArch: "on_arm", file: "orchestrate-linux-arm64" },
  { brewOs: "on_linux", brewArch: "on_intel", file: "orchestrate-linux-x64" },
] as const;

/** Reads `sha256sum` output ("<hex>  <file>" or "<hex> *<file>") into file → hex. */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line.trim());
    if (m?.[1] && m[2]) sums.set(m[2], m[1]);
  }
  return sums;
}

export interface FormulaInput {
  version: string;
  sums: Map<string, string>;
  baseUrl?: string;
}

// The version lands inside Ruby string literals and URLs: only plain semver gets that far.
const VERSION_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function platformBlock(brewOs: string, input: FormulaInput, base: string): string {
  const arms = UNIX_TARGETS.filter((t) => t.brewOs === brewOs).map((t) => {
    const sha = input.sums.get(t.file) ?? "";
    return [`    ${t.brewArch} do`, `      url "${base}/v${input.version}/${t.file}"`, `      sha256 "${sha}"`, "    end"].join("\n");
  });
  return [`  ${brewOs} do`, arms.join("\n"), "  end"].join("\n");
}

export function renderFormula(input: FormulaInput): Result<string> {
  if (!VERSION_RE.test(input.version)) return fail("bad_version", `not a release version: ${JSON.stringify(input.version)}`);
  const missing = UNIX_TARGETS.filter((t) => !input.sums.has(t.file)).map((t) => t.file);
  if (missing.length > 0) return fail("missing_checksum", `SHA256SUMS has no line for ${missing.join(", ")}; build them with npm run build:all`);
  const base = (input.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  return ok(formulaText(input, base));
}

function formulaText(input: FormulaInput, base: string): string {
  return `# Rendered by build/formula.ts from dist/SHA256SUMS (npm run build:all). Do not edit by hand.
class Orchestrate < Formula
  desc "MCP server that hands coding work to the other coding-agent CLIs on your machine"
  homepage "${HOMEPAGE}"
  version "${input.version}"
  license "MIT"

${platformBlock("on_macos", input, base)}

${platformBlock("on_linux", input, base)}

  def install
    os = OS.mac? ? "darwin" : "linux"
    arch = Hardware::CPU.arm? ? "arm64" : "x64"
    bin.install "orchestrate-#{os}-#{arch}" => "orchestrate"
  end

  def caveats
    <<~EOS
      Run \`orchestrate init\` to write a starting config, then register the server with your client:
        claude mcp add -s user orchestrate -- #{opt_bin}/orchestrate
        codex mcp add orchestrate -- #{opt_bin}/orchestrate
    EOS
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/orchestrate --version")
    # A real MCP handshake: one JSON-RPC initialize line on stdin; the server answers, then exits at EOF.
    request = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",' \\
              '"capabilities":{},"clientInfo":{"name":"brew-test","version":"1"}}}'
    assert_match "serverInfo", pipe_output(bin/"orchestrate", "#{request}\\n", 0)
  end
end
`;
}

function flagValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const sumsPath = resolve(flagValue(argv, "--sums") ?? join(ROOT, "dist/SHA256SUMS"));
  const file = Bun.file(sumsPath);
  if (!(await file.exists())) {
    process.stderr.write(`no ${sumsPath}: run npm run build:all first\n`);
    return 1;
  }
  const baseUrl = flagValue(argv, "--base-url");
  const rendered = renderFormula({ version: flagValue(argv, "--version") ?? pkg.version, sums: parseSums(await file.text()), ...(baseUrl ? { baseUrl } : {}) });
  if (!rendered.ok) {
    process.stderr.write(`${rendered.error.message}\n`);
    return 1;
  }
  const out = resolve(flagValue(argv, "--out") ?? join(ROOT, "Formula/orchestrate.rb"));
  await Bun.write(out, rendered.value);
  process.stdout.write(`${out}\n`);
  return 0;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));

# Rendered by build/formula.ts from dist/SHA256SUMS (npm run build:all). Do not edit by hand.
class Orchestrate < Formula
  desc "MCP server that hands coding work to the other coding-agent CLIs on your machine"
  homepage "https://github.com/orchestrate-dev/orchestrate"
  version "0.1.0"
  license "MIT"

  on_macos do
    on_arm do
      url "https://github.com/orchestrate-dev/orchestrate/releases/download/v0.1.0/orchestrate-darwin-arm64"
      sha256 "41ac0a23458bc5bbbb17436626c40b8ec07b7af47ee5735fc332c27aeabae811"
    end
    on_intel do
      url "https://github.com/orchestrate-dev/orchestrate/releases/download/v0.1.0/orchestrate-darwin-x64"
      sha256 "5ee41ce1376bc828aa6fe74ca94ab111dd6f33e2c7b61574d38a32041391f49c"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/orchestrate-dev/orchestrate/releases/download/v0.1.0/orchestrate-linux-arm64"
      sha256 "af2d091472e89d0859d14901a039cc02d39c1d37b3447884f20c1a76dacfa8fb"
    end
    on_intel do
      url "https://github.com/orchestrate-dev/orchestrate/releases/download/v0.1.0/orchestrate-linux-x64"
      sha256 "ed9ddc735c4b5f8b93eff15a1573a391327d8595a6df942a1d570e18190fd77d"
    end
  end

  def install
    os = OS.mac? ? "darwin" : "linux"
    arch = Hardware::CPU.arm? ? "arm64" : "x64"
    bin.install "orchestrate-#{os}-#{arch}" => "orchestrate"
  end

  def caveats
    <<~EOS
      Run `orchestrate init` to write a starting config, then register the server with your client:
        claude mcp add -s user orchestrate -- #{opt_bin}/orchestrate
        codex mcp add orchestrate -- #{opt_bin}/orchestrate
    EOS
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/orchestrate --version")
    # A real MCP handshake: one JSON-RPC initialize line on stdin; the server answers, then exits at EOF.
    request = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",' \
              '"capabilities":{},"clientInfo":{"name":"brew-test","version":"1"}}}'
    assert_match "serverInfo", pipe_output(bin/"orchestrate", "#{request}\n", 0)
  end
end

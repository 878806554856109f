#!/bin/sh
# orchestrate installer.
#
# Downloads the release binary for this machine, verifies it against the release's SHA256SUMS and
# installs it as <dir>/orchestrate. It refuses, leaving nothing behind, when the platform has no
# binary, the checksum is missing or does not match, or the binary does not run here.
#
#   curl -fsSL https://github.com/orchestrate-dev/orchestrate/releases/latest/download/install.sh | sh
#   curl -fsSL https://github.com/orchestrate-dev/orchestrate/releases/latest/download/install.sh | sh -s -- --version 0.1.0
#
# Environment:
#   ORCHESTRATE_VERSION        version to install (default: the latest release); --version wins
#   ORCHESTRATE_INSTALL_DIR    where to put the binary (default: $HOME/.local/bin)
#   ORCHESTRATE_DOWNLOAD_BASE  releases URL (default: https://github.com/orchestrate-dev/orchestrate/releases)
set -eu

DEFAULT_BASE=https://github.com/orchestrate-dev/orchestrate/releases

say() { printf '%s\n' "$*"; }
die() {
  printf 'orchestrate install: %s\n' "$*" >&2
  exit 1
}

usage() {
  say "usage: install.sh [--version X.Y.Z] [--help]"
  say "  ORCHESTRATE_INSTALL_DIR    install directory (default \$HOME/.local/bin)"
  say "  ORCHESTRATE_VERSION        version to install (default: latest release)"
  say "  ORCHESTRATE_DOWNLOAD_BASE  releases URL (default $DEFAULT_BASE)"
}

# Both are removed by the EXIT trap, so an interrupted or refused install leaves nothing behind.
tmp=""
stage=""
cleanup() {
  if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
  if [ -n "$stage" ]; then rm -f "$stage"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

parse_args() {
  version=${ORCHESTRATE_VERSION:-}
  while [ $# -gt 0 ]; do
    case $1 in
      --version)
        [ $# -ge 2 ] || die "--version needs a value, e.g. --version 0.1.0"
        version=$2
        shift 2
        ;;
      --version=*)
        version=${1#--version=}
        shift
        ;;
      -h | --help)
        usage
        exit 0
        ;;
      *) die "unknown argument: $1 (see --help)" ;;
    esac
  done
  version=${version#v}
  case $version in
    *[!0-9A-Za-z.+-]*) die "not a version: $version" ;;
  esac
}

detect_os() {
  case $(uname -s) in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    *) die "unsupported operating system: $(uname -s). Binaries exist for Linux and macOS (x64 and arm64)." ;;
  esac
}

detect_arch() {
  case $(uname -m) in
    x86_64 | amd64)
      # A shell under Rosetta reports x86_64 on Apple silicon; the native binary is the better pick.
      if [ "$1" = darwin ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
        echo arm64
      else
        echo x64
      fi
      ;;
    aarch64 | arm64) echo arm64 ;;
    *) die "unsupported architecture: $(uname -m). Binaries exist for x64 and arm64." ;;
  esac
}

# download URL FILE [progress]: with "progress" and stderr a terminal, curl or wget draws its bar
# there (the binary is tens of MB); piped or logged, both stay quiet so stderr holds only errors.
download() {
  if [ "${3:-}" = progress ] && [ -t 2 ]; then
    curl_quiet=--progress-bar
    wget_quiet=--show-progress
  else
    curl_quiet=-s
    wget_quiet=-q
  fi
  if command -v curl >/dev/null 2>&1; then
    curl -fSL "$curl_quiet" --retry 2 -o "$2" "$1" || die "download failed: $1"
  elif command -v wget >/dev/null 2>&1; then
    if [ "$wget_quiet" = -q ]; then
      wget -q -O "$2" "$1" || die "download failed: $1"
    else
      wget -q --show-progress -O "$2" "$1" || die "download failed: $1"
    fi
  else
    die "need curl or wget to download $1"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{ print $1 }'
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | awk '{ print $1 }'
  else
    die "need sha256sum or shasum to verify the download; nothing was installed"
  fi
}

# The expected hash for one file name in a sha256sum-format file ("<hex>  <name>" or "<hex> *<name>").
expected_sha() {
  awk -v f="$2" '$2 == f || $2 == "*" f { print $1; exit }' "$1"
}

on_path() {
  case :${PATH:-}: in
    *:"$1":*) return 0 ;;
    *) return 1 ;;
  esac
}

next_steps() {
  target=$1
  dir=$2
  cmd=orchestrate
  if ! on_path "$dir"; then
    cmd=$target
    say ""
    say "warning: $dir is not on your PATH. Add it to your shell profile:"
    say "  export PATH=\"$dir:\$PATH\""
  fi
  say ""
  say "Next steps:"
  say "  $cmd init"
  say "  claude mcp add -s user orchestrate -- $target"
  say "  codex mcp add orchestrate -- $target"
}

main() {
  parse_args "$@"
  os=$(detect_os)
  arch=$(detect_arch "$os")
  asset="orchestrate-$os-$arch"
  base=${ORCHESTRATE_DOWNLOAD_BASE:-$DEFAULT_BASE}
  base=${base%/}
  if [ -n "$version" ]; then url="$base/download/v$version"; else url="$base/latest/download"; fi
  install_dir=${ORCHESTRATE_INSTALL_DIR:-${HOME:?HOME is not set; set ORCHESTRATE_INSTALL_DIR}/.local/bin}

  tmp=$(mktemp -d "${TMPDIR:-/tmp}/orchestrate-install.XXXXXX") || die "cannot create a temporary directory"
  say "Downloading $asset ${version:+v$version }from $url"
  download "$url/SHA256SUMS" "$tmp/SHA256SUMS"
  expected=$(expected_sha "$tmp/SHA256SUMS" "$asset")
  [ -n "$expected" ] || die "SHA256SUMS has no line for $asset; nothing was installed"
  download "$url/$asset" "$tmp/$asset" progress
  actual=$(sha256_of "$tmp/$asset")
  [ "$actual" = "$expected" ] || die "checksum mismatch for $asset (expected $expected, got $actual); nothing was installed"
  chmod 755 "$tmp/$asset"
  installed_version=$("$tmp/$asset" --version 2>/dev/null) || die "the downloaded binary does not run on this machine ($os $arch); nothing was installed"

  mkdir -p "$install_dir" || die "cannot create $install_dir"
  dir=$(cd "$install_dir" && pwd -P)
  # Stage inside the install dir so the final mv is a rename on one filesystem: atomic, never half a binary.
  stage="$dir/.orchestrate.install.$$"
  cp "$tmp/$asset" "$stage" || die "cannot write to $dir"
  chmod 755 "$stage"
  mv -f "$stage" "$dir/orchestrate" || die "cannot install into $dir"
  stage=""

  say "Installed orchestrate $installed_version to $dir/orchestrate"
  next_steps "$dir/orchestrate" "$dir"
}

main "$@"

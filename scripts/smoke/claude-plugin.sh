#!/usr/bin/env bash
# Smoke test: install this repo's Claude Code plugin into a throw-away Claude Code home with Claude
# Code's OWN plugin commands, and see the orchestrate server healthy in `claude mcp list`. Not part
# of `npm test` (the suite never needs a real CLI; test/plugin validates the manifests' shape).
# Needs the real claude CLI, e.g.
#   npm install --prefix /tmp/realcli @anthropic-ai/claude-code
#   CLAUDE=/tmp/realcli/node_modules/.bin/claude scripts/smoke/claude-plugin.sh
# ORCHESTRATE_BIN may name a compiled binary; by default a wrapper runs this checkout's sources.
set -u
here=$(cd "$(dirname "$0")" && pwd); repo=$(cd "$here/../.." && pwd)
claude=${CLAUDE:-$(command -v claude || true)}
[ -n "$claude" ] && [ -x "$claude" ] || { echo "skip: no claude CLI (set CLAUDE=/path/to/claude)"; exit 0; }
root=$(mktemp -d); chmod 700 "$root"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/home" "$root/claude" "$root/bin"
if [ -z "${ORCHESTRATE_BIN:-}" ]; then
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$repo/node_modules/.bin/bun" "$repo/src/main.ts" > "$root/bin/orchestrate"
  chmod +x "$root/bin/orchestrate"
  ORCHESTRATE_BIN="$root/bin/orchestrate"
fi
export HOME="$root/home" CLAUDE_CONFIG_DIR="$root/claude" ORCHESTRATE_BIN DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
passed=0; failed=0
check() { # name, command…; prints the command's output indented
  local name=$1; shift
  local out; out=$(timeout 120 "$@" 2>&1); local code=$?
  printf '$ %s\n%s\n' "${*/#$claude/claude}" "$(printf '%s\n' "$out" | sed 's/^/  /')"
  if [ "$code" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $name (exit $code)"; fi
  LAST=$out
}
echo "claude $("$claude" --version 2>/dev/null | head -1); throw-away CLAUDE_CONFIG_DIR=$CLAUDE_CONFIG_DIR"
check "validate marketplace" "$claude" plugin validate --strict "$repo"
check "validate plugin" "$claude" plugin validate --strict "$repo/plugin"
check "marketplace add" "$claude" plugin marketplace add "$repo"
check "install" "$claude" plugin install orchestrate@orchestrate
check "list" "$claude" plugin list
check "details" "$claude" plugin details orchestrate@orchestrate
if printf '%s' "$LAST" | grep -q 'setup'; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: /orchestrate:setup is not in the plugin's inventory"; fi
check "mcp list" "$claude" mcp list
if printf '%s' "$LAST" | grep -Eq 'plugin:orchestrate:orchestrate: .*/plugin/bin/orchestrate-mcp .*Connected'; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: the orchestrate server is not healthy in claude mcp list"; fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

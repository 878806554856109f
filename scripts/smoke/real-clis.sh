#!/usr/bin/env bash
# Smoke test: route a task through orchestrate to each REAL vendor CLI found on PATH, against a
# loopback fake model server (no network, no account). Not part of `npm test` — the suite never needs
# the real CLIs. Install them outside the repo first, e.g.
#   npm install --prefix /tmp/realcli @anthropic-ai/claude-code @openai/codex opencode-ai @github/copilot @vibe-kit/grok-cli @google/gemini-cli
#   npm install --prefix /tmp/realpi @mariozechner/pi-coding-agent@0.73.1   # pi 1.x needs Node >= 22.19
#   PATH=/tmp/realcli/node_modules/.bin:/tmp/realpi/node_modules/.bin:$PATH scripts/smoke/real-clis.sh
# ONLY=pi (a space-separated list of backends) runs just those. After the plain rows, capacity rows
# time a persistent 429/503 (served by the next agent within 30 s) and a transient one (served by
# the first); CAPACITY=0 skips them.
set -u
here=$(cd "$(dirname "$0")" && pwd); repo=$(cd "$here/../.." && pwd)
bun="$repo/node_modules/.bin/bun"
root=$(mktemp -d); chmod 700 "$root"; home=$root/home
trap 'kill "$server" 2>/dev/null; pkill -f "$root/boom.sh" 2>/dev/null; rm -rf "$root"' EXIT
FAKE_LLM_LOG="$root/requests.json" "$bun" "$here/fake-llm.ts" > "$root/server.log" 2>&1 & server=$!
for _ in $(seq 50); do grep -q LISTENING "$root/server.log" && break; sleep 0.1; done
port=$(grep -o '[0-9]*$' "$root/server.log" | head -1)
mkdir -p -m 700 "$home/.config/orchestrate" "$home/Projects/repo" "$home/.codex" "$home/.copilot" "$home/.config/opencode"
(cd "$home/Projects/repo" && git init -q -b main && echo hi > README.md && git add -A && git -c user.name=t -c user.email=t@e commit -qm init)
# A "boom" MCP server in every CLI's own config: a delegated run must never start it (isolation).
boom="$root/boom.sh"; printf '#!/bin/sh\ntouch "%s/BOOM_STARTED_$1"\nexec sleep 30\n' "$root" > "$boom"; chmod +x "$boom"
printf 'model_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:%s/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n[mcp_servers.boom]\ncommand = "%s"\nargs = ["codex"]\n' "$port" "$boom" > "$home/.codex/config.toml"
# opencode: the capacity rows' models are declared too, and small_model keeps its title call off them.
# Offline, its startup fetch of the models.dev catalog stalls for ~3 s before it falls back to the
# bundled copy (research §A.5); OPENCODE_DISABLE_MODELS_FETCH skips it, as claude's non-essential
# traffic is switched off below. Online the fetch costs nothing noticeable.
export OPENCODE_DISABLE_MODELS_FETCH=1
printf '{ "provider": { "fake": { "npm": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://127.0.0.1:%s/v1", "apiKey": "dummy" }, "models": { "fake-model": {}, "ratelimit-model": {}, "overload-model": {}, "transient-ratelimit-model": {}, "transient-overload-model": {} } } }, "small_model": "fake/fake-model", "mcp": { "boom": { "type": "local", "command": ["%s", "opencode"] } } }\n' "$port" "$boom" > "$home/.config/opencode/opencode.json"
printf '{ "mcpServers": { "boom": { "type": "stdio", "command": "%s", "args": ["claude"] } } }\n' "$boom" > "$home/.claude.json"
printf '{ "mcpServers": { "boom": { "type": "local", "command": "%s", "args": ["copilot"], "tools": ["*"] } } }\n' "$boom" > "$home/.copilot/mcp-config.json"
export HOME="$home" ORCHESTRATE_ROOTS="$home/Projects" ORCHESTRATE_DB="$root/db.sqlite" ORCHESTRATE_CONFIG="$home/.config/orchestrate/config.yaml"
export ANTHROPIC_BASE_URL="http://127.0.0.1:$port" ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
export FAKE_API_KEY=dummy OPENAI_API_KEY=dummy
export COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$port/v1" COPILOT_PROVIDER_API_KEY=dummy COPILOT_MODEL=gpt-4o COPILOT_OFFLINE=true COPILOT_HOME="$home/.copilot"
export GROK_BASE_URL="http://127.0.0.1:$port/v1" GROK_API_KEY=dummy
# gemini: an API key selected in settings and the base URL (research §B.4). The repo is NOT trusted
# here: orchestrate must trust it for each run only, and leave trustedFolders.json as it was.
export GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$port" GEMINI_API_KEY=dummy
# pi: a models.json provider for the loopback server, plus a user extension, an MCP server (1.x) and
# an APPEND_SYSTEM.md that a delegated run must not load (orchestrate passes --no-extensions,
# --append-system-prompt "", …; research/cli-pi.md §9). Agents must declare `provider: fake`.
mkdir -p "$home/.pi/agent/extensions"
printf '{ "providers": { "fake": { "baseUrl": "http://127.0.0.1:%s/v1", "api": "openai-completions", "apiKey": "dummy", "models": [ { "id": "fake-model", "cost": { "input": 3, "output": 15, "cacheRead": 0, "cacheWrite": 0 } }, { "id": "ratelimit-model" }, { "id": "overload-model" }, { "id": "transient-ratelimit-model" }, { "id": "transient-overload-model" } ] } } }\n' "$port" > "$home/.pi/agent/models.json"
printf 'import { writeFileSync } from "node:fs";\nexport default function () { writeFileSync("%s/BOOM_STARTED_pi", "extension"); }\n' "$root" > "$home/.pi/agent/extensions/boom.ts"
printf '{ "mcpServers": { "boom": { "command": "%s", "args": ["pi"] } } }\n' "$boom" > "$home/.pi/agent/mcp.json"
printf 'BOOM_MARKER: the user APPEND_SYSTEM.md reached the request\n' > "$home/.pi/agent/APPEND_SYSTEM.md"
mkdir -p "$home/.gemini" && printf '{ "security": { "auth": { "selectedType": "gemini-api-key" } }, "mcpServers": { "boom": { "command": "%s", "args": ["gemini"] } } }\n' "$boom" > "$home/.gemini/settings.json"
printf '{ "%s/elsewhere": "TRUST_FOLDER" }\n' "$root" > "$home/.gemini/trustedFolders.json"
gemini_files=$(cat "$home/.gemini/trustedFolders.json" "$home/.gemini/settings.json" | sha256sum)
passed=0; failed=0
for spec in "claude:sonnet" "codex:gpt-5.5" "opencode:fake/fake-model" "copilot:gpt-4o" "grok:grok-code-fast-1" "gemini:gemini-2.5-flash" "pi:fake-model"; do
  backend=${spec%%:*}; model=${spec#*:}
  case " ${ONLY:-$backend} " in *" $backend "*) ;; *) continue ;; esac
  if ! command -v "$backend" >/dev/null; then echo "skip $backend (not on PATH)"; continue; fi
  provider=""; [ "$backend" = pi ] && provider=", provider: fake"  # pi's provider is declared, never derived
  printf 'agents:\n  a: { backend: %s, model: "%s"%s }\ntiers: { light: null, standard: null, heavy: [a] }\n' "$backend" "$model" "$provider" > "$ORCHESTRATE_CONFIG"
  chmod 600 "$ORCHESTRATE_CONFIG"
  out=$(timeout 120 "$bun" "$repo/src/main.ts" run --tier heavy --cwd "$home/Projects/repo" "say pong" 2> "$root/$backend.err")
  sleep 1  # a server the CLI started would have touched its marker by now
  if [ -e "$root/BOOM_STARTED_$backend" ]; then failed=$((failed + 1)); echo "FAIL $backend: started the user's MCP server (or pi extension)"; continue; fi
  if grep -q '"leaked": true' "$root/requests.json" 2>/dev/null; then failed=$((failed + 1)); echo "FAIL $backend: the user's own prompt files reached the model"; continue; fi
  # pi 0.73 prints its version on stderr when stdin is not a terminal.
  version=$($backend --version 2>/dev/null </dev/null | head -1); [ -n "$version" ] || version=$($backend --version 2>&1 </dev/null | head -1)
  # gemini: the edit tools of auto_edit reached the model (an untrusted folder would drop it to read-only).
  if [ "$backend" = gemini ] && ! python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1])) if ":streamGenerateContent" in x["path"]]; t=r[-1]["tools"]; sys.exit(0 if "write_file" in t and "replace" in t and "run_shell_command" not in t else 1)' "$root/requests.json"; then
    failed=$((failed + 1)); echo "FAIL gemini: the model was not offered auto_edit's tools (write_file, replace; no shell)"; continue
  fi
  # codex reports tokens but no cost: the run's cost is estimated from them (docs/cost.md), and stored so.
  if [ "$backend" = codex ] && ! "$bun" -e 'import { Database } from "bun:sqlite"; const r = new Database(process.env.ORCHESTRATE_DB, { readonly: true }).query("SELECT cost_usd AS c, cost_estimated AS e FROM usage ORDER BY rowid DESC LIMIT 1").get(); process.exit(r && r.e === 1 && r.c > 0 ? 0 : 1)'; then
    failed=$((failed + 1)); echo "FAIL codex: its run has no estimated cost in the usage row"; continue
  fi
  if [ "$out" = "PONG-FROM-REAL" ]; then passed=$((passed + 1)); echo "PASS $backend ($version), user MCP servers not started"
  else failed=$((failed + 1)); echo "FAIL $backend: ${out:0:200}"; tail -5 "$root/$backend.err"; fi
done
# ---- ACP (issue 24): each real ACP agent on PATH is routed ("say pong") and consulted answer-only
# through the Agent Client Protocol, against the same loopback server. Rows are named acp-<agent>
# (ONLY=acp runs them all). qwen has no folder of its own: it is `backend: acp` from config alone.
mkdir -p "$home/.qwen" && printf '{ "security": { "auth": { "selectedType": "openai" } }, "mcpServers": { "boom": { "command": "%s", "args": ["qwen"] } } }\n' "$boom" > "$home/.qwen/settings.json"
acp_agent() { # <row> → the agent's fields
  case $1 in
    gemini) echo 'backend: gemini, transport: acp, model: "gemini-2.5-flash"' ;;
    opencode) echo 'backend: opencode, transport: acp, model: "fake/fake-model"' ;;
    copilot) echo 'backend: copilot, transport: acp, model: "gpt-4o"' ;;
    claude-agent-acp) echo 'backend: claude, transport: acp, model: "sonnet"' ;;
    codex-acp) echo 'backend: codex, transport: acp, model: "gpt-5.5"' ;;
    qwen) printf 'backend: acp, provider: fake, command: [qwen, --acp, --auth-type, openai, --allowed-mcp-server-names, orchestrate-no-mcp, -e, none], env: { OPENAI_API_KEY: dummy, OPENAI_BASE_URL: "http://127.0.0.1:%s/v1", OPENAI_MODEL: fake-model }' "$port" ;;
  esac
}
for row in gemini opencode copilot claude-agent-acp codex-acp qwen; do
  case " ${ONLY:-acp-$row} " in *" acp-$row "* | *" acp "*) ;; *) continue ;; esac
  if ! command -v "$row" >/dev/null; then echo "skip acp-$row (not on PATH)"; continue; fi
  printf 'agents:\n  a: { %s, scores: { coding: 90 } }\ntiers: { light: null, standard: null, heavy: [a] }\n' "$(acp_agent "$row")" > "$ORCHESTRATE_CONFIG"
  chmod 600 "$ORCHESTRATE_CONFIG"; rm -f "$root/BOOM_STARTED_"*
  out=$(cd "$home/Projects/repo" && timeout 180 "$bun" "$repo/src/main.ts" run --tier heavy --cwd "$home/Projects/repo" "say pong" 2> "$root/acp-$row.err")
  sleep 1  # a server the agent started would have touched its marker by now
  # The person's MCP server ("boom" in the agent's own config) must stay off: every agent has its
  # own switch (claude-agent-acp's is each session's _meta, docs/acp.md).
  boom=""; [ -e "$root/BOOM_STARTED_${row%-agent-acp}" ] || [ -e "$root/BOOM_STARTED_${row%-acp}" ] && boom=started
  if [ -n "$boom" ]; then failed=$((failed + 1)); echo "FAIL acp-$row route: started the user's MCP server"
  elif [ "$out" = "PONG-FROM-REAL" ]; then passed=$((passed + 1)); echo "PASS acp-$row route, user MCP servers not started"
  else failed=$((failed + 1)); echo "FAIL acp-$row route: ${out:0:200}"; tail -5 "$root/acp-$row.err"; fi
  out=$(cd "$home/Projects/repo" && ORCHESTRATE_HOST_RUNTIME=pi timeout 180 "$bun" "$repo/src/main.ts" consult --capability coding --json "say pong (REMEMBER_THIS)" 2> "$root/acp-$row-consult.err")
  if printf '%s' "$out" | grep -q '"ok":true'; then passed=$((passed + 1)); echo "PASS acp-$row answer-only consult"
  else failed=$((failed + 1)); echo "FAIL acp-$row consult: ${out:0:300}"; tail -5 "$root/acp-$row-consult.err"; fi
  # Resume: the follow-up is a session/load of the same ACP session in a new process, so the
  # agent's request for it carries the first turn (the loopback server logs `remembers`).
  id=$(printf '%s' "$out" | python3 -c 'import json,sys
try: print(json.load(sys.stdin).get("consultation_id") or "")
except Exception: print("")')
  since=$(date +%s%3N)
  out=$(cd "$home/Projects/repo" && ORCHESTRATE_HOST_RUNTIME=pi timeout 180 "$bun" "$repo/src/main.ts" consult --capability coding --consultation-id "$id" --json "say pong again" 2> "$root/acp-$row-resume.err")
  remembered=$(python3 -c 'import json,sys; print(any(x.get("remembers") for x in json.load(open(sys.argv[1])) if x["at"] >= int(sys.argv[2])))' "$root/requests.json" "$since" 2>/dev/null)
  if [ -n "$id" ] && printf '%s' "$out" | grep -q '"ok":true' && [ "$remembered" = True ]; then passed=$((passed + 1)); echo "PASS acp-$row follow-up resumed (session/load): the model saw the first turn"
  else failed=$((failed + 1)); echo "FAIL acp-$row follow-up: ${out:0:300}"; tail -5 "$root/acp-$row-resume.err"; fi
  # Neither the consult's session/new nor the follow-up's session/load may start it either.
  if [ -e "$root/BOOM_STARTED_${row%-agent-acp}" ] || [ -e "$root/BOOM_STARTED_${row%-acp}" ]; then failed=$((failed + 1)); echo "FAIL acp-$row consult: started the user's MCP server"; fi
  # Fail closed: the model answers with a call to an acting tool (fake-llm-act.ts); the consult
  # must end the turn on it (action_attempted) before the command's file exists. An agent whose
  # answer mode offers the model no acting tool at all gets the plain answer, reported as such.
  rm -f "$root/ACTED"; since=$(date +%s%3N)
  out=$(cd "$home/Projects/repo" && ORCHESTRATE_HOST_RUNTIME=pi timeout 180 "$bun" "$repo/src/main.ts" consult --capability coding --json "USE_ACTING_TOOL say pong" 2> "$root/acp-$row-act.err")
  sleep 1
  acted=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1])) if x["at"] >= int(sys.argv[2])]; print(" ".join(sorted(set(x["acting"] for x in r if x.get("acting")))) or "-", "|", " ".join(sorted(set(t for x in r for t in x["tools"]))))' "$root/requests.json" "$since" 2>/dev/null)
  if [ -e "$root/ACTED" ]; then failed=$((failed + 1)); echo "FAIL acp-$row acting tool call: the command ran (${acted})"
  elif [ "${acted%% *}" != - ] && printf '%s' "$out" | grep -q '"code":"action_attempted"'; then passed=$((passed + 1)); echo "PASS acp-$row answer-only failed closed on the model's ${acted%% |*} call, nothing ran"
  elif [ "${acted%% *}" = - ] && printf '%s' "$out" | grep -q '"ok":true'; then passed=$((passed + 1)); echo "PASS acp-$row answer-only offered no acting tool (offered: ${acted#*| })"
  else failed=$((failed + 1)); echo "FAIL acp-$row acting tool call (${acted}): ${out:0:300}"; tail -5 "$root/acp-$row-act.err"; fi
done
# check: every ACP agent on PATH answers initialize; its ACP version, agent version and capabilities show.
acp_rows=""; printf 'agents:\n' > "$ORCHESTRATE_CONFIG"
for row in gemini opencode copilot claude-agent-acp codex-acp qwen; do
  case " ${ONLY:-acp-$row} " in *" acp-$row "* | *" acp "*) ;; *) continue ;; esac
  command -v "$row" >/dev/null || continue
  acp_rows="$acp_rows $row"; printf '  %s: { %s }\n' "$row" "$(acp_agent "$row")" >> "$ORCHESTRATE_CONFIG"
done
if [ -n "$acp_rows" ]; then
  printf 'tiers: { light: null, standard: null, heavy: null }\n' >> "$ORCHESTRATE_CONFIG"
  out=$(cd "$home/Projects/repo" && timeout 180 "$bun" "$repo/src/main.ts" check 2>&1)
  for row in $acp_rows; do
    line=$(printf '%s\n' "$out" | grep -E "^ *$row\b.*ACP [0-9]" | head -1)
    if [ -n "$line" ]; then passed=$((passed + 1)); echo "PASS acp-$row check: $(echo "$line" | sed 's/^ *//')"
    else failed=$((failed + 1)); echo "FAIL acp-$row check: no ACP line"; printf '%s\n' "$out" | grep -n "$row" | head -5; fi
  done
fi
# ---- answer-only codex (issue 23 §7): a consult runs codex with approval "never" and its shell,
# unified exec and subagent tools switched off, so the model is offered no tool that could run a
# command at all. The loopback server records which tools each request offered.
if command -v codex >/dev/null && case " ${ONLY:-codex} " in *" codex "*) true ;; *) false ;; esac; then
  # --ignore-user-config drops config.toml's loopback provider, so a wrapper adds the built-in
  # provider's base URL (`-c openai_base_url`, what codex's own SDK passes) and records the argv.
  real_codex=$(command -v codex); wrap="$root/codex-wrap"
  printf '#!/bin/sh\n[ "$1" = exec ] || exec "%s" "$@"\nfor a in "$@"; do printf "%%s\\n" "$a"; done > "%s/codex-argv.txt"\nshift; exec "%s" exec -c openai_base_url="http://127.0.0.1:%s/v1" "$@"\n' "$real_codex" "$root" "$real_codex" "$port" > "$wrap"; chmod 700 "$wrap"
  printf 'agents:\n  c: { backend: codex, model: "gpt-5.5", command: "%s", scores: { coding: 90 } }\n' "$wrap" > "$ORCHESTRATE_CONFIG"
  chmod 600 "$ORCHESTRATE_CONFIG"
  since=$(date +%s%3N)
  out=$(cd "$home/Projects/repo" && CODEX_API_KEY=dummy ORCHESTRATE_HOST_RUNTIME=claude timeout 120 "$bun" "$repo/src/main.ts" consult --capability coding --json "say pong" 2> "$root/codex-consult.err")
  offered=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1])) if x["path"].endswith("/responses") and x["at"] >= int(sys.argv[2])]; print(" ".join(sorted(set(t for x in r for t in x["tools"]))) if r else "NO-REQUEST")' "$root/requests.json" "$since" 2>/dev/null)
  # apply_patch stays offered (the model catalog decides it); the read-only sandbox refuses it and
  # the adapter fails the turn closed on it. What must be gone is every tool that runs a command.
  keys_missing=""
  for key in 'approval_policy="never"' features.shell_tool=false features.unified_exec=false features.multi_agent=false; do
    grep -qxF -- "$key" "$root/codex-argv.txt" 2>/dev/null || keys_missing="$keys_missing $key"
  done
  if [ -n "$keys_missing" ]; then failed=$((failed + 1)); echo "FAIL codex consult argv lacks:$keys_missing"
  elif printf '%s' "$out" | grep -q '"ok":true' && ! printf ' %s ' "$offered" | grep -Eq ' (shell|exec_command|write_stdin|local_shell|spawn_agent|unified_exec)[ _]|NO-REQUEST'; then
    passed=$((passed + 1)); echo "PASS codex consult: answer-only keys in argv, answered, no command tool offered (offered: ${offered:-none})"
  else failed=$((failed + 1)); echo "FAIL codex consult: offered [${offered}]; ${out:0:200}"; tail -5 "$root/codex-consult.err"; fi
  # ---- web mode (issue 23 §4): an agent trusted with the web, consulted with source_mode web, is
  # offered the hosted web_search tool (and still no command tool); the loopback server runs one
  # search, which codex reports and orchestrate returns among the sources. Without web mode the
  # same agent is offered no web_search (the consult row above).
  printf 'agents:
  c: { backend: codex, model: "gpt-5.5", command: "%s", capabilities: [web_search], scores: { research: 90 } }
' "$wrap" > "$ORCHESTRATE_CONFIG"
  since=$(date +%s%3N)
  out=$(cd "$home/Projects/repo" && CODEX_API_KEY=dummy ORCHESTRATE_HOST_RUNTIME=claude timeout 120 "$bun" "$repo/src/main.ts" consult --capability research --web --json "USE_WEB_SEARCH what is pong" 2> "$root/codex-web.err")
  offered=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1])) if x["path"].endswith("/responses") and x["at"] >= int(sys.argv[2])]; print(" ".join(sorted(set(t for x in r for t in x["tools"]))) if r else "NO-REQUEST")' "$root/requests.json" "$since" 2>/dev/null)
  if printf '%s' "$out" | grep -q '"ok":true' && printf '%s' "$out" | grep -q 'web search: pong protocol 1' && printf ' %s ' "$offered" | grep -q ' web_search ' && ! printf ' %s ' "$offered" | grep -Eq ' (shell|exec_command|write_stdin|local_shell|spawn_agent|unified_exec)[ _]'; then
    passed=$((passed + 1)); echo "PASS codex web consult: web_search offered, the search is among the sources (offered: ${offered})"
  else failed=$((failed + 1)); echo "FAIL codex web consult: offered [${offered}]; ${out:0:300}"; tail -5 "$root/codex-web.err"; fi
fi
# ---- web mode on claude (issue 23 §4): consulted with source_mode web, claude is sent only its two
# web tools (and the StructuredOutput tool its --json-schema adds); the loopback server scripts one
# WebSearch, answers the tool's own nested web_search request, and the search is among the sources.
if command -v claude >/dev/null && case " ${ONLY:-claude} " in *" claude "*) true ;; *) false ;; esac; then
  printf 'agents:\n  cl: { backend: claude, model: "sonnet", capabilities: [web_search], scores: { research: 90 } }\n' > "$ORCHESTRATE_CONFIG"
  chmod 600 "$ORCHESTRATE_CONFIG"
  since=$(date +%s%3N)
  out=$(cd "$home/Projects/repo" && ORCHESTRATE_HOST_RUNTIME=codex timeout 120 "$bun" "$repo/src/main.ts" consult --capability research --web --json "USE_WEB_SEARCH what is pong" 2> "$root/claude-web.err")
  seen=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1])) if x["path"].endswith("/messages") and x["at"] >= int(sys.argv[2])]; print(";".join(",".join(sorted(x["tools"])) for x in r) if r else "NO-REQUEST")' "$root/requests.json" "$since" 2>/dev/null)
  if printf '%s' "$out" | grep -q '"ok":true' && printf '%s' "$out" | grep -q 'web search: pong protocol 1' && printf '%s' "$seen" | grep -q 'StructuredOutput,WebFetch,WebSearch' && printf ';%s;' "$seen" | grep -q ';web_search;' && ! printf '%s' "$seen" | grep -Eq 'Bash|Edit|Write|Read'; then
    passed=$((passed + 1)); echo "PASS claude web consult: only WebSearch/WebFetch offered, the search ran and is among the sources (requests: $seen)"
  else failed=$((failed + 1)); echo "FAIL claude web consult: requests [$seen]; ${out:0:300}"; tail -5 "$root/claude-web.err"; fi
fi
# ---- web mode on opencode (issue 23 §4): consulted with source_mode web, opencode's answer config
# allows webfetch (and websearch, which opencode offers only for its own provider or with
# OPENCODE_ENABLE_EXA); the loopback server scripts one webfetch of its own /pong-page, opencode
# fetches it, and the page is among the sources. Nothing that acts is offered. Answer mode gives
# opencode a config home of its own, so the "fake" provider of opencode.json is not there: the row
# uses opencode's built-in anthropic provider, which follows ANTHROPIC_BASE_URL to the loopback server.
if command -v opencode >/dev/null && case " ${ONLY:-opencode} " in *" opencode "*) true ;; *) false ;; esac; then
  printf 'agents:\n  oc: { backend: opencode, model: "anthropic/claude-sonnet-4-5", capabilities: [web_search], scores: { research: 90 } }\n' > "$ORCHESTRATE_CONFIG"
  chmod 600 "$ORCHESTRATE_CONFIG"
  since=$(date +%s%3N)
  out=$(cd "$home/Projects/repo" && ORCHESTRATE_HOST_RUNTIME=codex timeout 120 "$bun" "$repo/src/main.ts" consult --capability research --web --json "USE_WEB_FETCH what is pong" 2> "$root/opencode-web.err")
  seen=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1])) if x["at"] >= int(sys.argv[2])]; c=[x for x in r if x["path"].endswith("/messages") and x["tools"]]; print(";".join(",".join(sorted(x["tools"])) for x in c) + ("|fetched" if any(x["path"] == "/pong-page" for x in r) else "") if c else "NO-REQUEST")' "$root/requests.json" "$since" 2>/dev/null)
  if printf '%s' "$out" | grep -q '"ok":true' && printf '%s' "$out" | grep -q '/pong-page' && printf '%s' "$seen" | grep -q 'webfetch' && printf '%s' "$seen" | grep -q '|fetched$' && ! printf '%s' "$seen" | grep -Eq 'bash|edit|write|task|patch'; then
    passed=$((passed + 1)); echo "PASS opencode web consult: webfetch offered, the page fetched and among the sources (tools per request: $seen)"
  else failed=$((failed + 1)); echo "FAIL opencode web consult: requests [$seen]; ${out:0:300}"; tail -5 "$root/opencode-web.err"; fi
  # The same agent without web mode: webfetch denied, so opencode does not even offer it.
  since=$(date +%s%3N)
  out=$(cd "$home/Projects/repo" && ORCHESTRATE_HOST_RUNTIME=codex timeout 120 "$bun" "$repo/src/main.ts" consult --capability research --json "USE_WEB_FETCH what is pong" 2> "$root/opencode-noweb.err")
  seen=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1])) if x["at"] >= int(sys.argv[2])]; c=[x for x in r if x["path"].endswith("/messages") and x["tools"]]; print(";".join(",".join(sorted(x["tools"])) for x in c) + ("|fetched" if any(x["path"] == "/pong-page" for x in r) else "") if c else "NO-REQUEST")' "$root/requests.json" "$since" 2>/dev/null)
  if printf '%s' "$out" | grep -q '"ok":true' && ! printf '%s' "$seen" | grep -Eq 'webfetch|websearch|fetched|NO-REQUEST'; then
    passed=$((passed + 1)); echo "PASS opencode consult without web: no web tool offered, nothing fetched (tools per request: $seen)"
  else failed=$((failed + 1)); echo "FAIL opencode consult without web: requests [$seen]; ${out:0:300}"; tail -5 "$root/opencode-noweb.err"; fi
fi
# ---- web mode over ACP (issue 23 §4): the same webfetch through `opencode acp`, whose tool call of
# kind fetch is the web call orchestrate counts and returns among the sources (the anthropic
# provider, as in the row above: answer mode's config home has no opencode.json provider). The
# tool_call that starts it carries only the title "webfetch" (the URL comes in later updates), so
# that title is the source here, not the URL.
if command -v opencode >/dev/null && case " ${ONLY:-acp-opencode} " in *" acp-opencode "* | *" acp "* | *" opencode "*) true ;; *) false ;; esac; then
  printf 'agents:\n  oa: { backend: opencode, transport: acp, model: "anthropic/claude-sonnet-4-5", capabilities: [web_search], scores: { research: 90 } }\n' > "$ORCHESTRATE_CONFIG"
  chmod 600 "$ORCHESTRATE_CONFIG"
  since=$(date +%s%3N)
  out=$(cd "$home/Projects/repo" && ORCHESTRATE_HOST_RUNTIME=codex timeout 120 "$bun" "$repo/src/main.ts" consult --capability research --web --json "USE_WEB_FETCH what is pong" 2> "$root/acp-opencode-web.err")
  seen=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1])) if x["at"] >= int(sys.argv[2])]; c=[x for x in r if x["path"].endswith("/messages") and x["tools"]]; print(";".join(",".join(sorted(x["tools"])) for x in c) + ("|fetched" if any(x["path"] == "/pong-page" for x in r) else "") if c else "NO-REQUEST")' "$root/requests.json" "$since" 2>/dev/null)
  if printf '%s' "$out" | grep -q '"ok":true' && printf '%s' "$out" | grep -q '"source_type":"web"' && printf '%s' "$seen" | grep -q '|fetched$' && ! printf '%s' "$seen" | grep -Eq 'bash|edit|write|task|patch'; then
    passed=$((passed + 1)); echo "PASS acp-opencode web consult: webfetch offered, the page fetched and among the sources (tools per request: $seen)"
  else failed=$((failed + 1)); echo "FAIL acp-opencode web consult: requests [$seen]; ${out:0:1500}"; tail -5 "$root/acp-opencode-web.err"; fi
fi
# ---- capacity (issue 11 §1): a persistent 429 / 503 is served by the next agent within 30 s of
# the call; a one-shot (transient) 429 / 503 still by the first. The loopback server steers by model
# name (fake-llm.ts). CAPACITY=0 skips these rows. Per CLI: its agent line for a model.
capacity_agent() { # <backend> <model> → the agent's fields, or nothing when the CLI has no capacity row
  case $1 in
    claude) echo "backend: claude, model: \"$2\"" ;;
    codex) echo "backend: codex, model: \"$2\"" ;;
    opencode) echo "backend: opencode, model: \"fake/$2\"" ;;
    pi) echo "backend: pi, provider: fake, model: \"$2\"" ;;
    copilot | grok | gemini) echo "backend: $1, model: \"$2\"" ;;
  esac
}
capacity_ok_model() { case $1 in claude) echo sonnet ;; codex) echo gpt-5.5 ;; *) echo fake-model ;; esac; }
# <backend> <failing model> <the agent that must serve: a1 | a2>
capacity_row() {
  local backend=$1 model=$2 want=$3 first second t0 t1 json served secs
  first=$(capacity_agent "$backend" "$model"); second=$(capacity_agent "$backend" "$(capacity_ok_model "$backend")")
  printf 'agents:\n  a1: { %s }\n  a2: { %s }\ntiers: { light: null, standard: null, heavy: [a1, a2] }\n' "$first" "$second" > "$ORCHESTRATE_CONFIG"
  chmod 600 "$ORCHESTRATE_CONFIG"
  curl -fs "http://127.0.0.1:$port/__reset" > /dev/null  # each row's transient fails its own first request
  t0=$(date +%s.%N)
  json=$(timeout 120 "$bun" "$repo/src/main.ts" run --json --tier heavy --cwd "$home/Projects/repo" "say pong" 2> "$root/$backend-$model.err")
  t1=$(date +%s.%N)
  secs=$(echo "$t1 - $t0" | bc)
  served=$(printf '%s' "$json" | python3 -c 'import json,sys
try: o=json.load(sys.stdin)
except Exception: print("-"); sys.exit()
t=" ".join("%s:%s:%.1fs" % (a["agent"], a["outcome"], a["durationMs"] / 1000) for a in o.get("attempts", []))
print((o.get("servedBy") or {}).get("agent","-"), t)')
  # The server must really have refused this row's requests: a row whose failure never happened tests nothing.
  refused=$(python3 -c 'import json,sys; print(sum(1 for r in json.load(open(sys.argv[1])) if r.get("failed") and r["at"] >= float(sys.argv[2]) * 1000))' "$root/requests.json" "$t0")
  if [ "${served%% *}" = "$want" ] && [ "$(echo "$secs < 30" | bc)" = 1 ] && [ "$refused" -ge 1 ] && printf '%s' "$json" | grep -q PONG-FROM-REAL; then
    passed=$((passed + 1)); printf 'PASS %s %s: served by %s in %.1f s (%s refused; trace %s)\n' "$backend" "$model" "$want" "$secs" "$refused" "${served#* }"
  else
    failed=$((failed + 1)); printf 'FAIL %s %s: wanted %s within 30 s after a refused request, got %s in %.1f s (%s refused)\n' "$backend" "$model" "$want" "$served" "$secs" "$refused"; tail -3 "$root/$backend-$model.err"
  fi
}
if [ "${CAPACITY:-1}" != 0 ]; then
  for backend in claude codex opencode copilot grok gemini pi; do
    case " ${ONLY:-$backend} " in *" $backend "*) ;; *) continue ;; esac
    command -v "$backend" >/dev/null || continue
    [ -n "$(capacity_agent "$backend" x)" ] || continue
    for row in "ratelimit-model a2" "overload-model a2" "transient-ratelimit-model a1" "transient-overload-model a1"; do capacity_row "$backend" $row; done
  done
fi
# gemini ran in a repo it was never told to trust, yet nothing was added to its trusted folders.
if command -v gemini >/dev/null && case " ${ONLY:-gemini} " in *" gemini "*) true ;; *) false ;; esac; then
  if [ "$(cat "$home/.gemini/trustedFolders.json" "$home/.gemini/settings.json" | sha256sum)" = "$gemini_files" ]; then passed=$((passed + 1)); echo "PASS gemini left trustedFolders.json and settings.json unchanged"
  else failed=$((failed + 1)); echo "FAIL gemini changed trustedFolders.json or settings.json"; fi
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

#!/usr/bin/env bash
# Times gemini's capacity rows against the REAL gemini CLI on a loopback model server (issue 11):
# for a persistent 429 / 503, the seconds from the call to the fallback's answer and from gemini's
# first retry signal (its first stderr `Attempt 1 failed…` line) to the next agent's start; for a
# transient one, how long the first agent took to answer. Not part of the suite. Usage:
#   PATH=/tmp/realcli/node_modules/.bin:$PATH scripts/smoke/gemini-capacity.sh [runs per row, default 3]
set -u
runs=${1:-3}
here=$(cd "$(dirname "$0")" && pwd); repo=$(cd "$here/../.." && pwd)
bun="$repo/node_modules/.bin/bun"
real=$(command -v gemini) || { echo "gemini is not on PATH"; exit 1; }
root=$(mktemp -d); chmod 700 "$root"; home=$root/home
trap 'kill "$server" 2>/dev/null; rm -rf "$root"' EXIT
FAKE_LLM_LOG="$root/requests.json" "$bun" "$here/fake-llm.ts" > "$root/server.log" 2>&1 & server=$!
for _ in $(seq 50); do grep -q LISTENING "$root/server.log" && break; sleep 0.1; done
port=$(grep -o '[0-9]*$' "$root/server.log" | head -1)
mkdir -p -m 700 "$home/.config/orchestrate" "$home/Projects/repo" "$home/.gemini" "$root/bin"
(cd "$home/Projects/repo" && git init -q -b main && echo hi > README.md && git add -A && git -c user.name=t -c user.email=t@e commit -qm init)
printf '{ "security": { "auth": { "selectedType": "gemini-api-key" } } }\n' > "$home/.gemini/settings.json"
# A shim in front of the real gemini notes when each run starts and when each stderr line appears.
printf '#!/usr/bin/env bash\necho "$EPOCHREALTIME start $$ $*" >> %s/shim.log\nexec 2> >(while IFS= read -r l; do echo "$EPOCHREALTIME err $$ $l" >> %s/shim.log; printf "%%s\\n" "$l" >&2; done)\nexec %s "$@"\n' "$root" "$root" "$real" > "$root/bin/gemini"
chmod +x "$root/bin/gemini"
export PATH="$root/bin:$PATH" HOME="$home" ORCHESTRATE_ROOTS="$home/Projects" ORCHESTRATE_DB="$root/db.sqlite" ORCHESTRATE_CONFIG="$home/.config/orchestrate/config.yaml"
export GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$port" GEMINI_API_KEY=dummy
row() { # <failing model> → one line of timings
  local model=$1 t0 t1 json
  printf 'agents:\n  a1: { backend: gemini, model: "%s" }\n  a2: { backend: gemini, model: "fake-model" }\ntiers: { light: null, standard: null, heavy: [a1, a2] }\n' "$model" > "$ORCHESTRATE_CONFIG"
  chmod 600 "$ORCHESTRATE_CONFIG"; : > "$root/shim.log"
  t0=$EPOCHREALTIME
  json=$(timeout 120 "$bun" "$repo/src/main.ts" run --json --tier heavy --cwd "$home/Projects/repo" "say pong" 2> "$root/err")
  t1=$EPOCHREALTIME
  printf '%s' "$json" | python3 -c '
import json, sys
t0, t1, model, log = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
try: o = json.load(sys.stdin)
except Exception: o = {}
starts = [float(l.split()[0]) for l in open(log) if " start " in l and "stream-json" in l]
signal = next((float(l.split()[0]) for l in open(log) if " err " in l and "Attempt 1 failed" in l), None)
trace = " ".join("%s:%s%s:%.1fs" % (a["agent"], a["outcome"], "(re-run)" if "run once more" in a["reason"] else "", a["durationMs"] / 1000) for a in o.get("attempts", []))
served = (o.get("servedBy") or {}).get("agent", "-")
gap = "%.2f" % (starts[-1] - signal) if signal and len(starts) > 1 else "-"
print("%-32s served by %s in %5.2f s | first signal %s s after the call | signal -> next start %s s | runs %d | %s" % (model, served, t1 - t0, "%.2f" % (signal - t0) if signal else "-", gap, len(starts), trace))
' "$t0" "$t1" "$model" "$root/shim.log"
}
for i in $(seq "$runs"); do
  for m in ratelimit-model overload-model transient-ratelimit-model transient-overload-model; do row "$m-$i"; done
done

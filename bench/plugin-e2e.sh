#!/usr/bin/env bash
# The src plugin under the real Claude Code client, offline. Opt-in: CI does not run it, and it
# exits 0 with a message when no client is installed.
#
#   bench/plugin-e2e.sh [SCRATCH]            (default SCRATCH: a new mktemp dir, kept)
#
#   1. `src plugin export SCRATCH/plugin`, then `claude plugin validate --strict` on the folder
#      (it checks the marketplace) and on its .claude-plugin/plugin.json (manifest, hooks.json and
#      the skills' frontmatter).
#   2. With a scratch HOME and CLAUDE_CONFIG_DIR: `claude plugin marketplace add SCRATCH/plugin`,
#      `claude plugin install src@src`, `claude plugin list` shows it enabled. In a git copy of
#      fixtures/claude-tree, `src init --claude` adds no settings hooks (it names the plugin) and
#      `src doctor` reports `full` with the plugin's entries.
#   3. When the claude-e2e harness is there (E2E_HARNESS, default ../shared/claude-e2e beside the
#      repository: its mock_anthropic.py and analyze.py): the client runs against the scripted
#      Messages API in that project, the lead spawns the implementer in the foreground, the
#      implementer edits a skill; the plugin's hooks record the edit and the stored alert must
#      reach the lead's next request. Skipped with a message when the harness is missing.
#
# Env: SRC (binary; default target/release/src, built if missing), CLAUDE_BIN (the client;
#      default $CCE_DIR/node_modules/.bin/claude with CCE_DIR=/tmp/cce, else `claude` on PATH),
#      E2E_TIMEOUT (seconds for the client run, default 120).
# Install the client with: mkdir -p /tmp/cce && cd /tmp/cce && npm install @anthropic-ai/claude-code
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-$(mktemp -d /tmp/src-plugin-e2e.XXXXXX)}
mkdir -p "$scratch" && scratch=$(cd "$scratch" && pwd)
limit=${E2E_TIMEOUT:-120}
harness=${E2E_HARNESS:-$here/../shared/claude-e2e}
target=.claude/skills/execution-code/SKILL.md

claude=${CLAUDE_BIN:-${CCE_DIR:-/tmp/cce}/node_modules/.bin/claude}
if ! "$claude" --version 2>/dev/null | grep -q 'Claude Code'; then
  claude=$(command -v claude || true)
fi
if [ -z "$claude" ] || ! "$claude" --version 2>/dev/null | grep -q 'Claude Code'; then
  echo "plugin-e2e: skipped: no Claude Code client (set CLAUDE_BIN, or npm install @anthropic-ai/claude-code in /tmp/cce)"
  exit 0
fi
SRC=${SRC:-$here/target/release/src}
if [ ! -x "$SRC" ]; then
  (cd "$here" && cargo build --release --quiet) || { echo "plugin-e2e: cargo build failed"; exit 1; }
fi
SRC=$(cd "$(dirname "$SRC")" && pwd)/$(basename "$SRC")
echo "client: $("$claude" --version | head -1) ($claude)"
echo "src: $("$SRC" --version) ($SRC)"

fail=0
check() {  # NAME CMD...: runs CMD, prints NAME: ok|FAILED with the tail of its output
  local name=$1; shift
  if "$@" >"$scratch/$name.log" 2>&1; then
    echo "$name: ok"
  else
    echo "$name: FAILED: $(tail -5 "$scratch/$name.log" | tr '\n' ' ')"; fail=1
  fi
}

# Everything the client reads or writes stays under the scratch folder; nothing is fetched.
home=$scratch/home
mkdir -p "$home/.claude" "$scratch/tmp"
client_env=(env -u ANTHROPIC_AUTH_TOKEN -u CLAUDE_CODE_OAUTH_TOKEN -u CLAUDE_PROJECT_DIR
  -u SRC_ROOT -u SRC_DB -u SRC_CONFIG -u SRC_DEBUG -u SRC_BIN
  HOME="$home" CLAUDE_CONFIG_DIR="$home/.claude" TMPDIR="$scratch/tmp" CLAUDE_CODE_TMPDIR="$scratch/tmp"
  PATH="$(dirname "$SRC"):$PATH"
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1
  DISABLE_ERROR_REPORTING=1)

# 1. export and validate
plugin=$scratch/plugin
rm -rf "$plugin"
check export "$SRC" plugin export "$plugin"
check validate-marketplace "${client_env[@]}" "$claude" plugin validate --strict "$plugin"
check validate-plugin "${client_env[@]}" "$claude" plugin validate --strict "$plugin/.claude-plugin/plugin.json"

# 2. add the marketplace, install, and what src makes of it
check marketplace-add "${client_env[@]}" timeout 60 "$claude" plugin marketplace add "$plugin"
check install "${client_env[@]}" timeout 60 "$claude" plugin install src@src
check listed sh -c "$(printf '%q ' "${client_env[@]}" "$claude") plugin list | grep -A3 'src@src' | grep -q enabled"
proj=$scratch/proj
rm -rf "$proj" && cp -r "$here/fixtures/claude-tree" "$proj"
(cd "$proj" && git init -q . && git add -A && git -c user.email=e2e@example.invalid -c user.name=e2e commit -qm fixture)
cp "$proj/.claude/settings.json" "$scratch/settings-before.json"
(cd "$proj" && "${client_env[@]}" "$SRC" init --claude) >"$scratch/init.txt" 2>&1
check init-names-the-plugin grep -q 'hooks: provided by the plugin src@src' "$scratch/init.txt"
check settings-untouched cmp "$scratch/settings-before.json" "$proj/.claude/settings.json"
(cd "$proj" && "${client_env[@]}" "$SRC" doctor) >"$scratch/doctor.txt" 2>&1
check doctor-full grep -q '^level: full' "$scratch/doctor.txt"
check doctor-plugin-entries sh -c "[ \$(grep -c '(plugin src@src)\$' '$scratch/doctor.txt') -ge 4 ]"

# 3. the alert reaches the lead with the plugin's hooks only
if [ ! -f "$harness/mock_anthropic.py" ] || [ ! -f "$harness/analyze.py" ]; then
  echo "delivery: skipped: no claude-e2e harness at $harness (set E2E_HARNESS)"
else
  d=$scratch/delivery
  mkdir -p "$d"
  python3 "$harness/mock_anthropic.py" --root "$proj" --target "$target" --log "$d/mock.jsonl" \
    --port-file "$d/port" --background false --max-seconds $((limit + 60)) >"$d/mock.err" 2>&1 &
  mock=$!
  trap 'kill $mock 2>/dev/null' EXIT
  i=0; while [ ! -s "$d/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  sandbox=(); [ "$(id -u)" = 0 ] && sandbox=(IS_SANDBOX=1)   # bypass mode is refused for root otherwise
  : >"$d/stdin"
  (cd "$proj" && "${client_env[@]}" "${sandbox[@]}" ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$d/port")" \
      ANTHROPIC_API_KEY=dummy timeout "$limit" "$claude" -p "Use the implementer agent to edit the execution-code skill." \
      --dangerously-skip-permissions --output-format stream-json --verbose --include-hook-events \
      --debug-file "$d/claude-debug.log" <"$d/stdin" >"$d/stream.jsonl" 2>"$d/claude.err")
  echo "client exit: $?"
  kill $mock 2>/dev/null; wait $mock 2>/dev/null
  "$SRC" --root "$proj" query events --format json >"$d/q-events.json" 2>&1
  "$SRC" --root "$proj" query --sql "SELECT * FROM alerts ORDER BY id" --format json >"$d/q-alerts.json" 2>&1
  "$SRC" --root "$proj" query --sql "SELECT * FROM hook_runs ORDER BY id" --format json >"$d/q-hook-runs.json" 2>&1
  check settings-still-untouched cmp "$scratch/settings-before.json" "$proj/.claude/settings.json"
  check delivery python3 "$harness/analyze.py" "$d" "$target"
  cat "$scratch/delivery.log"
fi

echo "evidence: $scratch"
[ $fail -eq 0 ] && echo "plugin-e2e: all held" || echo "plugin-e2e: FAILED"
exit $fail

#!/usr/bin/env bash
# Hooks benchmark: `src hook …` as whole processes against the reference bash+jq hooks
# (../shared/reference-hooks beside the repository) and /bin/true, measured in the same run.
#
#   bench/hooks.sh [recorder|stop|concurrent|all]        (default: all)
#
#   1. recorder:   src hook post-tool-use  vs  on-file-change.sh  vs  /bin/true, after WARM
#                  events (steady state), two ways: a) hyperfine -N of sh -c 'exec CMD <payload'
#                  for all three (same wrapper: its cost cancels in the ratios); b) LOOP calls
#                  in one bash loop per command (median of 3 loops / LOOP)
#   2. stop:       src hook subagent-stop with 50 changed files  vs  on-implementer-done.sh,
#                  on gen-claude-tree.py --preset medium (2,000 files) and large (50,000 files);
#                  before each run the alert watermark is reset, so every run analyses the 50
#                  files (index refresh of those files + reconcile stat of the whole index +
#                  edge lookup), like a real stop
#   3. concurrent: 32 recorders at once (xargs -P 32), EVENTS events in all; events per second
#                  for src and for the reference; src's count is checked in the database
#
# Env: RUNS (hyperfine runs, default 30; the large reference stop always runs 3 times),
#      PRESETS (default "medium large"), EVENTS (default 3200), WARM (recorder warm-up events,
#      default 300), LOOP (calls per loop, default 200), TREES (where the stop trees
#      src-bench-PRESET live or are generated, default /tmp), SRC (binary; default
#      target/release/src, built if missing), REF (reference hooks, default ../shared/reference-hooks),
#      KEEP=1 keeps the work directory.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-30}
presets=${PRESETS:-medium large}
events=${EVENTS:-3200}
warm=${WARM:-300}
loop=${LOOP:-200}
trees=${TREES:-/tmp}
ref=${REF:-$here/../shared/reference-hooks}
gen=${GEN:-$here/../shared/bench/gen-claude-tree.py}
what=${1:-all}
die() { echo "bench/hooks.sh: $*" >&2; exit 2; }
for tool in hyperfine jq python3 xargs; do
  command -v "$tool" >/dev/null || die "$tool not found (apt-get install -y hyperfine jq)"
done
[ -f "$ref/on-file-change.sh" ] || die "reference hooks not found in $ref"

bin=${SRC:-$here/target/release/src}
if [ ! -x "$bin" ]; then
  (cd "$here" && cargo build --release --quiet) || die "cargo build --release failed"
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

work=$(mktemp -d /tmp/src-hooks-bench.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
session=9f3c2a61-4b7e-4d2a-b8c1-5e0f7a9d3b42

echo "# machine: $(nproc) cores, $(uname -srm); src: $bin; $(date -u +%FT%TZ)"

# A PostToolUse Edit payload for FILE inside ROOT (the reference sample, paths rewritten). The
# tool_use_id is dropped so that every run really inserts a row (the same id would be a no-op).
edit_payload() { # ROOT FILE
  jq -c --arg root "$1" --arg f "$2" \
    '.cwd = $root | .tool_input.file_path = $f | .tool_response.filePath = $f | del(.tool_use_id)' \
    "$ref/post-tool-use-edit.json"
}

median() { jq -r '.results[] | "\(.command)\t\(.median * 1000)"' "$1"; }

ratio() { # JSON NAME_A NAME_B -> median(A)/median(B)
  jq -r --arg a "$2" --arg b "$3" \
    '([.results[] | select(.command == $a) | .median][0]) / ([.results[] | select(.command == $b) | .median][0])' "$1"
}

recorder() {
  local proj=$work/rec
  mkdir -p "$proj/.git" "$proj/.claude/skills/execution-impact" "$work/logs"
  echo "# x" >"$proj/.claude/skills/execution-impact/SKILL.md"
  edit_payload "$proj" "$proj/.claude/skills/execution-impact/SKILL.md" >"$work/edit.json"
  export CLAUDE_PROJECT_DIR=$proj SRC_LOG_DIR=$work/logs
  # Steady state: the first run of a fresh project migrates, and the WAL must stay bounded over
  # many events, so WARM events are recorded before anything is timed.
  local i
  for i in $(seq "$warm"); do "$bin" hook post-tool-use <"$work/edit.json"; done
  walsize() { stat -c %s "$proj/.src/src.db-wal" 2>/dev/null || echo 0; }
  echo "## 1. recorder ($warm warm-up events in the database; WAL $(walsize) bytes)"
  # a) hyperfine -N, each command through the same wrapper (sh -c 'exec CMD <payload'), so the
  #    wrapper's cost is in all three and cancels in the ratios (hyperfine 1.15 has no --input).
  hyperfine -N --warmup 10 --runs "$runs" --export-json "$work/recorder.json" --style basic \
    -n true "sh -c 'exec /bin/true <$work/edit.json'" \
    -n src "sh -c 'exec $bin hook post-tool-use <$work/edit.json'" \
    -n reference "sh -c 'exec bash $ref/on-file-change.sh <$work/edit.json'" >&2
  echo "### a) hyperfine -N, sh -c 'exec CMD <payload' (median ms per call)"
  median "$work/recorder.json"
  printf 'src/true\t%.2f\nreference/src\t%.1f\n' \
    "$(ratio "$work/recorder.json" src true)" "$(ratio "$work/recorder.json" reference src)"
  # b) the loop method: $loop calls in one bash loop per command (no per-call wrapper at all);
  #    median of 3 loops, divided by $loop.
  hyperfine -N --warmup 1 --runs 3 --export-json "$work/recorder-loop.json" --style basic \
    -n true "bash -c 'for i in \$(seq $loop); do /bin/true <$work/edit.json; done'" \
    -n src "bash -c 'for i in \$(seq $loop); do $bin hook post-tool-use <$work/edit.json; done'" \
    -n reference "bash -c 'for i in \$(seq $loop); do bash $ref/on-file-change.sh <$work/edit.json; done'" >&2
  echo "### b) $loop calls in one bash loop (median ms per call)"
  jq -r --argjson n "$loop" '.results[] | "\(.command)\t\(.median * 1000 / $n)"' "$work/recorder-loop.json"
  printf 'src/true\t%.2f\nreference/src\t%.1f\n' \
    "$(ratio "$work/recorder-loop.json" src true)" "$(ratio "$work/recorder-loop.json" reference src)"
  echo "events stored: $(python3 -c "import sqlite3;print(sqlite3.connect('$proj/.src/src.db').execute('select count(*) from events').fetchone()[0])"); WAL after: $(walsize) bytes"
  unset CLAUDE_PROJECT_DIR SRC_LOG_DIR
}

# Builds DIR/.claude for PRESET (once), indexes it, and writes the 50-file event set for both.
prepare_tree() { # PRESET DIR
  local preset=$1 dir=$2
  if [ ! -d "$dir/.claude" ]; then
    mkdir -p "$dir/.git"
    python3 "$gen" --preset "$preset" --out "$dir/.claude" >&2
  fi
  CLAUDE_PROJECT_DIR=$dir "$bin" --root "$dir" index >&2
  # 50 changed files spread over the tree (every k-th file in byte order).
  (cd "$dir" && find .claude -type f \( -name '*.md' -o -name '*.sh' -o -name '*.json' \) \
      -not -path '*/agent-memory/*' | LC_ALL=C sort) >"$work/$preset.all"
  local n k
  n=$(wc -l <"$work/$preset.all"); k=$((n / 50))
  awk -v k="$k" 'NR % k == 1' "$work/$preset.all" | head -n 50 >"$work/$preset.changed"
  : >"$work/logs/src-changes-$session.log"
  while IFS= read -r rel; do
    edit_payload "$dir" "$dir/$rel" | CLAUDE_PROJECT_DIR=$dir "$bin" hook post-tool-use
    printf '%s\tEdit\t%s\n' "$(date -Iseconds)" "$dir/$rel" >>"$work/logs/src-changes-$session.log"
  done <"$work/$preset.changed"
  jq -c --arg root "$dir" '.cwd = $root' "$ref/subagent-stop.json" >"$work/stop.json"
  # The reset run before each timed stop: forget what was reported, so the 50 files are new.
  cat >"$work/reset.py" <<EOF
import sqlite3
c = sqlite3.connect("$dir/.src/src.db")
c.execute("DELETE FROM alert_watermarks"); c.execute("DELETE FROM alerts"); c.commit()
EOF
}

stop() {
  mkdir -p "$work/logs"
  for preset in $presets; do
    local dir=$trees/src-bench-$preset
    prepare_tree "$preset" "$dir"
    echo "## 2. subagent-stop, 50 changed files, preset $preset ($(wc -l <"$work/$preset.all") files) (median ms)"
    local refruns=$runs
    [ "$preset" = large ] && refruns=3
    [ "$preset" = medium ] && [ "$refruns" -gt 10 ] && refruns=10
    # Not SRC_ROOT: it is also src's --root, and the reference defaults to $CLAUDE_PROJECT_DIR/.claude.
    export CLAUDE_PROJECT_DIR=$dir SRC_LOG_DIR=$work/logs
    hyperfine --warmup 2 --runs "$runs" --export-json "$work/stop-src-$preset.json" --style basic \
      --prepare "python3 '$work/reset.py'" \
      -n src "'$bin' hook subagent-stop <'$work/stop.json'" >&2
    hyperfine --warmup 1 --runs "$refruns" --export-json "$work/stop-ref-$preset.json" --style basic \
      -n reference "bash '$ref/on-implementer-done.sh' <'$work/stop.json'" >&2
    median "$work/stop-src-$preset.json"
    median "$work/stop-ref-$preset.json"
    jq -rn --slurpfile a "$work/stop-ref-$preset.json" --slurpfile b "$work/stop-src-$preset.json" \
      '"reference/src\t\(($a[0].results[0].median / $b[0].results[0].median) * 10 | round / 10)"'
    # What each printed, once (the texts differ by design: names vs stems, index vs grep).
    python3 "$work/reset.py"
    printf 'alerts:\n  delivery: subagent-stop\n' >"$dir/.src/config.yaml"
    echo "src:       $("$bin" hook subagent-stop <"$work/stop.json" | jq -r .hookSpecificOutput.additionalContext | head -1)"
    rm -f "$dir/.src/config.yaml"
    echo "reference: $(bash "$ref/on-implementer-done.sh" <"$work/stop.json" | jq -r .hookSpecificOutput.additionalContext | head -1)"
  done
}

concurrent() {
  local proj=$work/conc
  rm -rf "$proj"; mkdir -p "$proj/.git" "$work/clogs"
  edit_payload "$proj" "$proj/CLAUDE.md" >"$work/conc.json"
  CLAUDE_PROJECT_DIR=$proj "$bin" hook post-tool-use <"$work/conc.json" # creates the database
  echo "## 3. 32 concurrent recorders, $events events (events/s)"
  local t0 t1 src_s ref_s
  now() { python3 -c 'import time;print(time.time())'; }
  t0=$(now)
  seq "$events" | CLAUDE_PROJECT_DIR=$proj xargs -P 32 -I{} sh -c "'$bin' hook post-tool-use <'$work/conc.json'"
  t1=$(now)
  src_s=$(python3 -c "print($t1 - $t0)")
  t0=$(now)
  seq "$events" | SRC_LOG_DIR=$work/clogs xargs -P 32 -I{} sh -c "bash '$ref/on-file-change.sh' <'$work/conc.json'"
  t1=$(now)
  ref_s=$(python3 -c "print($t1 - $t0)")
  "$bin" --root "$proj" gc >/dev/null # ingests anything spilled
  local got spilled
  got=$(python3 -c "import sqlite3;print(sqlite3.connect('$proj/.src/src.db').execute('select count(*) from events').fetchone()[0])")
  spilled=$(python3 -c "import sqlite3;print(sqlite3.connect('$proj/.src/src.db').execute(\"select count(*) from events where source='spill'\").fetchone()[0])")
  printf 'src\t%.0f events/s (%s events stored, %s via the spill journal)\n' \
    "$(python3 -c "print($events / $src_s)")" "$((got - 1))" "$spilled"
  printf 'reference\t%.0f events/s (%s lines)\n' \
    "$(python3 -c "print($events / $ref_s)")" "$(cat "$work"/clogs/*.log | wc -l)"
}

case "$what" in
  recorder) recorder ;;
  stop) stop ;;
  concurrent) concurrent ;;
  all) recorder; stop; concurrent ;;
  *) sed -n '2,23p' "$0"; exit 2 ;;
esac

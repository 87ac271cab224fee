#!/usr/bin/env bash
# Cascade benchmark: one convergence check (`src cascade check`) over 50 files changed in an
# iteration, process start included, against ripgrep doing the seed's grep convergence check for
# the same 50 files, in one run.
#
#   bench/cascade.sh [large | TREE]          (default: large, the 50,000-file benchmark tree)
#
# Setup (once): full index; `src impact` on every 1000th in-scope file; `src cascade start
# --impact ID`; 50 of the iteration's targets recorded as edited through `src hook
# post-tool-use` (the files themselves are not modified, so every run refreshes the same
# content). The database is snapshotted and restored before each measured run (hyperfine
# --prepare), so every run checks the same iteration. Measures, with hyperfine in one run:
#   1. src cascade check --format json       (refresh 50 files, graph reads, one transition)
#   2. rg -l -F -f names50.txt               (the seed's check: grep each changed file's name)
#      (rg exits 1 when nothing mentions them, a converged check: failures are ignored, -i)
#   3. src cascade status --format json      (load + render of the persisted state)
# Env: SRC (prebuilt binary, skips the build), RUNS (default 20), KEEP=1 keeps the state directory.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
runs=${RUNS:-20}
need hyperfine rg python3
tree_arg "${1:-large}" 17
new_state cascade
rg_opts=("${default_rg_opts[@]}")
pick_binary

echo "== full index, impact and cascade start on $tree" >&2
"${src[@]}" index --full >/dev/null
(cd "$tree" && rg --files "${rg_opts[@]}" | sort | awk 'NR % 1000 == 1' | head -50) >"$state/seeds.txt"
impact_id=$("${src[@]}" impact $(tr '\n' ' ' <"$state/seeds.txt") --format json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["impact_id"])')
"${src[@]}" cascade start --impact "$impact_id" --session bench --format json >"$state/start.json"
# 50 targets of iteration 1 are "edited": the recorder hook gets their PostToolUse payloads.
python3 - "$state/start.json" "$tree" >"$state/payloads.jsonl" <<'EOF'
import json, sys
doc, tree = json.load(open(sys.argv[1])), sys.argv[2]
files = [t["file"] for g in doc.get("current", {}).get("groups", []) for t in g["targets"]][:50]
for i, f in enumerate(files):
    path = f"{tree}/{f}"
    print(json.dumps({"session_id": "bench", "cwd": tree, "hook_event_name": "PostToolUse",
                      "agent_id": "b1", "agent_type": "implementer", "tool_name": "Edit",
                      "tool_input": {"file_path": path}, "tool_response": {"filePath": path},
                      "tool_use_id": f"toolu_bench_{i}"}))
EOF
n=$(wc -l <"$state/payloads.jsonl")
[ "$n" -gt 0 ] || die "the impact gave no DIRECT dependents to edit"
[ "$n" -eq 50 ] || echo "note: only $n edited targets" >&2
while IFS= read -r line; do
  printf '%s' "$line" | "${src[@]}" hook post-tool-use
done <"$state/payloads.jsonl"
# The seed's grep pattern per changed file: the stem, or the parent directory for a SKILL.md.
python3 - "$state/payloads.jsonl" "$tree" >"$state/names50.txt" <<'EOF'
import json, os, sys
for line in open(sys.argv[1]):
    p = json.loads(line)["tool_input"]["file_path"]
    base = os.path.basename(p)
    print(os.path.basename(os.path.dirname(p)) if base == "SKILL.md" else os.path.splitext(base)[0])
EOF
python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA wal_checkpoint(TRUNCATE)")' "$db"
cp "$db" "$state/snap.db"
restore="rm -f $(q "$db-wal" "$db-shm"); cp $(q "$state/snap.db" "$db")"
"${src[@]}" cascade check --format json >"$state/check.json"
eval "$restore"

echo "== cascade check vs rg, and status" >&2
hyperfine -N -i --warmup 2 --runs "$runs" --export-json "$state/check-rg.json" \
  --prepare "sh -c $(q "$restore")" \
  -n "src cascade check ($n changed)" "$(q "${src[@]}") cascade check --format json" \
  -n "rg -l -F -f names50.txt" "rg -l -F -f $(q "$state/names50.txt") $(q "${rg_opts[@]}") $(q "$tree")" >&2
hyperfine -N --warmup 3 --runs 50 --export-json "$state/status.json" \
  -n "src cascade status" "$(q "${src[@]}") cascade status --format json" >&2

python3 - "$state" "$tree" "$n" <<'EOF'
import json, sys
st, tree, n = sys.argv[1:]
res = json.load(open(f"{st}/check-rg.json"))["results"]
status = json.load(open(f"{st}/status.json"))["results"][0]["median"]
chk = json.load(open(f"{st}/check.json"))
check, rg = res[0]["median"], res[1]["median"]
nxt = chk.get("current", {}).get("groups", [])
print(f"tree: {tree}  edited targets: {n}  check result: {chk['status']}, "
      f"next targets {sum(len(g['targets']) for g in nxt)}")
print("| measure | median | comparison | ratio |")
print("|---|---|---|---|")
print(f"| src cascade check, {n} changed files | {check*1000:.1f} ms | rg -l -F -f names50.txt: {rg*1000:.1f} ms | {check/rg:.2f}x |")
print(f"| src cascade status | {status*1000:.1f} ms | | |")
EOF
echo "machine: $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), $(uname -sr);" \
  "$(hyperfine --version), $(rg --version | head -1), src $("$bin" --version | cut -d" " -f2), tree at $(git -C "$here" rev-parse --short HEAD)"

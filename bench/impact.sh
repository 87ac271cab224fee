#!/usr/bin/env bash
# Impact benchmark: `src impact` for 50 changed files, process start included, against ripgrep
# doing the seed's grep-only DIRECT step for the same 50 files, in one run.
#
#   bench/impact.sh [large | TREE]          (default: large, the 50,000-file benchmark tree)
#
# The database and config live in a temporary state directory outside TREE (default scope).
# The 50 changed files are every 1000th in-scope file in path order (deterministic). Measures,
# with hyperfine in the same run (shell start subtracted by hyperfine):
#   1. src impact F1..F50 --format json     (indexed: freshness of 50 files, 2 graph reads, store)
#   2. rg -l -F -f names50.txt              (the seed's grep: one hop, no evidence, no transitive)
#   3. src impact F1..F50 on an empty database (degraded: two live scans; for reference)
# The 50 files are unchanged since the index, so no refresh is needed: the refresh of edited
# files is the index's incremental cost (bench/index.sh). SRC_DEBUG=FILE appends impact's
# phase timings to FILE.
# Goal: 1. under 100 ms median. Env: SRC (prebuilt binary, skips the build), RUNS (default 20), KEEP=1 keeps the state directory.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
runs=${RUNS:-20}
need hyperfine rg python3
tree_arg "${1:-large}" 16
new_state impact
rg_opts=("${default_rg_opts[@]}")
pick_binary

echo "== full index of $tree" >&2
"${src[@]}" index --full >/dev/null
(cd "$tree" && rg --files "${rg_opts[@]}" | sort | awk 'NR % 1000 == 1' | head -50) >"$state/changed.txt"
n=$(wc -l <"$state/changed.txt")
[ "$n" -eq 50 ] || echo "note: only $n changed files in $tree" >&2
# The seed's grep pattern per file: the stem, or the parent directory for a SKILL.md.
python3 - "$state/changed.txt" >"$state/names50.txt" <<'EOF'
import os, sys
for p in open(sys.argv[1]).read().split():
    base = os.path.basename(p)
    print(os.path.basename(os.path.dirname(p)) if base == "SKILL.md" else os.path.splitext(base)[0])
EOF
files=$(tr '\n' ' ' <"$state/changed.txt")

"${src[@]}" impact $files --format json >"$state/l1.json"
"${src[@]}" validate impact "$state/l1.json" >&2

echo "== impact (indexed) vs rg, and degraded" >&2
rg_cmd="cd $(q "$tree") && rg -l -F -f $(q "$state/names50.txt") $(q "${rg_opts[@]}") >/dev/null; test \$? -le 1"
hyperfine --warmup 3 --runs "$runs" --export-json "$state/impact.json" \
  -n "src impact (50 files)" "$(q "${src[@]}") impact $files --format json >/dev/null" \
  -n "rg -l -F -f names50.txt" "$rg_cmd" >&2
hyperfine --warmup 1 --runs 3 --export-json "$state/degraded.json" \
  --prepare "rm -f $(q "$state/empty.db" "$state/empty.db-wal" "$state/empty.db-shm")" \
  -n "src impact (50 files, no index)" \
  "$(q "$bin" --root "$tree" --db "$state/empty.db" --config "$cfg") impact $files --format json >/dev/null" >&2

python3 - "$state" "$tree" "$n" <<'EOF'
import json, sys
st, tree, n = sys.argv[1:]
res = json.load(open(f"{st}/impact.json"))["results"]
deg = json.load(open(f"{st}/degraded.json"))["results"][0]["median"]
l1 = json.load(open(f"{st}/l1.json"))
imp, rg = res[0]["median"], res[1]["median"]
print(f"tree: {tree}  changed files: {n}  status {l1['status']}, confidence {l1['confidence']}, "
      f"impact_candidates {l1['impact_candidates']}, hubs {len(l1.get('hubs', []))}")
print("| measure | median | comparison | ratio |")
print("|---|---|---|---|")
print(f"| src impact, 50 files, indexed | {imp*1000:.1f} ms | rg -l -F -f names50.txt: {rg*1000:.1f} ms | {imp/rg:.2f}x |")
print(f"| src impact, 50 files, no index (live scans) | {deg*1000:.0f} ms | | {deg/imp:.1f}x indexed |")
EOF
echo "machine: $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), $(uname -sr);" \
  "$(hyperfine --version), $(rg --version 2>/dev/null | head -1), src $("$bin" --version | cut -d" " -f2), tree at $(git -C "$here" rev-parse --short HEAD)"

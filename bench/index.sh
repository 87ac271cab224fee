#!/usr/bin/env bash
# Index benchmark: `src index --full` vs ripgrep doing the same job on the same files, in one run.
#
#   bench/index.sh TREE [--include GLOB]... [--exclude GLOB]...
#   bench/index.sh large | stdlib | usr-include        (the three reference trees)
#
# Without --include/--exclude the default scope applies (.claude/** and /CLAUDE.md minus the
# agent-memory / cc-reference exclusions). The database and config live in a temporary state
# directory outside TREE, so read-only trees work. Measures, with hyperfine in the same run:
#   1. full index:   src index --full          vs  rg -c -F -f patterns.txt over the same files,
#                    and (when sqlite3 is installed) SQLite alone writing the rows src stored:
#                    its edges and mentions copied into a fresh database in key order through
#                    the normal insert path, then the two secondary indexes built. That is a floor
#                    for src's single writer, whatever the scan costs.
#   2. incremental:  src index after editing 1 file (on a copy)  vs  rg --files (listing only)
#   3. src dependents per call (process start included), on a typical and the most mentioned file
#   4. peak RSS of src index --full (and of the rg run) via /usr/bin/time -v
# patterns.txt is every name exported by `src query patterns --format tsv`; the file lists of
# src (`query files`) and rg (`rg --files` with the same globs) are compared before timing.
# Env: SRC (prebuilt binary, skips the build), RUNS (hyperfine runs per command, default 5), KEEP=1 keeps the state directory.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-5}
die() { echo "bench/index.sh: $*" >&2; exit 2; }
for tool in hyperfine rg python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || die "$tool not found (apt-get install -y hyperfine ripgrep time)"
done

# ---- the tree and its scope ------------------------------------------------------------------
includes=(); excludes=()
case "${1:-}" in
  large)
    tree=${LARGE:-/tmp/large}
    if [ ! -d "$tree/.claude" ]; then
      python3 "${GEN:-$here/../shared/bench/gen-claude-tree.py}" --preset large --out "$tree/.claude" >&2
    fi ;;
  stdlib)
    tree=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')
    includes=("**/*.py") ;;
  usr-include)
    tree=/usr/include; includes=("**/*.h") ;;
  ""|-h|--help) sed -n '2,17p' "$0"; exit 2 ;;
  *) tree=$1 ;;
esac
shift
while [ $# -gt 0 ]; do
  case "$1" in
    --include) includes+=("$2"); shift 2 ;;
    --exclude) excludes+=("$2"); shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
[ -d "$tree" ] || die "$tree is not a directory"
tree=$(cd "$tree" && pwd)
if [ ${#includes[@]} -eq 0 ] && [ ${#excludes[@]} -eq 0 ]; then
  includes=(".claude/**" "/CLAUDE.md")
  excludes=(".claude/agent-memory/**" ".claude/agent-memory-local/**" ".claude/projects/*/memory/cc-reference/**")
fi

state=$(mktemp -d /tmp/src-bench.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$state"' EXIT
cfg=$state/config.yaml; db=$state/src.db
{
  echo "scope:"
  echo "  include:"; for g in "${includes[@]}"; do echo "    - \"$g\""; done
  if [ ${#excludes[@]} -gt 0 ]; then
    echo "  exclude:"; for g in "${excludes[@]}"; do echo "    - \"$g\""; done
  else
    echo "  exclude: []"
  fi
} >"$cfg"
# The same scope as ripgrep globs (gitignore syntax in both).
rg_globs=(); for g in "${includes[@]}"; do rg_globs+=(-g "$g"); done
for g in "${excludes[@]}"; do rg_globs+=(-g "!$g"); done
rg_opts=(--hidden --max-filesize 1M "${rg_globs[@]}")

# ---- build once ------------------------------------------------------------------------------
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
pick_binary

# TSV column by name, unescaped (\t \n \\), one value per line.
tsvcol() {
  python3 -c '
import sys
col = sys.argv[1]
rows = sys.stdin.read().split("\n")
idx = rows[0].split("\t").index(col)
un = lambda v: v.replace("\\\\", "\0").replace("\\t", "\t").replace("\\n", "\n").replace("\0", "\\")
for r in rows[1:]:
    if r:
        print(un(r.split("\t")[idx]))
' "$1"
}

# ---- prepare: one full index, patterns and file lists -----------------------------------------
echo "== first full index of $tree" >&2
"${src[@]}" index --full --json >"$state/index.json"
"${src[@]}" query patterns --format tsv | tsvcol pattern | sort -u >"$state/patterns.txt"
"${src[@]}" query files --format tsv | tsvcol path | sort >"$state/src-files.txt"
(cd "$tree" && rg --files "${rg_opts[@]}" | sort) >"$state/rg-files.txt"
n_src=$(wc -l <"$state/src-files.txt"); n_rg=$(wc -l <"$state/rg-files.txt")
n_pat=$(wc -l <"$state/patterns.txt")
only_rg=$(comm -13 "$state/src-files.txt" "$state/rg-files.txt" | wc -l)
only_src=$(comm -23 "$state/src-files.txt" "$state/rg-files.txt" | wc -l)
echo "files: src $n_src, rg $n_rg (only rg: $only_rg, only src: $only_src); patterns: $n_pat" >&2
# The most mentioned file: the dependents benchmark target.
# A typical file: the median number of dependents among files that have any.
"${src[@]}" query edges --format tsv | tsvcol dst | sort | uniq -c | sort -rn >"$state/indegree.txt"
hub=$(awk 'NR==1{print $2}' "$state/indegree.txt")
typical=$(awk -v m="$(( ($(wc -l <"$state/indegree.txt") + 1) / 2 ))" 'NR==m{print $2}' "$state/indegree.txt")

rg_full="cd $(q "$tree") && rg -c -F -f $(q "$state/patterns.txt") $(q "${rg_opts[@]}") >/dev/null; test \$? -le 1"
src_full="$(q "${src[@]}") index --full >/dev/null"
floor=()
if command -v sqlite3 >/dev/null; then
  # The same table definitions, page size and pragmas as src's database. `WHERE 1` keeps SQLite
  # from copying the rows page by page (its transfer optimisation), which src cannot use.
  {
    echo "PRAGMA page_size=$(sqlite3 "$db" 'PRAGMA page_size'); PRAGMA journal_mode=WAL;"
    echo "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF; PRAGMA cache_size=-65536;"
    sqlite3 "$db" "SELECT sql || ';' FROM sqlite_master WHERE type = 'table' AND name IN ('edges', 'mentions')"
    echo "ATTACH $(printf "'%s'" "$db") AS o;"
    echo "BEGIN;"
    echo "INSERT INTO main.edges SELECT * FROM o.edges WHERE 1;"
    echo "INSERT INTO main.mentions SELECT * FROM o.mentions WHERE 1;"
    echo "COMMIT;"
    sqlite3 "$db" "SELECT replace(sql, 'CREATE INDEX ', 'CREATE INDEX main.') || ';' FROM sqlite_master WHERE type = 'index' AND name IN ('edges_by_dst', 'mentions_by_name')"
  } >"$state/floor.sql"
  floor=(-n "sqlite3: src's rows, key order, + indexes" \
    "rm -f $(q "$state/floor.db" "$state/floor.db-wal" "$state/floor.db-shm"); sqlite3 $(q "$state/floor.db") <$(q "$state/floor.sql") >/dev/null")
else
  echo "sqlite3 not found: the SQLite floor is not measured (apt-get install -y sqlite3)" >&2
fi

# ---- 1. full index vs ripgrep ----------------------------------------------------------------
echo "== full index vs rg" >&2
hyperfine --warmup 1 --runs "$runs" --export-json "$state/full.json" \
  -n "src index --full" "$src_full" -n "rg -c -F -f patterns.txt" "$rg_full" "${floor[@]}" >&2

# ---- 2. incremental after one edit (on a writable copy) vs rg --files -------------------------
echo "== incremental vs rg --files" >&2
copy=$state/tree; mkdir -p "$copy"
(cd "$tree" && rg --files "${rg_opts[@]}" -0 | xargs -0 cp --parents -t "$copy")
csrc=("$bin" --root "$copy" --db "$state/copy.db" --config "$cfg")
"${csrc[@]}" index --full >/dev/null
victim=$(sed -n "$(( (n_src + 1) / 2 ))p" "$state/src-files.txt")  # a file mid-tree
edit="printf '\n# bench edit %s\n' \"\$(date +%s%N)\" >> $(q "$copy/$victim")"
hyperfine --warmup 1 --runs "$((runs * 2))" --export-json "$state/incr.json" \
  --prepare "$edit" -n "src index (1 file edited)" "$(q "${csrc[@]}") index >/dev/null" \
  -n "rg --files" "cd $(q "$copy") && rg --files $(q "${rg_opts[@]}") >/dev/null" >&2

# ---- 3. dependents per call --------------------------------------------------------------------
echo "== dependents $typical (typical) and $hub (most mentioned)" >&2
hyperfine -N --warmup 5 --runs 50 --export-json "$state/deps.json" \
  -n "src dependents (typical)" "$(q "${src[@]}") dependents $(q "$typical")" \
  -n "src dependents (most mentioned)" "$(q "${src[@]}") dependents $(q "$hub")" >&2

# ---- 4. peak RSS -------------------------------------------------------------------------------
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/{print $2}'; }
rss_src=$(rss "${src[@]}" index --full)
rss_rg=$(cd "$tree" && rss rg -c -F -f "$state/patterns.txt" "${rg_opts[@]}")

# ---- report ------------------------------------------------------------------------------------
python3 - "$state" "$tree" "$n_src" "$n_rg" "$n_pat" "$hub|$typical" "$rss_src" "$rss_rg" "$only_rg" "$only_src" <<'EOF'
import json, sys
st, tree, n_src, n_rg, n_pat, hub, rss_src, rss_rg, only_rg, only_src = sys.argv[1:]
med = lambda f, i: json.load(open(f"{st}/{f}.json"))["results"][i]["median"]
full_src, full_rg = med("full", 0), med("full", 1)
full_json = json.load(open(f"{st}/full.json"))["results"]
floor = full_json[2]["median"] if len(full_json) > 2 else None
inc, lst = med("incr", 0), med("incr", 1)
dep, dep_hub = med("deps", 0), med("deps", 1)
print(f"tree: {tree}  files: src {n_src} / rg {n_rg} (only rg {only_rg}, only src {only_src})  names: {n_pat}")
print(f"| measure | src | comparison | ratio |")
print(f"|---|---|---|---|")
print(f"| full index (median) | {full_src:.3f} s | rg -c -F -f: {full_rg:.3f} s | {full_src/full_rg:.2f}x |")
if floor is not None:
    print(f"| SQLite alone writing the same rows (floor) | {floor:.3f} s | rg: {full_rg:.3f} s | {floor/full_rg:.2f}x (src/floor {full_src/floor:.2f}x) |")
print(f"| re-index after 1 edit | {inc*1000:.1f} ms | rg --files: {lst*1000:.1f} ms | {inc/lst:.2f}x |")
print(f"| dependents per call, typical file | {dep*1000:.2f} ms | | |")
print(f"| dependents per call, most mentioned file | {dep_hub*1000:.2f} ms | | |")
print(f"| peak RSS, full index | {int(rss_src)/1024:.1f} MiB | rg: {int(rss_rg)/1024:.1f} MiB | |")
print(f"dependents targets (most mentioned|typical): {hub}")
EOF
echo "index summary: $(cat "$state/index.json")"
echo "machine: $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), $(uname -sr);" \
  "$(hyperfine --version), $(rg --version | head -1), src $("$bin" --version | cut -d" " -f2), tree at $(git -C "$here" rev-parse --short HEAD)"

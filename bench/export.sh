#!/usr/bin/env bash
# Export benchmark: `src export-map`, `--check` and `src graph` on a big tree, against the
# incremental `src index` every export starts with (its floor), in one hyperfine run.
#
#   bench/export.sh [large | TREE]          (default: large, the 50,000-file benchmark tree)
#
# The database, config and map live in a temporary state directory outside TREE. Measures, with
# the index already built and nothing changed (the common case: a re-export after a session):
#   1. src index                                   (no-op refresh: the floor)
#   2. src export-map --out MAP --max-lines 0      (refresh + read graph + render + compare)
#   3. src export-map --check MAP --max-lines 0    (parse + validate + stat every entry)
#   4. src graph --format dot                      (refresh + read graph + draw the hotspots)
# Env: SRC (prebuilt binary, skips the build), RUNS (default 5), KEEP=1 keeps the state directory.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
runs=${RUNS:-5}
need hyperfine
tree_arg "${1:-large}" 13
new_state export
map=$state/codebase-map.md
pick_binary

echo "== full index and first export of $tree" >&2
"${src[@]}" index --full >/dev/null
"${src[@]}" export-map --out "$map" --max-lines 0 >&2
echo "entries: $(grep -c '^## ' "$map"), map lines: $(wc -l <"$map")" >&2

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
echo "commit: $(cd "$here" && git rev-parse --short HEAD)"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$state/table.json" \
  -n "src index (no-op)" "$(q "${src[@]}" index)" \
  -n "src export-map (unchanged)" "$(q "${src[@]}" export-map --out "$map" --max-lines 0)" \
  -n "src export-map --check" "$(q "${src[@]}" export-map --check "$map" --max-lines 0)" \
  -n "src graph --format dot" "$(q "${src[@]}" graph --format dot)" >&2 || true
python3 - "$state/table.json" <<'EOF'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
base = res[0]["median"]
print("| command | median | user + sys CPU (mean) | vs `src index` (median) |")
print("|---|---|---|---|")
for r in res:
    print(f"| `{r['command']}` | {r['median']*1000:.0f} ms | {r['user']:.2f} + {r['system']:.2f} s | {r['median']/base:.2f} |")
EOF
echo "src $("$bin" --version | cut -d' ' -f2)"

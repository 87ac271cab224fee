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
# Env: RUNS (default 5), KEEP=1 keeps the state directory.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-5}
die() { echo "bench/export.sh: $*" >&2; exit 2; }
command -v hyperfine >/dev/null || die "hyperfine not found (apt-get install -y hyperfine)"

case "${1:-large}" in
  large)
    tree=/tmp/large
    if [ ! -d "$tree/.claude" ]; then
      python3 /work/shared/bench/gen-claude-tree.py --preset large --out "$tree/.claude" >&2
    fi ;;
  -h|--help) sed -n '2,13p' "$0"; exit 2 ;;
  *) tree=$1 ;;
esac
[ -d "$tree" ] || die "$tree is not a directory"
tree=$(cd "$tree" && pwd)

state=$(mktemp -d /tmp/src-bench-export.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$state"' EXIT
cfg=$state/config.yaml; db=$state/src.db; map=$state/codebase-map.md
: >"$cfg"

echo "== building release" >&2
(cd "$here" && cargo build --release --quiet)
bin=$here/target/release/src
src=("$bin" --root "$tree" --db "$db" --config "$cfg")
q() { printf '%q ' "$@"; }

echo "== full index and first export of $tree" >&2
"${src[@]}" index --full >/dev/null
"${src[@]}" export-map --out "$map" --max-lines 0 >&2
echo "entries: $(grep -c '^## ' "$map"), map lines: $(wc -l <"$map")" >&2

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
echo "commit: $(cd "$here" && git rev-parse --short HEAD)"
hyperfine -N --warmup 1 --runs "$runs" --export-markdown "$state/table.md" \
  -n "src index (no-op)" "$(q "${src[@]}" index)" \
  -n "src export-map (unchanged)" "$(q "${src[@]}" export-map --out "$map" --max-lines 0)" \
  -n "src export-map --check" "$(q "${src[@]}" export-map --check "$map" --max-lines 0)" \
  -n "src graph --format dot" "$(q "${src[@]}" graph --format dot)" >&2 || true
cat "$state/table.md"

#!/usr/bin/env bash
# Precision and recall of `src query edges` against the hand-labelled real trees in
# ../shared/realrefs (the reference rubric, its labels and its scorer), for BENCHMARKS.md.
#
#   bench/realrefs.sh            (builds the release binary unless SRC names one)
#
# Prints the scorer's lines: precision and recall per labelled tree (weighted by how many
# candidate lines each labelled target has) and the worst of each. Env: SRC (prebuilt binary),
# SHARED (default ../shared beside the repository), RR_FLAGS=-v for one line per target.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
if [[ ! -f "$shared/realrefs/score.py" ]]; then
    echo "realrefs.sh: no $shared/realrefs/score.py (set SHARED)" >&2
    exit 2
fi
if [[ -z "${SRC:-}" ]]; then
    cargo build --release --locked --quiet
    SRC=target/release/src
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3 "$shared/realrefs/score.py" "$SRC" "$scratch" "$shared/realrefs/data" \
    wsh="$shared/corpora/wshobson__agents" sp="$shared/corpora/obra__superpowers"

# Shared by the bench scripts (sourced after `set -euo pipefail`): argument and tree handling,
# the temporary state directory, ripgrep's view of the default scope, and the binary under test.

here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "bench/$(basename "$0"): $*" >&2; exit 2; }

# need TOOL...: fail early with how to install what is missing.
need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null || die "$tool not found (apt-get install -y hyperfine ripgrep)"
  done
}

# tree_arg ARG LAST_HELP_LINE: sets $tree; `large` (the default) is the 50,000-file benchmark
# tree, generated once under /tmp/large; -h prints the script's header comment.
tree_arg() {
  case "${1:-large}" in
    large)
      tree=${LARGE:-/tmp/large}
      if [ ! -d "$tree/.claude" ]; then
        python3 "${GEN:-$here/../shared/bench/gen-claude-tree.py}" --preset large --out "$tree/.claude" >&2
      fi ;;
    -h|--help) sed -n "2,${2}p" "$0"; exit 2 ;;
    *) tree=$1 ;;
  esac
  [ -d "$tree" ] || die "$tree is not a directory"
  tree=$(cd "$tree" && pwd)
}

# new_state NAME: $state (removed on exit unless KEEP=1), $db, and $cfg, an empty config (the
# defaults), all outside the tree so read-only trees can be measured.
new_state() {
  state=$(mktemp -d "/tmp/src-bench-$1.XXXXXX")
  [ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$state"' EXIT
  cfg=$state/config.yaml
  db=$state/src.db
  : >"$cfg"
}

# ripgrep options that select the same files as src's default scope.
default_rg_opts=(--hidden --max-filesize 1M -g '.claude/**' -g '/CLAUDE.md'
  -g '!.claude/agent-memory/**' -g '!.claude/agent-memory-local/**'
  -g '!.claude/projects/*/memory/cc-reference/**')

# pick_binary: SRC=/path/to/src uses a prebuilt binary; otherwise the release binary is built
# once. Sets $bin and the base command array $src (needs $tree, $db, $cfg).
pick_binary() {
  if [ -n "${SRC:-}" ]; then
    bin=$(realpath "$SRC")
  else
    echo "== building release" >&2
    (cd "$here" && cargo build --release --quiet)
    bin=$here/target/release/src
  fi
  src=("$bin" --root "$tree" --db "$db" --config "$cfg")
}

q() { printf '%q ' "$@"; }

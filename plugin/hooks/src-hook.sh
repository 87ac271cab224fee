#!/bin/sh
# The src plugin's hooks run `src hook <name>` through this script. src is a native binary
# installed apart from the plugin (`cargo install`); Claude Code runs hooks with its own PATH,
# which need not hold cargo's bin folder, so that is tried too. SRC_BIN names the binary outright.
# Without src the hook reads its input and exits 0: a hook never fails the session.
if [ -n "${SRC_BIN:-}" ] && [ -f "$SRC_BIN" ] && [ -x "$SRC_BIN" ]; then
  exec "$SRC_BIN" hook "$@"
fi
if command -v src >/dev/null 2>&1; then
  exec src hook "$@"
fi
bin=${CARGO_HOME:-$HOME/.cargo}/bin/src
if [ -f "$bin" ] && [ -x "$bin" ]; then
  exec "$bin" hook "$@"
fi
cat >/dev/null 2>&1
exit 0

#!/usr/bin/env bash
# Times every canned query of `src query` on an indexed tree (whole process: start, Ctx::open,
# query, output to /dev/null), against the sqlite3 shell running the same SQL with the same
# literal values on the same database file (the floor: SQLite alone).
#
# Usage: bench/query.sh ROOT [SRC_BIN]
#   ROOT     a project root holding .claude/ (e.g. /tmp/large from
#            `python3 ../shared/bench/gen-claude-tree.py --preset large --out /tmp/large/.claude`)
#   SRC_BIN  default target/release/src (build it with `cargo build --release`)
# Indexes ROOT first when it has no database. When the database holds no events, it adds a
# deterministic synthetic log (2,000 sessions, 1 to 40 edits each, over the indexed files; half
# of each session's edits come from one of 50 shared working sets, so files do co-change) so the
# event queries have something to chew; the report says so.
# Needs hyperfine and sqlite3 (apt-get install -y hyperfine sqlite3). Results: $OUT (markdown).
set -euo pipefail

root=$(cd "$1" && pwd)
bin=$(realpath "${2:-target/release/src}")
here=$(cd "$(dirname "$0")/.." && pwd)
db=$root/.src/src.db
out=${OUT:-/tmp/bench-query}
mkdir -p "$out/sql"

[ -f "$db" ] || "$bin" --root "$root" index --full >/dev/null

if [ "$(sqlite3 "$db" 'SELECT count(*) FROM events')" = 0 ]; then
    echo "no events: adding a synthetic log of 2,000 sessions" >&2
    sqlite3 "$db" "
        WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < 1999),
             e(session, k) AS (SELECT s.n, k.n FROM s JOIN s AS k ON k.n < 1 + (s.n * 7919) % 40),
             nf(c) AS (SELECT count(*) FROM files)
        INSERT INTO events(session_id, tool_name, abs_path, path, agent_type, ts, source)
        SELECT 'bench-' || session, 'Edit', '$root/' || f.path, f.path,
               CASE session % 3 WHEN 0 THEN 'implementer' ELSE NULL END,
               strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now', '-' || ((session * 37 + k) % 43200) || ' minutes'),
               'import'
        FROM e, nf
        JOIN files AS f ON f.id = 1 + (CASE WHEN k % 2 = 0
                                            THEN (session % 50) * 613 + k * 7877
                                            ELSE session * 104729 + k * 7877 + (k * k) % 97
                                       END) % nf.c;"
fi

# Worst case and typical case for the per-file queries: the most referenced file, and a file
# with the median number of dependents among files that have any.
hub=$(sqlite3 "$db" "SELECT f.path FROM edges e JOIN files f ON f.id = e.dst_id
                     GROUP BY e.dst_id ORDER BY count(*) DESC, f.path LIMIT 1")
typical=$(sqlite3 "$db" "WITH c(id, n) AS (SELECT dst_id, count(*) FROM edges GROUP BY dst_id)
                         SELECT f.path FROM c JOIN files f ON f.id = c.id ORDER BY c.n, f.path
                         LIMIT 1 OFFSET (SELECT count(*) / 2 FROM c)")
session=$(sqlite3 "$db" "SELECT session_id FROM events ORDER BY id DESC LIMIT 1")

# name|label|params (k=v;...). Literal values for sqlite3 are the same strings, quoted.
cases=(
    "dependents|dependents (typical file)|file=$typical"
    "dependents|dependents (most referenced)|file=$hub"
    "references|references (typical file)|file=$typical"
    "transitive|transitive depth 3 (typical file)|file=$typical;depth=3"
    "transitive|transitive depth 3 (most referenced)|file=$hub;depth=3"
    "session-changes|session-changes (latest)|session=$session"
    "hotspots|hotspots||"
    "orphans|orphans||"
    "cycles|cycles||"
    "co-change|co-change||"
    "unresolved|unresolved||"
    "stale|stale||"
)
defaults="days=7;limit=20;min=2"

report=$out/report.md
{
    echo "Tree: $root ($(sqlite3 "$db" 'SELECT count(*) FROM files') files,"\
         "$(sqlite3 "$db" 'SELECT count(*) FROM edges') edges,"\
         "$(sqlite3 "$db" 'SELECT count(*) FROM mentions') mentions,"\
         "$(sqlite3 "$db" 'SELECT count(*) FROM events') events)"
    echo "Binary: $bin; sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
    echo
    echo "| query | src query (ms) | sqlite3 same SQL (ms) | ratio | rows |"
    echo "|---|---|---|---|---|"
} >"$report"

i=0
for c in "${cases[@]}"; do
    IFS='|' read -r name label params <<<"$c"
    i=$((i + 1))
    sql=$(grep -v '^[[:space:]]*--' "$here/queries/$name.sql")
    args=()
    IFS=';' read -ra kvs <<<"$params;$defaults"
    for kv in "${kvs[@]}"; do
        [ -n "$kv" ] || continue
        k=${kv%%=*}
        v=${kv#*=}
        grep -q ":$k\b" <<<"$sql" || continue
        # Only the query's own parameters go on the command line.
        case " ${args[*]} " in *" $k="*) continue ;; esac
        args+=("$k=$v")
        lit=$v
        [[ $v =~ ^[0-9]+$ ]] || lit="'${v//\'/\'\'}'"
        sql=$(sed "s|:$k\b|$lit|g" <<<"$sql")
    done
    printf '%s;\n' "$sql" >"$out/sql/$i.sql"
    pa=()
    for a in "${args[@]}"; do pa+=(-p "$a"); done
    rows=$("$bin" --root "$root" query "$name" "${pa[@]}" -f tsv | tail -n +2 | wc -l)
    src_cmd=$(printf '%q ' "$bin" --root "$root" query "$name" "${pa[@]}" -f tsv)
    hyperfine --warmup 3 --min-runs 15 --style none --export-json "$out/$i.json" \
        -n src "$src_cmd > /dev/null" \
        -n sqlite3 "sqlite3 $(printf '%q' "$db") < $(printf '%q' "$out/sql/$i.sql") > /dev/null" >/dev/null
    python3 - "$out/$i.json" "$label" "$rows" >>"$report" <<'EOF'
import json, sys
r = {x["command"]: x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]}
print(f"| {sys.argv[2]} | {r['src']:.1f} | {r['sqlite3']:.1f} | {r['src'] / r['sqlite3']:.2f} | {sys.argv[3]} |")
EOF
done
cat "$report"

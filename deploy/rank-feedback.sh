#!/usr/bin/env bash
# deploy/rank-feedback.sh: what it does and takes is the usage text of usage() below,
# which `--help` prints (so the help never shows the script's code).
usage() {
  cat <<'EOF'
Ranking feedback while a cluster crawl runs: every INTERVAL seconds the
workers export their part of the graph (crawlctl export), the ranker ranks
it (deploy/rank.sh run, one process or -n N under MPI) and the page ranks
go back to the workers owning them (crawlctl push-ranks), where
topic-pagerank and url-rule re-score their queued URLs. Stops when the
crawl is DONE or STOPPED.

  deploy/rank-feedback.sh [-n N] [--interval S] [--algorithm A] [--rounds K]

Defaults: N 1, interval 30 s, algorithm topic-pagerank (use url-rule for a
url-rule crawl), rounds: until converged.
Environment: CLUSTER_GRPC (the coordinator, 127.0.0.1:7000),
CLUSTER_TOKEN_FILE, FEEDBACK_DIR (exports and rankings, default
build/feedback), BUILD. The export folder must be one the workers can
write and this script can read (one machine, or a shared file system).
EOF
}
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
grpc="${CLUSTER_GRPC:-127.0.0.1:7000}"
dir="${FEEDBACK_DIR:-$build/feedback}"
auth=()
if [ -n "${CLUSTER_TOKEN_FILE:-}" ]; then auth=(--token_file "$CLUSTER_TOKEN_FILE"); fi
n=1 interval=30 algorithm="" rounds=""
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    --interval) interval=$2; shift 2 ;;
    --algorithm) algorithm=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "rank-feedback.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
crawlctl() { "$build/crawlctl/crawlctl" --coordinator "$grpc" "${auth[@]}" "$@"; }
field() { /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get(sys.argv[1], ""))' "$1"; }

status=$(crawlctl status --json)
crawl=$(echo "$status" | field crawlId)
[ -n "$crawl" ] || { echo "rank-feedback.sh: no crawl on $grpc" >&2; exit 1; }
mkdir -p "$dir"
if [ -z "$algorithm" ]; then algorithm=topic-pagerank; fi
round=0
while true; do
  state=$(crawlctl status --json | field state)
  case "$state" in DONE|STOPPED) echo "crawl $crawl is $state"; break ;; esac
  round=$((round + 1))
  out="$dir/$crawl/$round"
  rm -rf "$out"; mkdir -p "$out"
  echo "== feedback $round: export" >&2
  # A worker that has not started the crawl yet has nothing to export; the
  # next interval tries again.
  if ! crawlctl export "$out/graph" >&2; then
    echo "rank-feedback.sh: export failed; trying again in $interval s" >&2
    sleep "$interval"; continue
  fi
  shards=()
  for d in "$out"/graph/*/; do
    if compgen -G "$d*.fcg" >/dev/null; then shards+=("$d"); fi
  done
  if [ "${#shards[@]}" -eq 0 ]; then
    echo "rank-feedback.sh: no pages exported yet; trying again in $interval s" >&2
    sleep "$interval"; continue
  fi
  flags=(--algorithm "$algorithm" --quiet --out "$out/ranking.tsv")
  if [ -n "$rounds" ]; then flags+=(--max_rounds "$rounds"); fi
  echo "== feedback $round: rank ($algorithm, $n process(es))" >&2
  "$root/deploy/rank.sh" run -n "$n" "${flags[@]}" "${shards[@]}" > "$out/summary.json"
  echo "== feedback $round: push" >&2
  crawlctl push-ranks "$out/ranking.tsv" --crawl "$crawl" || {
    # The crawl may have ended between the export and the push.
    state=$(crawlctl status --json | field state)
    case "$state" in DONE|STOPPED) echo "crawl $crawl is $state"; break ;; esac
    exit 1
  }
  sleep "$interval"
done

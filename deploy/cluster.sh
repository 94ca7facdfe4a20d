#!/usr/bin/env bash
# A crawl cluster on this machine: one coordinator and N workers, each worker
# its own process, port and data folder (docs/design.md "Local cluster and scale").
#
#   deploy/cluster.sh start N      coordinator + N workers (fails if running)
#   deploy/cluster.sh add K        K more workers (they join the running crawl;
#                                  hosts move to them)
#   deploy/cluster.sh remove K     K workers leave: they hand their hosts over
#                                  and exit
#   deploy/cluster.sh scale N      add or remove workers until there are N
#   deploy/cluster.sh status       the coordinator's status (crawlctl status)
#   deploy/cluster.sh stop         stops every process (data folders stay; a
#                                  start on the same folder brings its
#                                  workers back as members)
#
# Environment: CLUSTER_DIR (default build/cluster: pids, addresses, logs,
# data), CLUSTER_GRPC (coordinator gRPC address, default 127.0.0.1:7000),
# CLUSTER_HTTP (status page and /metrics, default 127.0.0.1:7080),
# CLUSTER_TOKEN_FILE (a shared token every call must carry; none by
# default), CLUSTER_LEASE_MS (worker lease, default 5000), BUILD (the build
# folder, default build), CLUSTER_EXPORT_ROOT (the folder workers write graph
# exports in, `worker join --export_root`; default the build folder),
# CLUSTER_SEARCH_INDEX (a search index of the crawl, `worker index --index`,
# that the status page's search box queries; default DIR/search).
# Each process logs to DIR/logs/NAME.log (a worker: its crawl's progress
# every 2 s, joins, hand-overs and errors).
# Everything binds to loopback unless told otherwise.
# Crawls are started with build/crawlctl/crawlctl start CONFIG.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
dir="${CLUSTER_DIR:-$build/cluster}"
grpc="${CLUSTER_GRPC:-127.0.0.1:7000}"
http="${CLUSTER_HTTP:-127.0.0.1:7080}"
lease="${CLUSTER_LEASE_MS:-5000}"
export_root="${CLUSTER_EXPORT_ROOT:-$build}"
search_index="${CLUSTER_SEARCH_INDEX:-$dir/search}"
auth=()
if [ -n "${CLUSTER_TOKEN_FILE:-}" ]; then auth=(--token_file "$CLUSTER_TOKEN_FILE"); fi

die() { echo "cluster.sh: $*" >&2; exit 1; }
# The header above, without its '#': what the script does and takes.
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
crawlctl() { "$build/crawlctl/crawlctl" --coordinator "$(coordinator_address)" "${auth[@]}" "$@"; }
coordinator_address() { sed -n 's/.*grpc=\([^ ]*\).*/\1/p' "$dir/coordinator.addr"; }

# Live workers: their names, one a line.
workers() {
  local f
  for f in "$dir"/workers/*.pid; do
    [ -e "$f" ] || continue
    if alive "$f"; then basename "$f" .pid; fi
  done
}

start_worker() {
  local name=$1 out
  mkdir -p "$dir/workers" "$dir/data/$name"
  # Emptied here, not by the redirect below: that one happens in the
  # background process, possibly after the loop has read a stopped
  # worker's old address.
  rm -f "$dir/workers/$name.addr"
  "$build/worker/worker" join "$(coordinator_address)" --name "$name" \
    --data "$dir/data/$name" --listen 127.0.0.1:0 --export_root "$export_root" \
    "${auth[@]}" \
    > "$dir/workers/$name.addr" 2> "$dir/logs/$name.log" &
  echo $! > "$dir/workers/$name.pid"
  for _ in $(seq 100); do
    out=$(cat "$dir/workers/$name.addr" 2>/dev/null || true)
    [ -n "$out" ] && { echo "started $out"; return 0; }
    alive "$dir/workers/$name.pid" || die "worker $name did not start: $(tail -3 "$dir/logs/$name.log")"
    sleep 0.1
  done
  die "worker $name did not report its address"
}

# The next unused worker number.
next_index() {
  local i=1
  while [ -e "$dir/workers/w$i.pid" ] && alive "$dir/workers/w$i.pid"; do i=$((i + 1)); done
  # Reuse a stopped worker's name (and folder) only after the live ones.
  echo "$i"
}

add() {
  local k=$1 i
  for _ in $(seq "$k"); do
    i=$(next_index)
    start_worker "w$i"
  done
}

remove() {
  local k=$1 n
  n=$(workers | wc -l)
  [ "$k" -le "$n" ] || die "only $n workers are running"
  crawlctl scale $((n - k))
}

cmd=${1:-}
case "$cmd" in
  start)
    n=${2:?usage: cluster.sh start N}
    [ -x "$build/coordinator/coordinator" ] || die "not built: run deploy/build.sh"
    if alive "$dir/coordinator.pid"; then die "a cluster is running in $dir (cluster.sh stop)"; fi
    mkdir -p "$dir/logs" "$dir/workers"
    rm -f "$dir/coordinator.addr"  # not a stopped coordinator's address
    "$build/coordinator/coordinator" serve --listen "$grpc" --http "$http" \
      --data "$dir/coordinator" --lease_ms "$lease" "${auth[@]}" \
      --search_index "$search_index" \
      > "$dir/coordinator.addr" 2> "$dir/logs/coordinator.log" &
    echo $! > "$dir/coordinator.pid"
    for _ in $(seq 100); do
      [ -s "$dir/coordinator.addr" ] && break
      alive "$dir/coordinator.pid" || die "the coordinator did not start: $(tail -3 "$dir/logs/coordinator.log")"
      sleep 0.1
    done
    cat "$dir/coordinator.addr"
    add "$n"
    ;;
  add) add "${2:?usage: cluster.sh add K}" ;;
  remove) remove "${2:?usage: cluster.sh remove K}" ;;
  scale)
    want=${2:?usage: cluster.sh scale N}
    n=$(workers | wc -l)
    if [ "$want" -gt "$n" ]; then add $((want - n)); else crawlctl scale "$want"; fi
    ;;
  status) crawlctl status ;;
  stop)
    # The coordinator first: a worker's first signal makes it leave the
    # cluster, and a coordinator that saw its workers leave lists them as
    # draining when it starts again, so a new worker of the same name would
    # be told to finish draining and exit. Stopped together, they come back
    # as the members they were.
    for f in "$dir/coordinator.pid" "$dir"/workers/*.pid; do
      [ -e "$f" ] || continue
      if alive "$f"; then
        pid=$(cat "$f")
        # Twice: a worker's first signal is a request to leave.
        kill -TERM "$pid" 2>/dev/null || true
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
      fi
      rm -f "$f"
    done
    echo "stopped (data in $dir)"
    ;;
  -h|--help|help) usage ;;
  "") usage >&2; die "a command is needed (see above)" ;;
  *) usage >&2; die "unknown command '$cmd' (see above)" ;;
esac

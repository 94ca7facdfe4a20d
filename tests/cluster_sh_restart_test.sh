#!/usr/bin/env bash
# deploy/cluster.sh start 2, stop, start 2 on the same folder gives a
# cluster of w1 and w2 again. It gave w1 alone: stop made each worker leave
# (the coordinator listed it as draining) before the coordinator stopped,
# so the restarted coordinator told the new w1 to finish draining and exit,
# and start, finding no live w1, started w1 a second time instead of w2.
# Usage: cluster_sh_restart_test.sh CLUSTER_SH BUILD_DIR TEMP_DIR (the
# binaries are BUILD_DIR's; the cluster's folder is made in TEMP_DIR)
set -uo pipefail
sh=$1
export BUILD=$2
export CLUSTER_DIR=$3/cluster
export CLUSTER_GRPC=127.0.0.1:0 CLUSTER_HTTP=127.0.0.1:0
# The default lease (5 s): a shorter one could expire the stopped workers'
# entries before the restart and hide the bug.
rm -rf "$CLUSTER_DIR"
trap 'bash "$sh" stop >/dev/null 2>&1' EXIT
fail() { echo "FAIL: $*"; tail -n 5 "$CLUSTER_DIR"/logs/*.log; exit 1; }

# Both workers alive and both members of the coordinator's view, for a
# couple of heartbeats in a row (a worker told to drain exits within one).
check_two() {
  local ok=0 members
  for _ in $(seq 100); do
    members=$(bash "$sh" status 2>/dev/null | grep -oE '\bw[0-9]+\b' | sort -u | tr '\n' ' ')
    if [ -e "$CLUSTER_DIR/workers/w1.pid" ] && kill -0 "$(cat "$CLUSTER_DIR/workers/w1.pid")" 2>/dev/null &&
       [ -e "$CLUSTER_DIR/workers/w2.pid" ] && kill -0 "$(cat "$CLUSTER_DIR/workers/w2.pid")" 2>/dev/null &&
       [ "$members" = "w1 w2 " ]; then
      ok=$((ok + 1))
      [ "$ok" -ge 10 ] && return 0
    else
      ok=0
    fi
    sleep 0.2
  done
  fail "$1: want w1 and w2 alive and members, status lists '${members}'"
}

bash "$sh" start 2 >/dev/null || fail "first start"
check_two "first start"
bash "$sh" stop >/dev/null || fail "stop"
bash "$sh" start 2 >/dev/null || fail "second start"
check_two "start after stop"
echo ok

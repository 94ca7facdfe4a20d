#!/usr/bin/env bash
# deploy/cluster.sh --help prints the whole usage and exits 0; no command
# prints it on stderr, says a command is needed and exits 1.
set -uo pipefail
sh=$1
out=$(bash "$sh" --help) || { echo "cluster.sh --help exited $?"; exit 1; }
grep -q 'deploy/cluster.sh start N' <<<"$out" || { echo "--help: no usage: $out"; exit 1; }
err=$(bash "$sh" 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 1 ] || { echo "no command: exit $rc"; exit 1; }
grep -q 'a command is needed' <<<"$err" || { echo "no command: $err"; exit 1; }
grep -q 'deploy/cluster.sh stop' <<<"$err" || { echo "no command: no usage: $err"; exit 1; }
echo ok

#!/usr/bin/env bash
# deploy/rank.sh: what it does and takes is the usage text of usage() below,
# which `--help` prints (so the help never shows the script's code).
usage() {
  cat <<'EOF'
A ranking as batch jobs on this machine, one process or several under MPI
(Debian's OpenMPI). Each call of `round` is one batch job: it runs exactly
one round from the last checkpoint in CHECKPOINT_DIR and writes the next
one, so a scheduler (cron, a Kubernetes Job: deploy/k8s/) can run rounds
one by one and a killed job loses at most its round.

  deploy/rank.sh round  [-n N] [RANKER FLAGS] --checkpoint_dir D SHARDS...
  deploy/rank.sh run    [-n N] [RANKER FLAGS] [--checkpoint_dir D] SHARDS...
  deploy/rank.sh output [RANKER FLAGS] --checkpoint_dir D --out F SHARDS...

-n N (default RANK_PROCESSES, else 1): N > 1 runs `mpirun -np N
ranker-mpi`, every process owning a slice of the pages (ranker/README.md
"Many processes (MPI)"); N = 1 runs `ranker`. Both give the same scores.
RANKER FLAGS are those of `ranker --help` (--algorithm, --out, --max_rounds,
...). Extra mpirun options go in MPIRUN_FLAGS (e.g. "--hostfile hosts" for
several machines; every machine must see the shards and the checkpoint
folder at the same paths). BUILD is the build folder (default build).

Exit status: that of the ranker (0 done, 1 error, 2 usage, 130 stopped).
EOF
}
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"

bad_usage() { usage >&2; exit 2; }
[ $# -ge 1 ] || bad_usage
cmd=$1; shift
case "$cmd" in run|round|output|info) ;; -h|--help|help) usage; exit 0 ;; *) echo "rank.sh: unknown command '$cmd'" >&2; bad_usage ;; esac
n="${RANK_PROCESSES:-1}"
if [ "${1:-}" = "-n" ]; then
  [ $# -ge 2 ] || bad_usage
  n=$2; shift 2
fi
case "$n" in ''|*[!0-9]*) echo "rank.sh: -n needs a process count, not '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "rank.sh: -n must be at least 1" >&2; exit 2; }

if [ "$n" -eq 1 ] || [ "$cmd" = output ] || [ "$cmd" = info ]; then
  exec "$build/ranker/ranker" "$cmd" "$@"
fi
mpi_bin="$build/ranker/ranker-mpi"
[ -x "$mpi_bin" ] || { echo "rank.sh: $mpi_bin is missing (build with libopenmpi-dev installed: deploy/install-deps.sh)" >&2; exit 1; }
command -v mpirun >/dev/null || { echo "rank.sh: mpirun is missing (apt install openmpi-bin)" >&2; exit 1; }
flags=()
# OpenMPI refuses root unless told; containers often run as root.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# More processes than cores on one machine is allowed (slower, not wrong).
flags+=(--oversubscribe)
# shellcheck disable=SC2206
extra=(${MPIRUN_FLAGS:-})
exec mpirun -np "$n" "${flags[@]}" "${extra[@]}" "$mpi_bin" "$cmd" "$@"

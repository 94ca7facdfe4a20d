#!/usr/bin/env bash
# Builds the project's image (deploy/Dockerfile) on this machine with podman,
# from a Debian 12 base made here by debootstrap: nothing is pulled from a
# container registry. With --demo it then runs the main job (deploy/demo.sh:
# the three-worker cluster crawl, ranking and search) inside the image.
#
#   deploy/image.sh [--demo] [--tag fcrawl:latest] [--mirror URL] [--work DIR]
#
# Needs root (debootstrap, and podman's rootful storage). Installs podman,
# buildah, debootstrap and runc from Debian when they are missing. Containers
# run with runc and cgroupfs (podman's default crun fails on some kernels'
# cgroups), the host's network (the build's apt and the demo's loopback
# cluster), and explicit nofile/nproc limits (the defaults are above what an
# unprivileged sandbox may set).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TAG=fcrawl:latest
MIRROR=http://deb.debian.org/debian
WORK="$ROOT/build/image"
DEMO=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --demo) DEMO=1 ;;
    --tag|--mirror|--work)
      if [[ $# -lt 2 ]]; then echo "image.sh: $1 needs a value" >&2; exit 2; fi
      case "$1" in --tag) TAG=$2 ;; --mirror) MIRROR=$2 ;; --work) WORK=$2 ;; esac
      shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "image.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [[ $(id -u) -ne 0 ]]; then
  echo "image.sh: needs root (debootstrap and podman's rootful storage)" >&2
  exit 2
fi
missing=()
for p in podman buildah debootstrap runc; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The limits a container gets: this shell's own (never above what the
# runtime may set here), nproc capped so it stays below the sandbox's cap.
nofile=$(ulimit -Hn)
[[ $nofile == unlimited ]] && nofile=1048576
nproc=$(ulimit -Hu)
[[ $nproc == unlimited || $nproc -gt 8192 ]] && nproc=8192
PODMAN=(podman --runtime runc --cgroup-manager=cgroupfs)
LIMITS=(--ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")

# The base: the Dockerfile's FROM debian:12, made here once.
BASE=docker.io/library/debian:12
if ! "${PODMAN[@]}" image exists "$BASE"; then
  mkdir -p "$WORK"
  rootfs="$WORK/rootfs"
  rm -rf "$rootfs"
  echo "image.sh: debootstrap bookworm from $MIRROR into $rootfs" >&2
  debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$WORK/debootstrap.log"
  printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' "$MIRROR" "$MIRROR" \
    >"$rootfs/etc/apt/sources.list"
  tar -C "$rootfs" -c . | "${PODMAN[@]}" import --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
  rm -rf "$rootfs"
fi

echo "image.sh: building $TAG from deploy/Dockerfile" >&2
start=$(date +%s)
"${PODMAN[@]}" build --pull=never --network=host "${LIMITS[@]}" \
  -f "$ROOT/deploy/Dockerfile" -t "$TAG" "$ROOT"
echo "image.sh: $TAG built in $(( $(date +%s) - start )) s;" \
  "$("${PODMAN[@]}" image inspect --format '{{.Size}}' "$TAG") bytes" >&2

if [[ $DEMO -eq 1 ]]; then
  # The demo writes under /opt/fcrawl/build in the container (thrown away
  # with it); its log is kept here.
  mkdir -p "$WORK"
  echo "image.sh: running deploy/demo.sh in $TAG (log: $WORK/demo.log)" >&2
  "${PODMAN[@]}" run --rm --network=host "${LIMITS[@]}" "$TAG" \
    bash /opt/fcrawl/deploy/demo.sh 2>&1 | tee "$WORK/demo.log"
fi

#!/usr/bin/env bash
# Installs every Debian package the project needs to build, test and benchmark on a
# fresh Debian 12 machine. Idempotent: packages already present are skipped by apt.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git xz-utils ca-certificates
  clang libclang-rt-14-dev            # libFuzzer targets and sanitizers
  # libraries (docs/design.md "Libraries")
  libabsl-dev libgtest-dev libgmock-dev
  libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc
  librocksdb-dev libcurl4-openssl-dev libgumbo-dev libre2-dev libicu-dev
  libuchardet-dev libpsl-dev libcpp-httplib-dev zlib1g-dev
  libstemmer-dev                      # Snowball stemming of topic and page words
  libc-ares-dev                       # asynchronous DNS for the crawl (protocol/resolver.h)
  libxml2-dev                         # sitemaps (protocol/sitemap.h)
  libssl-dev                          # libcrypto's SHA-1 for WARC digests (protocol/warc.h)
  libisal-dev                         # ISA-L igzip: the WARC files' gzip (protocol/warc.h)
  libzstd-dev zstd python3-zstandard  # .warc.zst (protocol/warc.h) and the tests that read it
  libdeflate-dev                      # the gzip benchmark's other candidate (bench/gzip.py)
  libxapian-dev                       # search over the crawled corpus (corpus/search.h)
  liblinear-dev                       # the page classifier of the on-topic decision (focus/page_judge.h)
  rapidjson-dev                       # reads the JSON-LD a page declares (quark/declared.h)
  libjemalloc-dev                     # the worker's allocator (see worker/CMakeLists.txt)
  # test web server, browser for screenshot checks, peers for benchmarks
  nginx-light chromium python3 wget2 time
  libnginx-mod-http-echo              # answers held for a latency in the Internet-like benchmark (bench/internet.py)
  python3-igraph python3-numpy        # the ranker benchmark's peer (bench/ranker.sh)
  python3-readability                 # readability-lxml, a peer in the WCXB extraction benchmark (bench/extraction_wcxb.py)
  python3-prometheus-client          # parses /metrics in the cluster test
  python3-yaml                        # reads the Kubernetes manifests in tests/deploy_rank_test.py
  python3-kubernetes                  # the Kubernetes API types the manifests are checked against (tests/k8s_schema_test.py)
  python3-grpcio python3-protobuf     # the Python client test of the coordinator (stubs from proto/ by grpc_python_plugin)
  libopenmpi-dev openmpi-bin          # the ranker's many-process mode (ranker-mpi under mpirun)
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Node.js and npm are needed only by the extraction benchmark (Mozilla
# Readability); bench/extraction.sh installs them when absent.

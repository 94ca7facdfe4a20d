#!/usr/bin/env bash
# bench/feedback.sh: what it does and takes is the usage text of usage() below,
# which `--help` prints (so the help never shows the script's code).
usage() {
  cat <<'EOF'
Ranking feedback benchmark: the same focused cluster crawl (2 workers,
topic-pagerank, the Wikispeedia test web when ../shared/data has it, else
the synthetic one) without and with deploy/rank-feedback.sh pushing
topic-pagerank ranks of the crawl so far back every INTERVAL seconds, in
one run: pages, labelled harvest rate (pages on the topic by the web's
labels / pages fetched), feedback rounds, ranks applied and queued URLs
re-scored. Writes $OUT/results.json and the section of docs/benchmarks.md
between <!-- feedback:begin --> and <!-- feedback:end -->.

usage: bench/feedback.sh [--no-build] [--no-docs] [--pages N] [--repeat N]
                         [--interval S] [--delay-ms MS] [--algorithm A]
  defaults: 2000 pages, 2 runs of each, interval 3 s, per-host delay 100 ms,
  the ranker's topic-pagerank
Environment: BUILD_DIR (default build); OUT (default $BUILD_DIR/bench-feedback).
EOF
}
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
cd "$ROOT"
BUILD=1 DOCS="$ROOT/docs/benchmarks.md" COMMAND="bench/feedback.sh"
PAGES=2000 REPEAT=2 INTERVAL=3 DELAY=100 ALGORITHM=topic-pagerank
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) BUILD=0; COMMAND+=" --no-build" ;;
    --no-docs) DOCS=""; COMMAND+=" --no-docs" ;;
    --pages) PAGES=$2; COMMAND+=" $1 $2"; shift ;;
    --repeat) REPEAT=$2; COMMAND+=" $1 $2"; shift ;;
    --interval) INTERVAL=$2; COMMAND+=" $1 $2"; shift ;;
    --delay-ms) DELAY=$2; COMMAND+=" $1 $2"; shift ;;
    --algorithm) ALGORITHM=$2; COMMAND+=" $1 $2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "feedback.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-$BUILD_DIR/bench-feedback}
if [[ $BUILD == 1 ]]; then bash "$ROOT/deploy/build.sh" >&2; fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [[ -f "$ROOT/../shared/data/wikispeedia.tar.xz" ]]; then
  web="$OUT/web-wikispeedia"
  [[ -f "$web/sites.tsv" ]] || /usr/bin/python3 tests/testweb/generate.py wikispeedia --out "$web" >/dev/null
  seeds='seeds: "http://science.wiki.test/" seeds: "http://geography.wiki.test/" seeds: "http://history.wiki.test/"'
  topic='topic { keywords: "physics" keywords: "energy" keywords: "particle" keywords: "quantum" keywords: "relativity" keywords: "force" keywords: "mass" }'
  labels_topic="subject.Science.Physics" web_name="Wikispeedia"
else
  web="$OUT/web-synthetic"
  [[ -f "$web/sites.tsv" ]] || /usr/bin/python3 tests/testweb/generate.py synthetic --pages 3000 --hosts 20 --seed 1 --out "$web" >/dev/null
  seeds=$(cut -f1 "$web/sites.tsv" | grep -v '^ads.test$' | head -4 | sed 's|.*|seeds: "http://&/"|' | tr '\n' ' ')
  topic='topic { keywords: "telescope" keywords: "planet" keywords: "galaxy" keywords: "orbit" keywords: "star" }'
  labels_topic="astronomy" web_name="synthetic"
fi
port=$(tests/testweb/nginx.sh start "$web")
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
export CLUSTER_GRPC=127.0.0.1:0 CLUSTER_HTTP=127.0.0.1:0 BUILD="$BUILD_DIR"
feedback_pid=""
cleanup() {
  [[ -n "$feedback_pid" ]] && kill "$feedback_pid" 2>/dev/null || true
  for d in "$OUT"/run-*/cluster; do CLUSTER_DIR="$d" bash deploy/cluster.sh stop >/dev/null 2>&1 || true; done
  tests/testweb/nginx.sh stop "$web" >/dev/null 2>&1 || true
}
trap cleanup EXIT
config="$OUT/crawl.textproto"
{
  echo "$seeds"; echo "$topic"
  echo 'strategy { name: "topic-pagerank" }'
  echo "budget { max_pages: $PAGES }"
  echo "politeness { per_host_delay_ms: $DELAY }"
  echo 'allow_private_addresses: true'
  cut -f1 "$web/sites.tsv" | sed "s|.*|resolve { host_port: \"&\" address: \"127.0.0.1:$port\" }|"
} > "$config"
results="$OUT/runs.jsonl"
: > "$results"
for i in $(seq "$REPEAT"); do
  for mode in none feedback; do
    run="$OUT/run-$mode-$i"
    rm -rf "$run"; mkdir -p "$run"
    export CLUSTER_DIR="$run/cluster"
    bash deploy/cluster.sh start 2 >&2
    addr=$(sed -n 's/.*grpc=\([^ ]*\).*/\1/p' "$CLUSTER_DIR/coordinator.addr")
    ctl() { "$BUILD_DIR/crawlctl/crawlctl" --coordinator "$addr" "$@"; }
    for _ in $(seq 100); do
      ctl status --json | /usr/bin/python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if len(s.get("view",{}).get("members",[]))==2 else 1)' && break
      sleep 0.1
    done
    ctl start "$config" --labels "$web/labels.tsv" --topic "$labels_topic" >&2
    feedback_pid=""
    if [[ $mode == feedback ]]; then
      CLUSTER_GRPC=$addr FEEDBACK_DIR="$run/feedback" bash deploy/rank-feedback.sh \
        --interval "$INTERVAL" --algorithm "$ALGORITHM" > "$run/feedback.log" 2>&1 &
      feedback_pid=$!
    fi
    ctl watch --timeout_s 900 > "$run/watch.log"
    if [[ -n "$feedback_pid" ]]; then wait "$feedback_pid" || true; feedback_pid=""; fi
    ctl status --json > "$run/status.json"
    /usr/bin/python3 - "$mode" "$i" "$run" >> "$results" <<'PY'
import json, re, sys
mode, i, run = sys.argv[1:]
s = json.load(open(run + "/status.json"))
pages = int(s.get("pagesFetched", 0))
row = {"mode": mode, "run": int(i), "pages": pages,
       "labelled": int(s.get("labelledOnTopic", 0)),
       "seconds": float(s.get("elapsedSeconds", 0)),
       "rounds": 0, "applied": 0, "requeued": 0}
if mode == "feedback":
    log = open(run + "/feedback.log").read()
    pushes = re.findall(r"applied (\d+)\s+requeued (\d+)", log)
    row["rounds"] = len(pushes)
    row["applied"] = sum(int(a) for a, _ in pushes)
    row["requeued"] = sum(int(r) for _, r in pushes)
print(json.dumps(row))
PY
    bash deploy/cluster.sh stop >&2
  done
done
/usr/bin/python3 - "$results" "$OUT/results.json" "$DOCS" "$COMMAND" "$web_name" "$PAGES" "$INTERVAL" "$DELAY" "$labels_topic" "$ALGORITHM" <<'PY'
import datetime, json, os, statistics, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
import extraction
src, out, docs, command, web, pages, interval, delay, topic, algorithm = sys.argv[1:]
rows = [json.loads(l) for l in open(src) if l.strip()]
json.dump(rows, open(out, "w"), indent=1)
BEGIN, END = "<!-- feedback:begin -->", "<!-- feedback:end -->"
mi = extraction.machine_info()
lines = [BEGIN, "## Ranking feedback during a crawl (bench/feedback.sh)", "",
         "Measured %s on %s cores, with `%s`. A cluster of 2 workers crawls the %s test web "
         "with topic-pagerank (topic `%s` by the web's labels), a budget of %s pages and %s ms "
         "between requests to a host, once alone and once with `deploy/rank-feedback.sh "
         "--interval %s` exporting the crawl so far, ranking it with the ranker's "
         "%s and pushing the ranks back. Labelled harvest = pages on the topic by "
         "the labels / pages fetched." % (datetime.date.today().isoformat(), mi["nproc"], command,
                                          web, topic, pages, delay, interval, algorithm), "",
         "| crawl | run | pages | on topic (labels) | harvest | seconds | feedback rounds | ranks applied | queued URLs re-scored |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
for r in rows:
    lines.append("| %s | %d | %d | %d | %.1f%% | %.1f | %d | %d | %d |" % (
        "with feedback" if r["mode"] == "feedback" else "without", r["run"], r["pages"],
        r["labelled"], 100.0 * r["labelled"] / max(1, r["pages"]), r["seconds"], r["rounds"],
        r["applied"], r["requeued"]))
def mean(mode):
    h = [100.0 * r["labelled"] / max(1, r["pages"]) for r in rows if r["mode"] == mode]
    return statistics.mean(h) if h else 0.0
def mean_seconds(mode):
    s = [r["seconds"] for r in rows if r["mode"] == mode]
    return statistics.mean(s) if s else 0.0
lines += ["", "- Mean labelled harvest: %.1f%% without feedback, %.1f%% with it (%+.1f points)."
          % (mean("none"), mean("feedback"), mean("feedback") - mean("none")),
          "- Mean crawl time: %.1f s without feedback, %.1f s with it."
          % (mean_seconds("none"), mean_seconds("feedback"))]
if abs(mean("feedback") - mean("none")) < 0.5:
    lines.append("- The pushed ranks leave the harvest where it was (within half a point).")
elif mean("feedback") < mean("none"):
    lines.append("- The pushed ranks lower the harvest here. A rank from the ranking of the crawl "
                 "so far measures a URL's standing in the link graph; for a URL not fetched yet "
                 "the ranker knows no relevance, so that rank carries less of the topic than the "
                 "crawler's online rank, whose shares follow the anchor text and URL words, and "
                 "the crawl drifts towards well-linked pages off the topic. Feedback is there for "
                 "crawls that want that importance; it is not on unless `rank-feedback.sh` runs.")
lines.append(END)
section = "\n".join(lines) + "\n"
print(section)
if docs:
    extraction.write_section(docs, BEGIN, END, section, extraction.DOC_HEADER)
PY

#!/usr/bin/env bash
# The main job: sets up, builds, segments a sample page (its blocks, its main
# content), then runs the crawl as a cluster on this machine: the nginx test
# web on loopback, a coordinator and 3 workers (deploy/cluster.sh), a focused
# crawl of one topic driven by crawlctl, a screenshot of the live /status
# page, the summary, the evaluation (crawl-eval: harvest rate and recall
# against the web's labels, with its plot), a topic-sensitive QuarkRank
# ranking of the crawled graph (crawlctl export, ranker), and a search over
# what was crawled (worker index, worker search, the status page's search
# box).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/deploy/build.sh"
page="$root/quark/testdata/article.html"
echo
echo "== quark segment $page (summary of the JSON) =="
"$root/build/quark/quark" segment --url http://physics.example.com/physics/entanglement.html "$page" |
  /usr/bin/python3 -c '
import json, sys
page = json.load(sys.stdin)
print("title: %r  charset: %s (%s)  links: %d" % (
    page["title"], page["charset"], page["charset_source"], len(page["links"])))
for b in page["blocks"]:
    text = b["text"].replace("\n", " / ")
    print("  #%-2d %-14s <%s> %5d chars  p(content)=%.3f  %r" % (
        b["index"], b["type"], b["tag"], b["text_length"],
        b["content_probability"], text[:60]))
'
echo
echo "== quark extract =="
"$root/build/quark/quark" extract "$page"
"$root/build/quark/quark" view "$page" --output "$root/build/article.view.html"
echo
echo "Block view written to $root/build/article.view.html (open it in a browser)."

# The crawl as a cluster on this machine: the nginx test web on loopback (the
# Wikispeedia web when ../shared/data has it, else a synthetic one), a
# coordinator and 3 workers, a focused crawl of one topic with the default
# strategy (`learned`).
echo
work="$root/build/demo-cluster"
mkdir -p "$work"
if [ -f "$root/../shared/data/wikispeedia.tar.xz" ]; then
  web="$work/web-wikispeedia"
  [ -f "$web/sites.tsv" ] || /usr/bin/python3 "$root/tests/testweb/generate.py" wikispeedia --out "$web" >/dev/null
  seeds='seeds: "http://science.wiki.test/" seeds: "http://geography.wiki.test/" seeds: "http://history.wiki.test/"'
  topic='topic { keywords: "physics" keywords: "energy" keywords: "force" keywords: "mass" keywords: "particle" keywords: "quantum" keywords: "electron" keywords: "light" keywords: "motion" keywords: "relativity" keywords: "gravity" keywords: "magnetic" }'
  labels_topic="subject.Science.Physics"
  query="quantum physics of light"
else
  web="$work/web-synthetic"
  [ -f "$web/sites.tsv" ] || /usr/bin/python3 "$root/tests/testweb/generate.py" synthetic --pages 3000 --hosts 20 --seed 1 --out "$web" >/dev/null
  seeds=$(cut -f1 "$web/sites.tsv" | grep -v '^ads.test$' | head -4 | sed 's|.*|seeds: "http://&/"|' | tr '\n' ' ')
  topic='topic { keywords: "telescope" keywords: "planet" keywords: "galaxy" keywords: "orbit" keywords: "star" }'
  labels_topic="astronomy"
  query="telescope planet orbit"
fi
port=$("$root/tests/testweb/nginx.sh" start "$web")
export CLUSTER_DIR="$work/cluster" CLUSTER_GRPC=127.0.0.1:0 CLUSTER_HTTP=127.0.0.1:0
cleanup() {
  bash "$root/deploy/cluster.sh" stop >/dev/null 2>&1 || true
  "$root/tests/testweb/nginx.sh" stop "$web" >/dev/null 2>&1 || true
}
trap cleanup EXIT
bash "$root/deploy/cluster.sh" stop >/dev/null 2>&1 || true
rm -rf "$CLUSTER_DIR"
config="$work/crawl.textproto"
{
  echo "$seeds"
  echo "$topic"
  # No strategy named: the default, `learned`. In the cluster every
  # worker's model learns from the pages of all three (lessons relayed by
  # the coordinator) and page quota follows the crawl's best URLs
  # (docs/strategies.md "learned in a cluster").
  echo 'budget { max_pages: 1500 }'
  echo 'politeness { per_host_delay_ms: 50 }'
  echo 'allow_private_addresses: true'
  cut -f1 "$web/sites.tsv" | sed "s|.*|resolve { host_port: \"&\" address: \"127.0.0.1:$port\" }|"
} > "$config"
echo "== deploy/cluster.sh start 3 (nginx test web on 127.0.0.1:$port) =="
bash "$root/deploy/cluster.sh" start 3
addr=$(sed -n 's/.*grpc=\([^ ]*\).*/\1/p' "$CLUSTER_DIR/coordinator.addr")
http=$(sed -n 's/.*http=\([^ ]*\).*/\1/p' "$CLUSTER_DIR/coordinator.addr")
ctl() { "$root/build/crawlctl/crawlctl" --coordinator "$addr" "$@"; }
for _ in $(seq 50); do
  ctl status --json | /usr/bin/python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if len(s.get("view",{}).get("members",[]))==3 else 1)' && break
  sleep 0.2
done
echo
echo "== crawlctl start $config --labels $web/labels.tsv --topic $labels_topic =="
crawl=$(ctl start "$config" --labels "$web/labels.tsv" --topic "$labels_topic")
echo "crawl $crawl; live status: http://$http/status  metrics: http://$http/metrics"
# The live status page, as a browser shows it a few seconds into the crawl.
if command -v chromium >/dev/null 2>&1; then
  (sleep 6; chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
     --window-size=1200,1000 --virtual-time-budget=3000 \
     --screenshot="$work/status.png" "http://$http/status" >/dev/null 2>&1 &&
     echo "(status page screenshot: $work/status.png)") &
fi
ctl watch
wait
echo
# One fetch log for the cluster (the workers' logs merged in fetch order),
# evaluated against the web's labels.
/usr/bin/python3 - "$CLUSTER_DIR/data" "$crawl" "$work/fetch_log.jsonl" <<'PY'
import json, os, sys
data, crawl, out = sys.argv[1:]
lines = []
for w in sorted(os.listdir(data)):
    p = os.path.join(data, w, crawl, "fetch_log.jsonl")
    if os.path.exists(p):
        lines += [l for l in open(p, encoding="utf-8") if l.strip()]
lines.sort(key=lambda l: json.loads(l)["fetched_at"])
open(out, "w", encoding="utf-8").writelines(lines)
PY
echo "== crawl-eval (harvest rate and recall against the labels) =="
"$root/build/eval/crawl-eval" compare --labels "$web/labels.tsv" --topic "$labels_topic" \
  --out "$work/eval" "cluster-learned=$work/fetch_log.jsonl" | head -24
echo
# The crawled graph, exported by every worker and ranked block by block:
# topic-quarkrank, QuarkRank's surfer following and jumping to the pages
# about the topic (ranker/README.md), so the best pages are the topic's,
# not the sites' hubs.
echo "== crawlctl export, then ranker run --algorithm topic-quarkrank (the best 10 pages) =="
rm -rf "$work/graph"
ctl export "$work/graph"
"$root/build/ranker/ranker" run --algorithm topic-quarkrank --quiet \
  --out "$work/ranking-all.tsv" "$work"/graph/*/ >/dev/null
head -11 "$work/ranking-all.tsv" > "$work/ranking.tsv"
/usr/bin/python3 - "$work/ranking.tsv" "$web/labels.tsv" "$labels_topic" "$work/graph" "$root/tests" <<'PY'
import glob, os, sys
ranking, labels, topic, graph, tests = sys.argv[1:]
sys.path.insert(0, tests)
from graph_shards import linked_from_templates, read_shard
pages = [p for f in sorted(glob.glob(os.path.join(graph, "*", "*.fcg"))) for p in read_shard(f)]
template_only = linked_from_templates(pages)
on = set()
for line in open(labels, encoding="utf-8"):
    cols = line.rstrip("\n").split("\t")
    if len(cols) > 1 and any(c == topic or c.startswith(topic + ".") for c in cols[1].split(",")):
        on.add(cols[0])
rows = [l.rstrip("\n").split("\t") for l in open(ranking, encoding="utf-8")]
print("%-4s %-70s %-10s %-9s %-8s %s" % ("rank", "url", "score", "relevance", "on topic",
                                           "linked from template blocks (90%+)"))
for r in rows[1:]:
    print("%-4s %-70s %-10.6s %-9.4s %-8s %s" % (r[0], r[1], r[2], r[4], "yes" if r[1] in on else "no",
                                               "yes" if r[1] in template_only else "no"))
print("%d of the best %d are labelled on topic; %d are linked mostly from site-template blocks" % (
    sum(r[1] in on for r in rows[1:]), len(rows) - 1, sum(r[1] in template_only for r in rows[1:])))
PY
echo
# What the crawl leaves behind: every worker's corpus records (pages.jsonl:
# main text, on-topic decision, metadata, media) merged with the ranking into
# a search index (Xapian, BM25 plus the block-level rank), then a search on
# the topic — in the terminal and in the status page's search box.
echo "== worker index (the 3 workers' corpus records and the ranking), then worker search =="
rm -rf "$CLUSTER_DIR/search"
"$root/build/worker/worker" index "$CLUSTER_DIR"/data/*/"$crawl" \
  --ranks "$work/ranking-all.tsv" --index "$CLUSTER_DIR/search"
"$root/build/worker/worker" corpus "$CLUSTER_DIR"/data/*/"$crawl" --on_topic \
  --ranks "$work/ranking-all.tsv" --format csv --out "$work/corpus-on-topic.csv" >/dev/null
echo
echo "== worker search \"$query\" =="
"$root/build/worker/worker" search --index "$CLUSTER_DIR/search" --limit 5 "$query"
if command -v chromium >/dev/null 2>&1; then
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=1200,1600 --virtual-time-budget=3000 \
    --screenshot="$work/search.png" "http://$http/status?q=$(/usr/bin/python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$query")" \
    >/dev/null 2>&1 && echo "(the status page's search box: $work/search.png)"
fi
echo
echo "Evaluation plot: $work/eval/curves.svg; ranking: $work/ranking.tsv; on-topic corpus: $work/corpus-on-topic.csv; per-worker output (link state, WARC, corpus records, logs): $CLUSTER_DIR/data"

#!/usr/bin/env bash
# The main job: sets up, builds, segments a sample page (its blocks, its main
# content), then runs a focused crawl of the nginx test web with the worker.
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
"$root/build/quark/quark" view "$page" -o "$root/build/article.view.html"
echo
echo "Block view written to $root/build/article.view.html (open it in a browser)."

# A focused crawl on one machine: the nginx test web on loopback (the
# Wikispeedia web when ../shared/data has it, else a synthetic one), crawled
# with SSAPS for a topic; the output folder holds the link state, WARC files,
# fetch_log.jsonl and pages.jsonl.
echo
work="$root/build/demo-crawl"
mkdir -p "$work"
if [ -f "$root/../shared/data/wikispeedia.tar.xz" ]; then
  web="$work/web-wikispeedia"
  [ -f "$web/sites.tsv" ] || /usr/bin/python3 "$root/tests/testweb/generate.py" wikispeedia --out "$web" >/dev/null
  seeds='seeds: "http://science.wiki.test/" seeds: "http://geography.wiki.test/"'
  topic='topic { keywords: "physics" keywords: "energy" keywords: "particle" keywords: "quantum" keywords: "relativity" }'
else
  web="$work/web-synthetic"
  [ -f "$web/sites.tsv" ] || /usr/bin/python3 "$root/tests/testweb/generate.py" synthetic --pages 3000 --hosts 20 --seed 1 --out "$web" >/dev/null
  seeds=$(cut -f1 "$web/sites.tsv" | grep -v '^ads.test$' | head -3 | sed 's|.*|seeds: "http://&/"|' | tr '\n' ' ')
  topic='topic { keywords: "telescope" keywords: "planet" keywords: "galaxy" keywords: "orbit" }'
fi
port=$("$root/tests/testweb/nginx.sh" start "$web")
trap '"$root/tests/testweb/nginx.sh" stop "$web" >/dev/null' EXIT
config="$work/crawl.textproto"
{
  echo "$seeds"
  echo "$topic"
  echo 'strategy { name: "ssaps" }'
  echo 'budget { max_pages: 600 }'
  echo 'politeness { per_host_delay_ms: 100 }'
  echo "output_dir: \"$work/crawl\""
  echo 'allow_private_addresses: true'
  cut -f1 "$web/sites.tsv" | sed "s|.*|resolve { host_port: \"&\" address: \"127.0.0.1:$port\" }|"
} > "$config"
rm -rf "$work/crawl"
echo "== worker --standalone --config $config (nginx on 127.0.0.1:$port) =="
"$root/build/worker/worker" --standalone --config "$config"
echo
echo "The most relevant pages fetched:"
/usr/bin/python3 - "$work/crawl/pages.jsonl" <<'PY'
import json, sys
pages = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]
pages.sort(key=lambda p: -(p['relevance'] or 0))
for p in pages[:10]:
    print('  %.3f  %s' % (p['relevance'] or 0, p['url']))
PY
echo "Crawl output (link state, WARC, fetch_log.jsonl, pages.jsonl): $work/crawl"

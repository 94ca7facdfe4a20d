#!/usr/bin/python3
"""Does the crawl follow the strategy's order when it runs in parallel?

For one labelled test web and topic, crawls with each strategy given three
ways, from the same seeds and topic keywords with the same page budget:

- strict: 1 transfer in flight, no politeness delay and order window 1
  (the next transfer waits until the page before it is parsed and its
  links are scored): every fetch is the best URL of the whole frontier,
  the strategy's order exactly, the same in every run;
- parallel: 64 in flight, 20 ms per-host delay, the default
  strategy.order_window (what a user runs);
- parallel, window 0: the same with the order rule off (any ready host
  takes a free connection).

and counts the on-topic pages among the fetched ones (labels.tsv). Prints a
Markdown table (and writes it to --out-json as JSON). Every host named in
the web's links is resolved to the local nginx, so links to hosts without a
site get 404 from its default server, as dead links on a real web do.

Usage:
  bench/order.py --worker build/worker/worker --web DIR --topic PREFIX \
      --keywords w1,w2,... --seeds URL,URL [--strategies a,b] [--budget 1000]
"""

import argparse
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import crawl_bench  # noqa: E402  (Nginx, read_sites, textproto_string)
import strategies  # noqa: E402  (crawl)

SETTINGS = [
    ("strict", 1, 0, 1),
    ("parallel", 64, 20, None),
    ("parallel-window0", 64, 20, 0),
    ("parallel-window4", 64, 20, 4),
    ("parallel-window64", 64, 20, 64),
]


def read_labels(web, prefix):
    on = set()
    with open(os.path.join(web, "labels.tsv"), encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2 and any(c == prefix or c.startswith(prefix + ".")
                                       for c in parts[1].split(",")):
                on.add(parts[0])
    return on


def write_config(path, args, strategy, in_flight, delay, window, port, hosts, out):
    q = crawl_bench.textproto_string
    lines = ["seeds: %s" % q(s) for s in args.seeds.split(",")]
    lines.append("topic {")
    if strategy != "bfs":
        lines += ["  keywords: %s" % q(k) for k in args.keywords.split(",")]
    if args.topic_params:
        lines.append("  " + args.topic_params)
    lines.append("}")
    lines.append("strategy { name: %s%s %s }" % (
        q(strategy), "" if window is None else " order_window: %d" % window,
        args.params))
    lines.append("budget { max_pages: %d max_seconds: %d }" % (args.budget, args.timeout))
    lines.append("scope { max_pages_per_host: %d }" % args.budget)
    lines.append("politeness { per_host_delay_ms: %d per_ip_delay_ms: 0 "
                 "max_crawl_delay_ms: 0 }" % delay)
    lines.append("fetch { max_in_flight: %d connect_timeout_ms: 2000 }" % in_flight)
    lines.append("output_dir: %s" % q(out))
    for h in hosts:
        lines.append("resolve { host_port: %s address: %s }" % (q(h), q("127.0.0.1:%d" % port)))
    lines.append("allow_private_addresses: true")
    if args.config:
        lines.append(args.config)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def fetched_urls(out):
    urls = []
    with open(os.path.join(out, "fetch_log.jsonl"), encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            if e.get("status", 0) != 0 and not e["url"].endswith("/robots.txt"):
                urls.append(e["url"])
    return urls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", required=True)
    ap.add_argument("--web", required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("--keywords", required=True)
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--strategies", default="bfs,shark,ssaps,improved-shark")
    ap.add_argument("--settings", default="strict,parallel,parallel-window0")
    ap.add_argument("--params", default="",
                    help="more text-format fields of the strategy message")
    ap.add_argument("--topic-params", default="",
                    help="more text-format fields of the topic message, e.g. "
                         "'judge { feedback: false }'")
    ap.add_argument("--config", default="",
                    help="more text-format fields of the crawl config, e.g. "
                         "'segmentation { site_templates: false }'")
    ap.add_argument("--budget", type=int, default=1000)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--work", default=os.path.join(HERE, "out", "order"))
    ap.add_argument("--out-json", default="")
    args = ap.parse_args()

    sites = crawl_bench.read_sites(args.web)
    hosts = crawl_bench.linked_hosts(sites)
    on = read_labels(args.web, args.topic)
    os.makedirs(args.work, exist_ok=True)
    nginx = crawl_bench.Nginx(os.path.join(HERE, "..", "tests", "testweb", "nginx.sh"),
                              args.web, os.path.join(args.work, "serving"))
    port = nginx.start()
    rows = []
    try:
        wanted = args.settings.split(",")
        for strategy in args.strategies.split(","):
            row = {"strategy": strategy}
            for name, in_flight, delay, window in SETTINGS:
                if name not in wanted:
                    continue
                out = os.path.join(args.work, "%s-%s" % (strategy, name))
                # A crawl folder left by an earlier run would be resumed.
                shutil.rmtree(out, ignore_errors=True)
                config = out + ".textproto"
                write_config(config, args, strategy, in_flight, delay, window, port, hosts, out)
                s = strategies.crawl(args, config, out)
                urls = fetched_urls(out)
                row[name] = {"on_topic": sum(u in on for u in urls), "fetched": len(urls),
                             "seconds": round(s["wall_seconds"], 1),
                             "held_by_order": s.get("held_by_order", 0),
                             "deferred": s.get("deferred", 0),
                             "stop_reason": s.get("stop_reason", "")}
                print("[order] %s %s: %s" % (strategy, name, row[name]), file=sys.stderr, flush=True)
            rows.append(row)
    finally:
        nginx.stop()
    names = [s[0] for s in SETTINGS if s[0] in args.settings.split(",")]
    print("| strategy | " + " | ".join("%s: on-topic / fetched (s)" % n for n in names) + " |")
    print("|---|" + "---:|" * len(names))
    for row in rows:
        print("| %s | %s |" % (row["strategy"], " | ".join(
            "%d / %d (%.1f)" % (row[n]["on_topic"], row[n]["fetched"], row[n]["seconds"])
            for n in names)))
    if args.out_json:
        with open(args.out_json, "w") as f:
            json.dump({"web": args.web, "topic": args.topic, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()

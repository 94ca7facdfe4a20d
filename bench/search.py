#!/usr/bin/python3
"""Search over the crawl: quality and cost (docs/benchmarks.md "Search").

For each labelled test web (synthetic and the university dev web: the dev
split the rank weight is chosen on; the university held-out web and the
Wikispeedia web when ../shared/data has it: never looked at while choosing),
crawls its first topic with the default strategy and settings a user runs
(`learned`, 1,000 pages, 64 in flight, 20 ms per host) twice: with
`search { index: true }` (the index built while crawling) and without; ranks
the crawl's graph (`ranker run --algorithm topic-quarkrank`); builds the
index again with the ranking joined in (`worker index --ranks`); and asks
two queries a user would write: the topic's keywords as given to the crawl,
and its first three. Reported:

  - precision at 10 and at 100 of the labelled on-topic pages among the
    results, for BM25 alone (--rank_weight 0 --topic_weight 0) and BM25 plus
    the block-level rank and/or the crawl's on-topic score at several
    weights;
  - what indexing costs: the indexing thread's CPU seconds (the crawl
    summary's search.cpu_seconds) against the crawl's whole CPU time (user +
    system of the worker process), and the same crawl's CPU without the
    index; and `worker index` afterwards, CPU per page.

usage: bench/search.py [--no-docs] [--webs LIST] [--budget N]
Builds nothing: run deploy/build.sh (or ninja -C build) first.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import crawl_bench  # noqa: E402
import extraction  # noqa: E402
import strategies  # noqa: E402
import benchlib  # noqa: E402

BEGIN = "<!-- search:begin -->"
END = "<!-- search:end -->"
# (rank_weight, topic_weight) of `worker search`: BM25 alone, plus the
# block-level rank, plus the crawl's on-topic score, both.
CONFIGS = [(r, t) for r in (0, 2, 4, 8) for t in (0, 2, 4, 8)]
DEV = ("synthetic", "university")


log = benchlib.logger("search")


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def crawl(args, config, out):
    before = cpu_of_children()
    summary = strategies.crawl(args, config, out)
    summary["cpu_seconds"] = round(cpu_of_children() - before, 3)
    return summary


def run(cmd):
    before = cpu_of_children()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("search: %s failed:\n%s" % (" ".join(cmd), r.stderr[-3000:]))
    return r.stdout, cpu_of_children() - before


def precision(args, index, query, weights, labels, prefix, k):
    out, _ = run([args.worker, "search", "--index", index, "--json", "--limit", str(k),
                  "--rank_weight", str(weights[0]), "--topic_weight", str(weights[1]), query])
    hits = json.loads(out)["hits"]
    return sum(strategies.on_topic(labels.get(h["url"], []), prefix) for h in hits) / k


def measure(args, name, port, web, sites, labels, hosts):
    topic = strategies.WEBS[name]["topics"][0]
    keywords = topic.get("keywords") or strategies.synthetic_topic_keywords(args, topic["name"])
    seeds = strategies.seeds_for(name, sites, labels, topic["labels"])
    base = os.path.join(args.out_dir, "%s-%s" % (name, topic["name"]))
    os.makedirs(base, exist_ok=True)
    runs = {}
    for mode in ("index", "no-index"):
        out = os.path.join(base, mode)
        config = out + ".textproto"
        strategies.write_config(config, args, "learned", seeds, keywords, port, out, hosts)
        with open(config, "a") as f:
            f.write("search { index: %s }\n" % ("true" if mode == "index" else "false"))
        log("%s: crawl, %s" % (name, mode))
        runs[mode] = crawl(args, config, out)
    out = os.path.join(base, "index")
    graph = os.path.join(base, "graph")
    shutil.rmtree(graph, ignore_errors=True)
    run([args.worker, "export-graph", "--config", out + ".textproto", "--out", graph])
    ranking = os.path.join(base, "ranking.tsv")
    run([args.ranker, "run", "--algorithm", "topic-quarkrank", "--fresh", "--quiet",
         "--out", ranking, graph])
    index = os.path.join(base, "search-ranked")
    shutil.rmtree(index, ignore_errors=True)
    stdout, index_cpu = run([args.worker, "index", out, "--ranks", ranking, "--index", index])
    indexed = json.loads(stdout)["indexed"]
    pages = set()
    with open(os.path.join(out, "pages.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                pages.add(json.loads(line)["url"])
    on = sum(strategies.on_topic(labels.get(u, []), topic["labels"]) for u in pages)
    queries = [("keywords", " ".join(keywords)), ("first three", " ".join(keywords[:3]))]
    table = []
    for qname, query in queries:
        row = {"query": qname, "text": query, "p10": {}, "p100": {}}
        for c in CONFIGS:
            key = "r%g t%g" % c
            row["p10"][key] = precision(args, index, query, c, labels, topic["labels"], 10)
            row["p100"][key] = precision(args, index, query, c, labels, topic["labels"], 100)
        table.append(row)
    s = runs["index"]
    return {"web": name, "topic": topic["name"], "labels": topic["labels"],
            "dev": name in DEV, "pages": len(pages), "on_topic": on, "queries": table,
            "crawl_cpu": s["cpu_seconds"], "crawl_cpu_without": runs["no-index"]["cpu_seconds"],
            "index_thread_cpu": s["search"]["cpu_seconds"], "indexed_while_crawling": s["search"]["indexed"],
            "after_cpu": index_cpu, "after_pages": indexed,
            "wall": s["wall_seconds"], "wall_without": runs["no-index"]["wall_seconds"]}


def render(results, args, command, seconds):
    lines = ["## Search over the crawl (bench/search.py)", ""]
    lines.append("Command: `%s` (%s; %.0f s)." % (command, extraction.machine_info(), seconds))
    lines.append("")
    lines.append(
        "Each web's first topic crawled with the defaults a user runs (`learned`, %d "
        "pages, 64 in flight, 20 ms per host), its graph ranked with topic-quarkrank, the "
        "pages indexed with the ranking joined in (`worker index --ranks`), then searched "
        "(`worker search`). Precision = labelled on-topic pages among the first 10 / 100 "
        "results; `base` is their share of the crawled pages. Dev webs (the weight is "
        "chosen on them): %s; the others are held out." % (args.budget, ", ".join(DEV)))
    lines.append("")
    keys = ["r%g t%g" % c for c in CONFIGS]
    for k, name in ((10, "p10"), (100, "p100")):
        lines.append("Precision at %d (r = --rank_weight, t = --topic_weight):" % k)
        lines.append("")
        lines.append("| web | query | base | " + " | ".join(keys) + " |")
        lines.append("|" + "---|" * (3 + len(keys)))
        for r in results:
            base = r["on_topic"] / max(1, r["pages"])
            for q in r["queries"]:
                lines.append("| %s%s, %s | %s | %.2f | %s |" % (
                    r["web"], "" if r["dev"] else " (held out)", r["topic"], q["query"], base,
                    " | ".join(("%.1f" if k == 10 else "%.2f") % q[name][c] for c in keys)))
        lines.append("")
    lines.append("The defaults of `worker search` (and /search.json) are r = 4, t = 8: the best "
                 "column on the dev webs; the held-out rows were not looked at to choose.")
    lines.append("")
    lines.append("Queries: \"keywords\" is the topic's keywords as given to the crawl, \"first three\" "
                 "its first three: %s." % "; ".join(
                     "%s `%s`" % (r["web"], q["text"]) for r in results for q in r["queries"]
                     if q["query"] == "first three"))
    lines.append("")
    lines.append("What the index costs, same crawl with `search { index: true }` and without:")
    lines.append("")
    lines.append("| web | pages indexed | crawl CPU s (with index) | indexing thread CPU s | "
                 "share of the crawl's CPU | crawl CPU s without | wall s with / without | "
                 "`worker index` afterwards, CPU ms per page |")
    lines.append("|---|---:|---:|---:|---:|---:|---|---:|")
    for r in results:
        lines.append("| %s | %d | %.2f | %.2f | %.1f%% | %.2f | %.1f / %.1f | %.2f |" % (
            r["web"], r["indexed_while_crawling"], r["crawl_cpu"], r["index_thread_cpu"],
            100 * r["index_thread_cpu"] / max(1e-9, r["crawl_cpu"]), r["crawl_cpu_without"],
            r["wall"], r["wall_without"], 1000 * r["after_cpu"] / max(1, r["after_pages"])))
    lines.append("")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-docs", action="store_true")
    ap.add_argument("--webs", default="synthetic,university,university-heldout,wikispeedia")
    ap.add_argument("--budget", type=int, default=1000)
    ap.add_argument("--build", default=os.environ.get("BUILD_DIR", "build"))
    a = ap.parse_args()
    root = os.path.dirname(HERE)
    build = os.path.join(root, a.build) if not os.path.isabs(a.build) else a.build
    # The options strategies.py's helpers read.
    args = argparse.Namespace(
        root=root, out_dir=os.path.join(root, "bench", "out", "search"),
        worker=os.path.join(build, "worker", "worker"),
        ranker=os.path.join(build, "ranker", "ranker"), budget=a.budget, timeout=600,
        pages=20000, hosts=60, seed=7, calendar_months=120)
    for b in (args.worker, args.ranker):
        if not os.path.exists(b):
            raise SystemExit("search: %s is not built (ninja -C %s)" % (b, build))
    os.makedirs(args.out_dir, exist_ok=True)
    t0 = time.time()
    results = []
    for name in [w for w in a.webs.split(",") if w]:
        # The webs strategies.sh generated are reused when they are there.
        args.out_dir, own = os.path.join(root, "bench", "out", "strategies"), args.out_dir
        web = strategies.ensure_web(args, name)
        args.out_dir = own
        if web is None:
            continue
        sites = crawl_bench.read_sites(web)
        labels = strategies.read_labels(web)
        hosts = sorted(sites) + crawl_bench.UNSERVED_HOSTS
        if name.startswith("university"):
            hosts = crawl_bench.linked_hosts(sites)
        nginx = crawl_bench.Nginx(os.path.join(root, "tests", "testweb", "nginx.sh"), web,
                                  os.path.join(args.out_dir, "serving"))
        port = nginx.start()
        try:
            results.append(measure(args, name, port, web, sites, labels, hosts))
        finally:
            nginx.stop()
        log(json.dumps(results[-1]))
    with open(os.path.join(args.out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    section = render(results, args, "bench/search.py" + (" " + " ".join(sys.argv[1:]) if sys.argv[1:] else ""),
                     time.time() - t0)
    print(section)
    if not a.no_docs:
        extraction.write_section(os.path.join(root, "docs", "benchmarks.md"), BEGIN, END,
                                 BEGIN + "\n" + section + END + "\n", extraction.DOC_HEADER)


if __name__ == "__main__":
    main()

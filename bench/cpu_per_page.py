#!/usr/bin/python3
"""CPU per HTML page: the worker's against quark's pipeline alone (issue 18).

Issue 18 asks that the worker spend at most 1.5 times the CPU that quark's
pipeline alone (decode, gumbo, segmentation, classification) spends on the
same pages in the same run. bench/crawl.sh measures it on the synthetic web,
whose pages are small (4 KB) and generated; this script measures it on that
web and on one of real pages, the Wikispeedia web (4,600 Wikipedia articles
of 2007, 24 KB each, on 17 sites; tests/testweb/generate.py wikispeedia,
from ../shared/data/wikispeedia.tar.xz, skipped with a message when absent).

For each web, served by nginx on loopback: the worker crawls it breadth-first
from every site's home page with a topic (so every page is segmented,
classified, scored and judged), no politeness delay, 64 in flight, until its
frontier is empty, --repeat times; with --before OLDER_WORKER the older build
crawls in turns with it (A/B on the same nginx in the same minutes, since
this machine's speed moves by 20% within an hour). Then
build/bench/gumbo_parse_bench times quark's pipeline alone over the HTML
pages this build's last crawl fetched (read from the web's files, best of
3, on as many threads as there are cores). The ratio is the worker's CPU (user + sys,
GNU time) per HTML page over the pipeline's (wall time × threads) per page.

Writes the section of docs/benchmarks.md between <!-- cpu:begin --> and
<!-- cpu:end --> unless --no-docs.

usage: bench/cpu_per_page.py [--webs synthetic,wikispeedia] [--repeat 2]
                             [--before OLDER_WORKER [--before-name NAME]]
                             [--no-docs]
"""

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import crawl_bench  # noqa: E402  (nginx, configs, timed runs, gumbo bench: shared)
import extraction  # noqa: E402  (machine_info, write_section, DOC_HEADER)
import benchlib  # noqa: E402

DOCS = os.path.join(ROOT, "docs", "benchmarks.md")
BEGIN, END = "<!-- cpu:begin -->", "<!-- cpu:end -->"
OUT = os.path.join(HERE, "out", "cpu")
WIKISPEEDIA_DATA = os.path.join(ROOT, "..", "shared", "data", "wikispeedia.tar.xz")
GENERATE = os.path.join(ROOT, "tests", "testweb", "generate.py")
# The crawl tests' Wikispeedia topic (tests/crawl_lib.py).
WIKI_KEYWORDS = ["physics", "astronomy", "planet", "energy", "space"]
TARGET = 1.5


log = benchlib.logger("cpu")


def prepare_web(name):
    """(folder, keywords) of a web, generated unless already there; None
    when its data is absent."""
    if name == "synthetic":
        web = os.path.join(HERE, "out", "crawl", "web-p20000-h60-s1-c0")  # crawl.sh's
        args = ["synthetic", "--pages", "20000", "--hosts", "60", "--seed", "1"]
        keywords = crawl_bench.topic_keywords(GENERATE)
    else:
        if not os.path.exists(WIKISPEEDIA_DATA):
            log("%s not found (the shared data folder is absent): the Wikispeedia web "
                "is skipped" % WIKISPEEDIA_DATA)
            return None
        web = os.path.join(OUT, "web-wikispeedia")
        args = ["wikispeedia", "--data", WIKISPEEDIA_DATA]
        keywords = WIKI_KEYWORDS
    if not os.path.exists(os.path.join(web, "sites.tsv")):
        log("generating the %s web in %s" % (name, web))
        subprocess.run([sys.executable, GENERATE] + args +
                       ["--calendar-months", "0", "--out", web],
                       check=True, stdout=sys.stderr)
    return web, keywords


def html_urls(fetch_log):
    urls = []
    with open(fetch_log) as f:
        for line in f:
            e = json.loads(line)
            if e.get("status") == 200 and "text/html" in (e.get("content_type") or ""):
                urls.append(e.get("final_url") or e["url"])
    return urls


def crawl(worker, web_name, seeds, hosts, keywords, port, round_no, build):
    run_dir = os.path.join(OUT, "%s-%s-%d" % (web_name, build, round_no))
    subprocess.run(["rm", "-rf", run_dir], check=True)
    os.makedirs(run_dir)
    budget = 100000
    config = os.path.join(run_dir, "config.textproto")

    class Opts:  # what crawl_bench.worker_config reads
        timeout = 1800
        in_flight = 64
    with open(config, "w") as f:
        f.write(crawl_bench.worker_config(Opts, "bfs", seeds, keywords, budget, port,
                                          os.path.join(run_dir, "crawl"), hosts))
    res = crawl_bench.run_timed([worker, "crawl", "--config", config], run_dir,
                                os.path.join(run_dir, "stdout"),
                                os.path.join(run_dir, "stderr"), Opts.timeout)
    if res["rc"] != 0:
        raise SystemExit("cpu_per_page: %s exited with %d (see %s)"
                         % (worker, res["rc"], run_dir))
    res["urls"] = html_urls(os.path.join(run_dir, "crawl", "fetch_log.jsonl"))
    res["html_pages"] = len(res["urls"])
    log("%s, %s, round %d: %d HTML pages, %.1f s CPU, %.1f s"
        % (web_name, build, round_no, res["html_pages"], res["cpu_s"], res["wall_s"]))
    return res


def measure_web(args, web_name):
    prepared = prepare_web(web_name)
    if prepared is None:
        return None
    web, keywords = prepared
    sites = crawl_bench.read_sites(web)
    hosts = crawl_bench.linked_hosts(sites)  # reads every page once
    seeds = ["http://%s/" % h for h in sorted(sites) if h != crawl_bench.AD_HOST]
    builds = [("this build", args.worker)]
    if args.before:
        builds.insert(0, (args.before_name, args.before))
    nginx = crawl_bench.Nginx(os.path.join(ROOT, "tests", "testweb", "nginx.sh"), web,
                              os.path.join(OUT, "serving-" + web_name))
    runs = []
    try:
        port = nginx.start()
        for r in range(1, args.repeat + 1):
            for name, worker in builds:
                res = crawl(worker, web_name, seeds, hosts, keywords, port, r, name)
                res["build"] = name
                res["round"] = r
                runs.append(res)
    finally:
        nginx.stop()

    class GumboOpts:  # what crawl_bench.run_gumbo reads
        gumbo_bench = args.gumbo_bench
        threads = args.threads
        repeat = 3
        out_dir = OUT
    last = runs[-1]  # this build's last crawl
    gumbo = crawl_bench.run_gumbo(GumboOpts, last["urls"], sites, web_name)
    if "error" in gumbo:
        raise SystemExit("cpu_per_page: %s" % gumbo["error"])
    pipeline_ms = gumbo["pipeline_s"] * args.threads / gumbo["pages"] * 1000
    for res in runs:
        res["ms_per_page"] = res["cpu_s"] / res["html_pages"] * 1000
        res["ratio"] = res["ms_per_page"] / pipeline_ms
        del res["urls"]
    return {"web": web_name, "dir": web, "keywords": keywords,
            "bytes_per_page": gumbo["bytes"] / gumbo["pages"], "runs": runs,
            "pipeline_ms_per_page": pipeline_ms, "gumbo": gumbo}


def render(results, meta):
    lines = [BEGIN, "## CPU per page: the worker against quark's pipeline alone "
             "(bench/cpu_per_page.py)", "",
             "Command (from the project root): `%s`" % meta["command"], "",
             "- Date: %s; %s; run time %.0f s" % (meta["date"], meta["machine"],
                                                  meta["seconds"]),
             "- Code: %s" % meta["revision"], "",
             "| web | bytes per HTML page | build | round | HTML pages | worker CPU s | "
             "wall s | worker CPU ms per page | quark pipeline alone, ms per page | "
             "ratio (target ≤ %.1f) |" % TARGET,
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for w in results:
        for r in w["runs"]:
            lines.append("| %s | %.0f | %s | %d | %d | %.1f | %.1f | %.2f | %.3f | %.2f |" % (
                w["web"], w["bytes_per_page"], r["build"], r["round"], r["html_pages"],
                r["cpu_s"], r["wall_s"], r["ms_per_page"], w["pipeline_ms_per_page"],
                r["ratio"]))
    lines.append("")
    for w in results:
        by_build = {}
        for r in w["runs"]:
            by_build.setdefault(r["build"], []).append(r["ratio"])
        parts = ["%s %.2f" % (b, statistics.mean(v)) for b, v in by_build.items()]
        lines.append("- %s (topic %s): mean ratio %s; quark's pipeline alone %.2f s on %d "
                     "threads over %d pages (best of 3)."
                     % (w["web"], " ".join(w["keywords"]), ", ".join(parts),
                        w["gumbo"]["pipeline_s"], w["gumbo"]["threads"],
                        w["gumbo"]["pages"]))
    lines += ["",
              "Method: each web served by nginx on loopback (`tests/testweb/nginx.sh`); "
              "`worker crawl` breadth-first from every site's home page with the topic "
              "above, no politeness delay, robots.txt obeyed, 64 in flight, until the "
              "frontier is empty (configs in `bench/out/cpu/`); worker CPU = user + sys "
              "of the process (GNU time), start-up and RocksDB included; pages = fetch-log "
              "lines with status 200 and an HTML type. quark's pipeline alone: "
              "`build/bench/gumbo_parse_bench` over the files of those pages, in memory, "
              "its wall time × threads. With `--before`, the older build crawls in turns "
              "with this one on the same server.",
              END]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--webs", default="synthetic,wikispeedia")
    ap.add_argument("--repeat", type=int, default=2, help="crawls per build and web")
    ap.add_argument("--worker", default=os.path.join(ROOT, "build", "worker", "worker"))
    ap.add_argument("--before", default="", help="an older worker to crawl in turns with")
    ap.add_argument("--before-name", default="before",
                    help="what the tables call the older build (e.g. its commit)")
    ap.add_argument("--gumbo-bench",
                    default=os.path.join(ROOT, "build", "bench", "gumbo_parse_bench"))
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--no-docs", action="store_true")
    args = ap.parse_args()
    for tool in [args.worker, args.gumbo_bench] + ([args.before] if args.before else []):
        if not os.access(tool, os.X_OK):
            raise SystemExit("cpu_per_page: %s is missing (build first: deploy/build.sh)"
                             % tool)
    os.makedirs(OUT, exist_ok=True)
    started = time.perf_counter()
    results = []
    for name in [w.strip() for w in args.webs.split(",") if w.strip()]:
        if name not in ("synthetic", "wikispeedia"):
            raise SystemExit("cpu_per_page: unknown web %r" % name)
        r = measure_web(args, name)
        if r is not None:
            results.append(r)
    m = extraction.machine_info()
    meta = {
        "command": "bench/cpu_per_page.py" + ("" if args.webs == "synthetic,wikispeedia"
                                              else " --webs " + args.webs) +
                   ("" if args.repeat == 2 else " --repeat %d" % args.repeat) +
                   (" --before OLDER_WORKER" if args.before else "") +
                   (" --before-name " + args.before_name
                    if args.before and args.before_name != "before" else ""),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": "%s cores, %s" % (m.get("nproc"), m.get("model")),
        "revision": crawl_bench.git_revision(ROOT, ["worker", "protocol", "storage", "core", "quark",
                                                    "focus", "proto"]),
        "seconds": time.perf_counter() - started,
    }
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump({"meta": meta, "webs": results}, f, indent=1)
    section = render(results, meta)
    print(section)
    if not args.no_docs and results:
        extraction.write_section(DOCS, BEGIN, END, section, extraction.DOC_HEADER)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Strategy comparison: every crawl strategy on the labelled test webs.

Run through bench/strategies.sh, which builds the worker, crawl-eval and the
ranker first. For each test web (synthetic, the two university webs, and the
Wikispeedia-based one when ../shared/data/wikispeedia.tar.xz is there) and
each of its topics, this script crawls the web twice per strategy from the
same seeds, with the same topic keywords and the same page budget: in
parallel with the default scheduler (64 transfers in flight, 20 ms per-host
delay: what a user runs) and in strict order (1 in flight, no delay, order
window 1: every fetch is the best URL of the whole frontier once the page
before it is scored), then runs crawl-eval over the
fetch logs against the web's labels, and ranks the learned crawl's graph
with every ranking algorithm (precision of the best 10 and 100 pages). It also crawls with the interest strategy for several γ ([INTEREST]'s
trade-off), lists the URL patterns the url-rule strategy learned, and writes
the generated part of docs/strategies.md (between <!-- strategies:begin -->
and <!-- strategies:end -->) with one table and one plot (SVG, copied to
docs/strategies/) per web and topic.

The interest strategy needs positive and negative example pages: they are
taken from the labelled web itself (every k-th labelled on-topic article and
as many off-topic ones), which the report says.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import crawl_bench  # noqa: E402  (Nginx, read_sites, textproto_string, on_signal)
import extraction  # noqa: E402  (machine_info, write_section)
import benchlib  # noqa: E402

BEGIN = "<!-- strategies:begin -->"
END = "<!-- strategies:end -->"
MDN_BEGIN = "<!-- strategies-mdn:begin -->"
MDN_END = "<!-- strategies-mdn:end -->"
HEADER = """# Focused-crawl strategies compared

How well each crawl strategy finds on-topic pages of the labelled test webs
(tests/testweb/), measured with `crawl-eval` (eval/README.md). The section
between the markers below is written by `bench/strategies.sh`; the analysis
after it is written by hand from those figures.

"""

ALL = ["bfs", "fish", "shark", "ssaps", "hopfield", "hopfield-block",
       "interest", "topic-pagerank", "improved-shark", "url-rule", "learned"]

# Orderings the papers report (better, worse), checked on every topic.
ORDERINGS = [
    ("ssaps", "shark", "[SSAPS]: SSAPS above Shark-Search"),
    ("url-rule", "improved-shark", "[MMTOPIC]: URL-rule above improved Shark-Search"),
    ("improved-shark", "topic-pagerank", "[MMTOPIC]: improved Shark-Search above TPR"),
    ("hopfield-block", "hopfield", "[HOPFIELD-BLOCK]: Hopfield-block above Hopfield"),
    ("hopfield", "bfs", "[HOPFIELD-BLOCK]: Hopfield above BFS"),
]
BLOCK_PAIRS = [("ssaps", "shark"), ("hopfield-block", "hopfield"),
               ("hopfield-block-theta0", "hopfield-theta0")]
# Extra rows: a strategy with other parameters, (name, strategy, params).
# Hopfield's defaults (θ = 0.1, min mean activation 0.01) end a crawl within
# a few links of the seeds (f_s(x) <= x/2 with cosine weights <= 1), so it
# is also run without the thresholds, as a best-first crawl by activation.
VARIANTS = [
    ("hopfield-theta0", "hopfield", "hopfield { theta: 0 min_mean_activation: 0 }"),
    ("hopfield-block-theta0", "hopfield-block",
     "hopfield { theta: 0 min_mean_activation: 0 }"),
    # url-rule's exploration quota NUM_P2 is not fixed by the paper (default
    # 10 pages on physical layer 2), and it learns from pages whose cosine
    # to the topic is above 0.1, which on Wikispeedia's long articles fewer
    # than half of the on-topic pages reach (measured below each table): a
    # site whose articles all sit on layer 2 never gets more than 5 relevant
    # pages to learn from. Also run with NUM_P2 = 50 and threshold 0.05.
    ("url-rule-q50", "url-rule",
     "url_rule { layer2_quota: 50 relevance_threshold: 0.05 }"),
]

WEBS = {
    "synthetic": {
        "topics": [
            {"name": "astronomy", "labels": "astronomy"},
            {"name": "chemistry", "labels": "chemistry"},
        ],
    },
    # An old university crawl's shape (tests/testweb/README.md): seed 1 is
    # the split the defaults were tuned on, seed 2 the held-out one.
    "university": {
        "gen_seed": 1,
        "topics": [
            {"name": "course", "labels": "course",
             "keywords": ["course", "syllabus", "lecture", "homework", "assignment",
                          "exam", "grading", "textbook", "instructor", "prerequisite",
                          "midterm"]},
        ],
    },
    "university-heldout": {
        "gen_seed": 2,
        "topics": [
            {"name": "course", "labels": "course",
             "keywords": ["course", "syllabus", "lecture", "homework", "assignment",
                          "exam", "grading", "textbook", "instructor", "prerequisite",
                          "midterm"]},
        ],
    },
    # The archived MDN Web Docs (tests/testweb/gen_mdn.py): a real web, one
    # host, a third of its links dead. Topics are tags a user would search
    # for, with the words such a user would type (not the tag lists); a
    # topic's pages are those with its tags or in the sections its authors
    # devoted to it (a quarter of MDN's pages carry no tag at all); the
    # seeds are the locale's home page and one section page, as a user
    # would pick. "split": "dev" topics may be looked at while tuning;
    # "held-out" ones never (docs/strategies.md, "The MDN web").
    "mdn": {
        "topics": [
            {"name": "accessibility", "split": "dev",
             "labels": "en-us.tag.accessibility,en-us.path.mozilla.accessibility,"
                       "en-us.path.mozilla.tech.accessibility",
             "keywords": ["accessibility", "accessible", "screen reader",
                          "assistive technology", "aria", "keyboard navigation",
                          "disabilities", "msaa", "atk"],
             "seeds": ["/en-US/", "/en-US/docs/Mozilla/Accessibility"]},
            {"name": "firefox-os", "split": "dev",
             "labels": "en-us.tag.firefox-os,en-us.tag.b2g,en-us.tag.gaia,"
                       "en-us.path.archive.b2g_os",
             "keywords": ["firefox os", "b2g", "boot to gecko", "gaia", "gonk",
                          "phone", "device", "web apps", "flashing"],
             "seeds": ["/en-US/", "/en-US/docs/Archive/B2G_OS"]},
            {"name": "xul", "split": "dev",
             "labels": ",".join("en-us.tag." + t for t in (
                 "xul", "xul-reference", "xul-attributes", "xul-properties",
                 "xul-methods", "xul-elements", "xul_tutorial")) +
                       ",en-us.path.archive.mozilla.xul,en-us.path.mozilla.tech.xul",
             "keywords": ["xul", "element", "attribute", "toolbar", "menu",
                          "window", "widget", "overlay", "chrome"],
             "seeds": ["/en-US/", "/en-US/docs/Archive/Mozilla/XUL"]},
            {"name": "xul-zh", "split": "dev",
             "labels": ",".join("zh-cn.tag." + t for t in (
                 "xul", "xul-reference", "xul-attributes", "xul-elements",
                 "xul_教程", "xul_tutorial")) + ",zh-cn.path.mozilla.tech.xul",
             "keywords": ["xul", "元素", "属性", "界面", "窗口", "菜单", "工具栏"],
             "seeds": ["/zh-CN/", "/zh-CN/docs/Mozilla/Tech/XUL"]},
            {"name": "spidermonkey", "split": "held-out",
             "labels": "en-us.tag.spidermonkey,en-us.tag.jsapi-reference,"
                       "en-us.path.mozilla.projects.spidermonkey",
             "keywords": ["spidermonkey", "jsapi", "javascript engine", "embedding",
                          "garbage collection", "jscontext", "jsobject", "js shell"],
             "seeds": ["/en-US/", "/en-US/docs/Mozilla/Projects/SpiderMonkey"]},
            {"name": "add-ons", "split": "held-out",
             "labels": "en-us.tag.add-ons,en-us.tag.extensions,en-us.tag.add-on-sdk,"
                       "en-us.path.archive.add-ons",
             "keywords": ["add-on", "extension", "firefox extension", "xpi",
                          "add-on sdk", "install.rdf", "bootstrapped", "amo"],
             "seeds": ["/en-US/", "/en-US/docs/Archive/Add-ons"]},
            {"name": "nss", "split": "held-out",
             "labels": "en-us.tag.nss,en-us.tag.security,en-us.path.mozilla.projects.nss",
             "keywords": ["nss", "network security services", "ssl", "tls",
                          "certificate", "pkcs", "cryptography", "certutil"],
             "seeds": ["/en-US/", "/en-US/docs/Mozilla/Projects/NSS"]},
            {"name": "firefox-os-zh", "split": "held-out",
             "labels": "zh-cn.tag.firefox-os,zh-cn.tag.b2g,zh-cn.tag.gaia,"
                       "zh-cn.path.archive.b2g_os",
             "keywords": ["firefox os", "b2g", "gaia", "火狐操作系统", "手机",
                          "设备", "应用"],
             "seeds": ["/zh-CN/", "/zh-CN/docs/Archive/B2G_OS"]},
        ],
    },
    "wikispeedia": {
        "seeds": ["http://science.wiki.test/", "http://history.wiki.test/",
                  "http://geography.wiki.test/", "http://people.wiki.test/",
                  "http://countries.wiki.test/"],
        "topics": [
            {"name": "physics", "labels": "subject.Science.Physics",
             "keywords": ["physics", "energy", "force", "mass", "particle",
                          "quantum", "electron", "light", "motion",
                          "relativity", "gravity", "magnetic"]},
            {"name": "countries", "labels": "subject.Countries",
             "keywords": ["country", "republic", "capital", "population",
                          "government", "independence", "president",
                          "parliament", "official", "constitution",
                          "economy", "territory"]},
        ],
    },
}


log = benchlib.logger("strategies")


def read_labels(web):
    labels = {}
    with open(os.path.join(web, "labels.tsv"), encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if parts and parts[0]:
                labels[parts[0]] = parts[1].split(",") if len(parts) > 1 and parts[1] else []
    return labels


def on_topic(cats, prefix):
    """prefix: one label prefix or several, comma-separated (crawl-eval's
    --topic)."""
    prefixes = [p.strip() for p in prefix.split(",") if p.strip()]
    return any(c == p or c.startswith(p + ".") for c in cats for p in prefixes)


def ensure_web(args, name):
    web = os.path.join(args.out_dir, "web-" + name)
    gen = os.path.join(args.root, "tests", "testweb", "generate.py")
    if name == "synthetic":
        want = {"mode": "synthetic", "pages": args.pages, "hosts": args.hosts,
                "seed": args.seed}
        cmd = [sys.executable, gen, "synthetic", "--pages", str(args.pages),
               "--hosts", str(args.hosts), "--seed", str(args.seed),
               "--calendar-months", str(args.calendar_months), "--out", web]
    elif name == "mdn":
        data = os.path.join(args.root, "..", "shared", "data", "mdn-archive.tar.xz")
        if not os.path.exists(data):
            log("MDN archive not found at %s: skipping that web" % data)
            return None
        want = {"mode": "mdn"}
        cmd = [sys.executable, gen, "mdn", "--data", data, "--out", web]
    elif name.startswith("university"):
        want = {"mode": "university", "seed": WEBS[name]["gen_seed"]}
        cmd = [sys.executable, gen, "university", "--seed", str(WEBS[name]["gen_seed"]),
               "--out", web]
    else:
        data = os.path.join(args.root, "..", "shared", "data", "wikispeedia.tar.xz")
        if not os.path.exists(data):
            log("Wikispeedia data not found at %s: skipping that web" % data)
            return None
        want = {"mode": "wikispeedia"}
        cmd = [sys.executable, gen, "wikispeedia", "--calendar-months",
               str(args.calendar_months), "--out", web]
    if name != "mdn":
        want["calendar_months"] = args.calendar_months
    try:
        with open(os.path.join(web, "manifest.json")) as f:
            have = json.load(f)
        if all(have.get(k) == v for k, v in want.items()):
            log("reusing the web in %s" % web)
            return web
    except (OSError, ValueError):
        pass
    log("generating the %s web -> %s" % (name, web))
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    return web


def synthetic_topic_keywords(args, topic, n=12):
    sys.path.insert(0, os.path.join(args.root, "tests", "testweb"))
    try:
        import generate  # noqa: E402
        for name, words in generate.topic_vocab():
            if name == topic:
                return words[:n]
    finally:
        sys.path.pop(0)
    raise SystemExit("strategies: no synthetic topic %s" % topic)


def seeds_for(name, sites, labels, prefix, topic_seeds=()):
    """Wikispeedia: the home pages of five subject sites, the topic's among
    them. Synthetic: the home pages of the five hosts with the most on-topic
    pages (the papers start from sites on the topic: [MMTOPIC] picks its seed
    sites by searching for the topic, [HOPFIELD-BLOCK] has experts choose them)."""
    if "seeds" in WEBS[name]:
        return WEBS[name]["seeds"]
    if name == "mdn":
        return [urllib.parse.urljoin("http://developer.mozilla.org/", p)
                for p in topic_seeds]
    if name.startswith("university"):
        with open(os.path.join(sites[next(iter(sites))], "..", "..", "seeds.txt")) as f:
            return [line.strip() for line in f if line.strip()]
    count = {h: 0 for h in sites if h != crawl_bench.AD_HOST}
    for u, cats in labels.items():
        h = urllib.parse.urlsplit(u).hostname
        if h in count and on_topic(cats, prefix):
            count[h] += 1
    best = sorted(count, key=lambda h: (-count[h], h))[:5]
    return ["http://%s/" % h for h in sorted(best)]


def page_files(web):
    """{lower-cased path: file} of a web that maps URLs to files itself (the
    mdn web's nginx/pages.map), None for the webs served from their paths."""
    path = os.path.join(web, "nginx", "pages.map")
    if not os.path.exists(path):
        return None
    root = crawl_bench.read_sites(web)
    files = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'"((?:[^"\\]|\\.)*)" "([^"]*)";', line)
            if m:
                key = re.sub(r"\\(.)", r"\1", m.group(1)).lower()
                files[key] = os.path.join(next(iter(root.values())), m.group(2).lstrip("/"))
    return files


def example_folders(out, web, sites, labels, prefix, n):
    """n on-topic and n off-topic labelled article files, evenly spread."""
    mapped = page_files(web)
    pos, neg = os.path.join(out, "positive"), os.path.join(out, "negative")
    for d in (pos, neg):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    urls = sorted(labels)
    on = [u for u in urls if on_topic(labels[u], prefix)]
    off = [u for u in urls if not on_topic(labels[u], prefix)]
    taken = {}
    for d, group in ((pos, on), (neg, off)):
        step = max(1, len(group) // n)
        k = 0
        for u in group[::step][:n]:
            p = urllib.parse.urlsplit(u)
            root = sites.get(p.hostname)
            if root is None:
                continue
            if mapped is not None:
                src = mapped.get(urllib.parse.unquote(p.path).lower(), "")
            else:
                src = os.path.join(root, p.path.lstrip("/"))
                if p.path.endswith("/") or os.path.isdir(src):
                    src = os.path.join(src, "index.html")  # what nginx serves
            if os.path.isfile(src):
                k += 1
                shutil.copy(src, os.path.join(d, "%04d.html" % k))
        taken[d] = k
    return pos, neg, taken[pos], taken[neg]


# How each strategy is crawled: (name, transfers in flight, per-host delay
# ms, strategy.order_window or None for the default). Strict order waits for
# each page's links to be scored before the next transfer (window 1), so
# every fetch is the best URL of the whole frontier and the run repeats
# exactly; with the default window the next transfer would start while the
# page before it is still parsed, and which links were scored in time would
# be up to the clock.
SETTINGS = [("parallel", 64, 20, None), ("strict", 1, 0, 1)]

# Rankings of the learned crawl's graph: (name, ranker flags).
RANKINGS = [
    ("pagerank", ["--algorithm", "pagerank"]),
    ("quarkrank, templates dropped (default)", ["--algorithm", "quarkrank"]),
    ("quarkrank, templates kept (paper)", ["--algorithm", "quarkrank",
                                           "--template_weight", "0.5"]),
    ("topic-pagerank", ["--algorithm", "topic-pagerank"]),
    ("topic-quarkrank, templates dropped (default)", ["--algorithm", "topic-quarkrank"]),
    ("topic-quarkrank, templates kept", ["--algorithm", "topic-quarkrank",
                                         "--template_weight", "0.5"]),
]


def write_config(path, args, strategy, seeds, keywords, port, out, hosts,
                 examples=None, interest_gamma=None, params="", in_flight=64,
                 delay_ms=20, order_window=None):
    q = crawl_bench.textproto_string
    lines = ["# Written by bench/strategies.py"]
    lines += ["seeds: %s" % q(s) for s in seeds]
    lines.append("topic {")
    if strategy != "bfs":
        lines += ["  keywords: %s" % q(k) for k in keywords]
    if examples:
        lines.append("  positive_examples_dir: %s" % q(examples[0]))
        lines.append("  negative_examples_dir: %s" % q(examples[1]))
    lines.append("}")
    lines.append("strategy {")
    lines.append("  name: %s" % q(strategy))
    if interest_gamma is not None:
        lines.append("  interest { gamma: %g }" % interest_gamma)
    if params:
        lines.append("  " + params)
    if order_window is not None:
        lines.append("  order_window: %d" % order_window)
    lines.append("}")
    lines.append("budget { max_pages: %d max_seconds: %d }" % (args.budget, args.timeout))
    lines.append("scope {")
    lines += ["  allowed_hosts: %s" % q(h) for h in hosts]
    lines.append("  max_pages_per_host: %d" % args.budget)
    lines.append("}")
    lines.append("politeness { per_host_delay_ms: %d per_ip_delay_ms: 0 "
                 "max_crawl_delay_ms: 0 }" % delay_ms)
    lines.append("fetch { max_in_flight: %d }" % in_flight)
    lines.append("output_dir: %s" % q(out))
    for h in hosts:
        lines.append("resolve { host_port: %s address: %s }" % (q(h), q("127.0.0.1:%d" % port)))
    lines.append("allow_private_addresses: true")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def crawl(args, config, out, extra=()):
    """Runs `worker crawl` on config (its output folder out); extra: more
    flags. Returns the summary line as a dict."""
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    with open(out + ".stderr", "w") as err:
        r = subprocess.run([args.worker, "crawl", "--quiet", "--config", config] + list(extra),
                           stdout=subprocess.PIPE, stderr=err, text=True,
                           timeout=args.timeout + 120)
    if r.returncode != 0:
        with open(out + ".stderr") as f:
            raise SystemExit("strategies: worker failed (%d) on %s:\n%s"
                             % (r.returncode, config, f.read()[-3000:]))
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    summary["wall_seconds"] = round(time.perf_counter() - t0, 2)
    return summary


def evaluate(args, labels_file, prefix, runs, out):
    cmd = [args.crawl_eval, "compare", "--labels", labels_file, "--topic", prefix, "--out", out]
    cmd += ["%s=%s" % (name, path) for name, path in runs]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("strategies: crawl-eval failed: %s" % r.stderr[-2000:])
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def fold_repeats(report, again, summaries, names):
    """The parallel crawl is not the same twice (which pages arrive first
    decides what an adaptive strategy learns and follows), so it runs
    --repeats times: each strategy's row becomes its median run by on-topic
    pages (the lower middle of an even count), with every run's count in
    "runs"; the first run stays in the curves."""
    crawls = {c["name"]: c for c in report["crawls"] + again["crawls"]}
    folded = {}
    for name in names:
        group = sorted((n for n in crawls if n == name or n.startswith(name + "@run")),
                       key=lambda n: crawls[n]["on_topic"])
        median = group[(len(group) - 1) // 2]
        folded[name] = dict(crawls[median], name=name,
                            runs=[crawls[n]["on_topic"] for n in group])
        summaries[name] = summaries[median]
    report["crawls"] = [folded.get(c["name"], c) for c in report["crawls"]]
    report["repeats"] = again["crawls"]


def relevance_spread(fetch_log, labels, prefix):
    """sim(T, page) of the on- and off-topic pages of one crawl: how well the
    crawl's own relevance separates them (the thresholds of fish, url-rule
    and sum_of_info assume 0.1)."""
    out = {}
    try:
        with open(fetch_log, encoding="utf-8") as f:
            entries = [json.loads(line) for line in f if line.strip()]
    except OSError:
        return None
    for side in ("on", "off"):
        v = sorted(e["relevance"] for e in entries
                   if e.get("relevance") is not None and e["url"] in labels and
                   on_topic(labels[e["url"]], prefix) == (side == "on"))
        if v:
            out[side] = {"n": len(v), "median": v[len(v) // 2],
                         "above_0.1": sum(x > 0.1 for x in v) / len(v),
                         "above_0.05": sum(x > 0.05 for x in v) / len(v)}
    return out


def rank_quality(args, config, labels, prefix, work):
    """Exports the crawl's graph and ranks it with each of RANKINGS: the
    share of on-topic pages (labels) among the best 10 and 100."""
    graph = os.path.join(work, "graph")
    shutil.rmtree(graph, ignore_errors=True)
    r = subprocess.run([args.worker, "export-graph", "--config", config, "--out", graph],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("strategies: export-graph failed: %s" % r.stderr[-2000:])
    out = []
    for name, flags in RANKINGS:
        tsv = os.path.join(work, "ranking.tsv")
        r = subprocess.run([args.ranker, "run", "--quiet", "--fresh", "--out", tsv] + flags +
                           [graph], capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit("strategies: ranker failed: %s" % r.stderr[-2000:])
        with open(tsv, encoding="utf-8") as f:
            urls = [line.split("\t")[1] for line in f if not line.startswith("rank\t")]
        def precision(k):
            best = urls[:k]
            return sum(1 for u in best if on_topic(labels.get(u, []), prefix)) / max(1, len(best))
        out.append({"name": name, "p10": precision(10), "p100": precision(100),
                    "top": urls[:3]})
    return out


def list_patterns(args, config):
    """The sites that learned patterns (guided phase), from `worker
    list-patterns all`, and how many sites were still exploring."""
    r = subprocess.run([args.worker, "list-patterns", "all", "--config", config],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return "(none: %s)" % r.stderr.strip(), 0
    blocks = [b for b in r.stdout.strip().split("\n\n") if b.strip()]
    guided = [b for b in blocks if b.startswith("site ") and ": guided" in b.splitlines()[0]]
    return "\n\n".join(guided), len(blocks) - len(guided)


def pct(x):
    return "n/a" if x is None else "%.1f%%" % (100 * x)


def outcome_table(t, rows):
    """What each strategy's fetches came to (crawl-eval's outcome classes)
    and its on-topic decision against the labels: the parallel crawl's
    median run and the strict-order crawl."""
    out = ["What the fetches came to (shares of pages fetched: on topic by the labels, "
           "HTML off topic, 404/410, other errors, not HTML; redirected across them) and "
           "the crawl's own on-topic decision against the labels (precision, recall):",
           "",
           "| strategy | setting | on topic | off topic | 404/410 | other errors | not HTML "
           "| redirected | on-topic hosts | decision P | decision R |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in t["strategies"]:
        for setting, key in (("parallel", name), ("strict", name + "@strict")):
            c = rows.get(key)
            if c is None or not c.get("outcomes"):
                continue
            o, n = c["outcomes"], max(1, c["pages"])
            judged = c.get("judged", 0) > 0
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |" % (
                name, setting, pct(o["on_topic"] / n), pct(o["off_topic"] / n),
                pct(o["not_found"] / n), pct(o["other_error"] / n), pct(o["non_html"] / n),
                pct(o["redirected"] / n), c.get("on_topic_hosts", 0),
                "%.2f" % c["judge_precision"] if judged else "n/a",
                "%.2f" % c["judge_recall"] if judged else "n/a"))
    out.append("")
    return out


def render(results, args, command, seconds):
    out = []
    mi = extraction.machine_info()
    m = "%s cores (%s)" % (mi["nproc"], mi["model"])
    out.append("Measured %s on %s with `%s` (%.0f s in all). Budget %d pages per "
               "crawl, robots.txt obeyed, one transfer per host at a time; the same "
               "seeds and topic keywords for every strategy of a topic. Each strategy "
               "crawls in two settings: **parallel** with the default scheduler (64 transfers in "
               "flight, 20 ms per-host delay, the strategy's default order window: what "
               "a user runs) and in **strict** order (1 in flight, no delay, order window "
               "1: every fetch is the best URL of the whole frontier once the page before "
               "it is scored; the same in every run). On-topic = fetched pages the "
               "web's labels put on the topic (labels.tsv); harvest rate = on-topic ÷ "
               "pages fetched; recall = on-topic ÷ the topic's pages; × strict BFS = "
               "on-topic ÷ strict-order BFS's on-topic; decision F1 = the crawl's own "
               "on-topic decision (focus/page_judge.h) against the labels, over the "
               "pages it judged (parallel crawl). The parallel crawl is not the same "
               "twice, so it runs %d times%s: the row is the median run, `parallel runs` "
               "lists every run's on-topic pages (fewest first), the curves show the "
               "first run."
               % (datetime.date.today().isoformat(), m, command, seconds,
                  args.budget, max(1, args.repeats),
                  " for %s (once for the others)" % ", ".join(
                      "`%s`" % x for x in args.repeat_strategies.split(","))
                  if args.repeat_strategies else ""))
    out.append("")
    for web in results:
        out.append("### %s web" % web["name"])
        out.append("")
        out.append("%s." % web["about"])
        out.append("")
        for t in web["topics"]:
            rows = {c["name"]: c for c in t["report"]["crawls"]}
            total = t["report"]["on_topic_total"]
            bfs_strict = rows.get("bfs@strict")
            base = bfs_strict["on_topic"] if bfs_strict else None
            split = {"dev": " — dev", "held-out": " — *held out*"}.get(t.get("split"), "")
            out.append("#### Topic: %s%s (labels `%s`, %d on-topic pages; keywords: %s)"
                       % (t["name"], split, t["labels"], total, ", ".join(t["keywords"])))
            out.append("")
            out.append("Seeds: %s." % ", ".join("`%s`" % s for s in t["seeds"]))
            out.append("")
            out.append("| strategy | pages | on-topic | harvest rate | × strict BFS | recall | "
                       "on-topic, strict | parallel ÷ strict | parallel runs | decision F1 | "
                       "stop reason | s |")
            out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---:|")
            for name in t["strategies"]:
                c = rows[name]
                st = rows.get(name + "@strict")
                s = t["summaries"][name]
                ratio = c["on_topic"] / base if base else None
                ps = c["on_topic"] / st["on_topic"] if st and st["on_topic"] else None
                out.append("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %.1f |" % (
                    name, c["pages"], c["on_topic"], pct(c["harvest_rate"]),
                    "n/a" if ratio is None else "%.2f×" % ratio, pct(c["recall"]),
                    "n/a" if st is None else "%d" % st["on_topic"],
                    "n/a" if ps is None else "%.2f" % ps,
                    ", ".join(str(x) for x in c.get("runs", [c["on_topic"]])),
                    "n/a" if c.get("judge_f1") is None else "%.2f" % c["judge_f1"],
                    s.get("stop_reason", ""), s.get("wall_seconds", 0)))
            out.append("")
            out += outcome_table(t, rows)
            out.append("![harvest rate and recall, %s, %s](%s)" % (web["name"], t["name"], t["svg"]))
            out.append("")
            checks = []
            for better, worse, what in ORDERINGS:
                if better in rows and worse in rows:
                    a, b = rows[better]["on_topic"], rows[worse]["on_topic"]
                    checks.append("%s: %s (%d vs %d on-topic pages)" % (
                        what, "holds" if a > b else "**does not hold**", a, b))
            # The best at the full budget: a crawl that ended early (Hopfield
            # with its thresholds) is not compared at "the same budget".
            full = [n for n in t["strategies"]
                    if n != "bfs" and rows[n]["pages"] >= 0.9 * args.budget]
            best = max(full, key=lambda n: rows[n]["on_topic"], default=None)
            if best and base is not None:
                want = min(2 * base, 0.9 * total)
                checks.append("Target best ≥ 2× strict-order BFS (%d) or ≥ 90%% of the "
                              "topic's pages (%d): best is %s with %d — %s"
                              % (2 * base, round(0.9 * total), best, rows[best]["on_topic"],
                                 "met" if rows[best]["on_topic"] >= want else "**missed**"))
            others = [n for n in full if n != "learned"]
            best_other = max(others, key=lambda n: rows[n]["on_topic"], default=None)
            if best_other and "learned" in rows and base is not None:
                lo = rows["learned"]["on_topic"]
                ok = (lo >= rows[best_other]["on_topic"] and
                      lo >= min(2 * base, 0.9 * total))
                checks.append("Target learned ≥ the best other strategy (%s, %d) and ≥ 2× "
                              "strict BFS (%d) or ≥ 90%% of the topic's pages (%d): %d — %s"
                              % (best_other, rows[best_other]["on_topic"], 2 * base,
                                 round(0.9 * total), lo, "met" if ok else "**missed**"))
            if "learned" in rows and rows["learned"].get("outcomes"):
                o, n = rows["learned"]["outcomes"], max(1, rows["learned"]["pages"])
                checks.append("learned's fetches answered 404/410: %s (target under 15%% "
                              "where the web has 30%%+ dead links)" % pct(o["not_found"] / n))
            if best and "learned" in rows:
                share = rows["learned"]["on_topic"] / max(1, rows[best]["on_topic"])
                checks.append("Target learned within 5%% of the best: %d vs %d (%.0f%%) — %s"
                              % (rows["learned"]["on_topic"], rows[best]["on_topic"],
                                 100 * share, "met" if share >= 0.95 else "**missed**"))
            apart = []
            for name in t["strategies"]:
                st = rows.get(name + "@strict")
                if name == "bfs" or st is None:
                    continue
                a, b = rows[name]["on_topic"], st["on_topic"]
                if abs(a - b) > 0.1 * max(a, b):
                    apart.append("%s %d vs %d" % (name, a, b))
            checks.append("Target parallel within 10%% of strict order for every focused "
                          "strategy: %s" % ("met" if not apart else
                                            "**missed** (%s)" % ", ".join(apart)))
            for block, page in BLOCK_PAIRS:
                if block in rows and page in rows:
                    checks.append("Block-based %s above page-level %s: %s" % (
                        block, page, "yes" if rows[block]["on_topic"] > rows[page]["on_topic"]
                        else "**no**"))
            out += ["- " + c for c in checks]
            sp = t.get("relevance") or {}
            if "on" in sp and "off" in sp:
                out.append("- sim(T, page) of the labelled pages the shark crawl fetched: "
                           "on-topic (%d) median %.3f, %s above 0.1, %s above 0.05; "
                           "off-topic (%d) median %.3f, %s above 0.1, %s above 0.05" % (
                               sp["on"]["n"], sp["on"]["median"], pct(sp["on"]["above_0.1"]),
                               pct(sp["on"]["above_0.05"]), sp["off"]["n"], sp["off"]["median"],
                               pct(sp["off"]["above_0.1"]), pct(sp["off"]["above_0.05"])))
            out.append("")
            if t.get("rankings"):
                out.append("Rankings of the learned crawl's graph (`worker export-graph`, "
                           "`ranker run`): on-topic pages (labels) among the best 10 "
                           "and 100:")
                out.append("")
                out.append("| ranking | P@10 | P@100 | best three |")
                out.append("|---|---:|---:|---|")
                for r in t["rankings"]:
                    out.append("| %s | %.1f | %.2f | %s |" % (
                        r["name"], r["p10"], r["p100"],
                        ", ".join("`%s`" % u.split("://", 1)[-1] for u in r["top"])))
                out.append("")
            if t.get("gamma"):
                out.append("Interest model γ trade-off (α = 1, β = −1; [INTEREST] reports collection "
                           "72.4% → 100% and precision 100% → 67.4% as γ goes from −0.3 to 0):")
                out.append("")
                out.append("| γ | pages | harvest rate (precision) | recall (collection) |")
                out.append("|---:|---:|---:|---:|")
                for g, c in t["gamma"]:
                    out.append("| %g | %d | %s | %s |" % (g, c["pages"], pct(c["harvest_rate"]),
                                                          pct(c["recall"])))
                out.append("")
            for row, text, exploring in t.get("patterns", []):
                out.append("Sites where `%s` learned URL patterns (`worker list-patterns all`; "
                           "%d other sites were still exploring when the crawl ended):"
                           % (row, exploring))
                out.append("")
                out.append("```")
                lines = text.rstrip().splitlines() or ["(none)"]
                out += lines[:40]
                if len(lines) > 40:
                    out.append("... (%d more lines)" % (len(lines) - 40))
                out.append("```")
                out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--worker", required=True)
    ap.add_argument("--crawl-eval", required=True)
    ap.add_argument("--ranker", required=True)
    ap.add_argument("--command", default="bench/strategies.sh")
    ap.add_argument("--docs", default="")
    ap.add_argument("--t0", type=float, default=None)
    ap.add_argument("--webs",
                    default="synthetic,university,university-heldout,wikispeedia,mdn")
    ap.add_argument("--strategies", default=",".join(ALL))
    ap.add_argument("--topics", default="",
                    help="only these topics (names, comma-separated; default all)")
    ap.add_argument("--budget", type=int, default=1000)
    ap.add_argument("--pages", type=int, default=20000)
    ap.add_argument("--hosts", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--calendar-months", type=int, default=120)
    ap.add_argument("--examples", type=int, default=30)
    ap.add_argument("--gammas", default="-0.3,-0.2,-0.1,0")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--repeats", type=int, default=3,
                    help="parallel crawls per strategy; the tables show the median")
    ap.add_argument("--repeat-strategies", default="",
                    help="repeat only these strategies' parallel crawls (default all)")
    ap.add_argument("--render", default="",
                    help="no crawls: write the docs from these results.json files "
                         "(comma-separated, webs and topics in that order)")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, crawl_bench.on_signal)
    t0 = args.t0 or time.time()
    strategies = [s for s in args.strategies.split(",") if s]
    for s in strategies:
        if s not in ALL:
            raise SystemExit("strategies: unknown strategy %s" % s)
    os.makedirs(args.out_dir, exist_ok=True)
    if args.render:
        results = merge_results(args.render.split(","))
        # The tables are read against the runs' own settings, not the
        # render command's.
        for key in ("budget", "repeats", "repeat_strategies"):
            values = {w.get("settings", {}).get(key) for w in results} - {None}
            if len(values) > 1:
                raise SystemExit("strategies: the results were made with different %s: %s"
                                 % (key, sorted(map(str, values))))
            if values:
                setattr(args, key, values.pop())
        write_docs(args, results, t0)
        return
    results = []
    try:
        for name in [w for w in args.webs.split(",") if w]:
            web = ensure_web(args, name)
            if web is None:
                continue
            sites = crawl_bench.read_sites(web)
            labels = read_labels(web)
            hosts = sorted(sites) + crawl_bench.UNSERVED_HOSTS
            if name.startswith("university") or name == "mdn":
                hosts = crawl_bench.linked_hosts(sites)  # dead hosts answer 404
            nginx = crawl_bench.Nginx(os.path.join(args.root, "tests", "testweb", "nginx.sh"),
                                      web, os.path.join(args.out_dir, "serving"))
            port = nginx.start()
            entry = {"name": name, "topics": []}
            web_t0 = time.time()
            if name == "synthetic":
                entry["about"] = ("Generated by tests/testweb/generate.py synthetic: %d pages "
                                  "on %d hosts (seed %d), calendar trap of %d months on every "
                                  "10th host" % (args.pages, args.hosts, args.seed,
                                                 args.calendar_months))
            elif name.startswith("university"):
                entry["about"] = ("Generated by tests/testweb/generate.py university --seed %d "
                                  "(%s): %d labelled pages on %d hosts with a site, links "
                                  "to %d hosts in all, most of them dead"
                                  % (WEBS[name]["gen_seed"],
                                     "the split the defaults were tuned on" if WEBS[name]["gen_seed"] == 1
                                     else "held out: never looked at while tuning",
                                     len(labels), len(sites), len(hosts)))
            elif name == "mdn":
                entry["about"] = (
                    "The archived part of MDN Web Docs as published in 2021 "
                    "(tests/testweb/generate.py mdn): %d labelled pages (English and "
                    "Chinese) on one host, MDN's redirects as 301s, a third of the "
                    "links dead (404), links to %d other hosts answering 404. Labels "
                    "are the pages' own tags; topics marked *held out* were never "
                    "looked at while tuning" % (len(labels), len(hosts) - 1))
            else:
                entry["about"] = ("The Wikispeedia articles (%d labelled) as one site per "
                                  "subject (tests/testweb/generate.py wikispeedia), calendar "
                                  "trap of %d months per site" % (len(labels), args.calendar_months))
            try:
                for topic in WEBS[name]["topics"]:
                    if args.topics and topic["name"] not in args.topics.split(","):
                        continue
                    keywords = topic.get("keywords") or synthetic_topic_keywords(args, topic["name"])
                    slug = "%s-%s" % (name, topic["name"].replace(" ", "-"))
                    seeds = seeds_for(name, sites, labels, topic["labels"],
                                      topic.get("seeds", ()))
                    base = os.path.join(args.out_dir, slug)
                    os.makedirs(base, exist_ok=True)
                    examples = example_folders(os.path.join(base, "examples"), web, sites,
                                               labels, topic["labels"], args.examples)
                    runs, summaries = [], {}
                    rows = [(s, s, "") for s in strategies]
                    if name != "mdn":  # the papers' parameter variants: not on MDN
                        rows += [v for v in VARIANTS if v[1] in strategies]
                    repeats = []  # parallel runs after the first
                    for row, s, params in rows:
                        for setting, in_flight, delay, window in SETTINGS:
                            repeated = (not args.repeat_strategies or
                                        s in args.repeat_strategies.split(","))
                            times = (max(1, args.repeats)
                                     if setting == "parallel" and repeated else 1)
                            for k in range(times):
                                run = (row if setting == "parallel" else row + "@" + setting)
                                if k > 0:
                                    run += "@run%d" % (k + 1)
                                out = os.path.join(base, run.replace("@", "-"))
                                config = out + ".textproto"
                                write_config(config, args, s, seeds, keywords, port, out, hosts,
                                             examples=examples[:2] if s == "interest" else None,
                                             params=params, in_flight=in_flight, delay_ms=delay,
                                             order_window=window)
                                log("%s: %s" % (slug, run))
                                summaries[run] = crawl(args, config, out)
                                (repeats if k > 0 else runs).append(
                                    (run, os.path.join(out, "fetch_log.jsonl")))
                    report = evaluate(args, os.path.join(web, "labels.tsv"), topic["labels"],
                                      runs, os.path.join(base, "eval"))
                    if repeats:
                        again = evaluate(args, os.path.join(web, "labels.tsv"),
                                         topic["labels"], repeats,
                                         os.path.join(base, "eval-repeats"))
                        fold_repeats(report, again, summaries, [r[0] for r in rows])
                    spread = relevance_spread(
                        os.path.join(base, "shark", "fetch_log.jsonl"), labels, topic["labels"])
                    t = {"relevance": spread, "name": topic["name"], "labels": topic["labels"],
                         "split": topic.get("split"), "keywords": keywords,
                         "strategies": [r[0] for r in rows], "seeds": seeds, "summaries": summaries, "report": report,
                         "examples": examples[2:]}
                    if "learned" in strategies:
                        log("%s: rankings of the learned crawl" % slug)
                        t["rankings"] = rank_quality(
                            args, os.path.join(base, "learned.textproto"), labels,
                            topic["labels"], os.path.join(base, "rank"))
                    gammas = [float(g) for g in args.gammas.split(",") if g]
                    if ("interest" in strategies and gammas and name != "mdn" and
                            topic is WEBS[name]["topics"][0]):
                        gruns = []
                        for g in gammas:
                            out = os.path.join(base, "interest-gamma%g" % g)
                            config = out + ".textproto"
                            write_config(config, args, "interest", seeds, keywords, port, out,
                                         hosts, examples=examples[:2], interest_gamma=g)
                            log("%s: interest γ=%g" % (slug, g))
                            crawl(args, config, out)
                            gruns.append(("gamma%g" % g, os.path.join(out, "fetch_log.jsonl")))
                        grep = evaluate(args, os.path.join(web, "labels.tsv"), topic["labels"],
                                        gruns, os.path.join(base, "eval-gamma"))
                        t["gamma"] = list(zip(gammas, grep["crawls"]))
                    svg_dir = os.path.join(args.root, "docs", "strategies")
                    if args.docs:
                        os.makedirs(svg_dir, exist_ok=True)
                        shutil.copy(os.path.join(base, "eval", "curves.svg"),
                                    os.path.join(svg_dir, slug + ".svg"))
                    t["svg"] = "strategies/%s.svg" % slug
                    entry["topics"].append(t)
                    t["patterns"] = []
                    for row, s, _ in rows:
                        if s == "url-rule":
                            text, exploring = list_patterns(
                                args, os.path.join(base, row + ".textproto"))
                            t["patterns"].append((row, text, exploring))
            finally:
                nginx.stop()
            entry["seconds"] = round(time.time() - web_t0)
            entry["settings"] = {"repeats": args.repeats, "budget": args.budget,
                                 "repeat_strategies": args.repeat_strategies,
                                 "command": args.command}
            results.append(entry)
    except crawl_bench.Interrupted as e:
        raise SystemExit("strategies: interrupted (%s)" % e)
    with open(os.path.join(args.out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1, default=str)
    write_docs(args, results, t0)


def merge_results(paths):
    """The webs of several results.json files, a web's topics joined in the
    order the files are given (runs of different topics of one web made side
    by side, e.g. the MDN web's dev and held-out topics)."""
    merged = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            webs = json.load(f)
        for web in webs:
            for t in web["topics"]:
                # Where the run left the topic's curves (its --out folder).
                t["curves"] = os.path.join(os.path.dirname(os.path.abspath(path)),
                                           "%s-%s" % (web["name"], t["name"].replace(" ", "-")),
                                           "eval", "curves.svg")
        for web in webs:
            same = [w for w in merged if w["name"] == web["name"]]
            if same:
                known = {t["name"] for t in same[0]["topics"]}
                twice = [t["name"] for t in web["topics"] if t["name"] in known]
                if twice:
                    raise SystemExit("strategies: topics of %s in two results files: %s"
                                     % (web["name"], ", ".join(twice)))
                same[0]["topics"] += web["topics"]
                same[0]["seconds"] = same[0].get("seconds", 0) + web.get("seconds", 0)
                same[0].setdefault("commands", [same[0].get("settings", {}).get("command")])
                same[0]["commands"].append(web.get("settings", {}).get("command"))
            else:
                merged.append(web)
    return merged


def write_docs(args, results, t0):
    # Curves of runs rendered later (--render) are copied now.
    svg_dir = os.path.join(args.root, "docs", "strategies")
    for web in results:
        for t in web["topics"]:
            if args.docs and t.get("curves") and os.path.exists(t["curves"]):
                os.makedirs(svg_dir, exist_ok=True)
                shutil.copy(t["curves"], os.path.join(svg_dir, os.path.basename(t["svg"])))
    # The generated webs share one section; the MDN web, a real one, has its
    # own, so that either can be measured again without the other.
    for begin, end, group in ((BEGIN, END, [w for w in results if w["name"] != "mdn"]),
                              (MDN_BEGIN, MDN_END, [w for w in results if w["name"] == "mdn"])):
        if not group:
            continue
        seconds = (sum(w.get("seconds", 0) for w in group) if args.render
                   else time.time() - t0)
        command = args.command
        if args.render:
            # One run measures several webs: its command once.
            runs = list(dict.fromkeys(
                c for w in group for c in (w.get("commands") or
                                           [w.get("settings", {}).get("command")]) if c))
            command = "` and `".join(runs + [args.command])
        section = "%s\n%s\n%s\n" % (begin, render(group, args, command, seconds), end)
        print(section)
        if args.docs:
            extraction.write_section(args.docs, begin, end, section, HEADER)
            log("wrote %s" % args.docs)


if __name__ == "__main__":
    main()

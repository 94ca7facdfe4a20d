#!/usr/bin/python3
"""The crawl's on-topic decision (focus/page_judge.h: what lands in a
user's corpus as on topic) against the labels of the test webs, on the
pages a default `learned` crawl fetches.

For each web and topic of bench/strategies.py (the university webs,
Wikispeedia, MDN with its dev and held-out topics) and two held-out
Wikispeedia topics of its own, it crawls once with the defaults a user gets
(64 in flight, 20 ms per host, 1,000 pages), or reads that crawl again with
--reuse, and prints per topic the precision, recall and F1 of the crawl's
decision over the pages it judged (pages.jsonl), and their means over the
dev and the held-out topics. The target is precision >= 0.85 at recall
>= 0.8 (issue 50 item 3). Pass --worker to measure another build's judge.

Each crawl also records what its judge read of every page, in its order
(`worker crawl --judge_inputs`, DIR/<web>-<topic>.judge_inputs.jsonl).
With --replay, no crawling: `worker judge` of --worker judges those pages
again (one thread, the recorded order) and its decisions are scored and
compared page by page with --baseline's replay of the same pages (another
build), or with the crawl's own decisions without one (those were made by
parse threads in parallel, in an order close to the recorded one, so a few
scores move by replaying alone). A change to the judge is measured on the
same pages in about a second per topic, and a change meant to keep its
decisions (a faster solver) shows how many it moved.

usage: bench/judge.py [--worker build/worker/worker] [--out DIR]
                      [--webs university,...] [--topics a,b]
                      [--reuse | --replay [--baseline OLDER_WORKER]]
                      [--json FILE]
"""

import argparse
import json
import os
import subprocess
import sys
import types

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import crawl_bench  # noqa: E402
import strategies  # noqa: E402


# Topics of the judge's own, held out: written once, before any judge was
# measured on them, and never tuned on (the keywords a user would type).
HELD_OUT = {
    "wikispeedia": [
        {"name": "chemistry", "labels": "subject.Science.Chemistry", "split": "held-out",
         "keywords": ["chemistry", "chemical", "atom", "molecule", "element",
                      "compound", "reaction", "acid", "bond", "ion", "oxidation",
                      "periodic"]},
        {"name": "british-history", "labels": "subject.History.British_History",
         "split": "held-out",
         "keywords": ["britain", "british", "england", "king", "queen", "monarch",
                      "reign", "parliament", "empire", "throne", "battle", "war"]},
    ],
}


def prf(pairs):
    """pairs: (decided on topic, labelled on topic) per judged page."""
    tp = sum(1 for d, l in pairs if d and l)
    fp = sum(1 for d, l in pairs if d and not l)
    fn = sum(1 for d, l in pairs if not d and l)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def crawl_decisions(out):
    """{url: (on topic, score)} of the pages a crawl judged (pages.jsonl;
    pages a revisit found gone left out)."""
    decisions = {}
    with open(os.path.join(out, "pages.jsonl"), encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            if "on_topic" not in v or v.get("gone"):
                continue
            decisions[v["url"]] = (v["on_topic"], v.get("topic_score", 0.0))
    return decisions


def replay(worker, config, inputs):
    """{url: (on topic, score)} of `worker judge` over a crawl's judge inputs."""
    if not os.path.exists(inputs):
        raise SystemExit("judge: %s is missing: crawl again without --replay "
                         "(older runs did not record judge inputs)" % inputs)
    r = subprocess.run([worker, "judge", "--config", config, inputs],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("judge: worker judge failed on %s: %s" % (inputs, r.stderr[-2000:]))
    decisions = {}
    for line in r.stdout.splitlines():
        v = json.loads(line)
        decisions[v["url"]] = (v["on_topic"], v["score"])
    return decisions


def compare(crawl, again):
    """(decisions that differ, largest score change) over the pages both judged."""
    both = [u for u in again if u in crawl]
    moved = sum(1 for u in both if crawl[u][0] != again[u][0])
    change = max((abs(crawl[u][1] - again[u][1]) for u in both), default=0.0)
    return moved, change


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", default=os.path.join(HERE, "..", "build", "worker", "worker"))
    ap.add_argument("--out", default=os.path.join(HERE, "out", "judge"))
    ap.add_argument("--webs", default="university,university-heldout,wikispeedia,mdn")
    ap.add_argument("--topics", default="")
    ap.add_argument("--budget", type=int, default=1000)
    ap.add_argument("--reuse", action="store_true",
                    help="read the crawls of an earlier run again, no crawling")
    ap.add_argument("--replay", action="store_true",
                    help="judge the pages of an earlier run's crawls again with --worker")
    ap.add_argument("--baseline", default="",
                    help="with --replay: the build whose replay the decisions are compared with")
    ap.add_argument("--json", default="", help="also write the figures here")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    # What strategies.py's helpers read of its arguments.
    args = types.SimpleNamespace(
        root=os.path.abspath(os.path.join(HERE, "..")), out_dir=os.path.abspath(a.out),
        worker=a.worker, budget=a.budget, timeout=600, calendar_months=120,
        pages=20000, hosts=60, seed=7)
    rows = []
    extra = " | decisions moved | largest score change" if a.replay else ""
    print("| web | topic | split | pages judged | on topic (labels) | decision P | R | F1%s |"
          % extra)
    print("|---|---|---|---:|---:|---:|---:|---:%s|" % ("|---:|---:" if a.replay else ""))
    for name in [w for w in a.webs.split(",") if w]:
        web = strategies.ensure_web(args, name)
        if web is None:
            continue
        sites = crawl_bench.read_sites(web)
        labels = strategies.read_labels(web)
        hosts = sorted(sites) + crawl_bench.UNSERVED_HOSTS
        if name.startswith("university") or name == "mdn":
            hosts = crawl_bench.linked_hosts(sites)
        nginx = None
        try:
            for topic in strategies.WEBS[name]["topics"] + HELD_OUT.get(name, []):
                if a.topics and topic["name"] not in a.topics.split(","):
                    continue
                keywords = topic.get("keywords")
                if not keywords:
                    continue
                slug = "%s-%s" % (name, topic["name"])
                out = os.path.join(args.out_dir, slug)
                config = out + ".config"
                if not a.reuse and not a.replay:
                    if nginx is None:
                        nginx = crawl_bench.Nginx(
                            os.path.join(args.root, "tests", "testweb", "nginx.sh"),
                            web, os.path.join(args.out_dir, "serving"))
                        port = nginx.start()
                    seeds = strategies.seeds_for(name, sites, labels, topic["labels"],
                                                 topic.get("seeds", ()))
                    strategies.write_config(config, args, "learned", seeds, keywords,
                                            port, out, hosts)
                    print("[judge] crawling %s" % slug, file=sys.stderr, flush=True)
                    strategies.crawl(args, config, out,
                                     ["--judge_inputs", out + ".judge_inputs.jsonl"])
                decisions = crawl_decisions(out)
                moved = None
                if a.replay:
                    again = replay(a.worker, config, out + ".judge_inputs.jsonl")
                    if a.baseline:
                        decisions = replay(a.baseline, config, out + ".judge_inputs.jsonl")
                    moved = compare(decisions, again)
                    decisions = again
                pairs = [(d, strategies.on_topic(labels.get(u, []), topic["labels"]))
                         for u, (d, _) in decisions.items()]
                p, r, f1 = prf(pairs)
                split = topic.get("split", "held-out" if name.endswith("heldout") else "dev")
                rows.append({"web": name, "topic": topic["name"], "split": split,
                             "pages": len(pairs), "labelled": sum(l for _, l in pairs),
                             "precision": p, "recall": r, "f1": f1})
                if moved is not None:
                    rows[-1]["moved"], rows[-1]["largest_change"] = moved
                print("| %s | %s | %s | %d | %d | %.2f | %.2f | %.2f%s |"
                      % (name, topic["name"], split, len(pairs), rows[-1]["labelled"],
                         p, r, f1, "" if moved is None else " | %d | %.4f" % moved),
                      flush=True)
        finally:
            if nginx is not None:
                nginx.stop()
    for split in ("dev", "held-out"):
        part = [r for r in rows if r["split"] == split]
        if part:
            print("| mean of %d %s topics | | | | | %.2f | %.2f | %.2f |" % (
                len(part), split, *(sum(r[k] for r in part) / len(part)
                                    for k in ("precision", "recall", "f1"))))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

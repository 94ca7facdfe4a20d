#!/usr/bin/python3
"""Does a test web rank the crawl strategies as the real webs do?

  bench/rank_agreement.py [--docs docs/strategies.md]

Reads the strategy tables of docs/strategies.md (the generated webs'
section and the MDN web's, both written by bench/strategies.sh): on-topic
pages found in 1,000 fetches per strategy and topic (the parallel crawl's
median run). The real webs' ranking is the MDN web's (each strategy's mean
rank over its topics, dev and held-out) and, for the strategies it names,
the real 1990s university web measured outside the repository (issue 50:
fish 135, hopfield-block 104, url-rule 97-98, ssaps 93, learned 66-87,
bfs 0 in the parallel setting). For every topic of every web it prints
Kendall's tau (tau-b, ties counted) between that topic's ranking and each
real ranking: 1 = the same order, 0 = unrelated, -1 = reversed.

Standard library only. Prints a markdown table.
"""

import argparse
import itertools
import os
import re
import sys

STRATEGIES = ["bfs", "fish", "shark", "ssaps", "hopfield", "hopfield-block",
              "interest", "topic-pagerank", "improved-shark", "url-rule", "learned"]
# The real university web of issue 50 (parallel setting, default scheduler);
# learned's six runs gave 66-87: the middle, 76.5.
REAL_UNIVERSITY = {"fish": 135, "hopfield-block": 104, "url-rule": 97.5, "ssaps": 93,
                   "learned": 76.5, "bfs": 0}


def read_tables(path):
    """{(web, topic): {strategy: on-topic}} from the docs' strategy tables."""
    out = {}
    web = topic = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("### ") and line.rstrip().endswith(" web"):
                web = line[4:].strip()[:-4]
            elif line.startswith("#### Topic: "):
                topic = re.split(r"[ (]", line[len("#### Topic: "):], 1)[0]
            elif line.startswith("## "):
                web = topic = None
            m = re.match(r"\| ([a-z-]+) \| (\d+) \| (\d+) \| [\d.]+% \|", line)
            if m and web and topic and m.group(1) in STRATEGIES:
                out.setdefault((web, topic), {})[m.group(1)] = int(m.group(3))
    return out


def kendall_tau_b(a, b):
    """Kendall's tau-b of two score maps over their common keys (None when
    fewer than 3 keys or one side is all ties)."""
    keys = sorted(set(a) & set(b))
    if len(keys) < 3:
        return None
    concordant = discordant = ties_a = ties_b = 0
    for x, y in itertools.combinations(keys, 2):
        da, db = a[x] - a[y], b[x] - b[y]
        if da == 0 and db == 0:
            continue
        if da == 0:
            ties_a += 1
        elif db == 0:
            ties_b += 1
        elif (da > 0) == (db > 0):
            concordant += 1
        else:
            discordant += 1
    n = concordant + discordant
    denom = ((n + ties_a) * (n + ties_b)) ** 0.5
    return None if denom == 0 else (concordant - discordant) / denom


def mean_rank(tables):
    """Each strategy's mean rank (1 = most on-topic pages; ties share the
    mean of their ranks) over the tables, negated so that higher is better."""
    ranks = {}
    for t in tables:
        order = sorted(t, key=lambda s: -t[s])
        for s in t:
            tied = [i + 1 for i, x in enumerate(order) if t[x] == t[s]]
            ranks.setdefault(s, []).append(sum(tied) / len(tied))
    return {s: -sum(r) / len(r) for s, r in ranks.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--docs", default=os.path.join(here, "..", "docs", "strategies.md"))
    args = ap.parse_args()
    tables = read_tables(args.docs)
    mdn = [t for (w, _), t in tables.items() if w == "mdn"]
    if not mdn:
        sys.exit("rank_agreement: no MDN tables in %s (run bench/strategies.sh --webs mdn)"
                 % args.docs)
    mdn_rank = mean_rank(mdn)
    print("| web | topic | τ with MDN (mean rank, 11 strategies) "
          "| τ with the real university web (6 strategies) |")
    print("|---|---|---:|---:|")
    fmt = lambda x: "n/a" if x is None else "%+.2f" % x
    for (web, topic), t in tables.items():
        print("| %s | %s | %s | %s |" % (web, topic, fmt(kendall_tau_b(t, mdn_rank)),
                                         fmt(kendall_tau_b(t, REAL_UNIVERSITY))))
    print("| mdn | mean rank | 1 | %s |" % fmt(kendall_tau_b(mdn_rank, REAL_UNIVERSITY)))


if __name__ == "__main__":
    main()

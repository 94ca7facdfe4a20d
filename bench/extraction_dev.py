#!/usr/bin/python3
"""Quick quark scoring on the dev sets only, for tuning (not a benchmark).

Runs `quark extract` over dragnet-test and cleaneval-dev (the sets
bench/extraction.py defines; never the held-out dragnet-rest unless
--held-out is given, which is for the final measurement) and scores the
output with bag-of-words tokens (bench/score.py, as docs/benchmarks.md) and
with 4-token shingles (the metric of the hidden benchmarks), P and R averaged
over pages. Readability's output from the last bench/extraction.sh run, when
there, is scored the same way for comparison.

usage: bench/extraction_dev.py [--quark build/quark/quark] [--args "..."]
           [--pages] [--classes] [--set dragnet-test] [--held-out]

Tokens as bench/score.py: runs of letters and digits, lower-cased, and each
Chinese/Japanese/Korean character a token of its own.
"""

import argparse
import collections
import os
import shlex
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extraction  # noqa: E402
import extraction_classes  # noqa: E402
import score  # noqa: E402


shingles = score.shingles


def prf(gold, out):
    if not gold:
        return None
    if not out:
        return 0.0, 0.0, 0.0
    overlap = sum((collections.Counter(gold) & collections.Counter(out)).values())
    p, r = overlap / len(out), overlap / len(gold)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def score_dir(gold_format, gold_dir, out_dir, ids):
    rows = {}
    for i in ids:
        g = score.tokens(score.gold_text(gold_format, os.path.join(gold_dir, i + ".txt")))
        path = os.path.join(out_dir, i + ".txt")
        o = score.tokens(score.read_text(path)) if os.path.exists(path) else []
        bow = prf(g, o)
        if bow is None:
            continue
        rows[i] = (bow, prf(shingles(g), shingles(o)))
    return rows


def summary(rows, which):
    n = len(rows)
    p = sum(r[which][0] for r in rows.values()) / n
    r_ = sum(r[which][1] for r in rows.values()) / n
    return p, r_, (2 * p * r_ / (p + r_) if p + r_ else 0.0)


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--quark", default=os.path.join(root, "build/quark/quark"))
    ap.add_argument("--args", default="")
    ap.add_argument("--data-dir", default=os.path.join(root, "bench/out/data"))
    ap.add_argument("--out-dir", default=os.path.join(root, "bench/out/dev"))
    ap.add_argument("--bench-out", default=os.path.join(root, "bench/out"))
    ap.add_argument("--pages", action="store_true", help="per-page F1 below 0.5")
    ap.add_argument("--classes", action="store_true",
                    help="per-class report of extra and missing text (extraction_classes.py)")
    ap.add_argument("--set", default="")
    ap.add_argument("--held-out", action="store_true")
    a = ap.parse_args()
    sets = extraction.define_sets(a.data_dir, held_out=a.held_out)
    if not a.held_out:
        sets = [s for s in sets if s["name"] != "dragnet-rest"]
    else:
        sets = [s for s in sets if s["name"] == "dragnet-rest"]
    for s in sets:
        if a.set and s["name"] != a.set:
            continue
        out = os.path.join(a.out_dir, s["name"])
        extraction.clean_dir(out)
        files = [os.path.join(s["input"], i + ".html") for i in s["ids"]]
        t0 = time.perf_counter()
        subprocess.run([a.quark, "extract"] + shlex.split(a.args) + ["--out_dir", out] + files,
                       check=False, stderr=subprocess.DEVNULL)
        dt = time.perf_counter() - t0
        for label, fmt in s["scorings"]:
            rows = score_dir(fmt, s["gold"], out, s["ids"])
            line = "%-30s quark  " % label
            for w, name in ((0, "bow"), (1, "sh4")):
                p, r, f = summary(rows, w)
                line += " %s P %.3f R %.3f F1 %.3f |" % (name, p, r, f)
            rd = os.path.join(a.bench_out, s["name"], "readability")
            if os.path.isdir(rd):
                rrows = score_dir(fmt, s["gold"], rd, s["ids"])
                line += "\n%-30s Readab." % ""
                for w, name in ((0, "bow"), (1, "sh4")):
                    p, r, f = summary(rrows, w)
                    line += " %s P %.3f R %.3f F1 %.3f |" % (name, p, r, f)
            print(line + "  %.1f pages/s" % (len(files) / dt))
            if a.classes:
                for line in extraction_classes.report(fmt, s["gold"], out, s["ids"]):
                    print(line)
                if os.path.isdir(rd):
                    print("  Readability:")
                    for line in extraction_classes.report(fmt, s["gold"], rd, s["ids"]):
                        print("  " + line)
            if a.pages:
                bad = sorted((v[1][2], k, v[1][0], v[1][1]) for k, v in rows.items() if v[1][2] < 0.5)
                for f, k, p, r in bad:
                    print("   %-8s sh4 F1 %.2f P %.2f R %.2f" % (k, f, p, r))


if __name__ == "__main__":
    main()

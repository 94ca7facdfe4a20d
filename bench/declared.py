#!/usr/bin/python3
"""What quark's declared-body rule (quark/declared.h) does with declarations
of known quality.

The dev sets are from 2007 and 2012, before news sites wrote their article's
text into JSON-LD (`articleBody`), so they cannot say what the rule is worth
on today's pages. This script gives each dragnet-test page a JSON-LD
NewsArticle whose articleBody is, per variant,

  exact      the page's gold article text (the ceiling: a declaration that is
             exactly the article)
  trimmed    the gold without its first and last paragraph (a declaration
             that leaves out a standfirst and a closing line)
  cut        the gold's first 40% of paragraphs, no ellipsis (a body cut
             short: the rule must not cut the page's text to it)
  cut...     the same ending in "..." (a teaser)
  other      the gold of another page (a declaration the page does not show)

and scores `quark extract` on each against the article-only gold, beside
the pages as they are. It also checks that the pages as they are, which
carry no JSON-LD, come out byte for byte the same with the rule on and off.

usage: bench/declared.py [--quark build/quark/quark] [--data-dir DIR]
           [--out-dir bench/out/declared] [--docs docs/benchmarks.md]
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extraction  # noqa: E402
import extraction_dev  # noqa: E402
import score  # noqa: E402

VARIANTS = ("exact", "trimmed", "cut", "cut...", "other")


def declared_html(html, body):
    """html (bytes) with a NewsArticle script of `body` before </head>."""
    script = ("<script type=\"application/ld+json\">%s</script>" % json.dumps(
        {"@context": "https://schema.org", "@type": "NewsArticle",
         "articleBody": body}, ensure_ascii=True)).encode("ascii")
    m = re.search(rb"</head\s*>", html, re.I) or re.search(rb"<body", html, re.I)
    at = m.start() if m else 0
    return html[:at] + script + html[at:]


def paragraphs(text):
    return [p for p in (l.strip() for l in text.split("\n")) if p]


def variant_body(kind, gold, other_gold):
    ps = paragraphs(gold)
    if kind == "exact":
        return "\n".join(ps)
    if kind == "trimmed":
        return "\n".join(ps[1:-1] if len(ps) > 2 else ps)
    if kind in ("cut", "cut..."):
        cut = "\n".join(ps[:max(1, int(len(ps) * 0.4))])
        return cut + ("..." if kind == "cut..." else "")
    return "\n".join(paragraphs(other_gold))


def run(quark, files, out, args=""):
    extraction.clean_dir(out)
    subprocess.run([quark, "extract"] + shlex.split(args) + ["--out_dir", out] + files,
                   check=False, stderr=subprocess.DEVNULL)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--quark", default=os.path.join(root, "build/quark/quark"))
    ap.add_argument("--data-dir", default=os.path.join(root, "bench/out/data"))
    ap.add_argument("--out-dir", default=os.path.join(root, "bench/out/declared"))
    a = ap.parse_args()
    s = next(x for x in extraction.define_sets(a.data_dir, held_out=False)
             if x["name"] == "dragnet-test")
    fmt = "dragnet-article"
    ids = s["ids"]
    golds = {i: score.gold_text(fmt, os.path.join(s["gold"], i + ".txt")) for i in ids}
    files = [os.path.join(s["input"], i + ".html") for i in ids]

    results = []
    base = os.path.join(a.out_dir, "as-is")
    run(a.quark, files, base)
    off = os.path.join(a.out_dir, "as-is-off")
    run(a.quark, files, off, "--nodeclared_body")
    same = sum(1 for i in ids
               if score.read_text(os.path.join(base, i + ".txt")) ==
               score.read_text(os.path.join(off, i + ".txt")))
    print("pages as they are, rule on vs off: %d of %d identical" % (same, len(ids)))
    results.append(("as they are (no JSON-LD)", base))
    for kind in VARIANTS:
        in_dir = os.path.join(a.out_dir, "in-" + kind)
        extraction.clean_dir(in_dir)
        vfiles = []
        for n, i in enumerate(ids):
            other = golds[ids[(n + len(ids) // 2) % len(ids)]]
            with open(os.path.join(s["input"], i + ".html"), "rb") as f:
                html = f.read()
            path = os.path.join(in_dir, i + ".html")
            with open(path, "wb") as f:
                f.write(declared_html(html, variant_body(kind, golds[i], other)))
            vfiles.append(path)
        out = os.path.join(a.out_dir, "out-" + kind)
        run(a.quark, vfiles, out)
        results.append((kind, out))

    print("| articleBody | BoW P % | BoW R % | BoW F1 % | 4-shingle F1 % | pages changed |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, out in results:
        rows = extraction_dev.score_dir(fmt, s["gold"], out, ids)
        p, r, f = extraction_dev.summary(rows, 0)
        _, _, f4 = extraction_dev.summary(rows, 1)
        changed = sum(1 for i in ids
                      if score.read_text(os.path.join(out, i + ".txt")) !=
                      score.read_text(os.path.join(base, i + ".txt")))
        print("| %s | %.1f | %.1f | %.1f | %.1f | %d |" % (
            label, 100 * p, 100 * r, 100 * f, 100 * f4, changed))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""`quark extract --format markdown` against `--format text` on WCXB's dev split.

Runs one `quark extract --out_dir DIR` process over all 1,497 pages for each
format (pages/s = pages / wall time of the process, start-up included, as
bench/extraction.py measures quark), takes the Markdown syntax away again
(quote and list markers, heading marks, code fences, table pipes and
delimiter rows, the renderer's backslash escapes) and scores both with
WCXB's word-level F1 (bench/extraction_wcxb.py's metric), per part of the
fixed tune / held-out split. The two should agree within 0.002: the
Markdown is the text's lines with their structure marked (quark/markdown.h).

    bench/markdown_wcxb.py [--quark build/quark/quark] [--runs 3]

Needs ../shared/data/wcxb-dev.tar.xz (unpacked into bench/out/data once,
as bench/extraction.sh --wcxb does). Prints a Markdown table.
"""

import argparse
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in bench/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import extraction_wcxb as wcxb  # noqa: E402  (unpack, load_pages, split_pages, word_prf)

LIST_MARKER = re.compile(r"(- |\d+\. )")
TABLE_RULE = re.compile(r"[|\- ]*")
HEADING = re.compile(r"#{1,6} ")
FENCE = re.compile(r"`{3,}")


def strip_markdown(md):
    """The words of quark's Markdown without its syntax, line by line."""
    out = []
    fence = ""  # the open code block's fence, "" outside one
    for line in md.split("\n"):
        line = line.lstrip()
        while line.startswith(">"):
            line = line[1:].lstrip()
        while not fence and (m := LIST_MARKER.match(line)):
            line = line[m.end():]
        if FENCE.fullmatch(line) and (not fence or len(line) >= len(fence)):
            fence = "" if fence else line
            continue
        if not fence:
            if line.startswith("|"):
                if TABLE_RULE.fullmatch(line):
                    continue
                line = line.replace("\\|", "\x01").replace("|", " ").replace("\x01", "|")
            else:
                if m := HEADING.match(line):
                    line = re.sub(r"\\(#+)$", r"\1", line[m.end():])
                if len(line) > 1 and line[0] == "\\":
                    line = line[1:]
                line = re.sub(r"^(\d+)\\([.)])", r"\1\2", line)
        out.append(line)
    return "\n".join(out)


def run(quark, fmt, files, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    start = time.monotonic()
    subprocess.run([quark, "extract", "--format", fmt, "--out_dir", out_dir] + files,
                   check=True, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def main():
    root = os.path.dirname(HERE)
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quark", default=os.path.join(root, "build", "quark", "quark"))
    ap.add_argument("--archive", default=os.path.join(root, "..", "shared", "data",
                                                      "wcxb-dev.tar.xz"))
    ap.add_argument("--data-dir", default=os.path.join(HERE, "out", "data"))
    ap.add_argument("--out-dir", default=os.path.join(HERE, "out", "markdown"))
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each format; the best counts")
    args = ap.parse_args()
    pages = wcxb.load_pages(wcxb.unpack(args.archive, args.data_dir))
    split = wcxb.split_pages(pages)
    files = [p["html"] for p in pages]
    seconds = {}
    for _ in range(args.runs):  # alternate, so load on the machine hits both alike
        for fmt in ("text", "markdown"):
            s = run(args.quark, fmt, files, os.path.join(args.out_dir, fmt))
            seconds[fmt] = min(seconds.get(fmt, s), s)
    f1 = {}
    for fmt, ext in (("text", ".txt"), ("markdown", ".md")):
        for part in ("all",) + tuple(wcxb.PARTS):
            scores = []
            for p in pages:
                if part != "all" and split[p["id"]] != part:
                    continue
                path = os.path.join(args.out_dir, fmt, p["id"] + ext)
                with open(path, encoding="utf-8", errors="replace") as f:
                    out = f.read()
                if fmt == "markdown":
                    out = strip_markdown(out)
                scores.append(wcxb.word_prf(out, p["gold"])[2])
            f1[(fmt, part)] = sum(scores) / len(scores)
    print("| form | pages | best wall s of %d | pages/s | F1 all | F1 tune | F1 held-out |"
          % args.runs)
    print("|---|---|---|---|---|---|---|")
    for fmt in ("text", "markdown"):
        print("| %s | %d | %.2f | %.1f | %.4f | %.4f | %.4f |" % (
            fmt, len(pages), seconds[fmt], len(pages) / seconds[fmt], f1[(fmt, "all")],
            f1[(fmt, "tune")], f1[(fmt, "held-out")]))
    print("\nF1 markdown - text: all %+.4f, tune %+.4f, held-out %+.4f; "
          "time markdown / text: %.3f" % (
              f1[("markdown", "all")] - f1[("text", "all")],
              f1[("markdown", "tune")] - f1[("text", "tune")],
              f1[("markdown", "held-out")] - f1[("text", "held-out")],
              seconds["markdown"] / seconds["text"]))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Per-class failure report of an extractor's output against gold text.

Each output paragraph (a line of the output file; quark writes one block per
paragraph) is "extra" when fewer than half of its 4-token shingles occur in
the gold text; its tokens are then counted under the first class its text
matches (surface cues only, English and Chinese; a rough guide to where the
precision goes, not a gold annotation):

  repeated    the same paragraph earlier in the output (headline, byline)
  newsletter  subscribe / newsletter / sign up / e-mail address / 订阅
  footer      copyright / all rights reserved / privacy / terms / 版权 / 备案
  related     related / more from / read more / recommended / popular /
              you may also / 相关 / 推荐 / 热门 / 上一篇 / 下一篇
  caption     photo / image / getty / reuters / ap / credit / 图片 / 图
  byline      a short paragraph with by / posted / updated / a date / 作者 /
              来源 / 编辑 / 发布
  comment     reply / comment / said / wrote / permalink / 评论 / 回复 / 网友
  short other any other paragraph under 12 tokens
  long other  the rest

Missing gold text is counted per gold paragraph (line) of which fewer than
half of the shingles are in the output: "missed page" when the page's
shingle recall is below 0.2 (the wrong block was chosen), else "short
paragraph" (under 25 tokens: headings, first lines, list items) or "long
paragraph".

usage: bench/extraction_classes.py GOLD_FORMAT GOLD_DIR OUT_DIR ID...
(bench/extraction_dev.py --classes calls report() for each set)
"""

import collections
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402

_MONTHS = ("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|january|february|march|"
           "april|june|july|august|september|october|november|december")
_CLASSES = [
    ("newsletter", re.compile(r"subscri|newsletter|sign ?up|e-?mail address|enter your|订阅",
                              re.I)),
    ("footer", re.compile(r"copyright|©|all rights reserved|privacy|terms of|版权|备案|免责",
                          re.I)),
    ("related", re.compile(r"related|more from|read more|recommended|popular|you may also|"
                           r"most read|trending|相关|推荐|热门|上一篇|下一篇|阅读更多", re.I)),
    ("caption", re.compile(r"\bphoto|\bimage|getty|reuters|\bap\b|credit|图片|图\s*[：:]", re.I)),
]
_BYLINE = re.compile(r"\bby\b|posted|updated|published|\b(%s)\b|\d{1,2}:\d\d|\b(19|20)\d\d\b|"
                     r"作者|来源|编辑|发布|\d+年\d+月" % _MONTHS, re.I)
_COMMENT = re.compile(r"repl(y|ied|ies)|comment|\bsaid\b|wrote|permalink|评论|回复|网友|楼",
                      re.I)


def classify_extra(text, ntoks, seen):
    if text in seen:
        return "repeated"
    for name, rx in _CLASSES:
        if rx.search(text):
            return name
    if ntoks < 20 and _BYLINE.search(text):
        return "byline"
    if _COMMENT.search(text):
        return "comment"
    return "short other" if ntoks < 12 else "long other"


def page_classes(gold_text, out_text):
    """Returns (extra tokens by class, missing tokens by class, output tokens,
    gold tokens)."""
    gold_toks = score.tokens(gold_text)
    gold_sh = set(score.shingles(gold_toks))
    extra = collections.Counter()
    missing = collections.Counter()
    seen = set()
    out_toks_all = []
    for line in out_text.split("\n"):
        toks = score.tokens(line)
        if not toks:
            continue
        out_toks_all.extend(toks)
        sh = score.shingles(toks)
        inside = sum(1 for x in sh if x in gold_sh or len(x) < 4 and
                     all(t in gold_toks for t in x))
        key = " ".join(toks)
        if inside * 2 < len(sh):
            extra[classify_extra(line, len(toks), seen)] += len(toks)
        seen.add(key)
    out_sh = set(score.shingles(out_toks_all))
    gold_sh_list = score.shingles(gold_toks)
    recall = (sum(1 for x in gold_sh_list if x in out_sh) / len(gold_sh_list)
              if gold_sh_list else 1.0)
    for line in gold_text.split("\n"):
        toks = score.tokens(line)
        if not toks:
            continue
        sh = score.shingles(toks)
        found = sum(1 for x in sh if x in out_sh)
        if found * 2 < len(sh):
            if recall < 0.2:
                missing["missed page"] += len(toks)
            else:
                missing["short paragraph" if len(toks) < 25 else "long paragraph"] += len(toks)
    return extra, missing, len(out_toks_all), len(gold_toks)


def report(gold_format, gold_dir, out_dir, ids):
    """Lines of text: per class, the share of all output tokens that are extra
    text of that class (a precision loss), and of all gold tokens that are
    missing (a recall loss), with the number of pages it occurs on."""
    extra_t, missing_t = collections.Counter(), collections.Counter()
    extra_p, missing_p = collections.Counter(), collections.Counter()
    out_total = gold_total = 0
    for i in ids:
        g = score.gold_text(gold_format, os.path.join(gold_dir, i + ".txt"))
        path = os.path.join(out_dir, i + ".txt")
        o = score.read_text(path) if os.path.exists(path) else ""
        extra, missing, n_out, n_gold = page_classes(g, o)
        out_total += n_out
        gold_total += n_gold
        extra_t.update(extra)
        missing_t.update(missing)
        extra_p.update(extra.keys())
        missing_p.update(missing.keys())
    lines = []
    for label, counts, pages, total in (("extra", extra_t, extra_p, out_total),
                                        ("missing", missing_t, missing_p, gold_total)):
        parts = ["%s %.1f%% (%d pages)" % (k, 100.0 * v / max(total, 1), pages[k])
                 for k, v in counts.most_common()]
        lines.append("  %-8s %s" % (label + ":", "; ".join(parts) if parts else "none"))
    return lines


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    for line in report(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]):
        print(line)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Token-level scoring of extracted main content against gold text.

Used by bench/extraction.py; also runs on its own:

    /usr/bin/python3 bench/score.py --gold-format dragnet|dragnet-article|cleaneval \
        GOLD_DIR OUT_DIR ID...

Convention (documented in docs/benchmarks.md):
  * tokens: runs of Unicode letters and digits ([^\\W_]+ with re.UNICODE, so
    no underscore), lower-cased; the same tokenizer for gold and extractors;
  * per page, bag-of-words overlap (collections.Counter &):
      P = |overlap| / |extracted tokens|, R = |overlap| / |gold tokens|;
    an empty extraction (no tokens, including a missing output file) scores
    P = 0, R = 0; a page whose gold has no tokens is skipped and counted;
  * macro-average P and R over the scored pages; F1 = 2PR / (P + R) from the
    averages; mean per-page F1 (per-page F1 = 0 when P + R = 0) as a second
    figure.

Gold text:
  * dragnet: the whole gold file with the separator line
    ("!@#$%^&*()  COMMENTS" and its misspelt variants) removed: article body
    plus comments;
  * dragnet-article: the gold cut at the separator line: article body only;
  * cleaneval: the leading "URL: ..." line dropped and the <p>, <h>, <l>
    paragraph markers stripped.
Files are decoded by decode_text(): BOM, else UTF-8, else windows-1252 (some
Dragnet gold files are UTF-16LE with a BOM, some windows-1252).
"""

import argparse
import collections
import json
import os
import re
import sys

# Chinese, Japanese and Korean script characters are one token each (the
# texts put no spaces between words, so a run of them would be one token per
# sentence); other letters and digits form runs.
_CJK = ("\u1100-\u11ff\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff"
        "\uac00-\ud7af\uf900-\ufaff")
TOKEN_RE = re.compile(r"[%s]|(?:(?![%s])[^\W_])+" % (_CJK, _CJK), re.UNICODE)

# The Dragnet separator between article and comments. Usually
# "!@#$%^&*()  COMMENTS"; the gold files also have "!@ $%^&*()  COMMENTS",
# "!@#$%^&*() COMMENTS", "@#$%^&*() COMMENTS", "!@#$%^&*()  COMMNENTS",
# "!@#$%^&*()  CORRECTED" and a bare "!@#$%^&*()". A line made only of these
# symbols (at least five of them, at least four different) and optionally one
# upper-case word.
_SEPARATOR_RE = re.compile(r"^[ \t]*([!@#$%^&*() ]+?)[ \t]*([A-Z]+)?[ \t]*\r?$")


def is_separator(line):
    m = _SEPARATOR_RE.match(line)
    if not m:
        return False
    symbols = m.group(1).replace(" ", "")
    return len(symbols) >= 5 and len(set(symbols)) >= 4


def tokens(text):
    return TOKEN_RE.findall(text.lower())


def shingles(toks, k=4):
    """The k-token shingles of a token list (the metric of the hidden
    benchmarks: 4-token shingles); a text shorter than k is one shingle."""
    if len(toks) < k:
        return [tuple(toks)] if toks else []
    return [tuple(toks[i:i + k]) for i in range(len(toks) - k + 1)]


_UTF8_MULTIBYTE_RE = re.compile(rb"[\xc2-\xf4][\x80-\xbf]+")


def decode_text(data):
    """Decodes a gold or output file: a BOM (UTF-8, UTF-16LE/BE) decides;
    else UTF-8; a file that is not valid UTF-8 and has no UTF-8 multi-byte
    sequence at all is windows-1252 (45 Dragnet gold files are); invalid
    bytes become U+FFFD."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith(b"\xff\xfe"):
        return data[2:].decode("utf-16-le", errors="replace")
    if data.startswith(b"\xfe\xff"):
        return data[2:].decode("utf-16-be", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if _UTF8_MULTIBYTE_RE.search(data):
        return data.decode("utf-8", errors="replace")
    return data.decode("cp1252", errors="replace")


def read_text(path):
    with open(path, "rb") as f:
        return decode_text(f.read())


def dragnet_gold(text, article_only):
    """Returns (gold text, whether the file had a separator line)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if is_separator(line):
            if article_only:
                return "\n".join(lines[:i]), True
            return "\n".join(lines[:i] + lines[i + 1:]), True
    return text, False


_CLEANEVAL_MARK_RE = re.compile(r"<\s*[phlPHL]\s*>")


def cleaneval_gold(text):
    lines = text.split("\n")
    # The first non-blank line is "URL: ...".
    for i, line in enumerate(lines):
        if line.strip():
            if line.lstrip().startswith("URL:"):
                del lines[i]
            break
    return _CLEANEVAL_MARK_RE.sub(" ", "\n".join(lines))


def gold_text(gold_format, path):
    text = read_text(path)
    if gold_format == "dragnet":
        return dragnet_gold(text, article_only=False)[0]
    if gold_format == "dragnet-article":
        return dragnet_gold(text, article_only=True)[0]
    if gold_format == "cleaneval":
        return cleaneval_gold(text)
    raise ValueError("unknown gold format " + gold_format)


def score_page(gold_tokens, extracted_tokens):
    """Returns (P, R, F1) of one page; gold_tokens must be non-empty."""
    if not extracted_tokens:
        return 0.0, 0.0, 0.0
    overlap = sum((collections.Counter(gold_tokens)
                   & collections.Counter(extracted_tokens)).values())
    p = overlap / len(extracted_tokens)
    r = overlap / len(gold_tokens)
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return p, r, f


def score_set(gold_format, gold_dir, out_dir, ids, keep_pages=False):
    """Scores OUT_DIR/<id>.txt against GOLD_DIR/<id>.txt for each id."""
    per_page = []
    skipped_empty_gold = []
    empty_output = []
    for page_id in ids:
        gold = tokens(gold_text(gold_format, os.path.join(gold_dir, page_id + ".txt")))
        if not gold:
            skipped_empty_gold.append(page_id)
            continue
        out_path = os.path.join(out_dir, page_id + ".txt")
        extracted = tokens(read_text(out_path)) if os.path.exists(out_path) else []
        if not extracted:
            empty_output.append(page_id)
        p, r, f = score_page(gold, extracted)
        sp, sr, sf = score_page(shingles(gold), shingles(extracted))
        per_page.append({"id": page_id, "p": p, "r": r, "f1": f,
                         "sh4_p": sp, "sh4_r": sr, "sh4_f1": sf,
                         "gold_tokens": len(gold), "extracted_tokens": len(extracted)})
    n = len(per_page)
    p = sum(x["p"] for x in per_page) / n if n else 0.0
    r = sum(x["r"] for x in per_page) / n if n else 0.0
    sp = sum(x["sh4_p"] for x in per_page) / n if n else 0.0
    sr = sum(x["sh4_r"] for x in per_page) / n if n else 0.0
    result = {
        "pages": len(ids),
        "sh4_precision": sp,
        "sh4_recall": sr,
        "sh4_f1": 2 * sp * sr / (sp + sr) if sp + sr > 0 else 0.0,
        "scored": n,
        "skipped_empty_gold": skipped_empty_gold,
        "empty_output": empty_output,
        "precision": p,
        "recall": r,
        "f1": 2 * p * r / (p + r) if p + r > 0 else 0.0,
        "mean_page_f1": sum(x["f1"] for x in per_page) / n if n else 0.0,
    }
    if keep_pages:
        result["per_page"] = per_page
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gold-format", required=True,
                    choices=["dragnet", "dragnet-article", "cleaneval"])
    ap.add_argument("--pages", action="store_true", help="include per-page scores")
    ap.add_argument("gold_dir")
    ap.add_argument("out_dir")
    ap.add_argument("ids", nargs="+")
    args = ap.parse_args()
    json.dump(score_set(args.gold_format, args.gold_dir, args.out_dir, args.ids,
                        keep_pages=args.pages), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

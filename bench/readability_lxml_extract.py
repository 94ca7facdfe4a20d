#!/usr/bin/python3
"""readability-lxml (Debian's python3-readability) over many pages, for
bench/extraction_wcxb.py; the Python counterpart of readability_extract.js.

usage: readability_lxml_extract.py --out DIR --list FILE [--charsets TSV]
           [--timeout-s 30] [--report OUT.json]

For each page: the file is read as bytes and decoded with the charset the
--charsets file gives for it (lines "<file>\\t<charset>\\t<source>", as
gumbo_parse_bench writes quark's decision; without one readability-lxml
detects it), then Document(html).summary(html_partial=True); the text of that
HTML with a line break at each block element's start and end (block_text, as
readability_extract.js --text blocks) goes to DIR/<basename without
extension>.txt, empty when there is none.

The pages run one at a time in a child process (this script with --worker),
each under a SIGALRM of --timeout-s. The parent watches the child's status
file: when the child dies (a crash in lxml's C code) or stays on one page 10 s
past the alarm (stuck in C code, which the alarm cannot interrupt; it is
killed), that page gets an empty output and is reported as a crash or a
timeout, and a new child takes the pages after it. The report (JSON) has the
counts and the failed pages, as readability_extract.js's has.
"""

import argparse
import codecs
import collections
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# bench/gzip.py (the gzip benchmark) would shadow the standard module lxml
# imports: the script's own folder off the path.
sys.path[:] = [d for d in sys.path if os.path.abspath(d or os.curdir) != HERE]
sys.dont_write_bytecode = True

BLOCK_TAGS = {"address", "article", "aside", "blockquote", "br", "caption", "dd", "details",
              "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer",
              "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "legend",
              "li", "main", "nav", "ol", "option", "p", "pre", "section", "summary", "table",
              "tbody", "td", "tfoot", "th", "thead", "tr", "ul"}
SKIP_TAGS = {"script", "style", "noscript", "template"}


def block_text(root):
    """The text under an lxml element with a line break at each block
    element's start and end: readability_extract.js's blockText (an explicit
    stack: hostile pages nest deeply)."""
    parts = []
    stack = [("el", root)]
    while stack:
        kind, item = stack.pop()
        if kind == "text":
            parts.append(item)
            continue
        el = item
        # Pushed in reverse: popped as opening break, text, children, closing
        # break, then the tail (the text after the element, in its parent).
        if el is not root and el.tail:
            stack.append(("text", el.tail))
        tag = el.tag.lower() if isinstance(el.tag, str) else None
        if tag is None or tag in SKIP_TAGS:  # comments, processing instructions
            continue
        block = tag in BLOCK_TAGS
        if block:
            stack.append(("text", "\n"))
        for child in reversed(el):
            stack.append(("el", child))
        if el.text:
            stack.append(("text", el.text))
        if block:
            stack.append(("text", "\n"))
    return re.sub(r"[ \t]*\n\s*", "\n", "".join(parts)).strip()


def read_charsets(path):
    charsets = {}
    if path and os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 2 and parts[1]:
                    charsets[os.path.abspath(parts[0])] = parts[1]
    return charsets


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def out_path(out_dir, page):
    return os.path.join(out_dir, os.path.splitext(os.path.basename(page))[0] + ".txt")


class _PageTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _PageTimeout()


def worker(list_file, charsets_file, out_dir, status_file, timeout_s):
    """Extracts the pages of list_file one at a time; appends a "start" line
    and then a result line per page to status_file."""
    from readability import Document
    import lxml.html
    signal.signal(signal.SIGALRM, _on_alarm)
    charsets = read_charsets(charsets_file)
    with open(status_file, "a", encoding="utf-8") as st:
        for path in read_list(list_file):
            st.write(json.dumps({"file": path, "status": "start"}) + "\n")
            st.flush()
            t0 = time.perf_counter()
            text, status, error = "", "ok", None
            signal.alarm(timeout_s)
            try:
                with open(path, "rb") as f:
                    html = f.read()
                charset = charsets.get(os.path.abspath(path))
                if charset:
                    try:
                        html = html.decode(codecs.lookup(charset).name, errors="replace")
                    except LookupError:
                        pass  # readability-lxml detects it
                summary = Document(html).summary(html_partial=True)
                if summary and summary.strip():
                    text = block_text(lxml.html.fromstring(summary))
                if not text.strip():
                    status = "null"
            except _PageTimeout:
                status, error, text = "timeout", "no result after %d s" % timeout_s, ""
            except Exception as e:  # noqa: BLE001 (any failure is this page's)
                status, error, text = "error", ("%s: %s" % (type(e).__name__, e))[:300], ""
            finally:
                signal.alarm(0)
            with open(out_path(out_dir, path), "w", encoding="utf-8") as out:
                out.write(text)
            st.write(json.dumps({"file": path, "status": status, "error": error,
                                 "ms": 1000 * (time.perf_counter() - t0)}) + "\n")
            st.flush()


def run(files, charsets_file, out_dir, timeout_s):
    """Runs the worker over files in child processes, watching each (see the
    module's doc); returns the report."""
    os.makedirs(out_dir, exist_ok=True)
    status_file = os.path.join(out_dir, ".status.jsonl")
    list_file = os.path.join(out_dir, ".pages.txt")
    results = {}
    remaining = list(files)
    start = time.perf_counter()
    while remaining:
        with open(list_file, "w", encoding="utf-8") as f:
            f.write("\n".join(remaining) + "\n")
        open(status_file, "w").close()
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--list", list_file,
               "--charsets", charsets_file or "", "--out", out_dir,
               "--status", status_file, "--timeout-s", str(timeout_s)]
        in_flight, since, killed = None, time.monotonic(), False
        with open(os.devnull, "w") as devnull, open(status_file, encoding="utf-8") as st:
            proc = subprocess.Popen(cmd, stdout=devnull, stderr=devnull)
            pending = ""
            while True:
                done = proc.poll() is not None
                pending += st.read()
                *complete, pending = pending.split("\n")
                for line in complete:
                    rec = json.loads(line)
                    if rec["status"] == "start":
                        in_flight, since = rec["file"], time.monotonic()
                    else:
                        results[rec["file"]] = rec
                        in_flight = None
                if done:
                    break
                if in_flight and time.monotonic() - since > timeout_s + 10:
                    proc.kill()
                    proc.wait()
                    killed = True
                    break
                time.sleep(0.2)
        if in_flight is None and proc.returncode == 0:
            break
        if in_flight is None:  # died before or between pages: give up on the rest
            for path in remaining:
                results.setdefault(path, {"file": path, "status": "crash",
                                          "error": "exit status %s" % proc.returncode})
            break
        status = "timeout" if killed else "crash"
        results[in_flight] = {"file": in_flight, "status": status,
                              "error": "killed after %d s" % (timeout_s + 10) if killed
                              else "exit status %s" % proc.returncode}
        with open(out_path(out_dir, in_flight), "w", encoding="utf-8"):
            pass
        print("readability_lxml_extract: %s: %s; going on with the next page"
              % (in_flight, status), file=sys.stderr, flush=True)
        remaining = [p for p in remaining if p not in results]
    for name in (status_file, list_file):
        if os.path.exists(name):
            os.remove(name)
    seconds = time.perf_counter() - start
    recs = [results.get(p, {"file": p, "status": "crash", "error": "no result"}) for p in files]
    count = collections.Counter(r["status"] for r in recs)
    try:
        version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "python3-readability"],
                                 capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        version = ""
    return {"pages": len(files), "seconds": seconds,
            "pages_per_s": len(files) / seconds if seconds else 0.0,
            "ok": count["ok"], "null_article": count["null"], "errors": count["error"],
            "timeouts": count["timeout"], "crashes": count["crash"],
            "timeout_s": timeout_s, "version": version or "unknown",
            "failed_pages": [{"file": r["file"], "status": r["status"], "error": r.get("error")}
                             for r in recs if r["status"] not in ("ok", "null")],
            "null_pages": [r["file"] for r in recs if r["status"] == "null"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output folder, DIR/<name>.txt per page")
    ap.add_argument("--list", required=True, help="file of page paths, one a line")
    ap.add_argument("--charsets", default="", help="TSV: file, charset, source")
    ap.add_argument("--timeout-s", type=int, default=30)
    ap.add_argument("--report", default="", help="JSON report (default: standard output)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--status", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.list, args.charsets, args.out, args.status, args.timeout_s)
        return 0
    try:
        import readability  # noqa: F401
        import lxml.html  # noqa: F401
    except ImportError as e:
        print("readability_lxml_extract: %s (deploy/install-deps.sh installs "
              "python3-readability)" % e, file=sys.stderr)
        return 1
    report = run(read_list(args.list), args.charsets, args.out, args.timeout_s)
    text = json.dumps(report, indent=1)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

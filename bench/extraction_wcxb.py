#!/usr/bin/python3
"""Main-content extraction on WCXB's development split: every page type.

quark (`quark extract`, defaults), Mozilla Readability and Defuddle (both
through bench/readability_extract.js on jsdom) and readability-lxml (Debian's
python3-readability, through bench/readability_lxml_extract.py) on the 1,497
pages of ../shared/data/wcxb-dev.tar.xz, scored with WCXB's own metric, per
page type, on two fixed parts of the pages:

  tune      about 70 %: the pages quark's extraction may be tuned on;
  held-out  about 30 %: never tuned on and never looked at page by page; its
            figures are the fair ones.

The split (split_pages below, and docs/benchmarks.md) is decided by a hash of
each page's site, stratified by page type, so it never changes between runs
or machines and no site has pages in both parts.

Writes bench/out/wcxb_results.json, bench/out/wcxb_pages.jsonl (per page: id,
type, part, site, and F1/P/R, tokens and status per extractor) and, unless
--docs '', the section between <!-- extraction-wcxb:begin --> and
<!-- extraction-wcxb:end --> of docs/benchmarks.md. Extractor outputs go to
bench/out/wcxb/<extractor>/<id>.txt.

bench/extraction.sh --wcxb builds quark and gumbo_parse_bench, installs the
npm packages and readability-lxml and runs this script; it also runs on its
own once those are there, e.g. while tuning quark, on the tune part only:

    bench/extraction_wcxb.py --extractors quark --part tune --docs ''

(that rewrites bench/out/wcxb_pages.jsonl and wcxb_results.json with the
tune pages and quark only; the worst pages are the lowest "f1" there).

A page that crashes, hangs (30 s) or fails in an extractor gets an empty
output, is scored as one and is listed; the run goes on.
"""

import argparse
import collections
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in bench/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import extraction  # noqa: E402  (run_quark, run_readability, write_section, machine_info)
import benchlib  # noqa: E402

BEGIN = "<!-- extraction-wcxb:begin -->"
END = "<!-- extraction-wcxb:end -->"
PAGE_TIMEOUT_S = extraction.PAGE_TIMEOUT_S

# WCXB's page types, in the order of their page counts in the dev split.
TYPES = ["article", "service", "product", "collection", "forum", "listing", "documentation"]
PARTS = ["tune", "held-out"]

# Published word-level F1 on this dev split (the WCXB paper, Foley 2026).
PUBLISHED = [("rs-trafilatura", 0.859), ("MinerU-HTML", 0.827), ("Trafilatura", 0.791),
             ("dom-smoothie", 0.762), ("Readability", 0.675)]

# The extractors, in table order: (key, label).
EXTRACTORS = [("quark", "quark"), ("readability", "Readability"),
              ("defuddle", "Defuddle"), ("readability-lxml", "readability-lxml")]
LABEL = dict(EXTRACTORS)


log = benchlib.logger("extraction-wcxb")


# ---------------------------------------------------------------- metric

# WCXB's evaluate.py: re.findall(r'\w+', text.lower()). Python's \w is
# Unicode: letters, digits, marks and the underscore, so a run of Chinese
# characters is one token, and "don't" is two ("don", "t").
_WORD_RE = re.compile(r"\w+")


def tokenize(text):
    return _WORD_RE.findall(text.lower()) if text else []


def word_prf(extracted, gold):
    """(precision, recall, F1) of one page, as WCXB's evaluate.py computes
    them: bag-of-words overlap (multiset intersection) of the tokens. An
    empty gold scores 1, 1, 1 when the extraction is empty too and 0, 0, 0
    otherwise; an empty extraction of a non-empty gold scores 0, 0, 0."""
    ext, ref = tokenize(extracted), tokenize(gold)
    if not ref:
        return (1.0, 1.0, 1.0) if not ext else (0.0, 0.0, 0.0)
    if not ext:
        return (0.0, 0.0, 0.0)
    overlap = sum((collections.Counter(ext) & collections.Counter(ref)).values())
    p, r = overlap / len(ext), overlap / len(ref)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def mean_scores(scores):
    """Means over pages of P, R and F1 (WCXB averages each over pages; its F1
    is the mean of per-page F1s, not 2PR/(P+R) of the means)."""
    n = len(scores)
    if not n:
        return {"pages": 0, "p": 0.0, "r": 0.0, "f1": 0.0}
    return {"pages": n, "p": sum(s[0] for s in scores) / n,
            "r": sum(s[1] for s in scores) / n, "f1": sum(s[2] for s in scores) / n}


# ---------------------------------------------------------------- split

SPLIT_SALT = "fcrawl-wcxb-split-v1:"
HELD_OUT_SHARE = 0.3

# Second-level labels under which a country's sites register (bbc.co.uk,
# abc.net.au, ncsc.gov.uk): a fixed list rather than the Public Suffix List, so
# the split does not move with the machine's copy of that list.
_SECOND_LEVEL = {"ac", "co", "com", "edu", "go", "gob", "gouv", "gov", "gv", "ltd", "mil",
                 "ne", "net", "nhs", "nic", "or", "org", "plc", "sch"}


def site_of(domain, url="", page_id=""):
    """The site a page belongs to: its domain (metadata.json; else the host of
    its URL) cut to the registrable part: the last two labels, or three when
    the last is a two-letter country code and the one before it is in
    _SECOND_LEVEL (store.steampowered.com -> steampowered.com, forum.qt.io ->
    qt.io, home.tarkett.co.uk -> tarkett.co.uk). A page with neither is a
    site of its own ("id:<id>")."""
    host = (domain or "").strip().lower()
    if not host and url:
        try:
            host = urllib.parse.urlsplit(url).hostname or ""
        except ValueError:
            host = ""
    host = host.split("/")[0].split(":")[0].strip(".")
    if not host:
        return "id:" + page_id
    if re.fullmatch(r"[0-9.]+", host):
        return host
    labels = host.split(".")
    n = 2
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        n = 3
    return ".".join(labels[-n:])


def site_hash(site):
    return hashlib.sha256((SPLIT_SALT + site).encode("utf-8")).hexdigest()


def split_pages(pages):
    """{page id: "tune" | "held-out"} for pages (dicts with id, type, site).

    A site's pages stay together. Each site falls in the stratum of its most
    common page type (a tie goes to the type first in alphabetical order).
    In each stratum the sites are taken in the order of
    sha256("fcrawl-wcxb-split-v1:" + site) and a site goes to held-out when
    that keeps the stratum's held-out pages at or under round-half-up(30 % of
    the stratum's pages); the rest is tune. Nothing random: the same pages
    give the same split, in any order, on any machine."""
    by_site = collections.defaultdict(list)
    for p in pages:
        by_site[p["site"]].append(p)
    strata = collections.defaultdict(list)
    for site, ps in by_site.items():
        counts = collections.Counter(p["type"] for p in ps)
        strata[min(counts, key=lambda t: (-counts[t], t))].append(site)
    held = set()
    for stratum in sorted(strata):
        sites = strata[stratum]
        target = int(HELD_OUT_SHARE * sum(len(by_site[s]) for s in sites) + 0.5)
        taken = 0
        for site in sorted(sites, key=lambda s: (site_hash(s), s)):
            if taken >= target:
                break
            if taken + len(by_site[site]) <= target:
                held.add(site)
                taken += len(by_site[site])
    return {p["id"]: ("held-out" if p["site"] in held else "tune") for p in pages}


# ---------------------------------------------------------------- data


def page_type(gt, fallback):
    """WCXB's get_page_type: _internal.page_type.primary ('category' is
    'collection'); metadata.json's type when the ground truth has none."""
    pt = ((gt.get("_internal") or {}).get("page_type"))
    if isinstance(pt, dict):
        pt = pt.get("primary")
    if not isinstance(pt, str) or not pt:
        pt = fallback or "article"
    return "collection" if pt == "category" else pt


def load_pages(wcxb_dir):
    with open(os.path.join(wcxb_dir, "metadata.json"), encoding="utf-8") as f:
        meta = json.load(f)["files"]
    pages = []
    for pid in sorted(meta):
        m = meta[pid]
        with open(os.path.join(wcxb_dir, "ground-truth", pid + ".json"), encoding="utf-8") as f:
            gt = json.load(f)
        truth = gt.get("ground_truth") or {}
        pages.append({
            "id": pid, "type": page_type(gt, m.get("page_type")),
            "domain": m.get("domain") or "", "spa": bool(m.get("spa")),
            "site": site_of(m.get("domain"), gt.get("url") or "", pid),
            "gold": truth.get("main_content") or "",
            "html": os.path.join(wcxb_dir, "html", pid + ".html")})
    return pages


def unpack(archive, data_dir):
    """Unpacks the archive into data_dir/wcxb-dev once (via a temporary
    directory, so an interrupted unpack is not taken for a finished one)."""
    target = os.path.join(data_dir, "wcxb-dev")
    if os.path.exists(os.path.join(target, "metadata.json")):
        return target
    log("unpacking %s" % archive)
    tmp = os.path.join(data_dir, "wcxb-dev.tmp")
    subprocess.run(["rm", "-rf", tmp], check=True)
    os.makedirs(tmp)
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar.getmembers():
            if not (member.isdir() or member.isfile()) or member.name.startswith("/") \
                    or ".." in member.name.split("/"):
                raise SystemExit("extraction_wcxb.py: unexpected member %r in %s"
                                 % (member.name, archive))
        tar.extractall(tmp)
    subprocess.run(["rm", "-rf", target], check=True)
    os.rename(os.path.join(tmp, "wcxb-dev"), target)
    os.rmdir(tmp)
    return target


# ---------------------------------------------------------------- runs


def run_readability_lxml(list_file, charsets_file, out_dir, report_file, pages):
    """bench/readability_lxml_extract.py over the pages of list_file; returns
    its report (the shape of readability_extract.js's), or {"error": ...}."""
    extraction.clean_dir(out_dir)
    cmd = [sys.executable, os.path.join(HERE, "readability_lxml_extract.py"), "--out", out_dir,
           "--list", list_file, "--timeout-s", str(PAGE_TIMEOUT_S), "--report", report_file]
    return extraction.run_peer("readability_lxml_extract.py", cmd, charsets_file, report_file,
                               120 + (PAGE_TIMEOUT_S + 15) * pages)


def have_readability_lxml():
    try:
        return subprocess.run([sys.executable, "-c", "import readability, lxml.html"],
                              capture_output=True, timeout=60, cwd="/").returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def write_charsets(gumbo_bench, list_file, charsets_file):
    """The charset quark decodes each page with (gumbo_parse_bench
    --charsets, one untimed pass), for Readability, Defuddle and
    readability-lxml, so that all see the text quark sees."""
    if os.path.exists(charsets_file):
        os.remove(charsets_file)
    if not gumbo_bench or not os.path.exists(gumbo_bench):
        return "gumbo_parse_bench not built: the peers detect charsets themselves"
    try:
        proc = subprocess.run([gumbo_bench, "--repeat", "1", "--gumbo-only", "--charsets",
                               charsets_file, "--list", list_file],
                              capture_output=True, text=True, errors="replace", timeout=1800)
    except subprocess.TimeoutExpired:
        return "gumbo_parse_bench timed out: the peers detect charsets themselves"
    if proc.returncode != 0 or not os.path.exists(charsets_file):
        return "gumbo_parse_bench failed (%s): the peers detect charsets themselves" \
            % proc.stderr.strip()[-200:]
    return None


def node_report_status(report, files):
    """{file: status} from a readability_extract.js report."""
    status = {f: "ok" for f in files}
    for f in report.get("null_pages", []):
        status[f] = "null"
    for p in report.get("failed_pages", []):
        status[p["file"]] = p["status"]
    return status


def run_extractor(key, args, files, list_file, charsets_file, work_dir):
    """Runs one extractor over all files; returns (run report, {file: status})."""
    out_dir = os.path.join(work_dir, key)
    t0 = time.perf_counter()
    if key == "quark":
        q = extraction.run_quark(args.quark, files, out_dir)
        status = {f: "ok" for f in files}
        for f in q["crashed"]:
            status[f] = "crash"
        for f in q["timed_out"]:
            status[f] = "timeout"
        for f in q["failed"]:
            status[f] = "error"
        report = dict(q, failed={os.path.basename(k): v for k, v in q["failed"].items()})
    elif key in ("readability", "defuddle"):
        report = extraction.run_readability(
            args.node, os.path.join(HERE, "readability_extract.js"), list_file, charsets_file,
            out_dir, os.path.join(work_dir, key + "_report.json"), len(files),
            extra_args=["--extractor", key, "--text", "blocks"])
    else:
        report = run_readability_lxml(list_file, charsets_file, out_dir,
                                      os.path.join(work_dir, key + "_report.json"), len(files))
    if key != "quark":
        status = {f: "error" for f in files} if "error" in report \
            else node_report_status(report, files)
    report["wall_s"] = time.perf_counter() - t0
    return report, status


def reuse_run(key, files, work_dir, out_dir):
    """(report, {file: status}) of the last run of a peer (its report and its
    outputs in work_dir), or None when it is not there or has no output for
    some of files."""
    report_file = os.path.join(work_dir, key + "_report.json")
    try:
        with open(report_file, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    if "error" in report or not all(os.path.exists(os.path.join(
            work_dir, key, os.path.splitext(os.path.basename(f))[0] + ".txt")) for f in files):
        return None
    report["reused"] = datetime.datetime.fromtimestamp(
        os.path.getmtime(report_file), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    report["wall_s"] = report.get("seconds", 0.0)
    try:  # the wall time of that run, when its results are there
        with open(os.path.join(out_dir, "wcxb_results.json"), encoding="utf-8") as f:
            report["wall_s"] = json.load(f)["runs"][key]["wall_s"]
    except (OSError, ValueError, KeyError):
        pass
    status = node_report_status(report, files)
    return report, {f: status[f] for f in files}


def read_output(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def score_pages(pages, split, extractors, work_dir, statuses):
    rows = []
    for p in pages:
        row = {"id": p["id"], "type": p["type"], "split": split[p["id"]], "site": p["site"],
               "spa": p["spa"], "gold_tokens": len(tokenize(p["gold"]))}
        for key in extractors:
            text = read_output(os.path.join(work_dir, key, p["id"] + ".txt"))
            prec, rec, f1 = word_prf(text, p["gold"])
            status = statuses[key].get(p["html"], "ok")
            if status in ("ok", "null") and not tokenize(text):
                status = "empty"
            row[key] = {"f1": round(f1, 4), "p": round(prec, 4), "r": round(rec, 4),
                        "tokens": len(tokenize(text)), "status": status}
        rows.append(row)
    return rows


def tables(rows, extractors):
    """{part: {"all" | type: {extractor: mean scores}}} for tune, held-out
    and both ("all")."""
    out = {}
    for part in PARTS + ["all"]:
        part_rows = [r for r in rows if part == "all" or r["split"] == part]
        t = {}
        for group in ["all"] + TYPES + sorted({r["type"] for r in rows} - set(TYPES)):
            g = [r for r in part_rows if group == "all" or r["type"] == group]
            if not g and group != "all":
                continue
            t[group] = {k: mean_scores([(r[k]["p"], r[k]["r"], r[k]["f1"]) for r in g])
                        for k in extractors}
            t[group]["pages"] = len(g)
        out[part] = t
    return out


# ---------------------------------------------------------------- report


def f3(x):
    return "%.3f" % x


def render(r):
    lines = []
    add = lines.append
    ex = r["extractors"]
    add(BEGIN)
    add("## Main-content extraction on WCXB: every page type")
    add("")
    add("Command (from the project root): `%s`" % r["command"])
    add("")
    add("- Date: %s" % r["date"])
    m = r["machine"]
    add("- Machine: %d cores, %s; load average at start %s (shared with other work)"
        % (m["nproc"], m["model"], m["loadavg_at_start"]))
    add("- Code: %s; quark `%s` (built %s), defaults (`quark extract --out_dir DIR FILE...`)"
        % (r["revision"], r["quark"], r["quark_built"]))
    v = r["versions"]
    peers = []
    if "readability" in ex or "defuddle" in ex:
        peers.append("node %s, jsdom %s" % (v.get("node", "?"), v.get("jsdom", "?")))
    if "readability" in ex:
        peers.append("@mozilla/readability %s" % v.get("readability", "?"))
    if "defuddle" in ex:
        peers.append("defuddle %s" % v.get("defuddle", "?"))
    if "readability-lxml" in ex:
        peers.append("readability-lxml %s (Debian python3-readability)"
                     % v.get("readability-lxml", "?"))
    if peers:
        add("- Peers: " + "; ".join(peers))
    add("- Run time: %.0f s in all (%s; %d at a time)" % (
        r["elapsed_s"], ", ".join(
            "%s %.0f s" % (LABEL[k], r["runs"][k]["wall_s"]) +
            (" in the run of %s, whose outputs are reused" % r["runs"][k]["reused"]
             if r["runs"][k].get("reused") else "") for k in ex), r["jobs"]))
    add("")
    add("Word-level F1, precision and recall, each the mean over pages (WCXB's metric, "
        "below). The held-out part is the fair comparison: quark is tuned on the tune "
        "part only.")
    for part, title in (("tune", "Tune part"), ("held-out", "Held-out part"),
                        ("all", "Both parts: the whole dev split")):
        t = r["tables"].get(part)
        if not t or not t["all"]["pages"]:
            continue
        add("")
        add("### %s (%d pages)" % (title, t["all"]["pages"]))
        add("")
        add("| type | pages | " + " | ".join("%s F1 | P | R" % LABEL[k] for k in ex) + " |")
        add("|---|---:|" + "---:|---:|---:|" * len(ex))
        for group in list(t):
            if group == "all":
                continue
            add("| %s | %d | " % (group, t[group]["pages"]) + " | ".join(
                "%s | %s | %s" % (f3(t[group][k]["f1"]), f3(t[group][k]["p"]),
                                  f3(t[group][k]["r"])) for k in ex) + " |")
        add("| **all** | **%d** | " % t["all"]["pages"] + " | ".join(
            "**%s** | %s | %s" % (f3(t["all"][k]["f1"]), f3(t["all"][k]["p"]),
                                  f3(t["all"][k]["r"])) for k in ex) + " |")
    add("")
    add("Published F1 on the whole dev split (the WCXB paper), for reference: " + ", ".join(
        "%s %s" % (n, f3(f)) for n, f in PUBLISHED) + ". Their runs and ours differ in "
        "versions and in how HTML output becomes text, so compare within a table.")
    add("")
    extraction.add_notes_and_method(add, r, "Failures and empty outputs")
    add(END)
    return "\n".join(lines) + "\n"


def failure_notes(rows, runs, extractors):
    notes = []
    for k in extractors:
        run = runs[k]
        if "error" in run:
            notes.append("%s did not run: %s" % (LABEL[k], run["error"]))
        by_status = collections.defaultdict(list)
        for row in rows:
            by_status[row[k]["status"]].append(row["id"])
        bad = ["%s on %s" % (s, ", ".join(by_status[s]))
               for s in ("crash", "timeout", "error") if by_status[s]]
        empty = by_status["empty"]
        notes.append("%s: %s; empty output (nothing extracted) on %d page%s%s" % (
            LABEL[k], "; ".join(bad) if bad else "no crash, timeout or error",
            len(empty), "" if len(empty) == 1 else "s",
            (" (%d of them with an empty gold)" % sum(
                1 for row in rows if row[k]["status"] == "empty" and not row["gold_tokens"]))
            if empty else ""))
    return notes


def method(r, pages, split):
    counts = collections.Counter((split[p["id"]], p["type"]) for p in pages)
    sites = collections.Counter(p["site"] for p in pages)
    multi = sum(1 for s in sites.values() if s > 1)
    empty_gold = sum(1 for p in pages if not tokenize(p["gold"]))
    return [
        "Data: `../shared/data/wcxb-dev.tar.xz`, unpacked into `bench/out/data/wcxb-dev`: "
        "WCXB's development split (Foley 2026, CC-BY-4.0), %d pages; page type from the "
        "ground truth's `_internal.page_type.primary` as WCXB's evaluate.py reads it, gold "
        "text `ground_truth.main_content`." % len(pages),
        "Split (bench/extraction_wcxb.py, split_pages): a page's site is the domain in "
        "`metadata.json` (else its URL's host) cut to the registrable part (the last two "
        "labels, three under a country code's co/com/org/net/ac/gov/...), so "
        "store.steampowered.com and steampowered.com are one site; %d sites, %d of them "
        "with more than one page. A site's pages stay together, in the stratum of their "
        "most common type. In each stratum the sites are taken in the order of "
        "sha256(\"%s\" + site), and a site goes to held-out while that keeps the "
        "stratum's held-out pages at or under 30 %% (rounded half up); the rest is tune. "
        "No random state: the same pages always give the same split. Tune: %s. "
        "Held-out: %s. Never tune on the held-out pages or look at them one by one "
        "(`bench/out/wcxb_pages.jsonl` has the part of every page)." % (
            len(sites), multi, SPLIT_SALT,
            ", ".join("%s %d" % (t, counts[("tune", t)]) for t in TYPES),
            ", ".join("%s %d" % (t, counts[("held-out", t)]) for t in TYPES)),
        "Metric: WCXB's evaluate.py. Tokens `re.findall(r'\\w+', text.lower())` (Python's "
        "Unicode `\\w`: letters, digits, the underscore; a run of Chinese characters is "
        "one token). Per page, bag-of-words overlap (multiset intersection): P = overlap "
        "/ extracted tokens, R = overlap / gold tokens, F1 = 2PR/(P+R). An empty "
        "extraction (nothing, an error, a crash or a timeout) scores 0 when the gold has "
        "tokens; a page whose gold is empty (%d pages, mostly single-page apps whose "
        "HTML holds no content) scores 1 for an empty extraction and 0 for any other. P, "
        "R and F1 are each the mean over the pages of a table cell (F1 is the mean of "
        "page F1s, not 2PR/(P+R) of the means)." % empty_gold,
        "quark: one `quark extract --out_dir DIR` process over all pages, files as they "
        "are (quark detects the charset), no URL given; a crash or hang would re-run the "
        "pages without output one per process with a %d s limit." % PAGE_TIMEOUT_S,
        "Readability and Defuddle: `bench/readability_extract.js --extractor "
        "readability|defuddle --text blocks`, one node process each; per page "
        "`new JSDOM(bytes, {url: 'http://localhost/', contentType: 'text/html; "
        "charset=X'})` with X the charset quark decodes the page with (from "
        "`gumbo_parse_bench --charsets`), then `new Readability(document).parse()` or "
        "`Defuddle(document, url, {useAsync: false})` (no network fetches). The output is "
        "the text of the HTML they return (`article.content`, `result.content`) with a line "
        "break at each block element, as a browser's innerText has it: `textContent` "
        "glues the words of adjacent elements on minified pages (\"done.At\"). Each page "
        "runs in a worker thread with a %d s limit." % PAGE_TIMEOUT_S,
        "readability-lxml: `bench/readability_lxml_extract.py`, "
        "`Document(html).summary(html_partial=True)` on the page decoded "
        "with the same charset, its HTML to text the same way; pages one at a time in a "
        "child process under a %d s alarm; a page that kills the child is recorded and a "
        "new child takes the next." % PAGE_TIMEOUT_S,
        "Outputs and per-page scores: `bench/out/wcxb/<extractor>/<id>.txt`, "
        "`bench/out/wcxb_pages.jsonl` (id, type, part, site, F1/P/R, tokens and status per "
        "extractor) and `bench/out/wcxb_results.json` (not committed).",
    ]


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run by bench/extraction.sh --wcxb, which builds and installs what this "
               "needs; exits 0 with a message when ../shared/data is absent.")
    root = os.path.dirname(HERE)
    ap.add_argument("--root", default=root)
    ap.add_argument("--archive", default=os.path.join(root, "..", "shared", "data",
                                                      "wcxb-dev.tar.xz"))
    ap.add_argument("--data-dir", default=os.path.join(HERE, "out", "data"),
                    help="where wcxb-dev/ is (unpacked there from --archive if missing)")
    ap.add_argument("--out-dir", default=os.path.join(HERE, "out"))
    ap.add_argument("--quark", default=os.path.join(root, "build", "quark", "quark"))
    ap.add_argument("--gumbo-bench", default=os.path.join(root, "build", "bench",
                                                          "gumbo_parse_bench"))
    ap.add_argument("--node", default="node")
    ap.add_argument("--extractors", default=",".join(k for k, _ in EXTRACTORS),
                    help="comma-separated subset of %(default)s")
    ap.add_argument("--part", choices=["all", "tune", "held-out"], default="all",
                    help="pages to run on (the docs section is written only for all)")
    ap.add_argument("--limit", type=int, default=0,
                    help="only the first N pages of the part, for a quick check (no docs)")
    ap.add_argument("--reuse-peers", action="store_true",
                    help="run quark only; score the other extractors' outputs of the last "
                         "run on the same pages (bench/out/wcxb/<extractor>/), e.g. after a "
                         "change to quark (30 s instead of 45 minutes)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="extractors run at the same time (each is one process)")
    ap.add_argument("--command", default=None, help="the command line, for the report")
    ap.add_argument("--docs", default=os.path.join(root, "docs", "benchmarks.md"),
                    help="markdown file to update ('' = none)")
    ap.add_argument("--t0", type=float, default=None)
    args = ap.parse_args()

    started = time.time() if args.t0 is None else args.t0
    extractors = [k for k in args.extractors.split(",") if k]
    unknown = [k for k in extractors if k not in LABEL]
    if unknown or not extractors:
        ap.error("unknown extractor(s) %s; choose from %s"
                 % (", ".join(unknown) or "(none)", ", ".join(LABEL)))
    extractors = [k for k, _ in EXTRACTORS if k in extractors]  # table order
    if not os.path.exists(os.path.join(args.data_dir, "wcxb-dev", "metadata.json")) \
            and not os.path.exists(args.archive):
        print("extraction_wcxb.py: %s not found (the shared data folder ../shared/data is "
              "absent); nothing to do." % args.archive, file=sys.stderr)
        return 0
    if not os.path.exists(args.quark) and "quark" in extractors:
        print("extraction_wcxb.py: %s is missing (cmake --build build --target quark_cli)"
              % args.quark, file=sys.stderr)
        return 1
    if "readability-lxml" in extractors and not have_readability_lxml():
        log("readability-lxml is not installed (deploy/install-deps.sh installs "
            "python3-readability); skipping it")
        extractors.remove("readability-lxml")
    os.makedirs(args.data_dir, exist_ok=True)
    wcxb_dir = unpack(args.archive, args.data_dir)

    pages = load_pages(wcxb_dir)
    split = split_pages(pages)
    run_pages = [p for p in pages if args.part == "all" or split[p["id"]] == args.part]
    if args.limit > 0:
        run_pages = run_pages[:args.limit]
    work_dir = os.path.join(args.out_dir, "wcxb")
    os.makedirs(work_dir, exist_ok=True)
    files = [p["html"] for p in run_pages]
    list_file = os.path.join(work_dir, "pages.txt")
    with open(list_file, "w", encoding="utf-8") as f:
        f.write("\n".join(files) + "\n")
    charsets_file = os.path.join(work_dir, "charsets.tsv")
    charset_note = None
    revision = extraction.git_revision(args.root)  # before the runs: others may commit
    quark_built = datetime.datetime.fromtimestamp(
        os.path.getmtime(args.quark), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC") \
        if os.path.exists(args.quark) else "?"
    runs, statuses = {}, {}
    if args.reuse_peers:
        for key in [k for k in extractors if k != "quark"]:
            reused = reuse_run(key, files, work_dir, args.out_dir)
            if reused is None:
                log("%s: no complete earlier run of these pages in %s; leaving it out"
                    % (LABEL[key], work_dir))
                extractors.remove(key)
            else:
                runs[key], statuses[key] = reused
                log("%s: reusing the outputs of the run of %s" % (LABEL[key], runs[key]["reused"]))
    if any(k not in runs and k != "quark" for k in extractors):
        log("%d pages (%s): charsets (gumbo_parse_bench)" % (len(files), args.part))
        charset_note = write_charsets(args.gumbo_bench, list_file, charsets_file)
        if charset_note:
            log(charset_note)

    def one(key):
        log("%s: %d pages" % (LABEL[key], len(files)))
        report, status = run_extractor(key, args, files, list_file, charsets_file, work_dir)
        log("%s: %.0f s" % (LABEL[key], report["wall_s"]))
        return key, report, status

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for key, report, status in pool.map(one, [k for k in extractors if k not in runs]):
            runs[key], statuses[key] = report, status

    rows = score_pages(run_pages, split, extractors, work_dir, statuses)
    with open(os.path.join(args.out_dir, "wcxb_pages.jsonl"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")

    versions = {}
    for k in ("readability", "defuddle"):
        if k in runs and "error" not in runs[k]:
            versions.update({v: runs[k][v] for v in ("node", "jsdom") if v in runs[k]})
            versions[k] = runs[k].get(k)
    if "readability-lxml" in runs:
        versions["readability-lxml"] = runs["readability-lxml"].get("version", "?")
    command = args.command or " ".join(["bench/extraction_wcxb.py"] + sys.argv[1:])
    results = {
        "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": extraction.machine_info(),
        "revision": revision,
        "quark": os.path.relpath(args.quark, args.root), "quark_built": quark_built,
        "part": args.part, "jobs": args.jobs, "extractors": extractors,
        "versions": versions, "charsets": charset_note or "from gumbo_parse_bench",
        "split_rule": {"salt": SPLIT_SALT, "held_out_share": HELD_OUT_SHARE,
                       "held_out_sites": sorted({p["site"] for p in pages
                                                 if split[p["id"]] == "held-out"})},
        "tables": tables(rows, extractors),
        "runs": runs,
        "published_f1": dict(PUBLISHED),
    }
    results["failure_notes"] = failure_notes(rows, runs, extractors)
    if charset_note:
        results["failure_notes"].append(charset_note)
    results["method"] = method(results, pages, split)
    results["elapsed_s"] = time.time() - started
    with open(os.path.join(args.out_dir, "wcxb_results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)
    section = render(results)
    if args.docs and args.part == "all" and not args.limit:
        extraction.write_section(args.docs, BEGIN, END, section, extraction.DOC_HEADER)
        log("wrote %s" % os.path.relpath(args.docs, args.root))
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The `quark` binary on hostile input (ctest: quark_cli_test).

    python3 tests/quark_cli_test.py BUILD/quark/quark [unittest options]

Runs the real binary on inputs generated in a temporary folder -- binary data,
an empty file, a 50 MB page, 100,000 nested elements, invalid UTF-8 -- and on
usage mistakes, each run with a timeout and an address-space cap, and checks
the exit status, the message on standard error, the output, and the run time
and peak RSS. The promise under test (README "The `quark` command"): a clear
error (exit 1; usage errors exit 2) or a sensible result within bounded time
and memory, never a crash.
"""

import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest

QUARK = None  # path of the binary, from the command line
SANITIZED = False  # an ASan build: no address-space cap, looser time bounds

KB = 1024
MB = 1024 * 1024
GB = 1024 * MB

# Address-space cap of every run. Far above what any case needs; it turns a
# runaway allocation into a failed run instead of a swapping machine.
MEMORY_CAP = 4 * GB

ARTICLE_TEXT = (
    "Quantum entanglement is a physical phenomenon that occurs when a group of "
    "particles is generated, interacts, or shares spatial proximity in a way "
    "such that the quantum state of each particle cannot be described "
    "independently of the state of the others, even when the particles are "
    "separated by a large distance. Measurements of spin, momentum and "
    "polarization on entangled particles can be perfectly correlated.")

ZH_TEXT = ("量子纠缠是一种物理现象，当一组粒子以某种方式产生、相互作用或共享空间邻近性时，"
           "每个粒子的量子态都无法独立于其他粒子的状态来描述，即使这些粒子相隔很远的距离。"
           "这是经典物理与量子物理之间差异的核心。")

BLOCK_TYPES = {"CONTENT", "RELATED_LINKS", "NAVIGATION", "NOISE"}


class Run:
    """One finished run of the binary."""

    def __init__(self, args, returncode, stdout, stderr, seconds, peak_rss):
        self.args = args
        self.returncode = returncode
        self.stdout = stdout  # bytes
        self.stderr = stderr.decode("utf-8", "replace")
        self.seconds = seconds
        self.peak_rss = peak_rss  # bytes

    def __str__(self):
        return ("quark %s: exit %s after %.1f s, peak RSS %.0f MB\nstderr: %s"
                % (" ".join(self.args), self.returncode, self.seconds,
                   self.peak_rss / MB, self.stderr[-2000:]))


def _limit_memory():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_quark(args, stdin_path=None, timeout=30):
    """Runs quark with `args`; returns a Run, or fails on timeout.

    The child is reaped with os.wait4, which gives the rusage of that one
    process, so peak RSS is the run's own (RUSAGE_CHILDREN would report the
    largest of all children so far).
    """
    if SANITIZED:
        timeout *= 4
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            start = time.monotonic()
            proc = subprocess.Popen([QUARK] + list(args), stdin=stdin,
                                    stdout=out, stderr=err,
                                    preexec_fn=_limit_memory)
            deadline = start + timeout
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid == proc.pid:
                    break
                if time.monotonic() > deadline:
                    proc.kill()
                    os.wait4(proc.pid, 0)
                    proc.returncode = -signal.SIGKILL
                    raise AssertionError(
                        "quark %s: no result after %d s (killed)"
                        % (" ".join(args), timeout))
                time.sleep(0.01)
            seconds = time.monotonic() - start
            # Tell Popen the child is reaped so it does not wait for it again.
            proc.returncode = os.waitstatus_to_exitcode(status)
        finally:
            if stdin_path:
                stdin.close()
        out.seek(0)
        err.seek(0)
        return Run(args, proc.returncode, out.read(), err.read(), seconds,
                   usage.ru_maxrss * KB)


class QuarkCliTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="quark_cli_test.")
        cls.tmp = cls._tmp.name

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        p = self.path(name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    def assertExit(self, run, code):
        self.assertGreaterEqual(
            run.returncode, 0, "killed by signal %d: %s" % (-run.returncode, run))
        self.assertEqual(run.returncode, code, str(run))

    # Time is the feature here: each of these pages was quadratic once, and
    # `seconds` is kept at least six times what a linear run measures here
    # (x4 more under ASan), so load alone does not fail it while a quadratic
    # regression (minutes) still does.
    def assertBounded(self, run, seconds, rss):
        self.assertLess(run.seconds, seconds * (4 if SANITIZED else 1), str(run))
        if not SANITIZED:  # ASan's shadow memory counts in RSS
            self.assertLess(run.peak_rss, rss, str(run))

    def segment_json(self, run):
        """Parses `segment` output and checks its shape; returns the dict."""
        self.assertExit(run, 0)
        text = run.stdout.decode("utf-8")  # strict: must be valid UTF-8
        page = json.loads(text)
        for key in ("url", "charset", "title", "text_length", "blocks",
                    "links", "warnings"):
            self.assertIn(key, page)
        total = 0
        for i, block in enumerate(page["blocks"]):
            for key in ("type", "text", "text_length", "start", "links",
                        "index", "tag", "content_probability"):
                self.assertIn(key, block, "block %d" % i)
            self.assertEqual(block["index"], i)
            self.assertIn(block["type"], BLOCK_TYPES)
            self.assertIsInstance(block["text"], str)
            self.assertEqual(block["text_length"], len(block["text"]),
                             "block %d: text_length is in code points" % i)
            self.assertGreaterEqual(block["start"], 0)
            self.assertGreaterEqual(block["content_probability"], 0)
            self.assertLessEqual(block["content_probability"], 1)
            for link in block["links"]:
                self.assertLess(link, len(page["links"]))
                self.assertEqual(page["links"][link]["block"], i)
            total += block["text_length"]
        self.assertEqual(page["text_length"], total)
        for i, link in enumerate(page["links"]):
            for key in ("url", "anchor_text", "kind", "block"):
                self.assertIn(key, link, "link %d" % i)
            self.assertIsInstance(link["url"], str)
            self.assertIsInstance(link["anchor_text"], str)
            if link["block"] >= 0:
                self.assertIn(i, page["blocks"][link["block"]]["links"])
        return page

    def article(self):
        return self.write("article.html", (
            '<!DOCTYPE html><html><head><meta charset="utf-8">'
            "<title>Entanglement</title></head><body>"
            '<div id="nav"><a href="/">Home</a> <a href="/news/">News</a> '
            '<a href="/physics/">Physics</a> <a href="/about/">About</a></div>'
            '<div id="article"><h1>Quantum entanglement</h1><p>%s</p><p>%s</p>'
            "</div>"
            '<div id="related"><a href="../q/bell.html">Bell test experiments '
            'on quantum entanglement</a><br><a href="other/epr.html">The EPR '
            "paradox and quantum physics</a></div>"
            "<div>Copyright 2024. All rights reserved.</div></body></html>"
            % (ARTICLE_TEXT, ARTICLE_TEXT)))

    # --- binary data, empty input --------------------------------------

    def test_random_binary_data_is_refused(self):
        # Random (or compressed) bytes are ~11% control bytes and the detector
        # refuses above 2%: every seed must be refused, not a lucky one.
        rng = random.Random(20240601)
        p = self.write("random.bin", rng.randbytes(MB))
        run = run_quark(["segment", p])
        self.assertExit(run, 1)
        self.assertIn("binary", run.stderr)
        self.assertIn(p, run.stderr)
        self.assertEqual(run.stdout, b"")
        self.assertBounded(run, 10, 512 * MB)
        for seed in range(20):
            q = self.write("random%d.bin" % seed,
                           random.Random(seed).randbytes(64 * 1024))
            run = run_quark(["extract", q])
            self.assertExit(run, 1)
            self.assertIn("binary", run.stderr)

    def test_executable_is_refused(self):
        run = run_quark(["extract", QUARK])
        self.assertExit(run, 1)
        self.assertIn("binary", run.stderr)

    def test_empty_file_segment(self):
        p = self.write("empty.html", b"")
        page = self.segment_json(run_quark(["segment", p]))
        self.assertEqual(page["blocks"], [])
        self.assertEqual(page["links"], [])
        self.assertEqual(page["text_length"], 0)

    def test_empty_file_extract(self):
        p = self.write("empty.html", b"")
        run = run_quark(["extract", p])
        self.assertExit(run, 0)
        self.assertEqual(run.stdout.strip(), b"")
        self.assertEqual(run.stderr, "")

    def test_empty_stdin(self):
        p = self.write("empty.html", b"")
        page = self.segment_json(run_quark(["segment", "-"], stdin_path=p))
        self.assertEqual(page["blocks"], [])

    # --- size and depth ----------------------------------------------

    def big_page(self):
        """A 50 MB page of ordinary markup (written once per test run)."""
        p = self.path("big.html")
        if os.path.exists(p):
            return p
        post = ('<div class="post"><h2>Section {i}</h2><p>Quantum entanglement '
                'is a physical phenomenon that occurs when particles interact, '
                'number {i}. It is studied widely; experiments confirm it.</p>'
                '<ul><li><a href="/p/{i}.html">Post {i}</a></li><li><a '
                'href="/q/{i}.html">Other {i}</a></li></ul></div>\n')
        with open(p, "w") as f:
            f.write('<!DOCTYPE html><html><head><meta charset="utf-8">'
                    "<title>Big</title></head><body>\n")
            i = 0
            while f.tell() < 50 * 1000 * 1000:
                f.write(post.format(i=i))
                i += 1
            f.write("</body></html>\n")
        return p

    def test_50mb_page_over_default_limit(self):
        p = self.big_page()
        run = run_quark(["segment", p])
        self.assertExit(run, 1)
        self.assertIn("33554432", run.stderr)  # the limit, named
        self.assertIn("--max_bytes", run.stderr)  # and how to raise it
        self.assertEqual(run.stdout, b"")
        # Refused after reading just past the limit, not after parsing.
        self.assertBounded(run, 10, 512 * MB)

    def test_50mb_page_with_higher_limit(self):
        p = self.big_page()
        run = run_quark(["segment", "--max_bytes", "60000000", p], timeout=120)
        page = self.segment_json(run)
        self.assertGreater(len(page["blocks"]), 1000)
        self.assertEqual(page["title"], "Big")
        # The default node and link limits were hit, and said so.
        self.assertTrue(any("nodes" in w for w in page["warnings"]),
                        page["warnings"])
        self.assertTrue(any("links" in w for w in page["warnings"]),
                        page["warnings"])
        # Measured here (RelWithDebInfo): about 10 s and 1.4 GB.
        self.assertBounded(run, 60, 3 * GB)

    def test_100000_nested_elements(self):
        p = self.write("deep.html",
                       "<html><head><title>Deep</title></head><body>"
                       + "<div>" * 100000 + "<p>" + ARTICLE_TEXT + "</p>"
                       + "</div>" * 100000 + "</body></html>")
        # gumbo alone takes about a minute on this page: its tree
        # construction scans the stack of open elements for every tag, which
        # is quadratic in the depth. html.cc's linear nesting pre-scan flattens
        # the page to max_depth first; measured here: 0.02 s, 11 MB.
        run = run_quark(["extract", p], timeout=60)
        self.assertExit(run, 0)
        self.assertIn(ARTICLE_TEXT, run.stdout.decode("utf-8"))
        self.assertBounded(run, 10, 512 * MB)
        page = self.segment_json(run_quark(["segment", p]))
        self.assertTrue(any("nested deeper" in w for w in page["warnings"]),
                        page["warnings"])

    # Two more shapes of hostile page that were quadratic once: nested
    # lists (the nesting pre-scan must not let an inner <li> close an outer
    # one) and a huge link block (topic-group title search).

    def test_100000_nested_list_items(self):
        # <ul><li> x 50,000: 100,000 nested elements. gumbo's tree
        # construction is quadratic in depth (10,000 levels take 2.4 s in
        # gumbo alone), so the pre-scan has to flatten these.
        p = self.write("deep-lists.html",
                       "<html><body>" + "<ul><li>" * 50000 + ARTICLE_TEXT
                       + "</body></html>")
        run = run_quark(["extract", p], timeout=20)
        self.assertExit(run, 0)
        self.assertBounded(run, 10, 512 * MB)

    def test_100000_links_in_one_block(self):
        # A 4 MB link list (think sitemap): the group-title search once
        # walked the whole line for every text, 40,000 links took 9-17 s.
        p = self.write("link-list.html",
                       "<html><body><div>" + "".join(
                           '<a href="/p%d.html">Post %d</a> ' % (i, i)
                           for i in range(100000)) + "</div></body></html>")
        run = run_quark(["segment", p], timeout=20)
        self.segment_json(run)
        self.assertBounded(run, 10, 1 * GB)

    # --- encodings -----------------------------------------------------

    def test_invalid_utf8_gives_valid_utf8(self):
        body = (b"<html><head>%s<title>Bad \xff\xfe bytes</title></head><body>"
                b"<p>Valid caf\xc3\xa9, lone continuation \x80\x81, overlong "
                b"\xc0\xaf, surrogate \xed\xa0\x80, truncated \xe4\xb8 and "
                b"invalid \xf8\x88\x80\x80\x80 sequences, in a paragraph long "
                b"enough to be a block of content text; more text follows.</p>"
                b'<a href="/x\xff\xfey" title="t\xc3">link \xc3</a></body>'
                b"</html>\xe4")
        for name, meta in (("declared", b'<meta charset="utf-8">'),
                           ("detected", b"")):
            with self.subTest(name):
                p = self.write("invalid-%s.html" % name, body % meta)
                page = self.segment_json(
                    run_quark(["segment", "--url", "http://example.com/", p]))
                self.assertTrue(page["blocks"])
                if name == "declared":
                    self.assertIn("caf\u00e9", json.dumps(page,
                                                          ensure_ascii=False))
                    self.assertIn("\ufffd", page["title"])
                for link in page["links"]:
                    self.assertTrue(link["url"].isascii(), link["url"])
                run = run_quark(["extract", p])
                self.assertExit(run, 0)
                run.stdout.decode("utf-8")  # raises on invalid UTF-8
                out = self.path("invalid-%s.view.html" % name)
                run = run_quark(["view", p, "--output", out])
                self.assertExit(run, 0)
                with open(out, "rb") as f:
                    f.read().decode("utf-8")

    def gbk_page(self):
        # Declares UTF-8 but is GBK: only --charset gets it right.
        return self.write("gbk.html", (
            '<html><head><meta charset="utf-8"><title>量子纠缠</title></head>'
            "<body><div><p>" + ZH_TEXT + "</p></div></body></html>"
        ).encode("gbk"))

    def test_charset_override_gbk(self):
        p = self.gbk_page()
        run = run_quark(["extract", "--charset", "gbk", p])
        self.assertExit(run, 0)
        self.assertIn(ZH_TEXT, run.stdout.decode("utf-8"))
        page = self.segment_json(run_quark(["segment", "--charset=gbk", p]))
        self.assertEqual(page["charset_source"], "override")
        self.assertEqual(page["title"], "量子纠缠")

    def test_charset_bogus(self):
        run = run_quark(["segment", "--charset", "bogus", self.article()])
        self.assertExit(run, 1)
        self.assertIn("bogus", run.stderr)
        self.assertEqual(run.stdout, b"")

    # --- input and options ---------------------------------------------

    def test_stdin(self):
        p = self.article()
        from_file = run_quark(["segment", "--url", "http://example.com/a/", p])
        from_stdin = run_quark(["segment", "--url", "http://example.com/a/",
                                "-"], stdin_path=p)
        self.segment_json(from_stdin)
        self.assertEqual(from_stdin.stdout, from_file.stdout)
        run = run_quark(["extract", "-"], stdin_path=p)
        self.assertExit(run, 0)
        self.assertIn(ARTICLE_TEXT, run.stdout.decode("utf-8"))

    def test_segment_json(self):
        page = self.segment_json(run_quark(["segment", self.article()]))
        self.assertEqual(page["title"], "Entanglement")
        types = {b["type"] for b in page["blocks"]}
        self.assertIn("CONTENT", types)
        content = " ".join(b["text"] for b in page["blocks"]
                           if b["type"] == "CONTENT")
        self.assertIn(ARTICLE_TEXT, content)
        self.assertEqual(len(page["links"]), 6)
        self.assertIn("Bell test experiments on quantum entanglement",
                      [l["anchor_text"] for l in page["links"]])

    def test_url_resolves_links(self):
        p = self.article()
        page = self.segment_json(run_quark(
            ["segment", "--url", "http://Example.com:80/a/b/c.html", p]))
        self.assertEqual(page["url"], "http://example.com/a/b/c.html")
        urls = [l["url"] for l in page["links"]]
        self.assertIn("http://example.com/", urls)
        self.assertIn("http://example.com/news/", urls)
        self.assertIn("http://example.com/a/q/bell.html", urls)
        self.assertIn("http://example.com/a/b/other/epr.html", urls)
        for u in urls:
            self.assertTrue(u.startswith("http://example.com/"), u)
        # Without --url the references stay as written.
        page = self.segment_json(run_quark(["segment", p]))
        self.assertIn("../q/bell.html", [l["url"] for l in page["links"]])

    def test_extract_out_dir_goes_on_after_a_failure(self):
        p = self.article()
        out_dir = self.path("out")
        os.makedirs(out_dir, exist_ok=True)
        missing = self.path("missing.html")
        run = run_quark(["extract", "--out_dir", out_dir, missing, p])
        self.assertExit(run, 1)
        self.assertIn(missing, run.stderr)
        with open(os.path.join(out_dir, "article.txt"), encoding="utf-8") as f:
            self.assertIn(ARTICLE_TEXT, f.read())

    def test_extract_markdown(self):
        p = self.article()
        run = run_quark(["extract", "--format", "markdown", p])
        self.assertExit(run, 0)
        md = run.stdout.decode("utf-8")
        self.assertIn(ARTICLE_TEXT, md)
        text = run_quark(["extract", p]).stdout.decode("utf-8")
        self.assertEqual(text, run_quark(["extract", "--format=text", p])
                         .stdout.decode("utf-8"))
        # The same words, the <h1> marked a heading; paragraphs apart by a
        # blank line.
        self.assertTrue(md.startswith("# Quantum entanglement\n\n"), md)
        self.assertEqual(md.split()[1:], text.split())
        self.assertIn(ARTICLE_TEXT + "\n\n" + ARTICLE_TEXT, md)
        out_dir = self.path("md-out")
        os.makedirs(out_dir, exist_ok=True)
        run = run_quark(["extract", "--format", "markdown", "--out_dir",
                         out_dir, p])
        self.assertExit(run, 0)
        self.assertEqual(os.listdir(out_dir), ["article.md"])
        with open(os.path.join(out_dir, "article.md"), encoding="utf-8") as f:
            self.assertEqual(f.read(), md)

    def test_extract_markdown_of_deep_lists(self):
        p = self.write("deep-lists-md.html",
                       "<html><body>" + "<ul><li>" * 50000 + ARTICLE_TEXT
                       + "</body></html>")
        run = run_quark(["extract", "--format", "markdown", p], timeout=20)
        self.assertExit(run, 0)
        self.assertIn(ARTICLE_TEXT, run.stdout.decode("utf-8"))
        self.assertBounded(run, 10, 512 * MB)

    def test_extract_unknown_format(self):
        run = run_quark(["extract", "--format", "html", self.article()])
        self.assertExit(run, 2)
        self.assertIn("--format must be text or markdown, not 'html'",
                      run.stderr)
        self.assertEqual(run.stdout, b"")

    def test_view(self):
        p = self.write("scripted.html", (
            "<html><head><title>Scripted</title><script>alert(1)</script>"
            "</head><body onload=\"steal()\"><div><p onclick=\"evil()\">%s</p>"
            '<a href="javascript:alert(2)">click</a><SCRIPT src="x.js">'
            "</SCRIPT></div></body></html>" % ARTICLE_TEXT))
        out = self.path("scripted.view.html")
        run = run_quark(["view", p, "--output", out])
        self.assertExit(run, 0)
        self.assertEqual(run.stdout, b"")
        with open(out, encoding="utf-8") as f:
            view = f.read()
        self.assertIn("data-quark", view)
        self.assertIn(ARTICLE_TEXT, view)
        lower = view.lower()
        self.assertNotIn("<script", lower)
        self.assertNotIn("onclick", lower)
        self.assertNotIn("onload", lower)
        self.assertNotIn("javascript:", lower)

    def test_view_needs_output(self):
        run = run_quark(["view", self.article()])
        self.assertExit(run, 2)
        self.assertIn("--output", run.stderr)

    # --- usage and file errors ----------------------------------------

    def test_unknown_command(self):
        run = run_quark(["frobnicate", self.article()])
        self.assertExit(run, 2)
        self.assertIn("frobnicate", run.stderr)
        self.assertIn("usage:", run.stderr)

    def test_unknown_option(self):
        run = run_quark(["segment", "--frobnicate", self.article()])
        self.assertExit(run, 2)
        self.assertIn("--frobnicate", run.stderr)
        self.assertIn("usage:", run.stderr)

    def test_bad_usage(self):
        for args in ([], ["segment", "--url"], ["segment", "--max_bytes", "0",
                                                "x.html"],
                     ["segment", "--sim_threshold", "2", "x.html"]):
            with self.subTest(args=args):
                run = run_quark(args)
                self.assertExit(run, 2)
                self.assertIn("usage:", run.stderr)

    def test_help(self):
        for args in (["--help"], ["-h"], ["help"]):
            with self.subTest(args=args):
                run = run_quark(args)
                self.assertExit(run, 0)
                self.assertTrue(run.stdout.startswith(b"usage: quark"))
                for command in (b"segment", b"extract", b"view"):
                    self.assertIn(command, run.stdout)
        # A command's help lists its flags with their defaults.
        run = run_quark(["extract", "--help"])
        self.assertExit(run, 0)
        self.assertIn(b"--out_dir", run.stdout)
        self.assertIn(b"--format", run.stdout)
        self.assertIn(b"--sim_threshold (number, default 0.3)", run.stdout)

    def test_old_flag_spelling(self):
        # Flags are snake_case; the kebab-case spelling is refused, naming
        # the new one.
        run = run_quark(["segment", "--max-bytes", "10", self.article()])
        self.assertExit(run, 2)
        self.assertIn("--max_bytes", run.stderr)

    def test_flag_of_another_command(self):
        run = run_quark(["segment", "--out_dir", "x", self.article()])
        self.assertExit(run, 2)
        self.assertIn("--out_dir is not a flag of 'segment'", run.stderr)

    def test_missing_file(self):
        missing = self.path("no-such-page.html")
        for command in ("segment", "extract"):
            with self.subTest(command):
                run = run_quark([command, missing])
                self.assertExit(run, 1)
                self.assertIn(missing, run.stderr)
                self.assertEqual(run.stdout, b"")


def main():
    global QUARK, SANITIZED
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit("usage: quark_cli_test.py PATH/TO/quark [unittest options]")
    QUARK = os.path.abspath(sys.argv.pop(1))
    with open(QUARK, "rb") as f:
        SANITIZED = b"__asan_init" in f.read()
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()

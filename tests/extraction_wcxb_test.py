#!/usr/bin/python3
"""bench/extraction_wcxb.py: WCXB's word-level metric by hand, and the tune /
held-out split (deterministic, stratified by page type, sites kept whole)."""

import collections
import os
import random
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
import extraction_wcxb as wcxb  # noqa: E402


class MetricTest(unittest.TestCase):
    def prf(self, extracted, gold, expected):
        got = wcxb.word_prf(extracted, gold)
        for g, e, name in zip(got, expected, "PRF"):
            self.assertAlmostEqual(g, e, msg="%s of %r against %r" % (name, extracted, gold))

    def test_tokens(self):
        # Lower-cased runs of \w: punctuation splits, the apostrophe too; the
        # underscore is a word character; a run of Chinese characters is one
        # token; accented letters are letters.
        self.assertEqual(wcxb.tokenize("Don't stop—now! e-mail 3.14"),
                         ["don", "t", "stop", "now", "e", "mail", "3", "14"])
        self.assertEqual(wcxb.tokenize("snake_case 中文测试 Éclair CAFÉ"),
                         ["snake_case", "中文测试", "éclair", "café"])
        self.assertEqual(wcxb.tokenize(""), [])
        self.assertEqual(wcxb.tokenize(" ...!? "), [])

    def test_multiset_overlap(self):
        # "the" 3 times extracted, twice in the gold: 2 of them count. Overlap
        # the 2 + cat 1 = 3 of 4 extracted and of 4 gold tokens.
        self.prf("the the the cat", "the cat the hat", (0.75, 0.75, 0.75))
        # 2 of 4 extracted tokens are gold, all 2 gold tokens found:
        # F1 = 2 * 0.5 * 1 / 1.5 = 2/3.
        self.prf("a b c d", "a b", (0.5, 1.0, 2 / 3))
        # Order does not count (a bag of words).
        self.prf("b a", "a b", (1.0, 1.0, 1.0))
        self.prf("x y", "a b", (0.0, 0.0, 0.0))

    def test_case_and_punctuation(self):
        self.prf("Hello, WORLD!", "hello world", (1.0, 1.0, 1.0))
        self.prf("don't", "Don T", (1.0, 1.0, 1.0))
        # snake_case is one token, "snake case" two: nothing in common.
        self.prf("snake_case", "snake case", (0.0, 0.0, 0.0))

    def test_unicode(self):
        # Python's \w covers Chinese characters: the run 中文测试 is one token,
        # so the same characters with a space between are other tokens.
        self.prf("中文测试 abc", "中文测试", (0.5, 1.0, 2 / 3))
        self.prf("中文 测试", "中文测试", (0.0, 0.0, 0.0))
        self.prf("ÉCLAIR café", "éclair Café", (1.0, 1.0, 1.0))

    def test_empty(self):
        # An empty extraction (or one with no tokens) of a non-empty gold: 0.
        self.prf("", "some gold", (0.0, 0.0, 0.0))
        self.prf(" — !! ", "some gold", (0.0, 0.0, 0.0))
        # An empty gold (a single-page app's shell): 1 for an empty
        # extraction, 0 for anything else (WCXB's evaluate.py).
        self.prf("", "", (1.0, 1.0, 1.0))
        self.prf("...", "", (1.0, 1.0, 1.0))
        self.prf("menu", "", (0.0, 0.0, 0.0))

    def test_mean_over_pages(self):
        # F1 is the mean of page F1s, not 2PR/(P+R) of the mean P and R.
        m = wcxb.mean_scores([wcxb.word_prf("a b c d", "a b"),  # 0.5, 1, 2/3
                              wcxb.word_prf("", "a")])  # 0, 0, 0
        self.assertEqual(m["pages"], 2)
        self.assertAlmostEqual(m["p"], 0.25)
        self.assertAlmostEqual(m["r"], 0.5)
        self.assertAlmostEqual(m["f1"], 1 / 3)
        self.assertEqual(wcxb.mean_scores([])["pages"], 0)


def synthetic_pages(seed=7):
    """About 1,400 pages of the seven types on sites of one to twelve pages,
    a few sites with pages of two types."""
    rng = random.Random(seed)
    pages = []
    n = 0
    for s in range(900):
        site = "site%d.example" % s
        size = 1 if rng.random() < 0.85 else rng.randint(2, 12)
        main = rng.choice(wcxb.TYPES)
        for _ in range(size):
            t = main if rng.random() < 0.9 else rng.choice(wcxb.TYPES)
            pages.append({"id": "%04d" % n, "type": t, "site": site})
            n += 1
    return pages


class SplitTest(unittest.TestCase):
    def test_site_of(self):
        self.assertEqual(wcxb.site_of("store.steampowered.com"), "steampowered.com")
        self.assertEqual(wcxb.site_of("www.bbc.co.uk"), "bbc.co.uk")
        self.assertEqual(wcxb.site_of("home.tarkett.co.uk"), "tarkett.co.uk")
        self.assertEqual(wcxb.site_of("Forums.FreeBSD.org"), "freebsd.org")
        self.assertEqual(wcxb.site_of("example.com:8080"), "example.com")
        self.assertEqual(wcxb.site_of("", "https://forum.qt.io/t/1", "0042"), "qt.io")
        self.assertEqual(wcxb.site_of("", "", "0042"), "id:0042")

    def test_hash_is_pinned(self):
        # The split depends on this salt and hash; changing either moves
        # pages between the parts (and the held-out part would be seen).
        self.assertEqual(wcxb.SPLIT_SALT, "fcrawl-wcxb-split-v1:")
        self.assertEqual(wcxb.site_hash("steampowered.com")[:16], "a4947f2928495900")

    def test_deterministic(self):
        pages = synthetic_pages()
        split = wcxb.split_pages(pages)
        self.assertEqual(split, wcxb.split_pages(synthetic_pages()))
        shuffled = list(pages)
        random.Random(1).shuffle(shuffled)
        self.assertEqual(split, wcxb.split_pages(shuffled))
        self.assertEqual(set(split.values()), {"tune", "held-out"})

    def test_sites_whole_and_stratified(self):
        pages = synthetic_pages()
        split = wcxb.split_pages(pages)
        parts = collections.defaultdict(set)
        for p in pages:
            parts[p["site"]].add(split[p["id"]])
        self.assertTrue(all(len(v) == 1 for v in parts.values()))
        held = sum(1 for v in split.values() if v == "held-out")
        self.assertAlmostEqual(held / len(pages), 0.3, delta=0.02)
        for t in wcxb.TYPES:
            of_type = [p for p in pages if p["type"] == t]
            share = sum(1 for p in of_type if split[p["id"]] == "held-out") / len(of_type)
            self.assertAlmostEqual(share, 0.3, delta=0.05, msg=t)

    def test_single_page_sites_exact(self):
        # One page per site: each type's held-out part is exactly
        # round-half-up(30 %) of it.
        pages = [{"id": "%d" % i, "type": wcxb.TYPES[i % 7], "site": "s%d.org" % i}
                 for i in range(7 * 25)]
        split = wcxb.split_pages(pages)
        for t in wcxb.TYPES:
            held = sum(1 for p in pages if p["type"] == t and split[p["id"]] == "held-out")
            self.assertEqual(held, 8)  # 30 % of 25 = 7.5 -> 8

    def test_real_split_when_data_is_there(self):
        # The split of the WCXB dev pages as docs/benchmarks.md gives it.
        wcxb_dir = os.path.join(HERE, "..", "bench", "out", "data", "wcxb-dev")
        if not os.path.exists(os.path.join(wcxb_dir, "metadata.json")):
            self.skipTest("bench/out/data/wcxb-dev not unpacked")
        pages = wcxb.load_pages(wcxb_dir)
        split = wcxb.split_pages(pages)
        counts = collections.Counter((split[p["id"]], p["type"]) for p in pages)
        self.assertEqual([counts[("held-out", t)] for t in wcxb.TYPES],
                         [235, 50, 36, 36, 34, 31, 27])
        self.assertEqual([counts[("tune", t)] for t in wcxb.TYPES],
                         [558, 115, 83, 81, 79, 68, 64])


if __name__ == "__main__":
    unittest.main()

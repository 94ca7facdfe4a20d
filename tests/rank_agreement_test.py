#!/usr/bin/python3
"""bench/rank_agreement.py: Kendall's tau-b and mean ranks by hand, and the
docs' tables read back."""

import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
import rank_agreement as ra  # noqa: E402


class KendallTest(unittest.TestCase):
    def test_hand_computed(self):
        a = {"x": 1, "y": 2, "z": 3}
        self.assertAlmostEqual(ra.kendall_tau_b(a, a), 1.0)
        self.assertAlmostEqual(ra.kendall_tau_b(a, {"x": 3, "y": 2, "z": 1}), -1.0)
        # (x,y) and (x,z) agree, (y,z) does not: (2 - 1) / 3.
        self.assertAlmostEqual(ra.kendall_tau_b(a, {"x": 1, "y": 3, "z": 2}), 1 / 3)
        # A tie on one side: (x,y) tied in the first, the other two agree:
        # 2 / sqrt((2 + 1) * (2 + 0)).
        self.assertAlmostEqual(ra.kendall_tau_b({"x": 1, "y": 1, "z": 2}, a),
                               2 / 6 ** 0.5)
        # Only common keys count; fewer than three give no answer.
        self.assertIsNone(ra.kendall_tau_b({"x": 1, "y": 2}, a))
        self.assertAlmostEqual(ra.kendall_tau_b(dict(a, w=9), a), 1.0)

    def test_mean_rank_shares_ties(self):
        r = ra.mean_rank([{"a": 10, "b": 5, "c": 5}, {"a": 1, "b": 3, "c": 2}])
        # a: ranks 1 and 3; b: 2.5 and 1; c: 2.5 and 2 (higher is better).
        self.assertEqual(r, {"a": -2.0, "b": -1.75, "c": -2.25})

    def test_reads_the_tables(self):
        doc = "\n".join([
            "### mdn web", "", "#### Topic: xul — dev (labels `x`, 9 on-topic pages)", "",
            "| strategy | pages | on-topic | harvest rate |", "|---|---:|---:|---:|",
            "| bfs | 1000 | 4 | 0.4% |", "| learned | 1000 | 40 | 4.0% |",
            "| fish | 1000 | 7 | 0.7% |", "", "## Analysis", "| bfs | 1000 | 99 | 9.9% |"])
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
            f.write(doc)
        try:
            self.assertEqual(ra.read_tables(f.name),
                             {("mdn", "xul"): {"bfs": 4, "learned": 40, "fish": 7}})
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main(verbosity=2)

#!/usr/bin/python3
"""Which headers may include what (docs/design.md "Components").

  layering_test.py --source SRC [unittest args]

- The rooms of the crawl loop (frontier, host scheduler, page committer,
  hand-over, ...) see the cluster through worker/cluster_hooks.h, never
  through worker/crawler.h, the class that assembles them: only the
  crawler's own implementation header and the cluster member that runs a
  crawler include it.
- The crawl config (proto/crawl_config.pb.h, formats/crawl_config.h) is
  included only by the headers listed in CONFIG_HEADERS: its reader,
  worker/crawl_setup.h (which turns it into each room's typed options:
  UrlScopeOf, ParseOptionsOf, SchedulerOptionsOf, ...), the crawler that is
  given a config. No room of the crawl loop
  reads the config, so a room's header states everything it depends on. A
  listed header that no longer includes the config is an error too, so the
  list says what is true.
"""

import argparse
import os
import re
import sys
import tempfile
import unittest

SOURCE_FOLDERS = ("core", "formats", "focus", "quark", "storage", "protocol",
                  "worker",
                  "coordinator", "crawlctl", "corpus", "ranker", "graphio",
                  "eval", "cluster", "fuzz")

# Headers that may include worker/crawler.h.
CRAWLER_USERS = {"worker/crawler_impl.h", "worker/member/cluster_node.h",
                 "worker/member/cluster_node_impl.h"}

# Headers that still include the crawl config (see the module comment).
CONFIG_HEADERS = {
    "formats/crawl_config.h",  # the config's own reader
    "worker/crawl_setup.h",    # turns the config into the rooms' parts
    "worker/crawler.h",        # the crawl loop, given a config
    "worker/crawler_impl.h",   # ... and its implementation
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CONFIG = {"proto/crawl_config.pb.h", "formats/crawl_config.h"}


def headers(source):
    """Relative paths of the source folders' headers."""
    out = []
    for folder in SOURCE_FOLDERS:
        root = os.path.join(source, folder)
        for dirpath, _, files in os.walk(root):
            for f in files:
                if f.endswith(".h"):
                    out.append(os.path.relpath(os.path.join(dirpath, f),
                                               source))
    return sorted(out)


def includes(source, header):
    with open(os.path.join(source, header), encoding="utf-8") as f:
        return set(INCLUDE.findall(f.read()))


def problems(source):
    """What breaks the rules above, one line each."""
    out = []
    found_config = set()
    for h in headers(source):
        inc = includes(source, h)
        if "worker/crawler.h" in inc and h not in CRAWLER_USERS:
            out.append(f"{h} includes worker/crawler.h (use "
                       "worker/cluster_hooks.h for the cluster's doors)")
        if inc & CONFIG:
            found_config.add(h)
            if h not in CONFIG_HEADERS:
                out.append(f"{h} includes the crawl config; give it typed "
                           "options from worker/crawl_setup.h instead")
    for h in sorted(CONFIG_HEADERS - found_config):
        out.append(f"{h} is listed in CONFIG_HEADERS but does not include "
                   "the crawl config: take it off the list")
    return out


class LayeringTest(unittest.TestCase):
    def test_the_tree_keeps_the_rules(self):
        self.assertEqual(problems(ARGS.source), [])

    def test_a_break_is_found(self):
        # A tree of two headers: a room that includes the crawler and the
        # config, and a listed config header that does not include it.
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "worker"))
            os.makedirs(os.path.join(d, "formats"))
            with open(os.path.join(d, "worker", "room.h"), "w") as f:
                f.write('#include "worker/crawler.h"\n'
                        '#include "proto/crawl_config.pb.h"\n')
            with open(os.path.join(d, "formats", "crawl_config.h"), "w") as f:
                f.write('#include "proto/crawl_config.pb.h"\n')
            got = problems(d)
            self.assertIn("worker/room.h includes worker/crawler.h (use "
                          "worker/cluster_hooks.h for the cluster's doors)",
                          got)
            self.assertIn("worker/room.h includes the crawl config; give it "
                          "typed options from worker/crawl_setup.h instead",
                          got)
            self.assertIn("worker/crawl_setup.h is listed in CONFIG_HEADERS "
                          "but does not include the crawl config: take it "
                          "off the list", got)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)

#!/usr/bin/python3
"""Crawl → export → rank, end to end: the real `worker` crawls the synthetic
test web (tests/testweb/) served by nginx on loopback, `worker
export-graph` writes its block-level graph as shards, and `ranker run`
ranks it with quarkrank and with plain pagerank.

  ranker_crawl_test.py WORKER RANKER --source SRC --work DIR

Checks (issue: "pages linked from content blocks of high-ranked pages rank
above pages linked only from noise blocks"):
  - every fetched, parsed page is in the export, links keep their blocks;
  - under quarkrank, the pages that the top 10% pages link to from a content
    block rank above the pages linked to only from noise blocks (median rank
    position), and QuarkRank pushes the noise-only pages down relative to
    plain PageRank (their median rank position is worse under quarkrank);
  - `ranker round` with a checkpoint advances one round at a time and a run
    resumed from it gives the same scores as the uninterrupted run.
The shards are read with tests/graph_shards.py (a small protobuf
wire-format decoder for the few fields of proto/graph.proto the checks need).
"""

import argparse
import csv
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graph_shards import linked_from_templates, read_shard  # noqa: E402

ARGS = None
def run(cmd, timeout=600):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise AssertionError('%s exited %d:\n%s' % (' '.join(cmd), r.returncode, r.stderr[-3000:]))
    return r


def read_ranking(path):
    with open(path, encoding='utf-8') as f:
        rows = list(csv.reader(f, delimiter='\t'))
    header, rows = rows[0], rows[1:]
    col = {name: k for k, name in enumerate(header)}
    return {r[col['url']]: {'rank': int(r[col['rank']]), 'score': float(r[col['score']]),
                            'fetched': r[col['fetched']] == '1'} for r in rows}


class RankerCrawlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ARGS.source, 'tests', 'testweb'))
        import testweb  # noqa: E402
        cls.dir = os.path.join(ARGS.work, 'web')
        testweb.generate('synthetic', cls.dir, pages=600, hosts=12, seed=5, calendar_months=0)
        cls.web = testweb.TestWeb(cls.dir)
        cls.web.start()
        try:
            sites = cls.web.sites()
            out = os.path.join(ARGS.work, 'crawl')
            shutil.rmtree(out, ignore_errors=True)
            cls.config = out + '.textproto'
            lines = ['seeds: "http://%s/"' % h for h in sorted(sites) if h != 'ads.test']
            # BFS, so the graph is the whole web whatever the topic; the
            # keywords give every page its relevance (topic-quarkrank).
            lines += ['strategy { name: "bfs" }', 'budget { max_pages: 5000 }',
                      'topic { keywords: "telescope" keywords: "planet" keywords: "star" '
                      'keywords: "galaxy" keywords: "orbit" keywords: "astronomy" }',
                      'politeness { per_host_delay_ms: 0 max_crawl_delay_ms: 0 }',
                      'output_dir: "%s"' % out, 'allow_private_addresses: true']
            lines += ['resolve { host_port: "%s" address: "127.0.0.1:%d" }' % (h, cls.web.port)
                      for h in list(sites) + ['click.adnet-nowhere.test', 'pixel.tracker.invalid']]
            with open(cls.config, 'w') as f:
                f.write('\n'.join(lines) + '\n')
            r = run([ARGS.worker, 'crawl', '--quiet', '--config', cls.config])
            cls.summary = json.loads(r.stdout.strip().splitlines()[-1])
        finally:
            cls.web.stop()
        cls.graph = os.path.join(ARGS.work, 'graph')
        r = run([ARGS.worker, 'export-graph', '--config', cls.config, '--out', cls.graph,
                 '--shard_pages', '150'])
        cls.export = json.loads(r.stdout)
        cls.pages = []
        for name in sorted(os.listdir(cls.graph)):
            if name.endswith('.fcg'):
                cls.pages += read_shard(os.path.join(cls.graph, name))
        cls.rankings = {}
        for algo in ('quarkrank', 'pagerank', 'topic-quarkrank'):
            path = os.path.join(ARGS.work, algo + '.tsv')
            run([ARGS.ranker, 'run', '--algorithm', algo, '--fresh', '--out', path, cls.graph])
            cls.rankings[algo] = read_ranking(path)
        # QuarkRank as the paper gives it: links in blocks the site repeats
        # on most pages (site templates, dropped by default) weigh what
        # their block type weighs.
        path = os.path.join(ARGS.work, 'quarkrank-paper.tsv')
        run([ARGS.ranker, 'run', '--algorithm', 'quarkrank', '--template_weight', '0.5',
             '--fresh', '--out', path, cls.graph])
        cls.rankings['quarkrank-paper'] = read_ranking(path)

    def test_export_has_every_parsed_page(self):
        self.assertGreater(self.summary['pages_fetched'], 400)
        self.assertEqual(self.export['pages'], len(self.pages))
        self.assertGreaterEqual(self.export['shards'], 3)
        with open(os.path.join(ARGS.work, 'crawl', 'pages.jsonl'), encoding='utf-8') as f:
            parsed = {json.loads(line)['url'] for line in f if line.strip()}
        exported = {p['url'] for p in self.pages}
        self.assertGreater(len(exported), 0.9 * len(parsed))
        for p in self.pages:
            for target, block in p['links']:
                self.assertTrue(-1 <= block < len(p['blocks']), (p['url'], block))

    def test_content_links_of_top_pages_rank_above_noise_only_pages(self):
        q = self.rankings['quarkrank']
        n = len(q)
        top = {u for u, r in q.items() if r['rank'] <= max(1, n // 10)}
        from_content_of_top = set()
        in_types = {}
        for p in self.pages:
            for target, block in p['links']:
                t = p['blocks'][block] if block >= 0 else 'UNSPECIFIED'
                in_types.setdefault(target, set()).add(t)
                if p['url'] in top and t == 'CONTENT':
                    from_content_of_top.add(target)
        noise_only = {u for u, ts in in_types.items() if ts == {'NOISE'}}
        a = [q[u]['rank'] for u in from_content_of_top if u in q and u not in top]
        b = [q[u]['rank'] for u in noise_only if u in q]
        self.assertGreater(len(a), 10, 'too few content links from top pages')
        self.assertGreater(len(b), 10, 'too few noise-only pages')
        self.assertLess(statistics.median(a), statistics.median(b),
                        'content-linked pages of top pages (median rank %d) should rank above '
                        'noise-only pages (median rank %d)' % (statistics.median(a), statistics.median(b)))
        # QuarkRank weighs noise blocks 0.5 against content 1.5: the
        # noise-only pages sit lower than under plain PageRank. (Checked on
        # the paper's QuarkRank: dropping the site-template links, the
        # default, moves their share to the page's other links, noise ones
        # included.)
        p = self.rankings['pagerank']
        qp = self.rankings['quarkrank-paper']
        self.assertGreater(statistics.median(qp[u]['rank'] for u in noise_only if u in qp),
                           statistics.median(p[u]['rank'] for u in noise_only if u in p))

    def test_pages_linked_from_every_pages_template_lose_their_rank(self):
        # ads.test is linked from a noise block every page of every site
        # repeats: the crawl flags those blocks as site templates and the
        # default QuarkRank drops their links, so the advert falls far below
        # where the paper's QuarkRank puts it.
        q = self.rankings['quarkrank']
        qp = self.rankings['quarkrank-paper']
        index = 'http://ads.test/index.html'
        self.assertIn(index, q)
        self.assertIn(index, qp)
        # Measured: rank 1 with the paper's weights, 161 with the default.
        self.assertGreaterEqual(q[index]['rank'], 10 * qp[index]['rank'],
                                (q[index]['rank'], qp[index]['rank']))
        flagged = sum(p.get('template_blocks', 0) for p in self.pages)
        self.assertGreater(flagged, 0, 'no block flagged as site template')

    def test_topic_quarkrank_puts_the_topics_pages_first(self):
        # The surfer follows links to, and jumps to, pages about the topic:
        # its best pages are the topic's, where QuarkRank's are the sites'
        # hubs whatever they are about.
        # The labels list the web's articles, not its home and section
        # index pages: precision is over the labelled pages among the best
        # k, and at least half of them must be labelled.
        labels = self.web.labels()
        def best(ranking, k):
            return sorted(ranking, key=lambda u: ranking[u]['rank'])[:k]
        def on_topic(urls):
            return sum(1 for u in urls
                       if any('astronomy' in c.lower() for c in labels.get(u, ())))
        t, q = self.rankings['topic-quarkrank'], self.rankings['quarkrank']
        labelled = [u for u in best(t, 10) if u in labels]
        self.assertGreaterEqual(len(labelled), 5, best(t, 10))
        self.assertGreaterEqual(on_topic(labelled), 0.9 * len(labelled), best(t, 10))
        # Among the best 100, on-topic articles: measured 60 against 0.
        self.assertGreater(on_topic(best(t, 100)), on_topic(best(q, 100)) + 20,
                           (on_topic(best(t, 100)), on_topic(best(q, 100))))
        # The advert every page's template links is nowhere near the top,
        # and no page linked (90% or more) from template blocks is in the
        # best 10.
        self.assertGreater(t['http://ads.test/index.html']['rank'], 100)
        template_linked = linked_from_templates(self.pages)
        self.assertIn('http://star-news0.test/contact.html', template_linked)
        self.assertEqual(set(best(t, 10)) & template_linked, set())

    def test_rounds_as_batch_jobs_resume_to_the_same_scores(self):
        ck = os.path.join(ARGS.work, 'checkpoint')
        shutil.rmtree(ck, ignore_errors=True)
        rounds = []
        for _ in range(3):
            r = run([ARGS.ranker, 'round', '--algorithm', 'quarkrank', '--checkpoint_dir', ck,
                     self.graph])
            rounds.append(json.loads(r.stdout.strip().splitlines()[-1]))
        self.assertEqual([x['round'] for x in rounds], [1, 2, 3], rounds)
        path = os.path.join(ARGS.work, 'resumed.tsv')
        run([ARGS.ranker, 'run', '--algorithm', 'quarkrank', '--checkpoint_dir', ck,
             '--out', path, self.graph])
        resumed = read_ranking(path)
        fresh = self.rankings['quarkrank']
        self.assertEqual(set(resumed), set(fresh))
        for u in fresh:
            self.assertAlmostEqual(resumed[u]['score'], fresh[u]['score'], delta=1e-9)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('worker')
    ap.add_argument('ranker')
    ap.add_argument('--source', required=True)
    ap.add_argument('--work', required=True)
    ARGS, rest = ap.parse_known_args()
    ARGS.worker = os.path.abspath(ARGS.worker)
    ARGS.ranker = os.path.abspath(ARGS.ranker)
    os.makedirs(ARGS.work, exist_ok=True)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""What a crawl leaves behind, end to end: the real `worker` crawls the
synthetic test web (tests/testweb/, nginx on loopback) with a topic, then

  - every pages.jsonl line is a corpus record (proto/corpus.proto) with its
    block summary, metadata and media;
  - the media resources found match the web's media labels (media.tsv:
    every video, audio and animation each page carries): precision and
    recall over the crawled pages, and their context (anchor, title, block);
  - `worker corpus` merges (the same crawl given twice keeps one record per
    URL), filters (--on_topic, --media_only), joins a ranking (`ranker run`
    over `worker export-graph`) and exports JSON lines, CSV and an
    OpenSearch bulk file of the right shape;
  - `worker index` + `worker search` answer a topic query with on-topic
    pages first (precision at 10 against the labels, BM25 alone and with
    the block-level rank), snippets from the main text;
  - the coordinator serves the same index: /search.json and the /status
    page's search box.

  corpus_crawl_test.py WORKER RANKER COORDINATOR --source SRC --work DIR
"""

import argparse
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import unittest
import urllib.error
import urllib.request

from testlib import read_jsonl

ARGS = None
TOPIC = ['telescope', 'planet', 'star', 'galaxy', 'orbit', 'astronomy']


def run(cmd, timeout=600, check=True):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError('%s exited %d:\n%s' % (' '.join(cmd), r.returncode, r.stderr[-3000:]))
    return r


class CorpusCrawlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ARGS.source, 'tests', 'testweb'))
        import testweb  # noqa: E402
        cls.dir = os.path.join(ARGS.work, 'web')
        testweb.generate('synthetic', cls.dir, pages=600, hosts=12, seed=7, calendar_months=0)
        web = testweb.TestWeb(cls.dir)
        web.start()
        try:
            sites = web.sites()
            cls.labels = web.labels()
            cls.out = os.path.join(ARGS.work, 'crawl')
            shutil.rmtree(cls.out, ignore_errors=True)
            config = cls.out + '.textproto'
            lines = ['seeds: "http://%s/"' % h for h in sorted(sites) if h != 'ads.test']
            # corpus { markdown: true }: the records carry main_markdown too,
            # and the index made while crawling must still search the text.
            lines += ['budget { max_pages: 700 }', 'search { index: true }',
                      'corpus { markdown: true }',
                      'topic { %s }' % ' '.join('keywords: "%s"' % k for k in TOPIC),
                      'politeness { per_host_delay_ms: 0 max_crawl_delay_ms: 0 }',
                      'output_dir: "%s"' % cls.out, 'allow_private_addresses: true']
            lines += ['resolve { host_port: "%s" address: "127.0.0.1:%d" }' % (h, web.port)
                      for h in sites]
            with open(config, 'w') as f:
                f.write('\n'.join(lines) + '\n')
            r = run([ARGS.worker, 'crawl', '--quiet', '--config', config])
            cls.summary = json.loads(r.stdout.strip().splitlines()[-1])
        finally:
            web.stop()
        cls.records = read_jsonl(os.path.join(cls.out, 'pages.jsonl'))
        cls.urls = {r['url'] for r in cls.records}
        cls.media_labels = set()
        with open(os.path.join(cls.dir, 'media.tsv'), encoding='utf-8') as f:
            for line in f:
                page, media, kind = line.rstrip('\n').split('\t')
                cls.media_labels.add((page, media, kind))
        graph = os.path.join(ARGS.work, 'graph')
        shutil.rmtree(graph, ignore_errors=True)
        run([ARGS.worker, 'export-graph', '--config', config, '--out', graph])
        cls.ranking = os.path.join(ARGS.work, 'ranking.tsv')
        run([ARGS.ranker, 'run', '--algorithm', 'topic-quarkrank', '--fresh', '--quiet',
             '--out', cls.ranking, graph])
        cls.index = os.path.join(ARGS.work, 'index')
        shutil.rmtree(cls.index, ignore_errors=True)
        cls.index_summary = json.loads(run([ARGS.worker, 'index', cls.out, '--ranks',
                                            cls.ranking, '--index', cls.index]).stdout)

    def on_topic_label(self, url):
        return any('astronomy' in c for c in self.labels.get(url, []))

    def test_records_have_the_corpus_fields(self):
        self.assertGreater(len(self.records), 300)
        keys = {'url', 'fetched_url', 'canonical_url', 'fetched_at', 'language', 'title',
                'byline', 'date', 'main_text', 'relevance', 'topic_score', 'on_topic',
                'topic_model', 'duplicate_of', 'blocks', 'media', 'anchor', 'rank', 'rank_score',
                'page_type', 'main_markdown', 'gone'}
        for r in self.records:
            self.assertEqual(set(r), keys, r['url'])
            # The Markdown says the main text's words (numbers aside: an
            # ordered list's markers are numbers).
            self.assertEqual(re.findall(r'[^\W\d_]+', r['main_markdown']),
                             re.findall(r'[^\W\d_]+', r['main_text']), r['url'])
            self.assertIn(r['on_topic'], (True, False))
            self.assertIn(r['page_type'], ('article', 'forum', 'product', 'collection', 'listing',
                                           'documentation', 'service', 'other'))
            self.assertIsNone(r['rank'])
            if r['blocks']:
                self.assertAlmostEqual(sum(b['share'] for b in r['blocks']), 1.0, places=6)
                for b in r['blocks']:
                    self.assertIn(b['type'], ('CONTENT', 'RELATED_LINKS', 'NAVIGATION', 'NOISE'))
        # The anchor the crawl found a page by: every page but the seeds.
        with_anchor = [r for r in self.records if r['anchor']]
        self.assertGreater(len(with_anchor), len(self.records) // 2)

    def test_media_against_the_labels(self):
        found = {(r['url'], m['url'], m['kind'].lower()) for r in self.records for m in r['media']}
        truth = {t for t in self.media_labels if t[0] in self.urls}
        self.assertGreater(len(truth), 30, 'the crawl met too few media pages to measure')
        tp = len(found & truth)
        precision, recall = tp / max(1, len(found)), tp / len(truth)
        print('media resources: %d labelled on %d crawled pages, %d found, precision %.3f, '
              'recall %.3f' % (len(truth), len({t[0] for t in truth}), len(found),
                               precision, recall))
        self.assertGreaterEqual(precision, 0.95, sorted(found - truth)[:5])
        self.assertGreaterEqual(recall, 0.95, sorted(truth - found)[:5])
        # Context: the audio's anchor, the animation's <embed> tag, the video's
        # enclosing block.
        by_url = {m['url']: m for r in self.records for m in r['media']}
        audio = [m for m in by_url.values() if m['kind'] == 'AUDIO']
        self.assertTrue(audio)
        self.assertTrue(all(m['anchor'] for m in audio), audio[:2])
        self.assertTrue(any(m['tag'] == 'EMBED' for m in by_url.values() if m['kind'] == 'ANIMATION'))
        self.assertTrue(all(m['block'] >= 0 and m['block_type'] for m in by_url.values()))

    def corpus(self, *args):
        out = os.path.join(ARGS.work, 'export')
        r = run([ARGS.worker, 'corpus', '--out', out] + list(args))
        with open(out, encoding='utf-8', newline='') as f:
            return json.loads(r.stdout), f.read()

    def test_merge_filter_and_rank_join(self):
        # The same crawl given twice (as two workers' folders would be):
        # one record per URL, the later line of each kept.
        stats, text = self.corpus(self.out, os.path.join(self.out, 'pages.jsonl'))
        self.assertEqual(stats['written'], len(self.urls))
        self.assertEqual(stats['superseded'], len(self.records) + len(self.records) - len(self.urls))
        self.assertEqual(stats['bad_lines'], 0)
        on = {r['url'] for r in self.records if r['on_topic']}
        stats, text = self.corpus(self.out, '--on_topic', '--ranks', self.ranking)
        rows = [json.loads(l) for l in text.splitlines()]
        self.assertEqual({r['url'] for r in rows}, on)
        self.assertGreater(stats['ranked'], len(on) * 0.9)
        ranked = [r for r in rows if r['rank'] is not None]
        self.assertTrue(all(r['rank'] >= 1 and r['rank_score'] > 0 for r in ranked))
        stats, text = self.corpus(self.out, '--media_only')
        rows = [json.loads(l) for l in text.splitlines()]
        self.assertTrue(rows)
        self.assertTrue(all(r['media'] for r in rows))
        stats, _ = self.corpus(self.out, '--min_score', '2')
        self.assertEqual(stats['written'], 0)

    def test_csv_and_bulk_shapes(self):
        _, text = self.corpus(self.out, '--format', 'csv')
        rows = list(csv.reader(io.StringIO(text)))
        self.assertEqual(rows[0][:3], ['url', 'title', 'language'])
        self.assertEqual(len(rows) - 1, len(self.urls))
        self.assertTrue(all(len(r) == len(rows[0]) for r in rows))
        self.assertEqual(rows[0][-3:], ['main_text', 'main_markdown', 'gone'])
        self.assertTrue(any(r[-2] for r in rows[1:]))  # Markdown was asked for
        self.assertFalse(any(r[-1] for r in rows[1:]))  # no tombstone exported
        _, text = self.corpus(self.out, '--format', 'bulk', '--bulk_index', 'astro')
        lines = text.split('\n')
        self.assertEqual(lines[-1], '')  # the bulk API wants a final newline
        lines = lines[:-1]
        self.assertEqual(len(lines), 2 * len(self.urls))
        for action, doc in zip(lines[::2], lines[1::2]):
            a, d = json.loads(action), json.loads(doc)
            self.assertEqual(list(a), ['index'])
            self.assertEqual(a['index']['_index'], 'astro')
            self.assertEqual(a['index']['_id'], hashlib.sha1(d['url'].encode()).hexdigest())
        bad = run([ARGS.worker, 'corpus', self.out, '--out', '/dev/null', '--format', 'xml'],
                  check=False)
        self.assertEqual(bad.returncode, 2)
        self.assertIn('unknown export format "xml"', bad.stderr)

    def search(self, query, *args):
        r = run([ARGS.worker, 'search', '--index', self.index, '--json', '--limit', '10',
                 query] + list(args))
        return json.loads(r.stdout)

    def test_search_finds_on_topic_pages_first(self):
        self.assertEqual(self.index_summary['indexed'], len(self.urls))
        query = 'telescope planet galaxy'
        base_rate = sum(self.on_topic_label(u) for u in self.urls) / len(self.urls)
        for weight in ('0', '4'):
            res = self.search(query, '--rank_weight', weight)
            hits = res['hits']
            self.assertEqual(len(hits), 10)
            p10 = sum(self.on_topic_label(h['url']) for h in hits) / 10
            print('search %r, rank_weight %s: P@10 %.1f (base rate %.3f)' % (
                query, weight, p10, base_rate))
            self.assertGreaterEqual(p10, 0.7)
            self.assertTrue(any('<b>' in h['snippet'] for h in hits))
        # A page and its near-duplicates take one result (the original's
        # URL is the collapse key); --all_duplicates shows every one. This
        # crawl has no near-duplicate, so a story and its copy are indexed
        # from records of their own.
        dup_dir = os.path.join(ARGS.work, 'duplicates')
        shutil.rmtree(dup_dir, ignore_errors=True)
        os.makedirs(dup_dir)
        story = dict(self.records[0], url='http://news.test/story',
                     title='Comet seen over the harbour',
                     main_text='A bright comet was seen over the harbour at dawn.',
                     duplicate_of='')
        copy = dict(story, url='http://mirror.test/story',
                    duplicate_of='http://news.test/story')
        with open(os.path.join(dup_dir, 'pages.jsonl'), 'w') as f:
            for r in (story, copy):
                f.write(json.dumps(r) + '\n')
        dup_index = os.path.join(dup_dir, 'index')
        run([ARGS.worker, 'index', dup_dir, '--index', dup_index])
        def hits(*args):
            r = run([ARGS.worker, 'search', '--index', dup_index, '--json',
                     'comet harbour'] + list(args))
            return sorted(h['url'] for h in json.loads(r.stdout)['hits'])
        self.assertEqual(len(hits()), 1, hits())
        self.assertEqual(hits('--all_duplicates'),
                         ['http://mirror.test/story', 'http://news.test/story'])
        text = run([ARGS.worker, 'search', '--index', self.index, '--limit', '3', query]).stdout
        self.assertIn(' 1. ', text)
        self.assertIn('[', text)
        missing = run([ARGS.worker, 'search', '--index', os.path.join(ARGS.work, 'none'), 'x'],
                      check=False)
        self.assertEqual(missing.returncode, 2)
        self.assertIn('none', missing.stderr)

    def test_index_built_while_crawling(self):
        # search { index: true }: every pages.jsonl line went into
        # OUTPUT_DIR/search, searchable as it is.
        self.assertEqual(self.summary['search']['indexed'], len(self.records))
        self.assertGreater(self.summary['search']['cpu_seconds'], 0)
        r = run([ARGS.worker, 'search', '--index', os.path.join(self.out, 'search'), '--json',
                 '--limit', '10', 'telescope planet galaxy'])
        hits = json.loads(r.stdout)['hits']
        self.assertEqual(len(hits), 10)
        self.assertTrue(all(h['rank'] is None for h in hits))  # no ranking yet
        self.assertGreaterEqual(sum(self.on_topic_label(h['url']) for h in hits), 7)

    def test_coordinator_search_box(self):
        data = os.path.join(ARGS.work, 'coordinator')
        shutil.rmtree(data, ignore_errors=True)
        p = subprocess.Popen([ARGS.coordinator, 'serve', '--data', data, '--listen', '127.0.0.1:0',
                              '--http', '127.0.0.1:0', '--search_index', self.index],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = p.stdout.readline()
            http = line.split('http=')[1].strip()
            page = urllib.request.urlopen('http://%s/status' % http, timeout=10).read().decode()
            self.assertIn('id="search-form"', page)
            res = json.loads(urllib.request.urlopen(
                'http://%s/search.json?q=telescope+planet&limit=5' % http, timeout=10).read())
            self.assertEqual(len(res['hits']), 5)
            self.assertEqual(res['query'], 'telescope planet')
            # Matches marked with U+0002/U+0003 for the page to build as
            # elements.
            self.assertTrue(any('\x02' in h['snippet'] for h in res['hits']), res['hits'][0])
            with self.assertRaises(urllib.error.HTTPError) as e:
                urllib.request.urlopen('http://%s/search.json?q=' % http, timeout=10)
            self.assertEqual(e.exception.code, 400)
        finally:
            p.terminate()
            p.communicate(timeout=30)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('worker')
    ap.add_argument('ranker')
    ap.add_argument('coordinator')
    ap.add_argument('--source', required=True)
    ap.add_argument('--work', required=True)
    ARGS, rest = ap.parse_known_args()
    os.makedirs(ARGS.work, exist_ok=True)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""What the end-to-end crawl tests share (tests/crawl_*_test.py): the
command line every one of them takes,

  crawl_*_test.py WORKER --source SRC --work DIR [--web synthetic|wikispeedia]
                  [TestCase ...]

(`run`), the generated test web served once per process (`WebFixture`),
small webs of a test's own served by nginx (`serve_sites`), a config
writer and the worker's commands (`write_config`, `run_worker`,
`dump_state`, `export_graph`) and readers of what a crawl wrote.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import unittest
import urllib.parse

from testlib import read_jsonl  # noqa: F401  (the tests import it from here)

# The command line (`run` fills it in before any test runs).
ARGS = argparse.Namespace()


def testweb_module(source):
    sys.path.insert(0, os.path.join(source, 'tests', 'testweb'))
    import testweb  # noqa: E402
    return testweb


def write_config(path, web, sites, seeds, out, strategy='bfs', topic=None,
                 extra='', topic_extra='', strategy_extra=''):
    lines = ['seeds: "%s"' % s for s in seeds]
    lines.append('strategy { name: "%s" %s }' % (strategy, strategy_extra))
    if topic or topic_extra:
        lines.append('topic { %s %s }' % (' '.join('keywords: "%s"' % k for k in topic or []),
                                          topic_extra))
    lines.append('output_dir: "%s"' % out)
    lines.append('allow_private_addresses: true')
    for host in sites:
        lines.append('resolve { host_port: "%s" address: "127.0.0.1:%d" }'
                     % (host, web.port))
    lines.append(extra)
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def run_worker(config, timeout=300, check=True):
    t0 = time.time()
    r = subprocess.run([ARGS.worker, 'crawl', '--config', config],
                       capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError('worker exited %d\nstderr:\n%s' %
                             (r.returncode, r.stderr[-4000:]))
    summary = json.loads(r.stdout.strip().splitlines()[-1]) if r.stdout.strip() else {}
    return r, summary, time.time() - t0


def read_text(path):
    with open(path) as f:
        return f.read()


def dump_state(config):
    r = subprocess.run([ARGS.worker, 'dump-state', '--config', config],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise AssertionError('dump-state failed: %s' % r.stderr)
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def page_fetches(fetch_log):
    """Fetch-log entries of pages (robots.txt and sitemap fetches, the
    lines with a "kind", left out)."""
    return [e for e in fetch_log
            if 'kind' not in e and urllib.parse.urlsplit(e['url']).path != '/robots.txt']


def export_graph(test, config, out):
    """Runs `worker export-graph` on the crawl of `config` into out-graph/;
    returns its JSON summary and the GraphPage records (tests/graph_shards.py
    dicts) of every shard."""
    graph_dir = out + '-graph'
    r = subprocess.run([ARGS.worker, 'export-graph', '--config', config, '--out', graph_dir],
                       capture_output=True, text=True, timeout=120)
    test.assertEqual(r.returncode, 0, r.stderr)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from graph_shards import read_shard  # noqa: E402
    pages = []
    for f in sorted(os.listdir(graph_dir)):
        if f.endswith('.fcg'):
            pages += read_shard(os.path.join(graph_dir, f))
    return json.loads(r.stdout), pages


def pages_with_heads(pages, says):
    """{name: (head, links)} as small HTML pages: the head's extra elements,
    a sentence with `says`, a paragraph per link."""
    files = {}
    for name, (head, links) in pages.items():
        body = ''.join('<p><a href="%s">link %d</a></p>' % (l, i)
                       for i, l in enumerate(links))
        files[name] = ('<html><head><title>%s</title>%s</head><body><p>The page %s '
                       '%s.</p>%s</body></html>\n' % (name, head, name, says, body))
    return files


def serve_sites(folder, sites):
    """Writes `sites` ({host: {path: text or bytes}}) as a web in
    ARGS.work/folder and serves it with nginx. Returns (folder, TestWeb)."""
    web_dir = os.path.join(ARGS.work, folder)
    testweb = testweb_module(ARGS.source)
    testweb.write_sites(web_dir, sites)
    web = testweb.TestWeb(web_dir)
    web.start()
    return web_dir, web


def serve_one_site(folder, host, files):
    """serve_sites for the one site `host`."""
    return serve_sites(folder, {host: files})


class WebFixture:
    """Generates the web once per process and serves it for the whole run."""
    web = None
    sites = None
    dir = None

    @classmethod
    def get(cls):
        if cls.web is not None:
            return cls
        testweb = testweb_module(ARGS.source)
        cls.dir = os.path.join(ARGS.work, 'web-' + ARGS.web)
        if ARGS.web == 'wikispeedia':
            data = os.path.join(ARGS.source, '..', 'shared', 'data',
                                'wikispeedia.tar.xz')
            if not os.path.exists(data):
                raise unittest.SkipTest('Wikispeedia data not found at %s: '
                                        'skipping the Wikispeedia crawl' % data)
            testweb.generate('wikispeedia', cls.dir, calendar_months=600)
        else:
            testweb.generate('synthetic', cls.dir, pages=600, hosts=12, seed=3)
        cls.web = testweb.TestWeb(cls.dir)
        cls.web.start()
        cls.sites = cls.web.sites()
        return cls

    @classmethod
    def stop(cls):
        if cls.web is not None:
            cls.web.stop()
            cls.web = None


def example_folders(fx, out, category, n=25):
    """Positive and negative example folders for the interest strategy: the
    files of n labelled on-topic and n off-topic article pages, taken evenly
    across the web's URL order so that the negatives come from many sections
    (as a user's would), not all from the first site."""
    pos, neg = os.path.join(out, 'positive'), os.path.join(out, 'negative')
    files = {pos: [], neg: []}
    for url, cats in sorted(fx.web.labels().items()):
        u = urllib.parse.urlsplit(url)
        root = fx.sites.get(u.hostname)
        if root is None:
            continue
        path = os.path.join(root, u.path.lstrip('/'))
        if os.path.isfile(path):
            files[pos if any(category in c.lower() for c in cats) else neg].append(path)
    for d, paths in files.items():
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        step = max(1, len(paths) // n)
        for i, path in enumerate(paths[::step][:n]):
            shutil.copy(path, os.path.join(d, '%03d.html' % (i + 1)))
    return pos, neg


def topic_category():
    return 'physics' if ARGS.web == 'wikispeedia' else 'astronomy'


def seeds_and_topic(fx):
    if ARGS.web == 'wikispeedia':
        seeds = ['http://science.wiki.test/', 'http://geography.wiki.test/',
                 'http://history.wiki.test/']
        return seeds, ['physics', 'astronomy', 'planet', 'energy', 'space']
    hosts = sorted(h for h in fx.sites if h != 'ads.test')
    return (['http://%s/' % h for h in hosts[:4]],
            ['telescope', 'planet', 'star', 'galaxy', 'orbit', 'astronomy'])


def urlset(urls, lastmod=None):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
            ''.join('<url><loc>%s</loc>%s</url>\n'
                    % (u, '<lastmod>%s</lastmod>' % lastmod if lastmod else '')
                    for u in urls) + '</urlset>\n')


def sitemapindex(urls):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
            ''.join('<sitemap><loc>%s</loc></sitemap>\n' % u for u in urls) +
            '</sitemapindex>\n')


def parse_time(stamp):
    """Seconds since the epoch of a fetch log's "2026-11-26T16:48:53.761Z"."""
    import datetime
    return datetime.datetime.strptime(stamp, '%Y-%m-%dT%H:%M:%S.%fZ').replace(
        tzinfo=datetime.timezone.utc).timestamp()


def run():
    """Reads the command line into ARGS and runs the calling module's
    tests (unittest's own options and TestCase names pass through)."""
    ap = argparse.ArgumentParser()
    ap.add_argument('worker')
    ap.add_argument('--source', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--web', default='synthetic', choices=('synthetic', 'wikispeedia'))
    args, rest = ap.parse_known_args()
    ARGS.__dict__.update(vars(args))
    ARGS.worker = os.path.abspath(ARGS.worker)
    os.makedirs(ARGS.work, exist_ok=True)
    try:
        unittest.main(module='__main__', argv=[sys.argv[0]] + rest, verbosity=2)
    finally:
        WebFixture.stop()


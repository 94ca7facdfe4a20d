#!/usr/bin/python3
"""End-to-end crawl tests (tests/crawl_lib.py): revisits.

RevisitTest revisits a crawl's pages (config `revisit`) after files
changed between two visits, in a second run and within one continuous
run: 304 answers, unchanged and changed bodies, a deleted page.
"""

import json
import os
import shutil
import subprocess
import time
import unittest
import urllib.parse

from crawl_lib import (  # noqa: F401
    ARGS,
    write_config,
    run_worker,
    dump_state,
    page_fetches,
    pages_with_heads,
    serve_one_site,
    read_jsonl,
    run)


class RevisitTest(unittest.TestCase):
    """Revisits (config `revisit`, worker/revisit.h) against nginx: a
    conditional GET answered 304, a page served in full with the same body,
    a changed page parsed again (its new link followed), a deleted page
    gone; a continuous crawl that revisits while it runs, with a file
    changed between two visits."""
    HOST = 'revisit.test'
    PAGES = {
        'index.html': ('', ['a.html', 'b.html', 'no-validators/c.html', 'gone.html']),
        'a.html': ('', []),
        'b.html': ('', []),
        'no-validators/c.html': ('', []),
        'gone.html': ('', []),
    }

    def serve(self, name):
        self.dir, self.web = serve_one_site('web-revisit-' + name, self.HOST, pages_with_heads(
            self.PAGES, 'is visited again'))
        self.addCleanup(self.web.stop)
        self.root = os.path.join(self.dir, 'sites', self.HOST)

    def config(self, name, revisit, politeness=''):
        out = os.path.join(ARGS.work, 'crawl-revisit-' + name)
        shutil.rmtree(out, ignore_errors=True)
        config = out + '.textproto'
        write_config(config, self.web, {self.HOST: None}, ['http://%s/' % self.HOST], out,
                     strategy='bfs',
                     extra='politeness { per_host_delay_ms: 50 %s } %s' % (politeness, revisit))
        return out, config

    def change_a(self):
        # Another size, so nginx's ETag (mtime-size) changes within one second.
        with open(os.path.join(self.root, 'a.html'), 'w') as f:
            f.write('<html><head><title>a, changed</title></head><body><p>The page a '
                    'changed since the last visit, and links a new page.</p>'
                    '<p><a href="new.html">new</a></p></body></html>\n')
        with open(os.path.join(self.root, 'new.html'), 'w') as f:
            f.write('<html><body><p>A new page.</p></body></html>\n')

    @staticmethod
    def revisits(out):
        return {urllib.parse.urlsplit(e['url']).path.lstrip('/'): (e['status'], e.get('change'))
                for e in read_jsonl(os.path.join(out, 'fetch_log.jsonl'))
                if e.get('kind') == 'revisit'}

    def test_revisits_after_a_crawl(self):
        self.serve('two-runs')
        out, config = self.config('two-runs', '')
        _, first, _ = run_worker(config)
        self.assertEqual(first['pages_fetched'], 5, first)
        self.assertEqual(first['revisits']['made'], 0, first)
        self.change_a()
        os.remove(os.path.join(self.root, 'gone.html'))
        # The same crawl, continuous: every page fetched before is due at
        # once; five revisits, then the crawl ends.
        with open(config, 'a') as f:
            f.write('revisit { continuous: true initial_interval_ms: 10 min_interval_ms: 10 '
                    'max_interval_ms: 3600000 } budget { max_revisits: 5 }\n')
        _, second, _ = run_worker(config)
        self.assertEqual(self.revisits(out), {
            '': (304, 'not modified'), 'a.html': (200, 'changed'),
            'b.html': (304, 'not modified'), 'no-validators/c.html': (200, 'unchanged'),
            'gone.html': (404, 'gone')})
        self.assertEqual(second['revisits'], {'made': 5, 'not_modified': 2, 'unchanged': 1,
                                              'changed': 1, 'gone': 1, 'failed': 0,
                                              'from_sitemaps': 0}, second)
        self.assertEqual(second['stop_reason'], 'budget', second)
        # The 304s and the unchanged body are WARC revisit records that name
        # the first capture; the changed page is a response again. The
        # files pass the strict reader.
        warcs = sorted(os.path.join(out, 'warc', n) for n in os.listdir(
            os.path.join(out, 'warc')) if n.endswith('.warc.gz'))
        r = subprocess.run(['/usr/bin/python3', os.path.join(os.path.dirname(
            os.path.abspath(__file__)), 'warc_check.py')] + warcs,
            capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        import gzip
        profiles = {}
        for w in warcs:
            with gzip.open(w, 'rb') as f:
                for rec in f.read().split(b'WARC/1.1\r\n')[1:]:
                    head = rec.split(b'\r\n\r\n', 1)[0].decode()
                    fields = dict(l.split(': ', 1) for l in head.split('\r\n') if ': ' in l)
                    if fields.get('WARC-Type') == 'revisit':
                        path = urllib.parse.urlsplit(fields['WARC-Target-URI']).path.lstrip('/')
                        profiles[path] = (fields['WARC-Profile'].rsplit('/', 1)[1],
                                          fields['WARC-Refers-To-Target-URI'])
        self.assertEqual(profiles, {
            '': ('server-not-modified', 'http://%s/' % self.HOST),
            'b.html': ('server-not-modified', 'http://%s/b.html' % self.HOST),
            'no-validators/c.html': ('identical-payload-digest',
                                     'http://%s/no-validators/c.html' % self.HOST)})
        # The changed page's new link is a new page; revisits are not pages.
        self.assertEqual(second['pages_fetched'], 1, second)
        self.assertEqual(second['pages_fetched_total'], 6, second)
        fetched = [urllib.parse.urlsplit(e['url']).path.lstrip('/')
                   for e in page_fetches(read_jsonl(os.path.join(out, 'fetch_log.jsonl')))]
        self.assertEqual(fetched.count('new.html'), 1, fetched)
        lines = [p for p in read_jsonl(os.path.join(out, 'pages.jsonl'))
                 if p['url'].endswith('/a.html')]
        self.assertEqual(len(lines), 2, lines)
        self.assertIn('changed since the last visit', lines[1]['main_text'])
        records = {urllib.parse.urlsplit(r['url']).path.lstrip('/'): r
                   for r in dump_state(config)}
        a, b, gone = records['a.html'], records['b.html'], records['gone.html']
        self.assertEqual((a['revisits'], a['changes']), (1, 1), a)
        self.assertEqual((b['revisits'], b.get('changes', 0)), (1, 0), b)
        self.assertEqual(a['title'], 'a, changed')
        # The next visit: 2 * the interval so far for the unchanged page,
        # interval / ln 3 for the changed one (worker/revisit.h).
        def wait(r):
            return int(r['next_visit_ms']) - int(r['last_visit_ms'])

        def interval(r):
            return int(r['last_visit_ms']) - int(r['first_visit_ms'])
        self.assertAlmostEqual(wait(b), 2 * interval(b), delta=2)
        self.assertAlmostEqual(wait(a), interval(a) / 1.0986123, delta=2)
        self.assertEqual(gone['http_status'], 404, gone)
        self.assertEqual(int(gone['next_visit_ms']), 0, gone)  # not revisited again
        self.assertTrue(b['etag'], b)
        # The gone page's corpus line is superseded by a tombstone: `worker
        # corpus` leaves the page out, --include_gone writes the tombstone.
        tombs = [p for p in read_jsonl(os.path.join(out, 'pages.jsonl')) if p.get('gone')]
        self.assertEqual([urllib.parse.urlsplit(p['url']).path for p in tombs], ['/gone.html'])
        self.assertEqual(tombs[0]['main_text'], '', tombs)
        for extra, want in (([], []), (['--include_gone'], ['/gone.html'])):
            export = out + '-corpus.jsonl'
            subprocess.run([ARGS.worker, 'corpus', out, '--out', export] + extra,
                           check=True, capture_output=True, timeout=60)
            exported = read_jsonl(export)
            self.assertEqual([urllib.parse.urlsplit(p['url']).path for p in exported
                              if p.get('gone')], want)
            self.assertNotIn('/gone.html', [urllib.parse.urlsplit(p['url']).path
                                            for p in exported if not p.get('gone')])

    def test_sitemap_lastmod_makes_a_page_due(self):
        self.serve('sitemap')
        out, config = self.config('sitemap', '', 'robots_cache_seconds: 1')
        run_worker(config)
        time.sleep(1.1)  # lastmod has seconds; robots.txt's cache runs out
        self.change_a()
        stamp = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
        with open(os.path.join(self.root, 'sitemap.xml'), 'w') as f:
            f.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/'
                    'schemas/sitemap/0.9"><url><loc>http://%s/a.html</loc><lastmod>%s'
                    '</lastmod></url><url><loc>http://%s/b.html</loc></url></urlset>\n'
                    % (self.HOST, stamp, self.HOST))
        with open(os.path.join(self.root, 'robots.txt'), 'w') as f:
            f.write('User-agent: *\nAllow: /\nSitemap: http://%s/sitemap.xml\n' % self.HOST)
        # Nothing else is due for an hour: only the page the sitemap says
        # changed is revisited. (A new seed gives the host work: robots.txt,
        # and the sitemaps it names, are read before a host's next fetch.)
        with open(config, 'a') as f:
            f.write('seeds: "http://%s/new.html"\n' % self.HOST)
            f.write('revisit { continuous: true initial_interval_ms: 3600000 '
                    'min_interval_ms: 10 } budget { max_revisits: 1 }\n')
        _, summary, _ = run_worker(config)
        self.assertEqual(summary['revisits']['from_sitemaps'], 1, summary)
        self.assertEqual(self.revisits(out), {'a.html': (200, 'changed')})
        self.assertEqual(summary['stop_reason'], 'budget', summary)

    def test_continuous_crawl_sees_a_change(self):
        self.serve('continuous')
        out, config = self.config(
            'continuous', 'revisit { continuous: true initial_interval_ms: 1500 '
            'min_interval_ms: 100 } budget { max_revisits: 5 }')
        p = subprocess.Popen([ARGS.worker, 'crawl', '--config', config],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            log = os.path.join(out, 'fetch_log.jsonl')
            deadline = time.time() + 30
            while len(page_fetches(read_jsonl(log))) < 5 and time.time() < deadline:
                time.sleep(0.02)
            self.assertEqual(len(page_fetches(read_jsonl(log))), 5)
            self.assertEqual(self.revisits(out), {})  # not due yet
            self.change_a()
            stdout, stderr = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(p.returncode, 0, stderr[-3000:])
        summary = json.loads(stdout.strip().splitlines()[-1])
        self.assertEqual(summary['stop_reason'], 'budget', summary)
        self.assertEqual(self.revisits(out), {
            '': (304, 'not modified'), 'a.html': (200, 'changed'),
            'b.html': (304, 'not modified'), 'no-validators/c.html': (200, 'unchanged'),
            'gone.html': (304, 'not modified')})
        self.assertEqual(summary['pages_fetched'], 6, summary)  # new.html too


if __name__ == '__main__':
    run()

#!/usr/bin/python3
"""End-to-end crawl tests (tests/crawl_lib.py): what pages and sites
declare.

SitemapTest: sitemaps and sitemap indexes found and followed.
DuplicatesTest: exact and near-duplicate pages, across templates.
CanonicalTest: rel=canonical in links and headers, as a hint.
RobotsDirectivesTest crawls a small web of its own whose pages say noindex,
nofollow or none in <meta name="robots">, <meta name="fcrawl"> and
X-Robots-Tag headers, with rel="nofollow" links, once obeying them (the
default) and once with each switch off.
"""

import os
import shutil
import unittest
import urllib.parse

from crawl_lib import (  # noqa: F401
    ARGS,
    write_config,
    run_worker,
    dump_state,
    page_fetches,
    export_graph,
    pages_with_heads,
    serve_sites,
    serve_one_site,
    urlset,
    sitemapindex,
    read_jsonl,
    run)


class SitemapTest(unittest.TestCase):
    """Sitemaps (protocol/sitemap.h): robots.txt's Sitemap lines, an index
    with a gzip child, the protocol's limits, other hosts' URLs and nested
    indexes refused, lastmod kept, /sitemap.xml tried on a seed's host."""
    HOST = 'sm.test'
    B = 'http://sm.test/'

    @classmethod
    def setUpClass(cls):
        import gzip
        b = cls.B
        page = ('<html><head><title>%s</title></head><body><p>The page %s is '
                'listed in a sitemap.</p>%s</body></html>\n')
        files = {
            'robots.txt': 'User-agent: *\nDisallow: /private/\n'
                          'Sitemap: %ssitemap_index.xml\n'
                          'Sitemap: http://other.test/sitemap.xml\n' % b,
            'index.html': page % ('index', 'index', '<a href="a.html">a</a>'),
            'a.html': page % ('a', 'a', ''),
            'sitemap_index.xml': sitemapindex(
                [b + 's1.xml.gz', b + 's2.xml', b + 's3-over.xml', b + 'nested-index.xml',
                 b + 'missing.xml', b + 'private/s.xml', 'http://other.test/s.xml']),
            's1.xml.gz': gzip.compress(urlset(
                [b + 'orphan1.html', b + 'orphan2.html'], lastmod='2024-05-01').encode()),
            's2.xml': urlset([b + 'orphan3.html', 'http://other.test/x.html', b]),
            's3-over.xml': urlset([b + 'over%d.html' % i for i in range(10)]),
            'nested-index.xml': sitemapindex([b + 'nested-child.xml']),
            'nested-child.xml': urlset([b + 'never.html']),
            'private/s.xml': urlset([b + 'never2.html']),
            'never.html': page % ('never', 'never', ''),
            'never2.html': page % ('never2', 'never2', ''),
        }
        for i in range(1, 4):
            files['orphan%d.html' % i] = page % ('orphan', 'orphan', '')
        for i in range(10):
            files['over%d.html' % i] = page % ('over', 'over', '')
        cls.dir, cls.web = serve_one_site('web-sitemaps', cls.HOST, files)

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()

    def crawl(self, name, extra=''):
        out = os.path.join(ARGS.work, 'crawl-sitemaps-' + name)
        shutil.rmtree(out, ignore_errors=True)
        config = out + '.textproto'
        write_config(config, self.web, {self.HOST: None}, [self.B], out,
                     extra='politeness { per_host_delay_ms: 0 } ' + extra)
        _, summary, _ = run_worker(config)
        log = read_jsonl(os.path.join(out, 'fetch_log.jsonl'))
        pages = {urllib.parse.urlsplit(e['url']).path.lstrip('/')
                 for e in log if 'kind' not in e}
        sitemaps = {urllib.parse.urlsplit(e['url']).path.lstrip('/'): e
                    for e in log if e.get('kind') == 'sitemap'}
        return summary, pages, sitemaps, dump_state(config)

    def test_sitemaps_from_robots(self):
        # 7 entries a file: the index's 7 all read, s3-over's first 7 of 10.
        summary, pages, sitemaps, state = self.crawl('robots', 'sitemaps { max_urls: 7 }')
        self.assertEqual(pages, {'', 'a.html', 'orphan1.html', 'orphan2.html', 'orphan3.html'} |
                         {'over%d.html' % i for i in range(7)})
        # The index, its children on this host (not the disallowed one), the
        # nested index read but not followed.
        self.assertEqual(set(sitemaps), {'sitemap_index.xml', 's1.xml.gz', 's2.xml',
                                         's3-over.xml', 'nested-index.xml', 'missing.xml'})
        self.assertIn('past sitemaps.max_urls', sitemaps['s3-over.xml']['error'])
        self.assertIn('not followed', sitemaps['nested-index.xml']['error'])
        self.assertEqual(sitemaps['missing.xml']['error'], 'HTTP 404')
        self.assertEqual(summary['sitemaps_read'], 5, summary)
        self.assertEqual(summary['sitemaps_failed'], 1, summary)
        self.assertEqual(summary['skipped'].get('sitemaps disallowed'), 1, summary)
        # orphan1-3, the seed again, over0-6.
        self.assertEqual(summary['sitemap_urls'], 11, summary)
        by_url = {urllib.parse.urlsplit(r['url']).path.lstrip('/'): r for r in state}
        self.assertEqual(int(by_url['orphan1.html']['sitemap_lastmod_ms']), 1714521600000)
        self.assertEqual(int(by_url['orphan3.html']['sitemap_lastmod_ms']), 0)
        self.assertEqual(by_url['orphan1.html']['parent_url'], self.B + 's1.xml.gz')
        self.assertEqual(by_url['orphan1.html']['depth'], 1)
        self.assertNotIn('over7.html', by_url)

    def test_off_and_guessed(self):
        # robots.txt's sitemaps off, guessing on: the seed's host is tried
        # at /sitemap.xml, which it does not have.
        summary, pages, sitemaps, _ = self.crawl(
            'guess', 'sitemaps { from_robots: false guess_on_seed_hosts: true }')
        self.assertEqual(pages, {'', 'a.html'})
        self.assertEqual(set(sitemaps), {'sitemap.xml'})
        self.assertEqual(summary['sitemaps_failed'], 1, summary)
        summary, pages, sitemaps, _ = self.crawl('off', 'sitemaps { from_robots: false }')
        self.assertEqual(pages, {'', 'a.html'})
        self.assertEqual(sitemaps, {})


class DuplicatesTest(unittest.TestCase):
    """Near-duplicates on content blocks (core/minhash.h): the same article
    on another site's template, and one with light edits, are duplicates of
    the page fetched first; another article on the same template is not.
    A duplicate's links that the crawl knows already (the original's, the
    site's menu) are not queued again; a link only the copy carries is
    (issue 56: a mirror's own page was never fetched). pages.jsonl and the
    graph say what it duplicates."""
    WORDS = ('river delta basin flood plain sediment channel water current '
             'erosion valley mouth estuary tide marsh bank levee stream source '
             'glacier rain season monsoon drought irrigation canal dam reservoir '
             'fish bird forest farm city port trade history empire war treaty '
             'king queen bridge road rail mountain lake island coast sea ocean '
             'climate winter summer spring autumn harvest crop rice wheat cotton').split()

    @classmethod
    def article(cls, seed, n=300):
        import random
        r = random.Random(seed)
        paras = []
        for _ in range(5):
            paras.append(' '.join(r.choice(cls.WORDS) for _ in range(n // 5)) + '.')
        return paras

    @staticmethod
    def template_a(title, paras, links=()):
        body = ''.join('<p>%s</p>' % p for p in paras)
        more = ''.join('<li><a href="%s">%s</a></li>' % (h, h) for h in links)
        return ('<html><head><title>%s</title></head><body>'
                '<div class="nav"><a href="/">Home</a> <a href="/news.html">News</a> '
                '<a href="/about.html">About</a></div>'
                '<div class="main"><h1>%s</h1>%s<ul>%s</ul></div>'
                '<div class="footer">Copyright River Times. All rights reserved. '
                'Contact the newsroom.</div></body></html>\n' % (title, title, body, more))

    @staticmethod
    def template_b(title, paras, links=()):
        body = ''.join('<p>%s</p>' % p for p in paras)
        more = ''.join('<a href="%s">%s</a><br>' % (h, h) for h in links)
        return ('<html><head><title>%s | Delta Daily</title></head><body><table>'
                '<tr><td class="menu"><a href="/">Front page</a><br>'
                '<a href="/world.html">World</a><br><a href="/sport.html">Sport</a></td>'
                '<td class="story"><h2>%s</h2><p>By our correspondent</p>%s%s</td>'
                '<td class="side">Subscribe to Delta Daily for the latest news.</td>'
                '</tr></table></body></html>\n' % (title, title, body, more))

    @classmethod
    def setUpClass(cls):
        one, two, three, four = (cls.article(s) for s in (1, 2, 3, 4))
        edited = list(two)
        edited[0] = 'Updated: ' + edited[0].replace(' ', ' the ', 1)
        edited[3] = edited[3].replace(' ', ' and ', 2)
        a = {'index.html': cls.template_a('River Times', ['Today on the river.'],
                                          ['one.html', 'two.html', 'three.html',
                                           'http://b.test/index.html']),
             'one.html': cls.template_a('Floods', one),
             'two.html': cls.template_a('Dams', two),
             'three.html': cls.template_a('Ports', three)}
        b = {'index.html': cls.template_b('Delta Daily', ['News from the delta.'],
                                          ['copy-one.html', 'edited-two.html',
                                           'four.html']),
             # Only linked from a duplicate: fetched all the same.
             'copy-one.html': cls.template_b('Floods', one, ['only-from-copy.html']),
             'edited-two.html': cls.template_b('Dams, updated', edited),
             'four.html': cls.template_b('Canals', four),
             'only-from-copy.html': cls.template_b('Found', ['Reached from the copy.'])}
        cls.dir, cls.web = serve_sites('web-duplicates', {'a.test': a, 'b.test': b})

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()

    def crawl(self, name, extra=''):
        out = os.path.join(ARGS.work, 'crawl-duplicates-' + name)
        shutil.rmtree(out, ignore_errors=True)
        config = out + '.textproto'
        # One transfer at a time in discovery order (order window 1: with
        # the default window the scheduler may take a depth-2 copy on
        # b.test before the depth-1 article on a.test it copies, and the
        # article becomes the duplicate; seen once in a CI run): a.test's
        # articles before b.test's copies.
        write_config(config, self.web, {'a.test': None, 'b.test': None},
                     ['http://a.test/'], out, strategy='bfs',
                     strategy_extra='order_window: 1',
                     extra='politeness { per_host_delay_ms: 0 } '
                           'fetch { max_in_flight: 1 } ' + extra)
        _, summary, _ = run_worker(config)
        fetched = {e['url'] for e in page_fetches(read_jsonl(os.path.join(out, 'fetch_log.jsonl')))}
        pages = {p['url']: p.get('duplicate_of') for p in read_jsonl(os.path.join(out, 'pages.jsonl'))}
        export, shards = export_graph(self, config, out)
        graph = {p['url']: p.get('duplicate_of') for p in shards}
        return summary, fetched, pages, graph, export

    def test_duplicates_across_templates(self):
        summary, fetched, pages, graph, export = self.crawl('default')
        dups = {'http://b.test/copy-one.html': 'http://a.test/one.html',
                'http://b.test/edited-two.html': 'http://a.test/two.html'}
        self.assertEqual({u: d for u, d in pages.items() if d}, dups)
        self.assertEqual({u: d for u, d in graph.items() if d}, dups)
        self.assertIn('http://b.test/four.html', pages)
        self.assertIn('http://b.test/only-from-copy.html', fetched)
        self.assertEqual(summary['duplicates'], 2, summary)
        # The two duplicates' links known from b.test's index: three menu
        # links each; copy-one's own link is queued.
        self.assertEqual(summary['skipped'].get('duplicate page links'), 6, summary)
        self.assertEqual(export['duplicate_pages'], 2, export)

    def test_expand_and_off(self):
        summary, fetched, pages, _, _ = self.crawl('expand', 'duplicates { expand: true }')
        self.assertEqual(summary['duplicates'], 2, summary)
        self.assertIn('http://b.test/only-from-copy.html', fetched)
        summary, fetched, pages, _, export = self.crawl('off', 'duplicates { enabled: false }')
        self.assertEqual(summary['duplicates'], 0, summary)
        self.assertEqual([d for d in pages.values() if d], [])
        self.assertEqual(export['duplicate_pages'], 0, export)


class CanonicalTest(unittest.TestCase):
    """Canonical URLs (protocol/canonical.h): a page is recorded under the
    canonical URL it declares, the URL fetched is its alias, never fetched
    again; other sites' URLs are not accepted. A canonical fetched before
    is a hint: a page naming it is its alias only when it repeats its main
    content."""
    HOST = 'canon.test'
    # page -> (head, links). index.html's links are fetched in this order
    # (bfs), one at a time with a delay, so each page's outcome is committed
    # before the next fetch.
    PAGES = {
        'index.html': ('', ['b.html', 'a-print.html', 'a.html', 'b-copy.html',
                            'c-old.html', 'link-canonical/d.html', 'e.html',
                            'h.html', 'f.html']),
        'a.html': ('', []),
        # Queued when its alias is fetched: adopts the alias's page.
        'a-print.html': ('<link rel="canonical" href="a.html">', []),
        'b.html': ('', []),
        # Fetched before: the copy (the same text, setUpClass) is its alias.
        'b-copy.html': ('<link rel="canonical" href="/b.html">', []),
        # Names the home page, fetched before, by a template's mistake: its
        # text is its own, so it stays a page.
        'f.html': ('<link rel="canonical" href="/">', []),
        # Unknown until its alias names it.
        'c-old.html': ('<link rel="canonical" href="http://canon.test/c-new.html">',
                       []),
        'c-new.html': ('', []),
        # The Link header (tests/testweb/nginx.sh) names /d.html.
        'link-canonical/d.html': ('', []),
        'd.html': ('', []),
        # Another site's URL: not accepted.
        'e.html': ('<link rel="canonical" href="http://other.test/e.html">', []),
        # Links to aliases and adopted URLs: none fetched.
        'h.html': ('', ['a-print.html', 'c-new.html', 'd.html', 'c-old.html']),
    }

    @classmethod
    def setUpClass(cls):
        files = pages_with_heads(cls.PAGES, 'has a canonical URL or is one')
        # Text enough to compare (a MinHash signature, duplicates.min_words):
        # b-copy.html repeats b.html's; f.html's and the home page's differ.
        def prose(topic):
            return ''.join('<p>%s note %d: the %s pages of this site are kept '
                           'up to date by the editors every week.</p>'
                           % (topic, i, topic) for i in range(6))
        files['b.html'] = files['b.html'].replace('<body>', '<body>' + prose('garden'))
        files['b-copy.html'] = files['b.html'].replace(
            '</title>', '</title><link rel="canonical" href="/b.html">')
        files['f.html'] = files['f.html'].replace('<body>', '<body>' + prose('kitchen'))
        files['index.html'] = files['index.html'].replace('<body>',
                                                          '<body>' + prose('home'))
        cls.dir, cls.web = serve_one_site('web-canonical', cls.HOST, files)

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()

    def crawl(self, name, scope=''):
        out = os.path.join(ARGS.work, 'crawl-canonical-' + name)
        shutil.rmtree(out, ignore_errors=True)
        config = out + '.textproto'
        write_config(config, self.web, {self.HOST: None}, ['http://%s/' % self.HOST], out,
                     strategy='bfs',
                     extra='politeness { per_host_delay_ms: 300 } %s' % scope)
        _, summary, _ = run_worker(config)
        fetched = [urllib.parse.urlsplit(e['url']).path.lstrip('/')
                   for e in page_fetches(read_jsonl(os.path.join(out, 'fetch_log.jsonl')))]
        pages = [urllib.parse.urlsplit(p['url']).path.lstrip('/')
                 for p in read_jsonl(os.path.join(out, 'pages.jsonl'))]
        export, shards = export_graph(self, config, out)
        graph = {urllib.parse.urlsplit(p['url']).path.lstrip('/'): sorted(
            urllib.parse.urlsplit(a).path.lstrip('/') for a in p.get('aliases', []))
            for p in shards}
        return summary, fetched, pages, graph, export

    def test_pages_recorded_under_their_canonical(self):
        summary, fetched, pages, graph, export = self.crawl('default')
        self.assertEqual(sorted(fetched), sorted(
            ['', 'b.html', 'a-print.html', 'b-copy.html', 'c-old.html',
             'link-canonical/d.html', 'e.html', 'h.html', 'f.html']), fetched)
        # One line per canonical page; the duplicate of b.html adds none,
        # f.html (not the home page's text) is a page of its own.
        self.assertEqual(sorted(pages), sorted(
            ['', 'b.html', 'a.html', 'c-new.html', 'd.html', 'e.html', 'h.html',
             'f.html']), pages)
        self.assertEqual(summary['aliases'], 4, summary)
        self.assertEqual(export['aliases'], 4, export)
        self.assertEqual(graph, {'': [], 'a.html': ['a-print.html'], 'b.html': ['b-copy.html'],
                                 'c-new.html': ['c-old.html'],
                                 'd.html': ['link-canonical/d.html'], 'e.html': [],
                                 'h.html': [], 'f.html': []})

    def test_switch_off(self):
        summary, fetched, pages, graph, export = self.crawl(
            'off', 'scope { follow_canonical: false }')
        linked = {'', 'a.html', 'b.html', 'a-print.html', 'b-copy.html', 'c-old.html',
                  'link-canonical/d.html', 'e.html', 'h.html', 'c-new.html', 'd.html',
                  'f.html'}
        self.assertEqual(set(fetched), linked)
        self.assertEqual(set(pages), linked)
        self.assertEqual(summary['aliases'], 0, summary)
        self.assertEqual(export['aliases'], 0, export)


class RobotsDirectivesTest(unittest.TestCase):
    """Robots directives in pages and headers (protocol/robots_directives.h)."""
    HOST = 'robots.test'
    # page -> (head, links); files under /x-robots-*/ get an X-Robots-Tag
    # from nginx (tests/testweb/nginx.sh).
    PAGES = {
        'index.html': ('', ['a.html', 'b.html" rel="nofollow', 'c.html" rel="ugc',
                            'meta-noindex.html', 'meta-nofollow.html', 'own-none.html',
                            'x-robots-noindex/page.html', 'x-robots-otherbot/page.html']),
        'a.html': ('', []),
        'b.html': ('', []),
        'c.html': ('', []),
        'meta-noindex.html': ('<meta name="robots" content="noindex">', ['d.html']),
        'd.html': ('', []),
        'meta-nofollow.html': ('<meta name="ROBOTS" content="index, nofollow">', ['e.html']),
        'e.html': ('', []),
        'own-none.html': ('<meta name="fcrawl" content="none">', ['f.html']),
        'f.html': ('', []),
        'x-robots-noindex/page.html': ('', ['../g.html']),
        'g.html': ('', []),
        'x-robots-otherbot/page.html': ('', ['../h.html']),
        'h.html': ('', []),
    }

    @classmethod
    def setUpClass(cls):
        cls.dir, cls.web = serve_one_site('web-robots', cls.HOST, pages_with_heads(
            cls.PAGES, 'says what robots may do with it'))

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()

    def crawl(self, name, politeness=''):
        out = os.path.join(ARGS.work, 'crawl-robots-' + name)
        shutil.rmtree(out, ignore_errors=True)
        config = out + '.textproto'
        write_config(config, self.web, {self.HOST: None}, ['http://%s/' % self.HOST], out,
                     extra='politeness { per_host_delay_ms: 0 %s }' % politeness)
        _, summary, _ = run_worker(config)
        fetched = {urllib.parse.urlsplit(e['url']).path.lstrip('/')
                   for e in page_fetches(read_jsonl(os.path.join(out, 'fetch_log.jsonl')))}
        pages = {urllib.parse.urlsplit(p['url']).path.lstrip('/')
                 for p in read_jsonl(os.path.join(out, 'pages.jsonl'))}
        export, shards = export_graph(self, config, out)
        graph = {urllib.parse.urlsplit(p['url']).path.lstrip('/') for p in shards}
        return summary, fetched, pages, graph, export

    def test_obeyed_by_default(self):
        summary, fetched, pages, graph, export = self.crawl('default')
        # Not followed: the rel=nofollow link, and the links of the pages
        # that say nofollow (meta robots, or none to fcrawl by name).
        self.assertEqual(fetched & {'b.html', 'e.html', 'f.html'}, set(), fetched)
        # Followed: rel=ugc (a hint), the noindex pages' links, and the
        # links of a page whose X-Robots-Tag names another crawler.
        self.assertLessEqual({'a.html', 'c.html', 'd.html', 'g.html', 'h.html'}, fetched)
        # Fetched but kept out of pages.jsonl and the graph: the noindex ones.
        noindex = {'meta-noindex.html', 'own-none.html', 'x-robots-noindex/page.html'}
        self.assertLessEqual(noindex, fetched)
        self.assertEqual(pages & noindex, set(), pages)
        self.assertEqual(graph & noindex, set(), graph)
        self.assertIn('x-robots-otherbot/page.html', pages)
        self.assertEqual(pages, graph)
        self.assertEqual(summary['noindex'], 3, summary)
        self.assertEqual(export['noindex_pages'], 3, export)
        # index.html's nofollow link, meta-nofollow's and own-none's one each.
        self.assertEqual(summary['skipped'].get('nofollow links'), 3, summary)

    def test_each_switch_off(self):
        summary, fetched, pages, graph, _ = self.crawl(
            'off', 'obey_robots_meta: false obey_x_robots_tag: false '
                   'obey_rel_nofollow: false')
        everything = set(self.PAGES) - {'index.html'}
        self.assertLessEqual(everything, fetched)
        self.assertLessEqual(everything, pages)
        self.assertEqual(summary['noindex'], 0)
        self.assertNotIn('nofollow links', summary['skipped'])
        # Headers only: the meta pages are obeyed, the header page is not.
        summary, fetched, pages, _, _ = self.crawl('no-header', 'obey_x_robots_tag: false')
        self.assertIn('x-robots-noindex/page.html', pages)
        self.assertNotIn('meta-noindex.html', pages)
        self.assertNotIn('b.html', fetched)
        # rel=nofollow only off.
        _, fetched, _, _, _ = self.crawl('no-rel', 'obey_rel_nofollow: false')
        self.assertIn('b.html', fetched)
        self.assertNotIn('e.html', fetched)


if __name__ == '__main__':
    run()

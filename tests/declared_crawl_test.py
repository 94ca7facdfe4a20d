#!/usr/bin/python3
"""A crawl of a news site whose story page declares its article in JSON-LD,
on nginx (loopback).

  declared_crawl_test.py WORKER --work DIR

The story page carries a schema.org NewsArticle (headline, authors, date,
language, articleBody) and, around the story, a caption, an
"Advertisement" label, a "Read more" teaser and a reader's comment in
markup that names none of them. A second story declares a body it does not
show. The real `worker` crawls the site; pages.jsonl must hold the
declared byline, date and language, and the first story's main text must
be its declared body's paragraphs without the extras; the second keeps
what quark finds without the declaration (its byline still comes from the
JSON-LD).
"""

import json
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'testweb'))
sys.dont_write_bytecode = True
from testweb import TestWeb, write_sites  # noqa: E402
import testlib  # noqa: E402

WORKER = None
WORK = None
HOST = 'news.example.test'

PARAGRAPHS = [
    'The harbour bridge reopened to traffic on Monday morning after two years '
    'of repairs that replaced its steel deck and most of its cables.',
    'Engineers found that salt from the winter roads had eaten into the joints '
    'much faster than the original designers had expected in 1931.',
    'The city council paid for the work with a special bond that voters '
    'approved three years ago by a margin of almost two to one.',
    'Buses will return to the bridge next week, and the ferry that carried '
    'commuters across the river during the repairs will stop on Friday.',
]
CAPTION = ('The bridge at dawn on Monday, seen from the eastern pier by our '
           'photographer who waited there all night long.')
TEASER = ('Read more: how the oldest bridges of the region are inspected every '
          'spring and why so many of them are closing')
COMMENT = ('I crossed the bridge every day for twenty years and I am glad that '
           'they finally fixed the joints, although the new paint is ugly.')


def story(body, title):
    declared = {
        '@context': 'https://schema.org',
        '@graph': [
            {'@type': 'WebPage', 'name': 'City News'},
            {'@type': 'NewsArticle', 'headline': title,
             'author': [{'@type': 'Person', 'name': 'Ann Lee'},
                        {'@type': 'Person', 'name': 'Bo Chan'}],
             'datePublished': '2026-11-02T08:00:00Z', 'inLanguage': 'en-GB',
             'articleBody': body}]}
    p = PARAGRAPHS
    return (
        '<!DOCTYPE html><html><head><title>%s - City News</title>'
        '<script type="application/ld+json">%s</script></head><body>'
        '<div class="n"><a href="/">Home</a> <a href="/city.html">City</a></div>'
        '<div class="s"><h1>%s</h1><p>%s</p><div class="f"><img src="b.jpg">'
        '<div>%s</div></div><p>%s</p><div class="x">Advertisement</div>'
        '<p>%s</p><p>%s</p><p>%s</p></div>'
        '<div class="r"><div class="q"><b>Sam</b><p>%s</p></div></div>'
        '</body></html>\n' % (title, json.dumps(declared), title, p[0], CAPTION,
                              p[1], p[2], TEASER, p[3], COMMENT))


PAGES = {
    'index.html': '<html><body><h1>City News</h1><ul>'
                  '<li><a href="/bridge.html">Harbour bridge reopens</a>'
                  '<li><a href="/ferry.html">Ferry stops on Friday</a>'
                  '</ul></body></html>\n',
    'bridge.html': story('\n'.join(PARAGRAPHS), 'Harbour bridge reopens'),
    # A body this page does not show: not used for the text.
    'ferry.html': story(
        'A new ferry line will link the two banks of the river from next '
        'spring, the transport office said on Tuesday, and its boats will '
        'run every twenty minutes from six in the morning until midnight on '
        'weekdays and until two on Saturdays, with fares the same as the '
        "buses'. The office expects some four thousand riders a day.",
        'Ferry stops on Friday'),
}


class DeclaredCrawlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        web = os.path.join(WORK, 'web')
        write_sites(web, {HOST: PAGES})
        testweb = TestWeb(web)
        port = testweb.start()
        try:
            out = os.path.join(WORK, 'crawl')
            shutil.rmtree(out, ignore_errors=True)
            config = os.path.join(WORK, 'config.textproto')
            with open(config, 'w') as f:
                f.write('seeds: "http://%s/"\n'
                        'topic { keywords: "bridge" keywords: "ferry" }\n'
                        'budget { max_pages: 20 }\n'
                        'politeness { per_host_delay_ms: 0 }\n'
                        'output_dir: "%s"\n'
                        'allow_private_addresses: true\n'
                        'resolve { host_port: "%s" address: "127.0.0.1:%d" }\n'
                        % (HOST, out, HOST, port))
            r = subprocess.run([WORKER, 'crawl', '--config', config, '--quiet'],
                               capture_output=True, text=True, timeout=120)
            if r.returncode != 0:
                raise AssertionError(r.stderr[-2000:])
        finally:
            testweb.stop()
        cls.records = {}
        with open(os.path.join(out, 'pages.jsonl'), encoding='utf-8') as f:
            for line in f:
                rec = json.loads(line)
                cls.records[rec['url'].split(HOST, 1)[1]] = rec

    def test_metadata_from_the_declaration(self):
        for path in ('/bridge.html', '/ferry.html'):
            rec = self.records.get(path)
            self.assertIsNotNone(rec, sorted(self.records))
            self.assertEqual(rec['byline'], 'Ann Lee, Bo Chan')
            self.assertEqual(rec['date'], '2026-11-02T08:00:00Z')
            self.assertEqual(rec['language'], 'en-gb')

    def test_the_declared_body_is_the_main_text(self):
        text = self.records['/bridge.html']['main_text']
        for p in PARAGRAPHS:
            self.assertIn(p, text)
        for extra in (CAPTION, TEASER, 'Advertisement', COMMENT):
            self.assertNotIn(extra, text)

    def test_a_body_the_page_does_not_show_is_not_used(self):
        text = self.records['/ferry.html']['main_text']
        self.assertIn(PARAGRAPHS[0], text)
        self.assertNotIn('new ferry line', text)
        # Without the declaration quark keeps the teaser line in the story.
        self.assertIn(TEASER, text)


def main():
    global WORKER, WORK
    WORKER, WORK, argv = testlib.worker_test_args()
    unittest.main(argv=argv, verbosity=2)


if __name__ == '__main__':
    main()

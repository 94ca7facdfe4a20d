#!/usr/bin/python3
"""End-to-end crawl tests (tests/crawl_lib.py): the WARC files.

ZstdWarcTest crawls with `warc { compression: "zstd" }` and reads the
.warc.zst files back with tests/warc_check.py and the zstd command.

WarcEcosystemTest reads a crawl's WARC files with Webrecorder's warcio
(npm, tests/warcio/, installed with `npm ci` into the work folder; skipped
with a message when node or npm is missing): every record parses, every
block and payload digest matches, and the CDXJ index written beside each
file equals what warcio's `cdx-index` makes of it.
"""

import json
import os
import shutil
import subprocess
import time
import unittest

from crawl_lib import (  # noqa: F401
    ARGS,
    write_config,
    run_worker,
    pages_with_heads,
    serve_one_site,
    run)


class ZstdWarcTest(unittest.TestCase):
    """`warc { compression: "zstd" }`: the crawl writes .warc.zst files, one
    zstd frame per record, that tests/warc_check.py passes and the zstd
    command reads as a whole."""
    HOST = 'zstd.test'
    PAGES = {'index.html': ('', ['a.html', 'b.html']), 'a.html': ('', ['b.html']),
             'b.html': ('', [])}

    def test_zstd_warc(self):
        _, web = serve_one_site('web-zstd', self.HOST, pages_with_heads(
            self.PAGES, 'is archived with zstd'))
        self.addCleanup(web.stop)
        out = os.path.join(ARGS.work, 'crawl-zstd')
        shutil.rmtree(out, ignore_errors=True)
        config = out + '.textproto'
        write_config(config, web, {self.HOST: None}, ['http://%s/' % self.HOST], out,
                     extra='politeness { per_host_delay_ms: 0 } warc { compression: "zstd" }')
        _, summary, _ = run_worker(config)
        self.assertEqual(summary['pages_fetched'], 3, summary)
        names = sorted(os.listdir(os.path.join(out, 'warc')))
        warcs = [os.path.join(out, 'warc', n) for n in names if n.endswith('.warc.zst')]
        self.assertEqual(len(warcs), 1, names)
        self.assertFalse([n for n in names if n.endswith('.warc.gz')], names)
        self.assertTrue([n for n in names if n.endswith('.cdxj')], names)
        r = subprocess.run(['/usr/bin/python3', os.path.join(os.path.dirname(
            os.path.abspath(__file__)), 'warc_check.py')] + warcs,
            capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        r = subprocess.run(['zstd', '-dc'] + warcs, capture_output=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        # warcinfo, robots.txt and 3 pages: each a request and a response.
        self.assertEqual(r.stdout.count(b'WARC/1.1\r\n'), 9)


class WarcEcosystemTest(unittest.TestCase):
    """The crawl's WARC files and CDXJ indexes, read by warcio (npm)."""

    @classmethod
    def setUpClass(cls):
        cls.node, cls.npm = shutil.which('node'), shutil.which('npm')
        if not cls.node or not cls.npm:
            raise unittest.SkipTest('node and npm are needed to run warcio '
                                    '(Node.js 18 or later)')
        cls.tools = os.path.join(ARGS.work, 'warcio')
        src = os.path.join(ARGS.source, 'tests', 'warcio')
        os.makedirs(cls.tools, exist_ok=True)
        for f in ('package.json', 'package-lock.json', 'check.mjs'):
            shutil.copy(os.path.join(src, f), cls.tools)
        if not os.path.exists(os.path.join(cls.tools, 'node_modules', 'warcio', 'package.json')):
            for attempt in range(3):
                r = subprocess.run([cls.npm, 'ci', '--no-audit', '--no-fund'], cwd=cls.tools,
                                   capture_output=True, text=True, timeout=300)
                if r.returncode == 0:
                    break
                time.sleep(5)
            else:
                raise AssertionError('npm ci of warcio failed:\n' + r.stderr[-2000:])
        # A small web: pages, a 404, a folder served by its index.
        names = ['p%d.html' % i for i in range(8)]
        files = {name: ('<html><head><title>%s</title></head><body><p>Archived page %s, '
                        'caf\u00e9 \u4e2d\u6587.</p>%s<p><a href="missing.html">gone</a></p>'
                        '<p><a href="/folder">folder</a></p></body></html>\n'
                        % (name, name, ''.join('<a href="%s">%s</a> ' % (n, n) for n in names)))
                 for name in names}
        files['folder/index.html'] = '<html><body><p>The folder page.</p></body></html>\n'
        cls.dir, cls.web = serve_one_site('web-warcio', 'archive.test', files)
        cls.out = os.path.join(ARGS.work, 'crawl-warcio')
        shutil.rmtree(cls.out, ignore_errors=True)
        config = cls.out + '.textproto'
        write_config(config, cls.web, {'archive.test': None}, ['http://archive.test/p0.html'],
                     cls.out, extra='politeness { per_host_delay_ms: 0 }')
        run_worker(config)
        warc_dir = os.path.join(cls.out, 'warc')
        cls.warcs = sorted(os.path.join(warc_dir, f) for f in os.listdir(warc_dir)
                           if f.endswith('.warc.gz'))

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, 'web'):
            cls.web.stop()

    def run_node(self, *args):
        r = subprocess.run([self.node] + list(args), cwd=self.tools, capture_output=True,
                           text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        return r.stdout

    def test_warcio_reads_every_record_and_digest(self):
        self.assertTrue(self.warcs)
        result = json.loads(self.run_node('check.mjs', *self.warcs))
        self.assertEqual(result['errors'], [])
        # warcinfo + a request and a response per fetch (robots.txt and
        # missing.html, both 404, 8 pages and /folder).
        self.assertEqual(result['responses'], 11, result)
        self.assertEqual(result['records'], len(self.warcs) + 2 * result['responses'])
        # The checker itself catches a wrong digest.
        bad = os.path.join(self.tools, 'bad.warc')
        block = b'software: x\r\n'
        with open(bad, 'wb') as f:
            f.write(b'WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:1>\r\n'
                    b'WARC-Date: 2026-01-01T00:00:00Z\r\nContent-Type: application/warc-fields\r\n'
                    b'WARC-Block-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n'
                    b'Content-Length: %d\r\n\r\n%s\r\n\r\n' % (len(block), block))
        self.assertEqual(len(json.loads(self.run_node('check.mjs', bad))['errors']), 1)

    def test_cdxj_index_matches_warcio(self):
        cli = os.path.join(self.tools, 'node_modules', 'warcio', 'dist', 'cli.js')
        for warc in self.warcs:
            ours = warc[:-len('.warc.gz')] + '.cdxj'
            with open(ours) as f:
                our_lines = [line for line in f.read().split('\n') if line]
            self.assertEqual(our_lines, sorted(our_lines), 'the index is sorted')
            theirs = [line for line in self.run_node(cli, 'cdx-index', warc).split('\n') if line]

            def parsed(lines):
                out = []
                for line in lines:
                    key, stamp, rest = line.split(' ', 2)
                    out.append((key, stamp, json.loads(rest)))
                return sorted(out, key=lambda t: (t[0], t[1], t[2]['offset']))
            self.assertEqual(parsed(our_lines), parsed(theirs))
            self.assertTrue(any(j['status'] == '404' for _, _, j in parsed(our_lines)))


if __name__ == '__main__':
    run()

#!/usr/bin/python3
"""A crawl of the kind of site a 1990s web is made of, on nginx (loopback).

  old_html_crawl_test.py WORKER --work DIR

One site whose home page is a frameset (no <a> at all: the menu and the
page are frames), a page that "has moved" and sends its reader on with
<meta http-equiv="refresh">, a page with an <iframe> of its own site and
one of an ad server, and an HTML file without an extension (served as
application/octet-stream, as old servers served such files as text/plain)
and one such file kept with the headers its server sent above the page.
A folder linked without its slash (/people: nginx serves its index there,
where its relative links miss) is a near-duplicate of /people/, reached
later; the copy's links must be followed all the same. The worker crawls
it with the default strategy and with bfs; every page reachable through
frames, the refresh, the same-site iframe, the extensionless file and the
copy in its own folder must be fetched, the ad server's never.
"""

import argparse
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

WORKER = None
WORK = None
HOST = 'www.cs.old-uni.test'
ADS = 'ads.old-uni.test'

PAGES = {
    # The home page: frames only.
    'index.html': '<HTML><HEAD><TITLE>Computer Sciences</TITLE></HEAD>\n'
                  '<FRAMESET COLS="20%,80%"><FRAME SRC="menu.html" NAME=menu>'
                  '<FRAME SRC="welcome.html" NAME=main></FRAMESET></HTML>\n',
    'menu.html': '<HTML><BODY><A HREF="courses/" TARGET=main>Courses</A><BR>'
                 '<A HREF="people" TARGET=main>People</A><BR>'
                 '<A HREF="old-people.html" TARGET=main>Staff</A></BODY></HTML>\n',
    'welcome.html': '<HTML><BODY><H1>Welcome</H1>The department offers courses '
                    'in programming, systems and theory.</BODY></HTML>\n',
    'courses/index.html': '<HTML><BODY><H1>Courses</H1><UL>'
                          '<LI><A HREF="cs302.html">CS 302 Introduction to '
                          'Programming</A></UL>'
                          '<IFRAME SRC="/schedule.html"></IFRAME>'
                          '<IFRAME SRC="http://%s/banner.html"></IFRAME>'
                          '</BODY></HTML>\n' % ADS,
    'courses/cs302.html': '<HTML><BODY><H1>CS 302</H1>Lecture notes, homework '
                          'and the syllabus.</BODY></HTML>\n',
    'schedule.html': '<HTML><BODY>Lectures MWF 9:55 in 1221 CS.</BODY></HTML>\n',
    # Moved: the reader is sent on after two seconds.
    'old-people.html': '<HTML><HEAD><META HTTP-EQUIV="Refresh" '
                       'CONTENT="2; URL=http://%s/people/"></HEAD>'
                       '<BODY>This page has moved.</BODY></HTML>\n' % HOST,
    # Reached first as /people (no slash: nginx serves the folder's index
    # there, and its relative links name /staff-list, which is not there),
    # then as /people/ through the refresh: a near-duplicate of /people
    # whose links must still be followed.
    'people/index.html': '<HTML><BODY><H1>People</H1><P>%s</P>Faculty and '
                         '<A HREF="staff-list">staff</A>, '
                         '<A HREF="paper.ps">a paper</A>.</BODY></HTML>\n' % (
                             ' '.join('The department has %d faculty members '
                                      'in room %d of the building.' % (i, 100 + i)
                                      for i in range(8))),
    # No extension: nginx says application/octet-stream, as old servers
    # said text/plain; the bytes are HTML.
    'people/staff-list': '<HTML><BODY><A HREF="../staff/office.html">Office'
                         '</A></BODY></HTML>\n',
    'people/paper.ps': '%!PS-Adobe-2.0\n<A HREF="../never.html">\n',
    'staff/office.html': '<HTML><BODY>Room 5390, <A HREF="saved">saved'
                         '</A>.</BODY></HTML>\n',
    # A page kept as its server sent it, headers first (as old crawl
    # archives keep pages), in a file without an extension.
    'staff/saved': 'MIME-Version: 1.0\nServer: CERN/3.0\n'
                   'Date: Sunday, 24-Nov-96 22:06:48 GMT\n'
                   'Content-Type: text/html\n\n'
                   '<HTML><BODY><A HREF="hours.html">Hours</A></BODY></HTML>\n',
    'staff/hours.html': '<HTML><BODY>9 to 5.</BODY></HTML>\n',
}
REACHABLE = {'/', '/menu.html', '/welcome.html', '/courses/', '/people',
             '/courses/cs302.html', '/schedule.html', '/old-people.html',
             '/people/', '/people/staff-list', '/people/paper.ps',
             '/staff/office.html', '/staff/saved', '/staff/hours.html'}


class OldHtmlCrawlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.web = os.path.join(WORK, 'web')
        write_sites(cls.web, {HOST: PAGES, ADS: {'banner.html': '<p>Buy!</p>\n'}})
        cls.testweb = TestWeb(cls.web)
        cls.port = cls.testweb.start()

    @classmethod
    def tearDownClass(cls):
        cls.testweb.stop()

    def crawl(self, strategy):
        out = os.path.join(WORK, 'crawl-' + (strategy or 'default'))
        shutil.rmtree(out, ignore_errors=True)
        config = os.path.join(WORK, 'config-%s.textproto' % (strategy or 'default'))
        with open(config, 'w') as f:
            f.write('seeds: "http://%s/"\n' % HOST)
            f.write('topic { keywords: "course" keywords: "lecture" '
                    'keywords: "syllabus" }\n')
            if strategy:
                f.write('strategy { name: "%s" }\n' % strategy)
            f.write('budget { max_pages: 50 }\n'
                    'politeness { per_host_delay_ms: 0 }\n'
                    'output_dir: "%s"\n'
                    'allow_private_addresses: true\n' % out)
            for host in (HOST, ADS):
                f.write('resolve { host_port: "%s" address: "127.0.0.1:%d" }\n'
                        % (host, self.port))
        r = subprocess.run([WORKER, 'crawl', '--config', config, '--quiet'],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        fetched = {}
        with open(os.path.join(out, 'fetch_log.jsonl')) as f:
            for line in f:
                rec = json.loads(line)
                fetched[rec['url']] = rec.get('status')
        return fetched

    def check(self, strategy):
        fetched = self.crawl(strategy)
        mine = {u.split(HOST, 1)[1]: s for u, s in fetched.items()
                if u.startswith('http://%s/' % HOST)}
        for path in REACHABLE:
            self.assertEqual(mine.get(path), 200, '%s not fetched by %s: %s'
                             % (path, strategy or 'the default', sorted(fetched)))
        self.assertFalse([u for u in fetched if ADS in u],
                         'an ad server\'s iframe was fetched: %s' % sorted(fetched))
        # A PostScript file is not parsed for links, whatever its bytes hold.
        self.assertNotIn('/never.html', mine)

    def test_default_strategy(self):
        self.check('')

    def test_bfs(self):
        self.check('bfs')


def main():
    global WORKER, WORK
    ap = argparse.ArgumentParser()
    ap.add_argument('worker')
    ap.add_argument('--work', required=True)
    args, rest = ap.parse_known_args()
    WORKER = os.path.abspath(args.worker)
    WORK = os.path.abspath(args.work)
    os.makedirs(WORK, exist_ok=True)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()

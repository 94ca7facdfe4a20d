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
copy in its own folder must be fetched, the ad server's never. The course
page links three sub-pages that are gone: `worker list-outcomes` shows
their folder as the default strategy counted it (fetches, no page, a
weight below 1).
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
    # Its sub-pages are gone, as an old course's errata and solutions are.
    'courses/cs302.html': '<HTML><BODY><H1>CS 302</H1>Lecture notes, homework '
                          'and the syllabus: <A HREF="cs302/errata.html">errata'
                          '</A>, <A HREF="cs302/hw2-sol.html">solutions</A>, '
                          '<A HREF="cs302/lecture7.html">lecture 7</A>.'
                          '</BODY></HTML>\n',
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

    def out_of(self, strategy):
        return os.path.join(WORK, 'crawl-' + (strategy or 'default'))

    def crawl(self, strategy, extra=(), name=None):
        name = name or strategy
        out = self.out_of(name)
        shutil.rmtree(out, ignore_errors=True)
        config = os.path.join(WORK, 'config-%s.textproto' % (name or 'default'))
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
        r = subprocess.run([WORKER, 'crawl', '--config', config, '--quiet',
                            *extra],
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

    def list_outcomes(self, strategy, host='all'):
        return subprocess.run(
            [WORKER, 'list-outcomes', host,
             '--db', os.path.join(self.out_of(strategy), 'db')],
            capture_output=True, text=True, timeout=60)

    def test_judge_inputs_are_judged_again_as_the_crawl_did(self):
        # One parse thread: the judge learns in the order the file records.
        inputs = os.path.join(WORK, 'judge_inputs.jsonl')
        if os.path.exists(inputs):
            os.remove(inputs)
        self.crawl('', ['--judge_inputs', inputs, '--parse_threads', '1'],
                   name='judged')
        config = os.path.join(WORK, 'config-judged.textproto')
        crawled = {}
        with open(os.path.join(self.out_of('judged'), 'pages.jsonl')) as f:
            for line in f:
                rec = json.loads(line)
                crawled[rec.get('fetched_url') or rec['url']] = rec['on_topic']
        r = subprocess.run([WORKER, 'judge', '--config', config, inputs],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        again = {}
        for line in r.stdout.splitlines():
            v = json.loads(line)
            again[v['url']] = v['on_topic']
        self.assertEqual(again, crawled)
        self.assertTrue(any(again.values()), again)
        self.assertFalse(all(again.values()), again)
        self.assertEqual(json.loads(r.stderr)['pages'], len(crawled))
        # Another threshold on the same inputs; a damaged line is skipped.
        with open(config) as f:
            text = f.read().replace('topic {', 'topic { judge { threshold: 0 }', 1)
        lenient = os.path.join(WORK, 'config-lenient.textproto')
        with open(lenient, 'w') as f:
            f.write(text)
        with open(inputs, 'a') as f:
            f.write('{"url": 7, "terms": \n')
        r = subprocess.run([WORKER, 'judge', '--config', lenient, inputs],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(all(json.loads(l)['on_topic'] for l in r.stdout.splitlines()))
        summary = json.loads(r.stderr)
        self.assertEqual((summary['pages'], summary['bad_lines']), (len(crawled), 1))
        # Without a topic there is nothing to judge against: a usage error.
        notopic = os.path.join(WORK, 'config-notopic.textproto')
        with open(notopic, 'w') as f:
            f.write('seeds: "http://%s/"\nstrategy { name: "bfs" }\n' % HOST)
        r = subprocess.run([WORKER, 'judge', '--config', notopic, inputs],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn('no topic', r.stderr)

    def test_default_strategy(self):
        self.check('')
        with open(os.path.join(self.out_of(''), 'fetch_log.jsonl')) as f:
            log = [json.loads(line) for line in f]
        gone = [e for e in log if '/courses/cs302/' in e['url']]
        self.assertEqual(len(gone), 3, [e['url'] for e in log])
        self.assertTrue(all(e['status'] == 404 for e in gone), gone)
        r = self.list_outcomes('')
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertTrue(lines[0].startswith('host %s: ' % HOST), r.stdout)
        # "fetches pages P(page) weight folder" rows.
        rows = {l.split()[-1]: l.split()[:4] for l in lines
                if l.strip().endswith('/') and l.split()[0].isdigit()}
        fetches, pages, p_gone, weight = rows['/courses/cs302/']
        self.assertEqual((int(fetches), int(pages)), (3, 0), r.stdout)
        fetches, pages, p_courses, _ = rows['/courses/']
        self.assertGreaterEqual(int(pages), 2, r.stdout)  # index and cs302.html
        # A new link into the gone folder is worth less than one beside the
        # course pages: 3 fetches without a page, shrunk towards /courses/
        # (strength 2): P = 2·P(/courses/ outside it)/5.
        self.assertLess(float(p_gone), float(p_courses), r.stdout)
        self.assertLess(float(weight), 1, r.stdout)
        # Asked for the one host (in any case): the same listing.
        self.assertEqual(self.list_outcomes('', HOST.upper()).stdout, r.stdout)
        r = self.list_outcomes('', 'nowhere.test')
        self.assertEqual(r.returncode, 1)
        self.assertIn("no fetch outcomes stored for host 'nowhere.test'", r.stderr)

    def test_bfs(self):
        self.check('bfs')
        # bfs learns nothing of outcomes.
        r = self.list_outcomes('bfs')
        self.assertEqual(r.returncode, 1)
        self.assertIn('no fetch outcomes stored', r.stderr)


def main():
    global WORKER, WORK
    WORKER, WORK, argv = testlib.worker_test_args()
    unittest.main(argv=argv, verbosity=2)


if __name__ == '__main__':
    main()

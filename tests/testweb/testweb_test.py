#!/usr/bin/python3
"""Tests of the test web: generator output, nginx serving, traps, labels.

  testweb_test.py [--source PROJECT_DIR] [--work DIR] [unittest options]

--work (default: a folder in the system temp dir) receives the generated
webs. The Wikispeedia part needs PROJECT_DIR/../shared/data/wikispeedia.tar.xz,
the MDN part PROJECT_DIR/../shared/data/mdn-archive.tar.xz; each is skipped
with a message when its data is absent.
"""

import argparse
import collections
import hashlib
import html.parser
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from testweb import NGINX_SH, TestWeb, generate  # noqa: E402

SOURCE = os.path.normpath(os.path.join(HERE, '..', '..'))
WORK = None


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ('href', 'src') and v:
                self.links.append(v)

    def handle_data(self, data):
        self.text.append(data)


def shared_data(name, what):
    """The path of ../shared/data/NAME beside the project; skips the test
    class with a message naming the path when it is absent."""
    path = os.path.normpath(os.path.join(SOURCE, '..', 'shared', 'data', name))
    if not os.path.isfile(path):
        raise unittest.SkipTest('%s not found at %s: skipping %s' % (name, path, what))
    return path


def parse(body, base):
    p = Links()
    p.feed(body.decode('utf-8'))
    return [urllib.parse.urljoin(base, x) for x in p.links], ' '.join(''.join(p.text).split())


def pid_alive(pid):
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def port_open(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(('127.0.0.1', port)) == 0


def tree_digest(root):
    h = hashlib.sha256()
    for d, dirs, files in os.walk(root):      # top-down: pruning dirs skips .nginx
        dirs.sort()
        if '.nginx' in dirs:
            dirs.remove('.nginx')
        for f in sorted(files):
            if f in ('manifest.json', 'sites.tsv'):     # these name the folder
                continue
            p = os.path.join(d, f)
            h.update(os.path.relpath(p, root).encode())
            with open(p, 'rb') as fh:
                h.update(fh.read())
    return h.hexdigest()


class SyntheticWebTest(unittest.TestCase):
    PAGES, HOSTS = 500, 10

    @classmethod
    def setUpClass(cls):
        cls.dir = os.path.join(WORK, 'synthetic')
        generate('synthetic', cls.dir, pages=cls.PAGES, hosts=cls.HOSTS, seed=3)
        cls.web = TestWeb(cls.dir)
        cls.web.start()
        with open(cls.web.pid_file) as f:
            cls.pid = int(f.read())

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()
        for _ in range(50):
            if not pid_alive(cls.pid):
                break
            time.sleep(0.1)
        assert not pid_alive(cls.pid), 'nginx master %d still running after stop' % cls.pid
        assert not port_open(cls.web.port), 'port %d still open after stop' % cls.web.port

    def article_urls(self):
        return sorted(self.web.labels())

    def test_sites_and_labels(self):
        sites = self.web.sites()
        self.assertEqual(len(sites), self.HOSTS + 1)          # + ads.test
        self.assertIn('ads.test', sites)
        labels = self.web.labels()
        self.assertEqual(len(labels), self.PAGES)
        for url, cats in labels.items():
            u = urllib.parse.urlsplit(url)
            self.assertIn(u.hostname, sites)
            self.assertTrue(os.path.isfile(sites[u.hostname] + u.path), url)
            self.assertEqual(len(cats), 1)
            self.assertEqual(u.path.split('/')[1], cats[0])     # /<topic>/<sub>/<page>.html
        # Every article file on disk is labelled.
        on_disk = set()
        for host, root in sites.items():
            for d, _, files in os.walk(root):
                rel = os.path.relpath(d, root).split(os.sep)
                if len(rel) == 2 and rel[0] not in ('calendar', 'private'):
                    on_disk.update('http://%s/%s/%s' % (host, '/'.join(rel), f)
                                   for f in files if not f.startswith('index'))
        self.assertEqual(on_disk, set(labels))

    def test_article_page_blocks(self):
        urls = self.article_urls()
        cross = 0
        for url in urls[::50]:
            r = self.web.fetch(url)
            self.assertEqual(r.status, 200, url)
            self.assertTrue(r.headers['content-type'].startswith('text/html'))
            for block in ('class="nav"', 'class="article"', 'class="related"', 'class="ads"',
                          'class="footer"', 'class="breadcrumb"', 'http://ads.test/ad/',
                          '/private/index.html', 'login.html?sid=', 'item.html?sid='):
                self.assertIn(block, r.text, url)
            links, _ = parse(r.body, url)
            host = urllib.parse.urlsplit(url).hostname
            cross += sum(1 for x in links if urllib.parse.urlsplit(x).hostname not in
                         (host, 'ads.test', 'click.adnet-nowhere.test', 'pixel.tracker.invalid'))
        for url in urls:
            host = urllib.parse.urlsplit(url).hostname
            r = self.web.fetch('http://%s/' % host)
            self.assertEqual(r.status, 200)
            self.assertIn('class="nav"', r.text)
            break
        # The link graph crosses hosts somewhere.
        labels_hosts = {urllib.parse.urlsplit(u).hostname for u in urls}
        self.assertGreater(len(labels_hosts), 1)

    def test_every_article_reachable_from_home(self):
        sites = self.web.sites()
        labels = set(self.web.labels())
        seen, pending = set(), ['http://%s/index.html' % h for h in sites if h != 'ads.test']
        while pending:
            url = pending.pop()
            if url in seen:
                continue
            seen.add(url)
            u = urllib.parse.urlsplit(url)
            if u.hostname not in sites or u.query or '/calendar/' in u.path or \
                    '/private/' in u.path or not u.path.endswith('.html'):
                continue
            path = sites[u.hostname] + u.path
            if not os.path.isfile(path):
                continue
            with open(path, 'rb') as f:
                links, _ = parse(f.read(), url)
            pending.extend(urllib.parse.urldefrag(x)[0] for x in links)
        self.assertEqual(labels - seen, set())

    def test_robots(self):
        sites = self.web.sites()
        delays = 0
        for host in sites:
            r = self.web.fetch('http://%s/robots.txt' % host)
            self.assertEqual(r.status, 200, host)
            self.assertTrue(r.headers['content-type'].startswith('text/plain'))
            self.assertRegex(r.text, r'(?im)^disallow: /private/')
            delays += 'crawl-delay' in r.text.lower()
            p = self.web.fetch('http://%s/private/index.html' % host)
            if host != 'ads.test':
                self.assertEqual(p.status, 200)            # there for a robot that ignores robots.txt
                links, _ = parse(p.body, 'http://%s/private/index.html' % host)
                self.assertIn('http://%s/private/staff-1.html' % host, links)
        self.assertGreater(delays, 0)

    def test_session_id_urls(self):
        host = sorted(self.web.sites())[1]
        a = self.web.fetch('http://%s/login.html?sid=aaaa' % host)
        b = self.web.fetch('http://%s/login.html?sid=%s' % (host, 'b' * 32))
        self.assertEqual(a.status, 200)
        self.assertEqual(a.body, b.body)
        plain = self.web.fetch('http://%s/login.html' % host)
        self.assertEqual(plain.body, a.body)
        # item.html: each response carries fresh session ids (SSI).
        x = self.web.fetch('http://%s/item.html?sid=1' % host)
        y = self.web.fetch('http://%s/item.html?sid=2' % host)
        self.assertEqual(x.status, 200)
        sx = re.findall(r'item\.html\?sid=([0-9a-f]{32})', x.text)
        sy = re.findall(r'item\.html\?sid=([0-9a-f]{32})', y.text)
        self.assertTrue(sx and sy)
        self.assertFalse(set(sx) & set(sy))
        strip = lambda t: re.sub(r'sid=[0-9a-f]{32}', 'sid=', t)
        self.assertEqual(strip(x.text), strip(y.text))
        self.assertNotIn('<!--#', x.text)

    def test_calendar_trap(self):
        sites = self.web.sites()
        hosts = [h for h in sites if os.path.isdir(os.path.join(sites[h], 'calendar'))]
        self.assertTrue(hosts)
        host = hosts[0]
        url = 'http://%s/calendar/index.html' % host
        r = self.web.fetch(url)
        self.assertEqual(r.status, 200)
        links, _ = parse(r.body, url)
        url = [x for x in links if re.search(r'/calendar/\d{4}/\d\d\.html$', x)][0]
        seen = []
        for _ in range(40):
            r = self.web.fetch(url)
            self.assertEqual(r.status, 200, url)
            seen.append(url)
            nxt = re.search(r'<a rel="next" href="([^"]+)"', r.text).group(1)
            url = urllib.parse.urljoin(url, nxt)
        self.assertEqual(len(set(seen)), 40)
        self.assertTrue(seen[1].endswith('/calendar/2007/02.html'), seen[1])
        months = sum(len(f) for _, _, f in os.walk(os.path.join(sites[host], 'calendar')))
        self.assertEqual(months, 600 + 1)

    def test_media(self):
        sites = self.web.sites()
        found = 0
        for host, root in sites.items():
            for d, _, files in os.walk(root):
                for f in files:
                    if f.endswith('.mp4'):
                        found += 1
                        if found == 1:
                            rel = os.path.relpath(os.path.join(d, f), root)
                            r = self.web.fetch('http://%s/%s' % (host, rel))
                            self.assertEqual(r.status, 200)
                            self.assertEqual(r.headers['content-type'], 'video/mp4')
                            mp3 = self.web.fetch('http://%s/%s' % (host, rel[:-4] + '.mp3'))
                            self.assertEqual(mp3.headers['content-type'], 'audio/mpeg')
                            swf = self.web.fetch('http://%s/%s' % (host, rel[:-4] + '.swf'))
                            self.assertEqual(swf.headers['content-type'],
                                             'application/x-shockwave-flash')
        self.assertGreater(found, 0)

    def test_not_found(self):
        host = sorted(self.web.sites())[-1]
        self.assertEqual(self.web.fetch('http://%s/no/such/page.html' % host).status, 404)
        self.assertEqual(self.web.fetch('http://unknown-host.test/index.html').status, 404)
        self.assertEqual(self.web.fetch('http://click.adnet-nowhere.test/c?id=1').status, 404)

    def test_access_log(self):
        self.web.fetch('http://ads.test/ad/1.html?ref=logcheck')
        for _ in range(20):
            entries = [e for e in self.web.log() if e.get('request_uri') == '/ad/1.html?ref=logcheck']
            if entries:
                break
            time.sleep(0.1)
        self.assertTrue(entries)
        e = entries[-1]
        self.assertEqual(e['host'], 'ads.test')
        self.assertEqual(e['status'], 200)
        self.assertGreater(e['msec'], 1e9)

    def test_start_is_idempotent(self):
        r = subprocess.run([NGINX_SH, 'start', self.dir], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(int(r.stdout), self.web.port)


class GeneratorTest(unittest.TestCase):
    def test_deterministic(self):
        a, b, c = (os.path.join(WORK, 'det-' + x) for x in 'abc')
        generate('synthetic', a, pages=120, hosts=4, seed=7)
        generate('synthetic', b, pages=120, hosts=4, seed=7)
        generate('synthetic', c, pages=120, hosts=4, seed=8)
        self.assertEqual(tree_digest(a), tree_digest(b))
        self.assertNotEqual(tree_digest(a), tree_digest(c))

    def test_stale_pid_file(self):
        d = os.path.join(WORK, 'stale')
        generate('synthetic', d, pages=30, hosts=2, seed=1)
        os.makedirs(os.path.join(d, '.nginx'), exist_ok=True)
        p = subprocess.Popen(['/bin/true'])
        p.wait()
        with open(os.path.join(d, '.nginx', 'nginx.pid'), 'w') as f:
            f.write('%d\n' % p.pid)                  # a pid that is gone
        with TestWeb(d) as web:
            self.assertEqual(web.fetch('http://ads.test/index.html').status, 200)
            with open(web.pid_file) as f:
                pid = int(f.read())
            self.assertNotEqual(pid, p.pid)
        for _ in range(50):
            if not pid_alive(pid):
                break
            time.sleep(0.1)
        self.assertFalse(pid_alive(pid))
        # stop again: nothing running, still fine
        r = subprocess.run([NGINX_SH, 'stop', d], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)


class AnchorLinks(html.parser.HTMLParser):
    """The href of every <a> (what a crawler follows), in document order."""

    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == 'a':
            for k, v in attrs:
                if k == 'href' and v:
                    self.hrefs.append(v)


class UniversityWebTest(unittest.TestCase):
    """The university web (generate.py university), small: its manifest,
    labels, where the on-topic pages are, their click depth from the seeds,
    the dead links, determinism, and nginx serving it."""

    PAGES, HOSTS, SEED = 1600, 80, 1
    KEYWORDS = ['course', 'syllabus', 'lecture', 'homework', 'assignment', 'exam',
                'grading', 'textbook', 'instructor', 'prerequisite', 'midterm']
    KINDS = {'course', 'student', 'faculty', 'staff', 'project', 'department', 'other'}

    @classmethod
    def setUpClass(cls):
        cls.dir = os.path.join(WORK, 'university')
        generate('university', cls.dir, pages=cls.PAGES, hosts=cls.HOSTS, seed=cls.SEED)
        with open(os.path.join(cls.dir, 'manifest.json')) as f:
            cls.manifest = json.load(f)
        web = TestWeb(cls.dir)
        cls.sites = web.sites()
        cls.labels = web.labels()
        with open(os.path.join(cls.dir, 'seeds.txt')) as f:
            cls.seeds = f.read().split()
        cls.graph = {}          # page URL -> distinct link targets (absolute, no fragment)
        for url in cls.labels:
            with open(cls.file_of(url), 'rb') as f:
                p = AnchorLinks()
                p.feed(f.read().decode('utf-8'))
            targets = []
            for href in p.hrefs:
                t = urllib.parse.urlsplit(urllib.parse.urljoin(url, href))
                if t.scheme != 'http':
                    continue                      # mailto:, news:, ftp:
                u = 'http://%s%s%s' % (t.hostname, t.path or '/', '?' + t.query if t.query else '')
                if u != url and u not in targets:
                    targets.append(u)
            cls.graph[url] = targets

    @classmethod
    def file_of(cls, url):
        """The file nginx serves for url (try_files $uri $uri/index.html), or None."""
        u = urllib.parse.urlsplit(url)
        root = cls.sites.get(u.hostname)
        if root is None:
            return None
        path = root + (u.path or '/')
        for p in ([path + 'index.html'] if path.endswith('/') else [path, path + '/index.html']):
            if os.path.isfile(p):
                return p
        return None

    def on_topic(self):
        return [u for u, c in self.labels.items() if c == ['course']]

    def test_manifest_counts(self):
        m, c = self.manifest, self.manifest['counts']
        self.assertEqual(m['mode'], 'university')
        self.assertEqual((m['pages'], m['hosts'], m['seed'], m['split']),
                         (self.PAGES, self.HOSTS, 1, 'dev'))
        self.assertEqual(m['keywords'], self.KEYWORDS)
        self.assertEqual(m['topic'], 'course')
        self.assertEqual(m['seeds'], self.seeds)
        self.assertEqual(len(self.seeds), 4)
        self.assertEqual(self.seeds[0], 'http://www.cs.uni1.test/')
        self.assertEqual(c['pages'], self.PAGES)
        self.assertEqual(len(self.labels), self.PAGES)
        self.assertEqual(m['article_pages'], self.PAGES)
        self.assertEqual(c['hosts'], self.HOSTS)
        self.assertEqual(len(self.sites), self.HOSTS)
        on = self.on_topic()
        self.assertEqual(c['on_topic'], len(on))
        self.assertGreaterEqual(len(on), 0.03 * self.PAGES)
        self.assertLessEqual(len(on), 0.04 * self.PAGES)
        kinds = {}
        for cats in self.labels.values():
            self.assertEqual(len(cats), 1)
            kinds[cats[0].split('.')[0]] = kinds.get(cats[0].split('.')[0], 0) + 1
        self.assertEqual(set(kinds), self.KINDS)
        self.assertEqual(c['labels'], kinds)
        # Hard negatives have labels of their own kind, never 'course...'.
        for neg in ('other.course-material', 'other.course-list', 'department.course-list'):
            self.assertIn(neg, c['hard_negatives'])
        self.assertFalse([x for x in self.labels.values() if x[0].startswith('course.')])

    def test_labels_cover_the_files(self):
        for url in self.labels:
            self.assertIsNotNone(self.file_of(url), url)
        on_disk = set()
        for host, root in self.sites.items():
            self.assertTrue(os.path.isfile(os.path.join(root, 'robots.txt')), host)
            for d, _, files in os.walk(root):
                for f in files:
                    if f.endswith('.html'):
                        p = os.path.join(d, f)
                        on_disk.add(p)
        self.assertEqual(on_disk, {self.file_of(u) for u in self.labels})
        for s in self.seeds:
            self.assertEqual(self.labels[s], ['department'])
        robots = []
        for root in self.sites.values():
            with open(os.path.join(root, 'robots.txt')) as f:
                robots.append(f.read())
        self.assertTrue(any(re.search(r'(?im)^disallow: /private/', x) for x in robots))
        self.assertTrue(any(not re.search(r'(?im)^disallow: /private/', x) for x in robots))

    def test_on_topic_on_seed_sites(self):
        # Half the departments are on two hostnames: the seed and a sibling
        # without "www" that serves its people's folders.
        siblings = self.manifest['counts']['sibling_hosts']
        self.assertEqual(len(siblings), 2)
        seeds = {urllib.parse.urlsplit(s).hostname for s in self.seeds}
        for host in siblings:
            self.assertIn('www.' + host, seeds)
            self.assertIn(host, self.sites)
        seed_hosts = seeds | set(siblings)
        on = self.on_topic()
        share = sum(urllib.parse.urlsplit(u).hostname in seed_hosts for u in on) / len(on)
        self.assertGreaterEqual(share, 0.65)
        self.assertLessEqual(share, 0.85)
        self.assertAlmostEqual(share, self.manifest['counts']['on_topic_seed_share'], places=2)
        on_sibling = sum(urllib.parse.urlsplit(u).hostname in siblings for u in on)
        self.assertGreater(on_sibling, 0)
        self.assertEqual(on_sibling, self.manifest['counts']['on_topic_sibling_hosts'])
        # A minority lives on other hosts, each small.
        other = {urllib.parse.urlsplit(u).hostname for u in on} - seed_hosts
        self.assertGreater(len(other), 3)
        for host in other:
            n = sum(urllib.parse.urlsplit(u).hostname == host for u in self.labels)
            self.assertLessEqual(n, 20, host)

    def test_click_depth(self):
        depth = {s: 0 for s in self.seeds}
        frontier = list(self.seeds)
        while frontier:
            nxt = []
            for url in frontier:
                for t in self.graph.get(url, ()):
                    if t not in depth and t in self.labels:
                        depth[t] = depth[url] + 1
                        nxt.append(t)
            frontier = nxt
        on = self.on_topic()
        self.assertEqual([u for u in on if u not in depth], [])
        d = sorted(depth[u] for u in on)
        self.assertGreaterEqual(d[0], 2)
        self.assertEqual(d[len(d) // 2], self.manifest['counts']['on_topic_click_depth']['median'])
        self.assertEqual(len(depth), self.PAGES)       # every page is reachable from the seeds

    def test_dead_links(self):
        links = dead = cross = cross_dead = 0
        for url, targets in self.graph.items():
            host = urllib.parse.urlsplit(url).hostname
            for t in targets:
                gone = self.file_of(t.split('?')[0]) is None
                links += 1
                dead += gone
                if urllib.parse.urlsplit(t).hostname != host:
                    cross += 1
                    cross_dead += gone
        share = dead / links
        self.assertGreaterEqual(share, 0.30)
        self.assertLessEqual(share, 0.50)
        self.assertGreater(cross_dead / cross, 0.5)                    # most links to other hosts
        self.assertGreater((dead - cross_dead) / (links - cross), 0.1)  # and some in-site links
        c = self.manifest['counts']
        self.assertEqual((links, dead), (c['links'], c['dead_links']))
        # Courses and people lose the most (30-55% of their links).
        for section in ('course', 'people'):
            self.assertGreaterEqual(c['section_dead_share'][section], 0.30, section)
            self.assertLessEqual(c['section_dead_share'][section], 0.55, section)
        # On half the department sites a course page links sub-pages that
        # are gone and have HTML names (errata, handouts, lecture notes).
        gone_html = collections.Counter()
        for url in self.on_topic():
            folder = url.rsplit('/', 1)[0] + '/'
            for t in self.graph[url]:
                if (t.startswith(folder) and t.endswith('.html') and
                        self.file_of(t) is None):
                    gone_html[urllib.parse.urlsplit(url).hostname] += 1
        self.assertGreaterEqual(max(gone_html.values()), 4 * 5)

    def test_html_and_word_forms(self):
        docs = {}
        for url in self.labels:
            with open(self.file_of(url), encoding='utf-8') as f:
                docs[url] = f.read()
        everything = '\n'.join(docs.values())
        for mark in ('<A HREF=', '<a href=', '<font', '<table', 'href="../', 'href="mailto:',
                     '#top"', '<P>', '<li>'):
            self.assertIn(mark, everything)
        on = self.on_topic()
        words = lambda u: set(re.findall(r'[a-z]+', re.sub('<[^>]*>', ' ', docs[u]).lower()))
        # Not every course page has the exact keyword: the forms vary.
        for k in ('homework', 'syllabus', 'textbook', 'prerequisite'):
            self.assertLess(sum(k in words(u) for u in on) / len(on), 0.9, k)
        forms = {f for f in ('Homeworks', 'Problem Sets', 'HW', 'Syllabi', 'Lecture Notes',
                             'Prereq', 'Assignments') if any(f in docs[u] for u in on)}
        self.assertGreaterEqual(len(forms), 4, forms)
        self.assertTrue(any(re.search(r'\b[A-Z]{2,5} ?\d{3}\b', docs[u]) for u in on))
        faculty = [u for u, c in self.labels.items() if c == ['faculty']]
        self.assertTrue(any(re.search(r'\b(taught|teaches)\b', docs[u]) for u in faculty))
        # Hard negatives that use most of the topic's words: a third or more
        # of a course's material pages name 5 of the 11 keywords' stems, as
        # most course pages do.
        stems = ('course', 'syllab', 'lectur', 'homework', 'assignment', 'exam', 'grading',
                 'textbook', 'instructor', 'prerequisite', 'midterm')
        uses = lambda u: sum(x in re.sub('<[^>]*>', ' ', docs[u]).lower() for x in stems)
        material = [u for u, c in self.labels.items() if c == ['other.course-material']]
        self.assertGreaterEqual(sum(uses(u) >= 5 for u in material) / len(material), 0.3)
        self.assertGreaterEqual(sum(uses(u) >= 5 for u in on) / len(on), 0.6)

    def test_deterministic(self):
        b = os.path.join(WORK, 'university-b')
        c = os.path.join(WORK, 'university-c')
        generate('university', b, pages=self.PAGES, hosts=self.HOSTS, seed=self.SEED)
        generate('university', c, pages=self.PAGES, hosts=self.HOSTS, seed=2)
        self.assertEqual(tree_digest(self.dir), tree_digest(b))
        self.assertNotEqual(tree_digest(self.dir), tree_digest(c))
        with open(os.path.join(c, 'manifest.json')) as f:
            held = json.load(f)
        self.assertEqual(held['split'], 'held-out')
        self.assertFalse(set(held['seeds']) & set(self.seeds))
        self.assertEqual(held['counts']['pages'], self.PAGES)

    def test_course_rot_options(self):
        # --course-rot-share 1 --course-rot-links 15,30: every department's
        # course pages link 15-30 gone sub-pages, so the course section
        # loses more of its links than the dev split's; the labels (what
        # is there) are the same pages.
        r = os.path.join(WORK, 'university-rot')
        generate('university', r, pages=self.PAGES, hosts=self.HOSTS, seed=self.SEED,
                 course_rot_share=1, course_rot_links='15,30')
        with open(os.path.join(r, 'manifest.json')) as f:
            manifest = json.load(f)
        self.assertEqual((manifest['course_rot_share'], manifest['course_rot_links']),
                         (1, [15, 30]))
        self.assertEqual((self.manifest['course_rot_share'], self.manifest['course_rot_links']),
                         (0.5, [4, 14]))
        rot = manifest['counts']['section_dead_share']
        dev = self.manifest['counts']['section_dead_share']
        self.assertGreater(rot['course'], dev['course'] + 0.05, (rot, dev))
        with open(os.path.join(r, 'labels.tsv')) as a, \
                open(os.path.join(self.dir, 'labels.tsv')) as b:
            self.assertEqual(a.read(), b.read())
        with self.assertRaises(RuntimeError):
            generate('university', r, pages=self.PAGES, hosts=self.HOSTS,
                     course_rot_links='30,15')

    def test_frameset_seeds(self):
        # --frameset-seeds: each seed's home page is the one frame of a
        # frameset home page; nothing else changes.
        f = os.path.join(WORK, 'university-frames')
        generate('university', f, pages=self.PAGES, hosts=self.HOSTS, seed=self.SEED,
                 frameset_seeds=True)
        for seed in self.seeds:
            host = urllib.parse.urlsplit(seed).hostname
            with open(os.path.join(f, 'sites', host, 'index.html')) as h:
                home = h.read()
            self.assertIn('<FRAME SRC="main.html"', home)
            self.assertNotIn('<A ', home.upper())
            with open(os.path.join(f, 'sites', host, 'main.html')) as h, \
                    open(os.path.join(self.dir, 'sites', host, 'index.html')) as o:
                self.assertEqual(h.read(), o.read())
        with open(os.path.join(f, 'labels.tsv')) as a, \
                open(os.path.join(self.dir, 'labels.tsv')) as b:
            self.assertEqual(a.read(), b.read())

    def test_served(self):
        with TestWeb(self.dir) as web:
            r = web.fetch(self.seeds[0])
            self.assertEqual(r.status, 200)
            self.assertIn('Department of', r.text)
            self.assertEqual(web.fetch(self.on_topic()[0]).status, 200)
            robots = web.fetch(self.seeds[0] + 'robots.txt')
            self.assertEqual(robots.status, 200)
            gone = [t for t in self.graph[self.seeds[0]] if self.file_of(t.split('?')[0]) is None]
            self.assertTrue(gone)
            for t in gone:
                self.assertIn(web.fetch(t).status, (403, 404), t)
            self.assertEqual(web.fetch('http://www.cs.uni999999.test/').status, 404)


class WikispeediaWebTest(unittest.TestCase):
    SUN = 'http://science.wiki.test/physics/space-astronomy/Sun.html'

    @classmethod
    def setUpClass(cls):
        cls.data = shared_data('wikispeedia.tar.xz', 'the Wikispeedia test web')
        cls.dir = os.path.join(WORK, 'wikispeedia')
        t0 = time.time()
        cls.summary = generate('wikispeedia', cls.dir, data=cls.data)
        print('\nwikispeedia web: %s (%.1f s)' % (cls.summary, time.time() - t0),
              file=sys.stderr)
        cls.web = TestWeb(cls.dir)
        cls.web.start()

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()

    def test_size(self):
        labels = self.web.labels()
        self.assertGreater(len(labels), 4500)
        self.assertLess(len(labels), 4700)
        sites = self.web.sites()
        self.assertGreaterEqual(len(sites), 15)
        self.assertLessEqual(len(sites), 18)
        for url in list(labels)[::97]:
            u = urllib.parse.urlsplit(url)
            self.assertTrue(os.path.isfile(sites[u.hostname] + u.path), url)

    def test_labels(self):
        labels = self.web.labels()
        self.assertEqual(labels[self.SUN], ['subject.Science.Physics.Space_Astronomy'])
        physics = [u for u, c in labels.items()
                   if any(x.startswith('subject.Science.Physics') for x in c)]
        self.assertGreater(len(physics), 150)
        # An article lives on the site of its first category.
        for url, cats in list(labels.items())[::50]:
            if cats:
                subject = cats[0].split('.')[1].lower().replace('_', '-')
                self.assertEqual(urllib.parse.urlsplit(url).hostname, subject + '.wiki.test')

    def test_sun_page(self):
        r = self.web.fetch(self.SUN)
        self.assertEqual(r.status, 200)
        links, text = parse(r.body, self.SUN)
        self.assertIn('The Sun is the star of our solar system.', text)
        self.assertIn('About 74% of the Sun\'s mass is hydrogen', text)
        labels = self.web.labels()
        by_name = {u.rsplit('/', 1)[1]: u for u in labels}
        for target in ('Earth.html', 'Solar_System.html', 'Hydrogen.html', 'Sunlight.html'):
            self.assertIn(by_name[target], links, target)
        self.assertIn('http://geography.wiki.test/climate-and-the-weather/Sunlight.html', links)
        for block in ('class="nav"', 'class="article"', 'class="related"', 'class="ads"',
                      'class="footer"'):
            self.assertIn(block, r.text)
        # Links placed in the text: "<a ...>star</a> of our"
        self.assertRegex(r.text, r'The Sun is the <a href="[^"]*Star\.html"[^>]*>star</a>')
        # A cross-site link resolves on its site.
        self.assertEqual(self.web.fetch(
            'http://geography.wiki.test/climate-and-the-weather/Sunlight.html').status, 200)

    def test_site_furniture(self):
        for host in ('science.wiki.test', 'geography.wiki.test'):
            self.assertEqual(self.web.fetch('http://%s/' % host).status, 200)
            robots = self.web.fetch('http://%s/robots.txt' % host)
            self.assertRegex(robots.text, r'(?im)^disallow: /private/')
            self.assertEqual(self.web.fetch('http://%s/calendar/2030/05.html' % host).status, 200)
            self.assertEqual(self.web.fetch('http://%s/physics/index.html' % host).status,
                             200 if host.startswith('science') else 404)
        sites = self.web.sites()
        media = [d for h, root in sites.items() for d, _, f in os.walk(root)
                 if d.endswith('/media') and any(x.endswith('.mp4') for x in f)]
        self.assertGreaterEqual(len(media), 15)


class MdnWebTest(unittest.TestCase):
    """The archived MDN web served as it was (gen_mdn.py): needs
    ../shared/data/mdn-archive.tar.xz."""
    HOST = 'http://developer.mozilla.org'
    SM = HOST + '/en-US/docs/Mozilla/Projects/SpiderMonkey'

    @classmethod
    def setUpClass(cls):
        cls.data = shared_data('mdn-archive.tar.xz', 'the MDN test web')
        cls.dir = os.path.join(WORK, 'mdn')
        t0 = time.time()
        cls.summary = generate('mdn', cls.dir, data=cls.data)
        print('\nmdn web: %s (%.1f s)' % (cls.summary, time.time() - t0), file=sys.stderr)
        cls.web = TestWeb(cls.dir)
        cls.web.start()

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()

    def test_labels_from_tags(self):
        labels = self.web.labels()
        self.assertGreater(len(labels), 8000)
        self.assertIn('en-us.tag.spidermonkey', labels[self.SM])
        zh = [u for u in labels if u.startswith(self.HOST + '/zh-CN/docs/')]
        self.assertGreater(len(zh), 800)
        # Tags of Chinese pages carry their locale.
        self.assertTrue(all(c.startswith('zh-cn.') for u in zh for c in labels[u]))
        fos = [u for u, c in labels.items() if 'en-us.tag.firefox-os' in c]
        self.assertGreater(len(fos), 900)

    def test_header_stripped(self):
        r = self.web.fetch(self.SM)
        self.assertEqual(r.status, 200)
        title = 'SpiderMonkey: The Mozilla JavaScript runtime'
        self.assertIn('<title>%s - ' % title, r.text)
        self.assertIn('<h1>%s</h1>' % title, r.text)
        self.assertIn('<link rel="canonical" href="%s">' % self.SM, r.text)
        # Neither the YAML header nor its tags reach the HTML.
        self.assertNotIn('---', r.text[:200])
        self.assertNotRegex(r.text, r'(?m)^(slug|tags|title):')
        self.assertNotIn('  - ', r.text)
        links, text = parse(r.body, self.SM)
        self.assertTrue(any(u.startswith(self.HOST + '/en-US/docs/') for u in links))
        # Absolute links to MDN itself are made relative (served over http).
        self.assertFalse(any(u.startswith('https://developer.mozilla.org/') for u in links))

    def test_case_insensitive(self):
        for url in (self.SM, self.SM + '/', self.HOST + '/EN-us/DOCS/mozilla/projects/spidermonkey'):
            r = self.web.fetch(url)
            self.assertEqual(r.status, 200, url)
            self.assertIn('<h1>SpiderMonkey: The Mozilla', r.text)
        # A path with non-ASCII characters (UTF-8, percent-encoded).
        zh = [u for u in self.web.labels() if '%E7%A8%8B%E5%BA%8F' in u]
        self.assertTrue(zh)
        self.assertEqual(self.web.fetch(zh[0]).status, 200, zh[0])

    def test_redirect(self):
        with open(os.path.join(self.dir, 'nginx', 'redirects.map'), encoding='utf-8') as f:
            frm, to = re.match(r'"(/en-US/docs/[^"\\]+)" "([^"]+)";', next(
                line for line in f if line.startswith('"/en-US/docs/S'))).groups()
        r = self.web.fetch(self.HOST + urllib.parse.quote(frm))
        self.assertEqual(r.status, 301, frm)
        self.assertEqual(r.headers['location'], to)
        # MDN's redirects are case-insensitive too.
        self.assertEqual(self.web.fetch(self.HOST + urllib.parse.quote(frm.upper())).status, 301)

    def test_not_found(self):
        for url in (self.HOST + '/en-US/docs/No/Such/Page', self.HOST + '/en-US/docs/Web',
                    self.HOST + '/_pages/en-us/home.html'):
            r = self.web.fetch(url)
            self.assertEqual(r.status, 404, url)
            self.assertIn('Page not found', r.text)
            self.assertLess(len(r.body), 2000)
        # Other hosts linked from the pages are dead.
        self.assertEqual(self.web.fetch('http://bugzilla.mozilla.org/').status, 404)

    def test_locale_homes(self):
        for loc in ('en-US', 'zh-CN'):
            r = self.web.fetch('%s/%s/' % (self.HOST, loc))
            self.assertEqual(r.status, 200)
            links, _ = parse(r.body, '%s/%s/' % (self.HOST, loc))
            self.assertGreater(len(links), 50)
        with open(os.path.join(self.dir, 'seeds.txt')) as f:
            self.assertEqual(f.read().split(), [self.HOST + '/en-US/', self.HOST + '/zh-CN/'])

    def test_deterministic(self):
        other = os.path.join(WORK, 'mdn-again')
        generate('mdn', other, data=self.data)

        def digest(root):
            paths = []
            for d, dirs, files in os.walk(root):
                if '.nginx' in dirs:
                    dirs.remove('.nginx')   # nginx's own state while serving
                paths += [os.path.join(d, name) for name in files
                          if name not in ('http.conf', 'sites.tsv', 'manifest.json')]
            h = hashlib.sha256()   # http.conf and sites.tsv hold absolute paths
            for p in sorted(paths):
                h.update(os.path.relpath(p, root).encode())
                with open(p, 'rb') as f:
                    h.update(f.read())
            return h.hexdigest()
        self.assertEqual(digest(self.dir), digest(other))
        shutil.rmtree(other, ignore_errors=True)


def main():
    global WORK, SOURCE
    ap = argparse.ArgumentParser()
    ap.add_argument('--source', default=SOURCE)
    ap.add_argument('--work', default=None)
    args, rest = ap.parse_known_args()
    SOURCE = os.path.abspath(args.source)
    if args.work:
        WORK = os.path.abspath(args.work)
        os.makedirs(WORK, exist_ok=True)
        cleanup = False
    else:
        WORK = tempfile.mkdtemp(prefix='testweb-')
        os.chmod(WORK, 0o755)
        cleanup = True
    try:
        unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
    finally:
        if cleanup:
            shutil.rmtree(WORK, ignore_errors=True)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""The crawl as a cluster: a real `coordinator` and real `worker join`
processes on loopback, driven by `crawlctl`, crawling the nginx test web.

  cluster_test.py --bin BUILD_DIR --source SRC --work DIR [TestCase ...]

- StaticClusterTest: 3 workers crawl with bfs and an unlimited budget; the
  fetched URLs equal a single `worker crawl` crawl's; no URL fetched
  twice; every host fetched by exactly one worker. Then ssaps with a page
  budget: never more pages than the budget. /metrics parses as Prometheus
  text; /status and /status.json answer. The fetch outcomes (404s, robots,
  on topic and on-topic hosts) of the single worker's summary and of the
  cluster's status are plausible.
- ScaleTest: 2 → 4 → 1 workers during a crawl: no URL lost or fetched
  twice, and no host fetched by two workers at the same time.
- KillTest: a worker killed with SIGKILL mid-crawl (its hosts move when its
  lease expires) comes back on its folder; the crawl completes with the same
  URLs.
- CoordinatorRestartTest: the coordinator killed with SIGKILL mid-crawl and
  started again on its folder; the crawl completes with the same URLs.
- RedirectTest: a redirect to another worker's host is fetched by that
  host's owner.
- TlsClusterTest: TLS and a token between every process (a test CA made
  by openssl): a crawl completes; crawlctl and a worker without the CA
  are refused; a Python grpcio client talks to the coordinator over TLS.
- KubernetesManifestTest: deploy/k8s/crawl-cluster.yaml's shape, and its
  containers' commands (paths, Secrets and Service names mapped to this
  machine) run a crawl.
- DirectRouteTest: routed links go from worker to worker while the
  coordinator is stopped (SIGSTOP): it is not on the data path.
- OutboxTest: the links a worker routed to other workers while the
  coordinator was down survive a SIGKILL of that worker (its outbox is in
  its database); each linked once, so none is found again another way.
- FeedbackTest: a topic-pagerank crawl paused, exported with `crawlctl
  export`, ranked with `ranker run`, the ranks pushed with `crawlctl
  push-ranks`: the owners store them and re-score queued URLs; the crawl
  then resumes and ends within its budget.
- PythonClientTest: Debian's python3-grpcio with stubs generated from proto/
  at test time: StartCrawl, GetStatus, gRPC health checking and server
  reflection; a cluster with a token refuses calls without it
  (UNAUTHENTICATED).
"""

import argparse
import collections
import importlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

import cluster_harness
from cluster_harness import (Cluster, free_port, host_of, page_entries,
                             parse_time, read_jsonl, testweb_module)

ARGS = None
TOKEN = 'cluster-test-token-0123456789'
# The per-host delay of the crawls that workers join, leave or are killed
# in: long enough that the changes come while most hosts still have pages
# (the first 300 pages take a few seconds, the crawl about 30, set by
# ads.test's 460 URLs).
CHURN_DELAY_MS = 60


class Web:
    """The synthetic test web, generated once and served by nginx."""
    web = None
    sites = None

    @classmethod
    def get(cls):
        if cls.web is None:
            testweb = testweb_module(ARGS.source)
            d = os.path.join(ARGS.work, 'web')
            # A calendar trap of 120 months (not 600): the two calendar
            # hosts were 600 pages each, so a bfs crawl at 120 ms per host
            # took 90 s whatever the number of workers.
            testweb.generate('synthetic', d, pages=600, hosts=12, seed=3,
                             calendar_months=120)
            cls.web = testweb.TestWeb(d)
            cls.web.start()
            cls.sites = cls.web.sites()
        return cls

    @classmethod
    def stop(cls):
        if cls.web is not None:
            cls.web.stop()
            cls.web = None


def write_config(path, out, strategy='bfs', max_pages=100000, delay_ms=20,
                 topic=True, extra_seeds=()):
    fx = Web.get()
    hosts = sorted(h for h in fx.sites if h != 'ads.test')
    lines = ['seeds: "http://%s/"' % h for h in hosts[:4]]
    lines += ['seeds: "%s"' % u for u in extra_seeds]
    lines.append('strategy { name: "%s" }' % strategy)
    if topic:
        lines.append('topic { keywords: "telescope" keywords: "planet" '
                     'keywords: "star" keywords: "galaxy" }')
    lines.append('output_dir: "%s"' % out)
    lines.append('allow_private_addresses: true')
    for host in fx.sites:
        lines.append('resolve { host_port: "%s" address: "127.0.0.1:%d" }'
                     % (host, fx.web.port))
    lines.append('budget { max_pages: %d }' % max_pages)
    # Crawl-delay (some hosts of the test web ask for 1 s) capped at 300 ms
    # so that the slowest host does not set the length of every test.
    lines.append('politeness { per_host_delay_ms: %d max_crawl_delay_ms: 300 }'
                 % delay_ms)
    lines.append('fetch { max_in_flight: 16 }')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def render_status_page(http):
    """The coordinator's /status page as headless Chromium leaves it once
    its script has loaded status.json and drawn it (the DOM as text)."""
    chromium = next((p for p in (shutil.which(c) for c in
                                 ('chromium', 'chromium-browser')) if p), None)
    if chromium is None:
        raise unittest.SkipTest('chromium not found (a project dependency: '
                                'deploy/install-deps.sh installs it)')
    with tempfile.TemporaryDirectory(prefix='status-chromium.') as profile:
        r = subprocess.run(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu',
             '--no-first-run', '--disable-background-networking',
             '--disable-component-update', '--disable-sync',
             '--user-data-dir=' + profile, '--virtual-time-budget=5000',
             '--dump-dom', 'http://%s/status' % http],
            capture_output=True, text=True, timeout=180)
    if r.returncode != 0:
        raise AssertionError('chromium exit %d: %s' % (r.returncode, r.stderr[-2000:]))
    return r.stdout


class Standalone:
    """The single-worker crawl every cluster crawl is compared with."""
    cache = {}
    summaries = {}  # its JSON summary line, by the same key

    @classmethod
    def urls(cls, strategy='bfs', delay_ms=20):
        key = (strategy, delay_ms)
        if key not in cls.cache:
            out = os.path.join(ARGS.work, 'standalone-%s-%d' % key)
            shutil.rmtree(out, ignore_errors=True)
            config = write_config(out + '.textproto', out, strategy,
                                  delay_ms=delay_ms)
            r = subprocess.run([os.path.join(ARGS.bin, 'worker', 'worker'),
                                'crawl', '--config', config, '--quiet'],
                               capture_output=True, text=True, timeout=600)
            assert r.returncode == 0, r.stderr[-3000:]
            entries = page_entries(read_jsonl(os.path.join(out, 'fetch_log.jsonl')))
            cls.cache[key] = set(e['url'] for e in entries)
            cls.summaries[key] = json.loads(r.stdout)
        return cls.cache[key]


class ClusterTestCase(unittest.TestCase):
    def setUp(self):
        self.cluster = None

    def tearDown(self):
        if self.cluster is not None:
            self.cluster.stop()

    def check_each_url_once(self, per_worker):
        counts = collections.Counter(e['url'] for es in per_worker.values() for e in es)
        twice = [u for u, c in counts.items() if c > 1]
        self.assertEqual(twice, [], 'URLs fetched more than once')
        return set(counts)

    def check_host_exclusive(self, per_worker):
        """No host was fetched by two workers at overlapping times."""
        spans = collections.defaultdict(list)  # host → (start, end, worker)
        for w, entries in per_worker.items():
            for e in entries:
                t = parse_time(e['fetched_at'])
                spans[host_of(e['url'])].append((t, t + e.get('fetch_ms', 0) / 1000.0, w))
        for host, s in spans.items():
            s.sort()
            for (a0, a1, aw), (b0, b1, bw) in zip(s, s[1:]):
                if aw != bw:
                    self.assertGreaterEqual(b0 + 1e-3, a1,
                                            '%s fetched by %s and %s at once' % (host, aw, bw))

    def check_fetch_outcomes(self, summary, st):
        """The fetch outcomes of a `worker crawl` summary line and of a
        cluster's status (crawlctl status --json) are plausible: each page
        fetched has a class, the on-topic class is the on-topic count, the
        known 404s and robots.txt refusals are there."""
        # proto3 JSON names are camelCase and its 64-bit integers strings.
        cluster = {re.sub('([A-Z])', lambda m: '_' + m.group(1).lower(), k): int(v)
                   for k, v in st['fetchOutcomes'].items()}
        self.assertEqual(sorted(cluster), sorted(summary['fetch_outcomes']))
        for fo, pages, on_topic in (
                (summary['fetch_outcomes'], summary['pages_fetched'],
                 summary['on_topic']),
                (cluster, int(st['pagesFetched']), int(st['onTopic']))):
            self.assertGreaterEqual(fo['not_found'], 1, fo)
            self.assertGreaterEqual(fo['robots'], 1, fo)
            self.assertEqual(fo['on_topic'], on_topic, fo)
            self.assertGreaterEqual(fo['on_topic_hosts'], 1 if on_topic else 0, fo)
            self.assertLessEqual(fo['on_topic_hosts'], on_topic, fo)
            # Every page fetched has a class; the classes beyond the pages
            # are URLs ended without a request (robots.txt, unreachable).
            counted = sum(v for k, v in fo.items() if k != 'on_topic_hosts')
            self.assertGreaterEqual(counted, pages, fo)
            self.assertLessEqual(counted - fo['robots'] - fo['transport_error'],
                                 pages, fo)

    def wait_pages(self, c, n, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            st = c.status()
            if int(st.get('pages_fetched', st.get('pagesFetched', 0)) or 0) >= n:
                return
            time.sleep(0.1)
        raise AssertionError('fewer than %d pages: %s' % (n, st))


class ManySeedsTest(ClusterTestCase):
    def test_100000_seeds_start_a_crawl_that_fetches(self):
        """More seeds than a worker takes in one call (10,000) are routed in
        several calls; the crawl starts and fetches."""
        self.cluster = c = Cluster('many-seeds')
        c.add_worker('w1')
        c.add_worker('w2')
        c.wait_members(2)
        config = write_config(os.path.join(c.dir, 'seeds.textproto'),
                              os.path.join(c.dir, 'unused'), 'bfs', max_pages=200, delay_ms=0)
        hosts = sorted(h for h in Web.get().sites if h != 'ads.test')
        with open(config, 'a') as f:
            # 100,000 seeds in all, the most a config may list.
            for i in range(100000 - 4):
                f.write('seeds: "http://%s/seed-%d.html"\n' % (hosts[i % len(hosts)], i))
        c.start(config)
        st = c.wait_done(timeout=600)
        self.assertEqual(st['state'], 'DONE', st)
        self.assertGreaterEqual(int(st.get('pages_fetched', st.get('pagesFetched', 0))), 200, st)
        # Every seed reached its owner (the rest stay queued: budget 200).
        accepted = sum(int(w['stats'].get('linksAccepted', 0)) for w in st['workers'])
        self.assertGreaterEqual(accepted, 100000, st)
        self.assertGreater(int(st['queued']), 99000, st)


class StaticClusterTest(ClusterTestCase):
    def test_bfs_three_workers_equal_single_worker(self):
        single = Standalone.urls('bfs')
        self.cluster = c = Cluster('static-bfs')
        for n in ('w1', 'w2', 'w3'):
            c.add_worker(n)
        c.wait_members(3)
        config = write_config(os.path.join(c.dir, 'bfs.textproto'),
                              os.path.join(c.dir, 'unused'), 'bfs')
        crawl = c.start(config)
        st = c.wait_done()
        self.assertEqual(st['state'], 'DONE', st)
        per_worker = c.pages(crawl)
        self.assertEqual(sorted(per_worker), ['w1', 'w2', 'w3'])
        urls = self.check_each_url_once(per_worker)
        self.assertEqual(urls, single,
                         'missing: %s\nextra: %s' % (sorted(single - urls)[:10],
                                                     sorted(urls - single)[:10]))
        # Every host by exactly one worker (no view change during the crawl).
        owners = collections.defaultdict(set)
        for w, entries in per_worker.items():
            for e in entries:
                owners[host_of(e['url'])].add(w)
        self.assertTrue(all(len(o) == 1 for o in owners.values()), dict(owners))
        self.assertGreater(len(set().union(*owners.values())), 1,
                           'all hosts went to one worker')
        total = int(st.get('pages_fetched', st.get('pagesFetched', 0)))
        self.assertEqual(total, sum(len(e) for e in per_worker.values()))

        # /metrics is Prometheus text; /status and /status.json answer.
        metrics = urllib.request.urlopen('http://%s/metrics' % c.http, timeout=10).read()
        check = subprocess.run(['/usr/bin/python3',
                                os.path.join(ARGS.source, 'tests', 'prometheus_check.py'),
                                '-'], input=metrics, capture_output=True, timeout=60)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
        self.assertIn(b'fcrawl_pages_fetched_total', metrics)
        # Bytes, memory and the crawl's id, per worker and for the cluster.
        samples = dict(l.rsplit(' ', 1) for l in metrics.decode().splitlines()
                       if l and not l.startswith('#'))
        for w in per_worker:
            self.assertGreater(float(samples['fcrawl_worker_fetched_bytes_total{worker="%s"}' % w]),
                               0, w)
            self.assertGreater(float(samples['fcrawl_worker_memory_bytes{worker="%s"}' % w]),
                               1 << 20, w)
        self.assertGreater(float(samples['fcrawl_coordinator_memory_bytes']), 1 << 20)
        self.assertIn('fcrawl_crawl_info{crawl_id="%s"}' % crawl, samples)
        # Pages by HTTP status and content type: every page fetched once
        # in each report, in /status.json as in /metrics.
        statuses = {k: int(v) for k, v in st['httpStatuses'].items()}
        types = {k: int(v) for k, v in st['contentTypes'].items()}
        self.assertEqual(sum(statuses.values()), total, statuses)
        self.assertEqual(sum(types.values()), total, types)
        self.assertGreater(statuses.get('200', 0), 0, statuses)
        self.assertGreater(statuses.get('404', 0), 0, statuses)
        self.assertGreater(types.get('text/html', 0), 0, types)
        self.assertEqual(float(samples['fcrawl_http_responses_total{status="200"}']),
                         statuses['200'])
        # URLs not fetched, by reason: the test web's robots.txt disallows
        # /private/, which a BFS crawl meets; the totals add the workers'.
        skipped = st.get('skipped', {})
        self.assertGreater(int(skipped.get('robots', 0)), 0, st)
        self.assertIn(b'fcrawl_skipped_urls_total{reason="robots"}', metrics)
        # What became of the URLs, summed over the workers, as the single
        # worker's summary has it: the test web links to pages that answer
        # 404 and to /private/, which robots.txt disallows.
        self.check_fetch_outcomes(Standalone.summaries[('bfs', 20)], st)
        self.assertIn(b'fcrawl_fetch_outcomes_total{outcome="not_found"}', metrics)
        self.assertIn(b'fcrawl_on_topic_hosts ', metrics)
        page = urllib.request.urlopen('http://%s/status' % c.http, timeout=10).read()
        self.assertIn(b'status.json', page)
        self.assertIn(b'id="outcome-shares"', page)
        js = json.loads(urllib.request.urlopen('http://%s/status.json' % c.http,
                                               timeout=10).read())
        self.assertIn('history', js)
        self.assertEqual(js['status']['fetchOutcomes'], st['fetchOutcomes'])

        # ssaps with a page budget on the same cluster: never over budget.
        config = write_config(os.path.join(c.dir, 'ssaps.textproto'),
                              os.path.join(c.dir, 'unused'), 'ssaps', max_pages=150)
        crawl = c.start(config)
        st = c.wait_done()
        self.assertEqual(st['state'], 'DONE', st)
        self.assertEqual(st.get('stop_reason', st.get('stopReason')), 'budget', st)
        per_worker = c.pages(crawl)
        urls = self.check_each_url_once(per_worker)
        self.assertLessEqual(len(urls), 150)
        self.assertGreaterEqual(len(urls), 140)
        owners = collections.defaultdict(set)
        for w, entries in per_worker.items():
            for e in entries:
                owners[host_of(e['url'])].add(w)
        self.assertTrue(all(len(o) == 1 for o in owners.values()), dict(owners))


class LearnedClusterTest(ClusterTestCase):
    """The learned strategy in a cluster: every worker learns from the whole
    crawl's pages (lessons relayed by the coordinator), and page quota goes
    to the workers holding the crawl's best URLs, so three workers find
    about as many on-topic pages as one."""

    BUDGET = 300

    def on_topic(self, urls):
        labels = Web.get().web.labels()
        return sum(1 for u in urls
                   if any('astronomy' in c.lower() for c in labels.get(u, ())))

    def test_three_workers_learn_as_one(self):
        # Two seeds that answer 404, in a folder of a host of the web: the
        # folder the /status page must list.
        host = sorted(h for h in Web.get().sites if h != 'ads.test')[0]
        gone = ['http://%s/gone/%s.html' % (host, n) for n in ('errata', 'notes')]
        out = os.path.join(ARGS.work, 'standalone-learned-%d' % self.BUDGET)
        shutil.rmtree(out, ignore_errors=True)
        config = write_config(out + '.textproto', out, 'learned', max_pages=self.BUDGET,
                              extra_seeds=gone)
        r = subprocess.run([os.path.join(ARGS.bin, 'worker', 'worker'), 'crawl',
                            '--config', config, '--quiet'],
                           capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        single = self.on_topic(e['url'] for e in page_entries(
            read_jsonl(os.path.join(out, 'fetch_log.jsonl'))))

        self.cluster = c = Cluster('learned')
        for n in ('w1', 'w2', 'w3'):
            c.add_worker(n)
        c.wait_members(3)
        crawl = c.start(write_config(os.path.join(c.dir, 'learned.textproto'),
                                     os.path.join(c.dir, 'unused'), 'learned',
                                     max_pages=self.BUDGET, extra_seeds=gone))
        st = c.wait_done()
        self.assertEqual(st['state'], 'DONE', st)
        per_worker = c.pages(crawl)
        urls = self.check_each_url_once(per_worker)
        self.assertLessEqual(len(urls), self.BUDGET)
        clustered = self.on_topic(urls)
        print('learned, %d pages: standalone %d on topic, 3 workers %d'
              % (self.BUDGET, single, clustered), file=sys.stderr)
        self.assertGreaterEqual(clustered, 0.8 * single, (clustered, single))
        # Each worker learned from the others' lessons, refusing none.
        workers = {w['stats']['name']: w['stats'] for w in st.get('workers', [])}
        self.assertEqual(sorted(workers), ['w1', 'w2', 'w3'])
        for name, s in workers.items():
            self.assertGreater(int(s.get('lessonsApplied', s.get('lessons_applied', 0)) or 0),
                               0, (name, s))
            self.assertEqual(int(s.get('lessonsRefused', s.get('lessons_refused', 0)) or 0),
                             0, (name, s))
        # The folders whose fetches failed, as /status lists them: the gone
        # seeds' folder, and any other folder of a 404.
        failed = {}
        for w, entries in per_worker.items():
            for e in entries:
                path = urllib.parse.urlsplit(e['url']).path
                if int(e.get('status', 0)) == 404 and path.count('/') >= 2:
                    folder = host_of(e['url']) + path[:path.rfind('/') + 1].lower()
                    failed.setdefault(folder, set()).add(w)
        dead = st.get('deadFolders', [])
        print('learned: %d folders with a 404, %d folders listed'
              % (len(failed), len(dead)), file=sys.stderr)
        self.assertIn('%s/gone/' % host, failed)
        for f in dead:
            fetches, pages = int(f['fetches']), int(f.get('pages', 0))
            self.assertGreater(fetches, pages, f)
            self.assertIn(f['worker'], ('w1', 'w2', 'w3'), f)
            self.assertTrue(f['folder'].endswith('/'), f)
            self.assertLess(float(f['pageProbability']), 1.0, f)
        # Each failed folder of a 404 is listed under a worker that fetched
        # in it, unless twenty worse ones fill the list.
        if len(dead) < 20:
            listed = {f['folder']: f['worker'] for f in dead}
            for folder, by in failed.items():
                self.assertIn(folder, listed, (folder, dead))
                self.assertIn(listed[folder], by, (folder, dead))
        # The /status page's script draws them, and the workers, in a
        # browser (coordinator/status_page.html).
        dom = render_status_page(c.http)
        drawn = re.findall(r'<td class="name">([^<]*)</td>', dom)
        self.assertIn('%s/gone/' % host, drawn, dom[-3000:])
        for name in ('w1', 'w2', 'w3'):
            self.assertIn(name, drawn, dom[-3000:])
        self.assertIn('id="conn">updated', dom, dom[-3000:])
        # The pages by HTTP status and by content type, largest share first.
        self.assertRegex(dom, r'id="status-codes">200 [0-9.]+%', dom[-3000:])
        self.assertRegex(dom, r'id="content-types">text/html [0-9.]+%', dom[-3000:])


class ScaleTest(ClusterTestCase):
    def test_scale_2_4_1(self):
        delay = CHURN_DELAY_MS
        single = Standalone.urls('bfs', delay_ms=delay)
        self.cluster = c = Cluster('scale')
        c.add_worker('w1')
        c.add_worker('w2')
        c.wait_members(2)
        config = write_config(os.path.join(c.dir, 'bfs.textproto'),
                              os.path.join(c.dir, 'unused'), 'bfs', delay_ms=delay)
        crawl = c.start(config)
        self.wait_pages(c, 120)
        c.add_worker('w3')
        c.add_worker('w4')
        c.wait_members(4)
        self.wait_pages(c, 300)
        r = c.ctl('scale', '1')
        self.assertIn('draining', r.stdout + r.stderr)
        for n in ('w2', 'w3', 'w4'):
            # Drained workers hand their hosts over and exit by themselves.
            self.assertEqual(c.workers[n].wait(timeout=120), 0, n)
        st = c.wait_done()
        self.assertEqual(st['state'], 'DONE', st)
        self.assertEqual(len(st['view']['members']), 1)
        per_worker = c.pages(crawl)
        self.assertEqual(len(per_worker), 4)
        urls = self.check_each_url_once(per_worker)
        self.assertEqual(urls, single, 'missing: %s\nextra: %s' % (
            sorted(single - urls)[:10], sorted(urls - single)[:10]))
        self.check_host_exclusive(per_worker)



class KillTest(ClusterTestCase):
    def test_sigkill_worker_and_rejoin(self):
        delay = CHURN_DELAY_MS
        single = Standalone.urls('bfs', delay_ms=delay)
        self.cluster = c = Cluster('kill', lease_ms=1500)
        for n in ('w1', 'w2', 'w3'):
            c.add_worker(n)
        c.wait_members(3)
        config = write_config(os.path.join(c.dir, 'bfs.textproto'),
                              os.path.join(c.dir, 'unused'), 'bfs', delay_ms=delay)
        crawl = c.start(config)
        self.wait_pages(c, 150)
        c.workers['w2'].send_signal(signal.SIGKILL)
        c.workers['w2'].wait()
        # Its lease runs out: the other two take its hosts.
        c.wait_members(2, timeout=30)
        self.wait_pages(c, 300)
        c.add_worker('w2')  # the same name and folder
        c.wait_members(3)
        st = c.wait_done()
        self.assertEqual(st['state'], 'DONE', st)
        urls = set(e['url'] for es in c.pages(crawl).values() for e in es)
        self.assertEqual(urls, single, 'missing: %s\nextra: %s' % (
            sorted(single - urls)[:10], sorted(urls - single)[:10]))


class DiskFullClusterTest(ClusterTestCase):
    """A worker whose disk is under the crawl's free-space floor starts no
    fetch, and the cluster says so: crawlctl's summary and progress line
    name it with the reason, /metrics has fcrawl_worker_paused 1 for it.
    When space comes back it goes on and the crawl finishes. On a tmpfs
    mounted for the test: root only, skipped otherwise."""

    def test_paused_worker_shows_in_the_status(self):
        if os.geteuid() != 0:
            self.skipTest('mounting a tmpfs needs root: skipping the full-disk cluster')
        self.cluster = c = Cluster('diskfull', lease_ms=2000)
        mnt = os.path.join(c.dir, 'w2')
        os.makedirs(mnt)
        r = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=192m', 'tmpfs', mnt],
                           capture_output=True, text=True)
        if r.returncode != 0:
            self.skipTest('cannot mount a tmpfs (%s)' % r.stderr.strip())
        self.addCleanup(subprocess.run, ['umount', '-l', mnt], capture_output=True)
        c.add_worker('w1')
        c.add_worker('w2')
        c.wait_members(2)
        config = write_config(os.path.join(c.dir, 'bfs.textproto'),
                              os.path.join(c.dir, 'unused'), 'bfs', max_pages=200)
        with open(config) as f:
            text = f.read().replace('budget { max_pages: 200 }',
                                    'budget { max_pages: 200 min_free_disk_mb: 40 }')
        with open(config, 'w') as f:
            f.write(text)
        # Leave 20 MiB free on w2's disk: under the floor.
        st = os.statvfs(mnt)
        filler = os.path.join(mnt, 'filler')
        with open(filler, 'wb') as f:
            f.write(b'\0' * (st.f_bavail * st.f_frsize - (20 << 20)))
        c.start(config)
        deadline = time.time() + 60
        while True:
            st = c.status()
            paused = {w['stats'].get('name', ''): w['stats'].get('paused', '')
                      for w in st.get('workers', []) if 'stats' in w}
            if paused.get('w2'):
                break
            self.assertLess(time.time(), deadline, 'w2 never reported a pause: %s' % st)
            time.sleep(0.2)
        self.assertIn('disk full on %s' % mnt, paused['w2'])
        self.assertEqual(paused.get('w1', ''), '')
        text = c.ctl('status').stdout
        self.assertIn('paused    w2: disk full on %s' % mnt, text)
        metrics = urllib.request.urlopen('http://%s/metrics' % c.http, timeout=10).read()
        lines = metrics.decode().splitlines()
        self.assertIn('fcrawl_worker_paused{worker="w2"} 1', lines)
        self.assertIn('fcrawl_worker_paused{worker="w1"} 0', lines)
        os.unlink(filler)
        st = c.wait_done()
        self.assertEqual(st['state'], 'DONE', st)
        self.assertEqual(int(st.get('pagesFetched', st.get('pages_fetched', 0))), 200, st)
        self.assertFalse(any(w.get('stats', {}).get('paused') for w in st['workers']), st)


class CoordinatorRestartTest(ClusterTestCase):
    def test_coordinator_sigkill_and_restart(self):
        delay = CHURN_DELAY_MS
        single = Standalone.urls('bfs', delay_ms=delay)
        self.cluster = c = Cluster('restart', lease_ms=3000)
        for n in ('w1', 'w2', 'w3'):
            c.add_worker(n)
        c.wait_members(3)
        config = write_config(os.path.join(c.dir, 'bfs.textproto'),
                              os.path.join(c.dir, 'unused'), 'bfs', delay_ms=delay)
        crawl = c.start(config)
        self.wait_pages(c, 150)
        c.coordinator.send_signal(signal.SIGKILL)
        c.coordinator.wait()
        time.sleep(1.0)
        c.start_coordinator()  # same port, same folder
        st = c.status()
        self.assertEqual(st.get('crawl_id', st.get('crawlId')), crawl)
        st = c.wait_done()
        self.assertEqual(st['state'], 'DONE', st)
        per_worker = c.pages(crawl)
        urls = self.check_each_url_once(per_worker)
        self.assertEqual(urls, single, 'missing: %s\nextra: %s' % (
            sorted(single - urls)[:10], sorted(urls - single)[:10]))


# The hub's links to leaf0.test ... leaf7.test, five pages each (each linked
# once), and every page of that web.
LEAF_LINKS = ''.join('<p><a href="http://leaf%d.test/p%d.html">leaf %d page %d</a></p>'
                     % (n, k, n, k) for n in range(8) for k in range(5))
HUB_PAGES = {'http://hub.test/'} | {'http://leaf%d.test/p%d.html' % (n, k)
                                    for n in range(8) for k in range(5)}


def serve_hub_web(test, hub_links):
    """hub.test, whose index.html holds `hub_links`, and leaf0.test to
    leaf7.test with pages p0.html to p4.html, served by nginx until the
    test ends. Returns (TestWeb, hosts)."""
    web_dir = os.path.join(ARGS.work, 'web-hub')
    sites = {'hub.test': {'index.html': '<html><body><p>The hub.</p>%s</body></html>'
                          % hub_links}}
    for n in range(8):
        sites['leaf%d.test' % n] = {
            'p%d.html' % k: '<html><body><p>Leaf %d, page %d.</p></body></html>' % (n, k)
            for k in range(5)}
    testweb_module(ARGS.source).write_sites(web_dir, sites)
    web = testweb_module(ARGS.source).TestWeb(web_dir)
    web.start()
    test.addCleanup(web.stop)
    return web, list(sites)


def write_hub_config(path, web, hosts):
    with open(path, 'w') as f:
        f.write('seeds: "http://hub.test/"\nstrategy { name: "bfs" }\n'
                'output_dir: "unused"\nallow_private_addresses: true\n'
                'politeness { per_host_delay_ms: 20 }\n' +
                ''.join('resolve { host_port: "%s" address: "127.0.0.1:%d" }\n'
                        % (h, web.port) for h in hosts))
    return path


class RedirectTest(ClusterTestCase):
    """A redirect to another worker's host is fetched by that host's owner:
    the hub links, for each of 8 leaf hosts, one page directly and one
    through a redirect (/goto?to=URL, tests/testweb/nginx.sh); every leaf
    host's pages are fetched by one worker, all of them."""

    def test_redirect_target_fetched_by_its_owner(self):
        web, hosts = serve_hub_web(self, ''.join(
            '<p><a href="/goto?to=http://leaf%d.test/p0.html">moved %d</a></p>'
            '<p><a href="http://leaf%d.test/p1.html">leaf %d</a></p>' % (n, n, n, n)
            for n in range(8)))
        self.cluster = c = Cluster('redirect', lease_ms=3000)
        for n in ('w1', 'w2', 'w3'):
            c.add_worker(n)
        c.wait_members(3)
        crawl = c.start(write_hub_config(os.path.join(c.dir, 'hub.textproto'), web, hosts))
        st = c.wait_done(timeout=120)
        self.assertEqual(st['state'], 'DONE', st)
        # A redirect the owner of both hosts followed is one fetch-log line
        # (the chain's first URL, its final URL).
        workers = collections.defaultdict(set)  # host -> workers that fetched it
        for w, entries in c.pages(crawl).items():
            for e in entries:
                if e['status'] == 200:
                    workers[host_of(e['final_url'])].add(w)
        for n in range(8):
            self.assertEqual(len(workers['leaf%d.test' % n]), 1, dict(workers))
        urls = set(e['final_url'] for es in c.pages(crawl).values() for e in es)
        for n in range(8):
            self.assertIn('http://leaf%d.test/p0.html' % n, urls)
            self.assertIn('http://leaf%d.test/p1.html' % n, urls)


class TlsClusterTest(ClusterTestCase):
    """TLS between every process (a test CA made here by openssl; the
    certificate names 127.0.0.1 and localhost) with a token: a crawl of the
    hub web completes; crawlctl without the CA and a worker without it are
    refused."""

    @staticmethod
    def make_ca():
        """The test CA and a certificate for 127.0.0.1 and localhost, and a
        self-signed certificate of another party that trusts only itself."""
        d = os.path.join(ARGS.work, 'tls-ca')
        shutil.rmtree(d, ignore_errors=True)
        tls = testweb_module(ARGS.source).make_test_ca(
            d, 'IP:127.0.0.1,DNS:localhost', name='node')
        r = subprocess.run(
            ['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt',
             'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', d + '/other.key', '-out',
             d + '/other.pem', '-days', '2', '-subj', '/CN=other', '-addext',
             'subjectAltName=IP:127.0.0.1'], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError('openssl: ' + r.stderr)
        tls.update(other_cert=d + '/other.pem', other_key=d + '/other.key')
        return tls

    def test_crawl_over_tls(self):
        web, hosts = serve_hub_web(self, LEAF_LINKS)
        self.cluster = c = Cluster('tls-cluster', lease_ms=3000, token=TOKEN,
                                   tls=self.make_ca())
        for n in ('w1', 'w2'):
            c.add_worker(n)
        c.wait_members(2)
        crawl = c.start(write_hub_config(os.path.join(c.dir, 'hub.textproto'), web, hosts))
        st = c.wait_done(timeout=120)
        self.assertEqual(st['state'], 'DONE', st)
        per_worker = c.pages(crawl)
        self.assertEqual(len(self.check_each_url_once(per_worker)), 41)
        self.assertEqual(len(per_worker), 2)  # both workers fetched over TLS
        # crawlctl in plain text: no answer, an error.
        r = subprocess.run([c.bin('crawlctl'), '--coordinator', c.grpc, 'status'],
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        # A worker that does not trust the CA (it trusts its own
        # self-signed certificate only) never joins.
        log = open(os.path.join(c.dir, 'w3.log'), 'a')
        c.logs.append(log)
        p = subprocess.Popen(
            [c.bin('worker'), 'join', c.grpc, '--name', 'w3', '--data',
             os.path.join(c.dir, 'w3'), '--listen', '127.0.0.1:0', '--token', TOKEN,
             '--tls_cert', c.tls['other_cert'], '--tls_key', c.tls['other_key'],
             '--quiet'],
            stdout=subprocess.PIPE, stderr=log, text=True)
        c.workers['w3'] = p
        time.sleep(3)
        members = c.status().get('view', {}).get('members', [])
        self.assertEqual(len(members), 2, members)
        # A Python client (Debian's python3-grpcio, stubs from proto/) over
        # TLS with the test CA and the token.
        try:
            import grpc
        except ImportError as e:
            self.skipTest('python3-grpcio missing: %s' % e)
        stubs = tempfile.mkdtemp(prefix='stubs-', dir=ARGS.work)
        python_stubs(stubs)
        cluster_pb2 = importlib.import_module('cluster_pb2')
        cluster_grpc = importlib.import_module('cluster_pb2_grpc')
        with open(c.tls['ca'], 'rb') as f:
            creds = grpc.ssl_channel_credentials(root_certificates=f.read())
        with grpc.secure_channel(c.grpc, creds) as channel:
            stub = cluster_grpc.CoordinatorStub(channel)
            st = stub.GetStatus(cluster_pb2.StatusRequest(), timeout=10,
                                metadata=[('authorization', 'Bearer ' + TOKEN)])
            self.assertEqual(st.state, cluster_pb2.DONE)
            self.assertEqual(st.crawl_id, crawl)
            with self.assertRaises(grpc.RpcError) as e:
                stub.GetStatus(cluster_pb2.StatusRequest(), timeout=10)
            self.assertEqual(e.exception.code(), grpc.StatusCode.UNAUTHENTICATED)


class KubernetesManifestTest(ClusterTestCase):
    """deploy/k8s/crawl-cluster.yaml: its shape (Services, StatefulSets,
    every mount backed by a volume, the headless Service the workers' DNS
    names come from), then its containers' commands run here — the image's
    paths mapped to this build, the Secrets to a test CA and token file,
    the Service names and pod addresses to loopback — as one coordinator
    and the StatefulSet's replicas of workers, which crawl the hub web."""

    def test_manifest_commands_run_a_crawl(self):
        import yaml  # noqa: E402  (Debian's python3-yaml)
        with open(os.path.join(ARGS.source, 'deploy', 'k8s', 'crawl-cluster.yaml')) as f:
            docs = [d for d in yaml.safe_load_all(f) if d]
        by = {(d['kind'], d['metadata']['name']): d for d in docs}
        coord_set = by[('StatefulSet', 'fcrawl-coordinator')]
        worker_set = by[('StatefulSet', 'fcrawl-worker')]
        self.assertIn(('Service', 'fcrawl-coordinator'), by)
        headless = by[('Service', 'fcrawl-worker')]
        self.assertEqual(headless['spec']['clusterIP'], 'None')
        self.assertTrue(headless['spec']['publishNotReadyAddresses'])
        self.assertEqual(worker_set['spec']['serviceName'], 'fcrawl-worker')
        self.assertEqual(by[('Service', coord_set['spec']['serviceName'])]['spec']['clusterIP'],
                         'None')
        for ss in (coord_set, worker_set):
            pod = ss['spec']['template']['spec']
            volumes = {v['name'] for v in pod.get('volumes', [])} | {
                t['metadata']['name'] for t in ss['spec'].get('volumeClaimTemplates', [])}
            for c in pod['containers']:
                for m in c.get('volumeMounts', []):
                    self.assertIn(m['name'], volumes, '%s mounts %s' % (c['name'], m['name']))
            self.assertEqual(ss['spec']['selector']['matchLabels'],
                             ss['spec']['template']['metadata']['labels'])

        tls = TlsClusterTest.make_ca()
        work = os.path.join(ARGS.work, 'k8s')
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        token_file = os.path.join(work, 'token')
        with open(token_file, 'w') as f:
            f.write(TOKEN + '\n')
        metrics_token = 'metrics-' + TOKEN
        metrics_file = os.path.join(work, 'metrics-token')
        with open(metrics_file, 'w') as f:
            f.write(metrics_token + '\n')
        grpc_port = free_port()

        def command(ss, pod_name):
            c = ss['spec']['template']['spec']['containers'][0]
            env = {'POD_NAME': pod_name, 'NAMESPACE': 'test'}
            data = os.path.join(work, pod_name)
            os.makedirs(data, exist_ok=True)
            out = []
            for a in list(c['command']) + list(c.get('args', [])):
                for k, v in env.items():
                    a = a.replace('$(%s)' % k, v)
                a = a.replace('/opt/fcrawl/build', ARGS.bin)
                a = a.replace('/etc/fcrawl/tls/tls.crt', tls['cert'])
                a = a.replace('/etc/fcrawl/tls/tls.key', tls['key'])
                a = a.replace('/etc/fcrawl/tls/ca.crt', tls['ca'])
                a = a.replace('/etc/fcrawl/token/token', token_file)
                a = a.replace('/etc/fcrawl/metrics/token', metrics_file)
                a = a.replace('0.0.0.0:9090', '127.0.0.1:0')
                a = a.replace('=/data', '=' + data)
                a = a.replace('fcrawl-coordinator:7000', '127.0.0.1:%d' % grpc_port)
                a = a.replace('0.0.0.0:7000', '127.0.0.1:%d' % grpc_port)
                a = a.replace('127.0.0.1:7080', '127.0.0.1:0')
                if a.startswith('--listen=%s.fcrawl-worker.' % pod_name):
                    a = '--listen=127.0.0.1:0'  # no cluster DNS here
                out.append(a)
            return out

        procs = []

        def start(cmd, name):
            log = open(os.path.join(work, name + '.log'), 'a')
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True)
            procs.append((p, log))
            line = p.stdout.readline()
            self.assertTrue(line.split(' ')[0] in ('coordinator', 'worker'),
                            '%s said %r (%s)' % (name, line, ' '.join(cmd)))
            return line

        def cleanup():
            for p, log in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGKILL)
                p.wait()
                p.stdout.close()
                log.close()
        self.addCleanup(cleanup)

        def ctl(*args):
            r = subprocess.run(
                [os.path.join(ARGS.bin, 'crawlctl', 'crawlctl'), '--coordinator',
                 '127.0.0.1:%d' % grpc_port, '--token_file', token_file, '--tls_ca',
                 tls['ca']] + list(args), capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            return r.stdout

        said = start(command(coord_set, 'fcrawl-coordinator-0'), 'coordinator')
        scrape = dict(f.split('=', 1) for f in said.split()[1:])['metrics']
        replicas = worker_set['spec']['replicas']
        for i in range(replicas):
            start(command(worker_set, 'fcrawl-worker-%d' % i), 'worker-%d' % i)
        deadline = time.time() + 30
        while time.time() < deadline:
            st = json.loads(ctl('status', '--json'))
            if len(st.get('view', {}).get('members', [])) == replicas:
                break
            time.sleep(0.2)
        self.assertEqual(len(st.get('view', {}).get('members', [])), replicas, st)
        web, hosts = serve_hub_web(self, LEAF_LINKS)
        crawl = ctl('start', write_hub_config(os.path.join(work, 'hub.textproto'), web,
                                              hosts)).strip().split()[-1]
        deadline = time.time() + 120
        while time.time() < deadline:
            st = json.loads(ctl('status', '--json'))
            if st.get('state') in ('DONE', 'STOPPED'):
                break
            time.sleep(0.2)
        self.assertEqual(st.get('state'), 'DONE', st)
        # What Prometheus scrapes: /metrics on the metrics listener, with the
        # metrics token only.
        req = urllib.request.Request('http://%s/metrics' % scrape,
                                     headers={'Authorization': 'Bearer ' + metrics_token})
        metrics = urllib.request.urlopen(req, timeout=10).read().decode()
        self.assertIn('fcrawl_', metrics)
        with self.assertRaises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen('http://%s/metrics' % scrape, timeout=10)
        self.assertEqual(denied.exception.code, 401)
        urls = set()
        for i in range(replicas):
            log = os.path.join(work, 'fcrawl-worker-%d' % i, crawl, 'fetch_log.jsonl')
            urls |= set(e['url'] for e in page_entries(read_jsonl(log)))
        self.assertEqual(len(urls), 41, sorted(urls))


class OutboxTest(ClusterTestCase):
    """Links routed to another worker survive a SIGKILL of the worker that
    routed them: a hub page links 40 pages on 8 other hosts, each linked
    once. The workers send routed links every 5 s (--route_interval_ms),
    so the hub's links are still in its owner's outbox when that worker is
    killed; it starts again on its folder, and every page is fetched."""

    def test_routed_links_survive_a_kill(self):
        web, hosts = serve_hub_web(self, LEAF_LINKS)
        self.cluster = c = Cluster('outbox', lease_ms=3000)
        for n in ('w1', 'w2', 'w3'):
            c.add_worker(n, ['--route_interval_ms', '5000'])
        c.wait_members(3)
        crawl = c.start(write_hub_config(os.path.join(c.dir, 'hub.textproto'), web, hosts))

        def fetched(path):
            """The workers whose fetch log has http://hub.test + path."""
            return [w for w in sorted(os.listdir(c.dir)) if any(
                e['url'] == 'http://hub.test' + path for e in read_jsonl(
                    os.path.join(c.dir, w, crawl, 'fetch_log.jsonl')))]

        deadline = time.time() + 30
        while not fetched('/') and time.time() < deadline:
            time.sleep(0.01)
        owner = fetched('/')
        self.assertEqual(len(owner), 1, 'the hub was not fetched')
        time.sleep(0.5)  # its outcome committed; its links wait to be sent
        c.workers[owner[0]].send_signal(signal.SIGKILL)
        c.workers[owner[0]].wait()
        c.workers[owner[0]].stdout.close()
        c.add_worker(owner[0])  # the same name and folder
        st = c.wait_done(timeout=120)
        self.assertEqual(st['state'], 'DONE', st)
        urls = set(e['url'] for es in c.pages(crawl).values() for e in es)
        self.assertEqual(urls, HUB_PAGES, 'missing: %s' % sorted(HUB_PAGES - urls))


class DirectRouteTest(ClusterTestCase):
    """The coordinator is off the data path: a hub page links 40 pages on
    8 other hosts; the workers send routed links every 3 s
    (--route_interval_ms), and the coordinator is stopped (SIGSTOP) as soon
    as the hub is fetched. While it is stopped the hub's owner empties its
    outbox straight into the owners' (Worker.GetStats over Python grpcio):
    what it counts as routed, the others count as accepted. Then the
    coordinator goes on (SIGCONT) and the crawl fetches every page."""

    def test_links_reach_their_owners_while_the_coordinator_is_stopped(self):
        grpc, cluster_pb2, cluster_grpc = grpc_with_stubs(self)
        web, hosts = serve_hub_web(self, LEAF_LINKS)
        # A lease far longer than the stop, so no member expires meanwhile.
        self.cluster = c = Cluster('direct', lease_ms=20000)
        for n in ('w1', 'w2', 'w3'):
            c.add_worker(n, ['--route_interval_ms', '3000'])
        c.wait_members(3)
        crawl = c.start(write_hub_config(os.path.join(c.dir, 'hub.textproto'), web, hosts))
        log = {n: os.path.join(c.dir, n, crawl, 'fetch_log.jsonl') for n in c.workers}
        deadline = time.time() + 30
        owner = []
        while not owner and time.time() < deadline:
            owner = [n for n, path in log.items()
                     if any(e['url'] == 'http://hub.test/' for e in read_jsonl(path))]
            time.sleep(0.005)
        self.assertEqual(len(owner), 1, 'the hub was not fetched')
        # Every worker must run the crawl before the coordinator stops: a
        # worker hears of it by heartbeat, and one that has not yet refuses
        # links for a crawl it does not run (the hub's owner can be that
        # fast). Its crawl folder is made just before it starts.
        while not all(os.path.isdir(os.path.dirname(path)) for path in log.values()):
            self.assertLess(time.time(), deadline, 'not every worker started the crawl')
            time.sleep(0.005)
        c.coordinator.send_signal(signal.SIGSTOP)
        try:
            def stats():
                out = {}
                for n, address in c.addresses.items():
                    with grpc.insecure_channel(address) as channel:
                        out[n] = cluster_grpc.WorkerStub(channel).GetStats(
                            cluster_pb2.StatsRequest(), timeout=10)
                return out
            deadline = time.time() + 20
            while True:
                st = stats()
                sent = st[owner[0]]
                accepted = sum(s.links_accepted for n, s in st.items() if n != owner[0])
                if (sent.outbox == 0 and sent.links_routed > 0 and
                        accepted == sent.links_routed):
                    break
                self.assertLess(time.time(), deadline, 'not delivered while the coordinator '
                                'was stopped: %s' % {n: str(s) for n, s in st.items()})
                time.sleep(0.1)
        finally:
            c.coordinator.send_signal(signal.SIGCONT)
        st = c.wait_done(timeout=120)
        self.assertEqual(st['state'], 'DONE', st)
        self.assertGreater(int(st.get('links_routed', st.get('linksRouted', 0))), 0, st)
        urls = set(e['url'] for es in c.pages(crawl).values() for e in es)
        self.assertEqual(urls, HUB_PAGES, 'missing: %s' % sorted(HUB_PAGES - urls))


class FeedbackTest(ClusterTestCase):
    """Ranking feedback: a running crawl is exported, ranked by the ranker
    and the ranks pushed back; the owners re-score their queued URLs."""

    def test_export_rank_push_during_crawl(self):
        self.cluster = c = Cluster('feedback')
        for name in ('w1', 'w2'):
            c.add_worker(name)
        c.wait_members(2)
        config = write_config(os.path.join(c.dir, 'crawl.textproto'),
                              os.path.join(c.dir, 'out'),
                              strategy='topic-pagerank', max_pages=400)
        crawl_id = c.start(config)
        self.wait_pages(c, 60)
        c.ctl('pause')
        graph = os.path.join(c.dir, 'graph')
        out = c.ctl('export', graph, timeout=300).stdout
        self.assertIn('from 2 of 2 workers', out)
        # Exports stay inside the workers' --export_root (ARGS.work here):
        # not outside it, not through '..', and not to "".
        outside = tempfile.mkdtemp(prefix='fcrawl-outside-')
        try:
            r = c.ctl('export', os.path.join(outside, 'graph'), check=False, timeout=300)
            self.assertNotEqual(r.returncode, 0, r.stdout)
            self.assertIn('export_root', r.stdout + r.stderr)
            self.assertEqual(os.listdir(outside), [])
        finally:
            shutil.rmtree(outside, ignore_errors=True)
        r = c.ctl('export', os.path.join(c.dir, 'evil-..', '..', '..', 'x'), check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("'..' segments", r.stdout + r.stderr)
        r = c.ctl('export', '', check=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        # The corpus the same way: each worker's records under DIR/<worker>,
        # merged by `worker corpus` into one record per URL.
        corpus_dir = os.path.join(c.dir, 'corpus')
        out = c.ctl('corpus', corpus_dir, timeout=300).stdout
        self.assertIn('from 2 of 2 workers', out)
        parts = [os.path.join(corpus_dir, w) for w in ('w1', 'w2')]
        per_worker = []
        for d in parts:
            with open(os.path.join(d, 'pages.jsonl'), encoding='utf-8') as f:
                per_worker.append({json.loads(l)['url'] for l in f if l.strip()})
        self.assertTrue(all(per_worker), per_worker)
        self.assertFalse(per_worker[0] & per_worker[1])  # hosts are owned once
        merged = os.path.join(c.dir, 'corpus.jsonl')
        r = subprocess.run([os.path.join(ARGS.bin, 'worker', 'worker'), 'corpus', '--out',
                            merged] + parts, capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)['written'], len(per_worker[0] | per_worker[1]))
        r = c.ctl('corpus', os.path.join(c.dir, 'evil-..', '..', '..', 'x'), check=False)
        self.assertNotEqual(r.returncode, 0)
        shards = [os.path.join(graph, w) for w in ('w1', 'w2')]
        for d in shards:
            self.assertTrue([f for f in os.listdir(d) if f.endswith('.fcg')], d)
        ranking = os.path.join(c.dir, 'ranking.tsv')
        r = subprocess.run([os.path.join(ARGS.bin, 'ranker', 'ranker'), 'run',
                            '--algorithm', 'topic-pagerank', '--quiet',
                            '--out', ranking] + shards,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        summary = json.loads(r.stdout)
        with open(ranking) as f:
            rows = [line.rstrip('\n').split('\t') for line in f][1:]
        self.assertEqual(len(rows), summary['pages'])
        unfetched = [row for row in rows if row[6] == '0']
        self.assertTrue(unfetched, 'the ranking has no queued link targets')

        out = c.ctl('push-ranks', ranking, '--crawl', crawl_id).stdout
        print('push-ranks: %s' % out.strip(), file=sys.stderr)
        fields = out.split()
        figures = {fields[i]: int(fields[i + 1]) for i in range(len(fields) - 1)
                   if fields[i] in ('delivered', 'applied', 'requeued')}
        self.assertEqual(figures['delivered'], len(rows), out)
        # Every page the crawl knows is owned by one of the two workers:
        # fetched pages and queued link targets get their rank; the queued
        # ones are re-scored by topic-pagerank.
        self.assertGreater(figures['applied'], len(rows) // 2, out)
        self.assertGreater(figures['requeued'], 0, out)
        deadline = time.time() + 30
        while True:
            st = c.status()
            applied = sum(int(w.get('stats', {}).get('ranksApplied', 0) or 0)
                          for w in st.get('workers', []))
            if applied == figures['applied'] or time.time() > deadline:
                break
            time.sleep(0.2)
        self.assertEqual(applied, figures['applied'])
        # Ranks of another crawl are refused.
        r = c.ctl('push-ranks', ranking, '--crawl', 'another-crawl', check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('FAILED_PRECONDITION', r.stderr)

        c.ctl('resume')
        st = c.wait_done()
        self.assertEqual(st.get('stopReason'), 'budget')
        per_worker = c.pages(crawl_id)
        self.check_each_url_once(per_worker)
        self.assertLessEqual(sum(len(e) for e in per_worker.values()), 400)


def python_stubs(out):
    """cluster_pb2 and cluster_pb2_grpc (and health/reflection) generated
    from proto/ with protoc and grpc_python_plugin."""
    proto = os.path.join(ARGS.source, 'proto')
    extra = os.path.join(out, 'extra')
    os.makedirs(extra, exist_ok=True)
    # The two standard services as published by the gRPC project (file names
    # at the top so that their modules do not clash with the grpc package).
    with open(os.path.join(extra, 'health.proto'), 'w') as f:
        f.write('syntax = "proto3"; package grpc.health.v1;\n'
                'message HealthCheckRequest { string service = 1; }\n'
                'message HealthCheckResponse { enum ServingStatus { UNKNOWN = 0; '
                'SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; } '
                'ServingStatus status = 1; }\n'
                'service Health { rpc Check(HealthCheckRequest) returns '
                '(HealthCheckResponse); }\n')
    with open(os.path.join(extra, 'reflection.proto'), 'w') as f:
        f.write('syntax = "proto3"; package grpc.reflection.v1alpha;\n'
                'message ServerReflectionRequest { string host = 1; oneof message_request {'
                ' string file_by_filename = 3; string file_containing_symbol = 4;'
                ' string list_services = 7; } }\n'
                'message ServiceResponse { string name = 1; }\n'
                'message ListServiceResponse { repeated ServiceResponse service = 1; }\n'
                'message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }\n'
                'message ErrorResponse { int32 error_code = 1; string error_message = 2; }\n'
                'message ServerReflectionResponse { string valid_host = 1;'
                ' ServerReflectionRequest original_request = 2; oneof message_response {'
                ' FileDescriptorResponse file_descriptor_response = 4;'
                ' ListServiceResponse list_services_response = 6;'
                ' ErrorResponse error_response = 7; } }\n'
                'service ServerReflection { rpc ServerReflectionInfo(stream '
                'ServerReflectionRequest) returns (stream ServerReflectionResponse); }\n')
    files = [os.path.join(proto, f) for f in sorted(os.listdir(proto)) if f.endswith('.proto')]
    files += [os.path.join(extra, 'health.proto'), os.path.join(extra, 'reflection.proto')]
    r = subprocess.run(['protoc', '-I', proto, '-I', extra, '--python_out', out,
                        '--grpc_python_out', out,
                        '--plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin'] + files,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    sys.path.insert(0, out)


def grpc_with_stubs(test):
    """Debian's python3-grpcio with stubs generated from proto/ into the
    test's work folder: (grpc, cluster_pb2, cluster_pb2_grpc); skips the
    test when grpcio or protobuf are missing."""
    try:
        import grpc
        importlib.import_module('google.protobuf')
    except ImportError as e:
        test.skipTest('python3-grpcio / python3-protobuf missing: %s' % e)
    python_stubs(tempfile.mkdtemp(prefix='stubs-', dir=ARGS.work))
    return (grpc, importlib.import_module('cluster_pb2'),
            importlib.import_module('cluster_pb2_grpc'))


class PythonClientTest(ClusterTestCase):
    def test_start_status_health_reflection(self):
        grpc, cluster_pb2, cluster_grpc = grpc_with_stubs(self)
        from google.protobuf import text_format
        crawl_config_pb2 = importlib.import_module('crawl_config_pb2')
        health_pb2 = importlib.import_module('health_pb2')
        health_grpc = importlib.import_module('health_pb2_grpc')
        refl_pb2 = importlib.import_module('reflection_pb2')
        refl_grpc = importlib.import_module('reflection_pb2_grpc')

        self.cluster = c = Cluster('python')
        c.add_worker('w1')
        c.wait_members(1)
        channel = grpc.insecure_channel(c.grpc)
        stub = cluster_grpc.CoordinatorStub(channel)
        config = crawl_config_pb2.CrawlConfig()
        path = write_config(os.path.join(c.dir, 'bfs.textproto'),
                            os.path.join(c.dir, 'unused'), 'bfs', max_pages=50)
        with open(path) as f:
            text_format.Parse(f.read(), config)
        started = stub.StartCrawl(cluster_pb2.StartCrawlRequest(config=config), timeout=10)
        self.assertTrue(started.crawl_id.startswith('crawl-'))
        deadline = time.time() + 120
        while time.time() < deadline:
            st = stub.GetStatus(cluster_pb2.StatusRequest(), timeout=10)
            if st.state == cluster_pb2.DONE:
                break
            time.sleep(0.2)
        self.assertEqual(st.state, cluster_pb2.DONE)
        self.assertEqual(st.crawl_id, started.crawl_id)
        self.assertEqual(st.pages_fetched, 50)
        self.assertEqual(len(st.workers), 1)

        health = health_grpc.HealthStub(channel)
        self.assertEqual(health.Check(health_pb2.HealthCheckRequest(), timeout=10).status,
                         health_pb2.HealthCheckResponse.SERVING)
        refl = refl_grpc.ServerReflectionStub(channel)
        answers = list(refl.ServerReflectionInfo(
            iter([refl_pb2.ServerReflectionRequest(list_services='')]), timeout=10))
        names = [s.name for s in answers[0].list_services_response.service]
        self.assertIn('fcrawl.proto.Coordinator', names)
        self.assertIn('grpc.health.v1.Health', names)
        channel.close()
        c.stop()

        # With a token: refused without it, answered with it.
        self.cluster = c = Cluster('python-token', token=TOKEN)
        creds = grpc.local_channel_credentials(grpc.LocalConnectionType.LOCAL_TCP)
        channel = grpc.secure_channel(c.grpc, creds)
        stub = cluster_grpc.CoordinatorStub(channel)
        with self.assertRaises(grpc.RpcError) as e:
            stub.GetStatus(cluster_pb2.StatusRequest(), timeout=10)
        self.assertEqual(e.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        with self.assertRaises(grpc.RpcError) as e:
            health_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
        self.assertEqual(e.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        st = stub.GetStatus(cluster_pb2.StatusRequest(), timeout=10,
                            metadata=[('authorization', 'Bearer ' + TOKEN)])
        self.assertEqual(st.state, cluster_pb2.IDLE)
        # crawlctl with a wrong token gets the same answer.
        r = subprocess.run([c.bin('crawlctl'), '--coordinator', c.grpc,
                            '--token', 'not-the-cluster-token-42', 'status'],
                           capture_output=True, text=True, timeout=30)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('UNAUTHENTICATED', r.stdout + r.stderr)
        channel.close()
        # HTTP: the data needs the token in the Authorization header (not in
        # the URL); the page itself (no data) is served to ask for it.
        def get(path, headers=None):
            req = urllib.request.Request('http://%s%s' % (c.http, path), headers=headers or {})
            try:
                with urllib.request.urlopen(req, timeout=10) as resp:
                    return resp.status
            except urllib.error.HTTPError as e:
                return e.code
        self.assertEqual(get('/status.json'), 401)
        self.assertEqual(get('/metrics'), 401)
        self.assertEqual(get('/status.json?token=' + TOKEN), 401)
        self.assertEqual(get('/status.json', {'Authorization': 'Bearer ' + TOKEN}), 200)
        self.assertEqual(get('/metrics', {'Authorization': 'Bearer ' + TOKEN}), 200)
        self.assertEqual(get('/status'), 200)
        # The probes of a process manager need no token and carry no data.
        self.assertEqual(get('/healthz'), 200)
        self.assertEqual(get('/readyz'), 200)
        with urllib.request.urlopen('http://%s/readyz' % c.http, timeout=10) as resp:
            self.assertEqual(resp.read(), b'ready\n')
        c.stop()

    def test_safe_defaults(self):
        """Non-loopback listeners without protection, and a token file
        without a token, refuse to start (issue: safe by default)."""
        d = tempfile.mkdtemp(prefix='safe-', dir=ARGS.work)
        coordinator = os.path.join(ARGS.bin, 'coordinator', 'coordinator')
        worker = os.path.join(ARGS.bin, 'worker', 'worker')

        def run(cmd):
            return subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        serve = [coordinator, 'serve', '--data', os.path.join(d, 'c')]
        for extra in (['--listen', '0.0.0.0:0', '--http', ''],
                      ['--listen', '127.0.0.1:0', '--http', '0.0.0.0:0']):
            r = run(serve + extra)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn('--insecure', r.stderr)
        empty = os.path.join(d, 'empty-token')
        open(empty, 'w').close()
        r = run(serve + ['--listen', '127.0.0.1:0', '--http', '', '--token_file', empty])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn('no token', r.stderr)
        r = run([worker, 'join', '127.0.0.1:1', '--name', 'w', '--data', os.path.join(d, 'w'),
                 '--listen', '0.0.0.0:0'])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn('--insecure', r.stderr)
        r = run([worker, 'join', '127.0.0.1:1', '--name', '..', '--data', os.path.join(d, 'w')])
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('letter or a digit', r.stderr)
        # A worker whose coordinator does not answer exits on the first
        # SIGTERM (it has nothing to hand over), not after a second one.
        p = subprocess.Popen([worker, 'join', '127.0.0.1:1', '--name', 'lonely',
                              '--data', os.path.join(d, 'lonely')],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            self.assertTrue(p.stdout.readline().startswith('worker lonely grpc='))
            time.sleep(0.5)
            t0 = time.time()
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=10)
            self.assertLess(time.time() - t0, 5)  # time is the point here
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        # --insecure: the operator's explicit choice; it starts.
        p = subprocess.Popen(serve + ['--listen', '0.0.0.0:0', '--http', '0.0.0.0:0',
                                      '--insecure'],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = p.stdout.readline()
            self.assertTrue(line.startswith('coordinator grpc=0.0.0.0:'), line + p.stderr.read()
                            if not line else line)
        finally:
            p.terminate()
            p.wait(timeout=30)


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument('--bin', required=True, help='the build folder')
    p.add_argument('--source', required=True)
    p.add_argument('--work', required=True)
    ARGS, rest = p.parse_known_args()
    cluster_harness.ARGS = ARGS
    os.makedirs(ARGS.work, exist_ok=True)
    try:
        unittest.main(argv=[sys.argv[0], '-v'] + rest)
    finally:
        Web.stop()


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""End-to-end crawl tests (tests/crawl_lib.py): the network.

DeadHostsTest crawls a small web that links to hosts a fake DNS server
(tests/testweb/fakedns.py) answers with silence, "no such name", or an
address where nothing listens: the crawl goes on while their lookups run
(one transfer slot is enough), each is tried the configured number of
times and then its URLs are errors, and the summary counts them.

Http2Test crawls a site on a TLS nginx offering HTTP/2, with a test CA
made here by openssl (fetch.ca_file): the pages come over HTTP/2, their
WARC records carry HTTP/1.1-style heads and WARC-Protocol: h2 and pass
tests/warc_check.py; fetch.http2: false fetches them over HTTP/1.1, and
without the CA every fetch fails certificate verification.
"""

import collections
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import unittest
import urllib.parse

from crawl_lib import (  # noqa: F401
    ARGS,
    testweb_module,
    write_config,
    run_worker,
    dump_state,
    page_fetches,
    serve_one_site,
    parse_time,
    read_jsonl,
    run)


class DeadHostsTest(unittest.TestCase):
    """Hosts that do not resolve or do not answer (fetch.async_dns and
    fetch.unreachable_retries, protocol/resolver.h)."""
    HOST = 'alive.test'
    DEAD = {'silent.dead.test': None, 'nx.dead.test': 'NXDOMAIN',
            'refused.dead.test': '127.0.0.1'}
    PAGES = 60

    @classmethod
    def setUpClass(cls):
        dead_links = ''.join('<p><a href="http://%s/page%d.html">dead %d</a></p>' % (h, i, i)
                             for h in cls.DEAD for i in range(3))
        files = {}
        for i in range(cls.PAGES):
            nxt = '<p><a href="p%d.html">next</a></p>' % (i + 1) if i + 1 < cls.PAGES else ''
            files['p%d.html' % i] = (
                '<html><head><title>Page %d</title></head><body><p>Page %d of a '
                'chain of pages.</p>%s%s</body></html>\n'
                % (i, i, nxt, dead_links if i == 0 else ''))
        cls.dir, cls.web = serve_one_site('web-dead-hosts', cls.HOST, files)

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()

    def crawl(self, name, fetch):
        dns = testweb_module(ARGS.source).FakeDns(self.DEAD)
        try:
            out = os.path.join(ARGS.work, 'crawl-dead-' + name)
            shutil.rmtree(out, ignore_errors=True)
            config = out + '.textproto'
            # One transfer slot: a lookup that held it would stop the crawl.
            write_config(config, self.web, {self.HOST: None},
                         ['http://%s/p0.html' % self.HOST], out,
                         extra='politeness { per_host_delay_ms: 50 } fetch { max_in_flight: 1 '
                               'dns_servers: "127.0.0.1:%d" dns_timeout_ms: 1000 %s }'
                               % (dns.port, fetch))
            _, summary, _ = run_worker(config)
            return (summary, read_jsonl(os.path.join(out, 'fetch_log.jsonl')),
                    dump_state(config), dict(dns.queries))
        finally:
            dns.stop()

    def by_host(self, entries):
        hosts = collections.defaultdict(list)
        for e in entries:
            hosts[urllib.parse.urlsplit(e['url']).hostname].append(e)
        return hosts

    def test_dead_hosts_cost_one_attempt_each_without_retries(self):
        summary, log, state, queries = self.crawl('once', 'unreachable_retries: 0')
        hosts = self.by_host(log)
        # Every page of the live host is fetched, none twice.
        alive = page_fetches(hosts[self.HOST])
        self.assertEqual(len(alive), self.PAGES, summary)
        self.assertEqual(len({e['url'] for e in alive}), self.PAGES)
        # Each dead host: one robots.txt attempt, an error naming the cause.
        for host in self.DEAD:
            self.assertEqual([e['url'] for e in hosts[host]],
                             ['http://%s/robots.txt' % host], (host, hosts[host]))
            self.assertTrue(hosts[host][0]['error'])
        self.assertIn('could not resolve host silent.dead.test',
                      hosts['silent.dead.test'][0]['error'])
        self.assertIn('nx.dead.test', hosts['nx.dead.test'][0]['error'])
        # The silent lookup took its timeout, once; the live host's pages
        # went on meanwhile through the one transfer slot.
        silent = hosts['silent.dead.test'][0]
        self.assertGreaterEqual(silent['fetch_ms'], 900, silent)
        start = silent['fetched_at']
        during = [e for e in alive if e['fetched_at'] > start and
                  parse_time(e['fetched_at']) < parse_time(start) + silent['fetch_ms'] / 1000.0]
        self.assertGreaterEqual(len(during), 5, (silent, [e['fetched_at'] for e in alive]))
        # Their URLs are errors, without a request.
        for s in state:
            host = urllib.parse.urlsplit(s['url']).hostname
            if host in self.DEAD:
                self.assertEqual(s['status'], 'ERROR', s)
                self.assertIn('host unreachable', s['error'])
        self.assertEqual(summary['hosts_unreachable'], 3, summary)
        self.assertEqual(summary['hosts_parked'], 0, summary)
        self.assertEqual(summary['skipped'].get('host unreachable'), 9, summary)
        self.assertGreaterEqual(summary['dns_failures'], 2, summary)
        # The live host is in `resolve`: never looked up.
        self.assertNotIn(self.HOST, queries)
        self.assertEqual(queries.get('refused.dead.test'), 1, queries)

    def test_retried_with_back_off_then_given_up(self):
        # The refused connection fails at once: with 2 retries 100 ms and
        # 200 ms apart, it is given up long before the live host's 60 pages
        # (50 ms apart) are fetched. "No such name" is an answer, not a
        # failure: given up after one lookup.
        summary, log, state, queries = self.crawl(
            'retries', 'unreachable_retries: 2 unreachable_retry_ms: 100')
        hosts = self.by_host(log)
        tries = hosts['refused.dead.test']
        self.assertEqual(len(tries), 3, tries)
        self.assertTrue(all(e['url'].endswith('/robots.txt') and e['error']
                            for e in tries), tries)
        times = [parse_time(e['fetched_at']) for e in tries]
        # (fetch-log times are in whole milliseconds)
        self.assertGreaterEqual(times[1] - times[0], 0.099, tries)
        self.assertGreaterEqual(times[2] - times[1], 0.199, tries)
        # The address is cached (TTL 300 s): looked up once.
        self.assertEqual(queries.get('refused.dead.test'), 1, queries)
        self.assertEqual(len(hosts['nx.dead.test']), 1, hosts['nx.dead.test'])
        for s in state:
            host = urllib.parse.urlsplit(s['url']).hostname
            if host == 'refused.dead.test':
                self.assertEqual(s['status'], 'ERROR', s)
                self.assertIn('(3 attempts)', s['error'])
            elif host == 'nx.dead.test':
                self.assertEqual(s['status'], 'ERROR', s)
        # The silent one: a fresh lookup at each try, not the negative cache
        # (2 or 3 tries, as the crawl may end while it is parked).
        self.assertIn(len(hosts['silent.dead.test']), (2, 3), hosts['silent.dead.test'])
        self.assertGreaterEqual(queries.get('silent.dead.test', 0),
                                len(hosts['silent.dead.test']), queries)
        self.assertEqual(len(page_fetches(hosts[self.HOST])), self.PAGES)
        self.assertGreaterEqual(summary['hosts_unreachable'], 2, summary)

    def test_parked_hosts_do_not_keep_the_crawl_alive(self):
        # A long back-off: the crawl ends when the live host is done, the
        # dead hosts' URLs stay queued for a later run.
        summary, log, state, _ = self.crawl(
            'parked', 'unreachable_retries: 2 unreachable_retry_ms: 600000')
        self.assertEqual(summary['stop_reason'], 'frontier empty', summary)
        self.assertEqual(summary['hosts_parked'], 2, summary)
        self.assertEqual(summary['hosts_unreachable'], 1, summary)  # nx
        for s in state:
            host = urllib.parse.urlsplit(s['url']).hostname
            if host in ('silent.dead.test', 'refused.dead.test'):
                self.assertEqual(s['status'], 'QUEUED', s)


class Http2Test(unittest.TestCase):
    """HTTP/2 on a TLS nginx with a test CA (fetch.http2, fetch.ca_file)."""
    HOST = 'h2.test'
    PAGES = ['index.html', 'a.html', 'b.html']

    @classmethod
    def setUpClass(cls):
        cls.dir = os.path.join(ARGS.work, 'web-h2')
        shutil.rmtree(cls.dir, ignore_errors=True)
        site = os.path.join(cls.dir, 'site')
        os.makedirs(site)
        for name in cls.PAGES:
            links = ''.join('<p><a href="%s">%s</a></p>' % (p, p) for p in cls.PAGES)
            with open(os.path.join(site, name), 'w') as f:
                f.write('<html><head><title>%s</title></head><body><p>The page %s, '
                        'served over HTTP/2.</p>%s</body></html>\n' % (name, name, links))
        d = cls.dir
        testweb_module(ARGS.source).make_test_ca(d, 'DNS:' + cls.HOST)
        probe = socket.socket()
        probe.bind(('127.0.0.1', 0))
        cls.port = probe.getsockname()[1]
        probe.close()
        os.makedirs(d + '/tmp')
        with open(d + '/nginx.conf', 'w') as f:
            f.write("""
daemon off;
master_process off;
pid "%(d)s/nginx.pid";
error_log "%(d)s/error.log" warn;
events { worker_connections 64; }
http {
  types { text/html html; }
  client_body_temp_path "%(d)s/tmp";
  proxy_temp_path "%(d)s/tmp";
  fastcgi_temp_path "%(d)s/tmp";
  uwsgi_temp_path "%(d)s/tmp";
  scgi_temp_path "%(d)s/tmp";
  log_format h2 escape=json '{"uri":"$request_uri","protocol":"$server_protocol"}';
  access_log "%(d)s/access.log" h2;
  server {
    listen 127.0.0.1:%(port)d ssl http2;
    server_name %(host)s;
    ssl_certificate "%(d)s/server.pem";
    ssl_certificate_key "%(d)s/server.key";
    root "%(d)s/site";
  }
}
""" % {'d': d, 'port': cls.port, 'host': cls.HOST})
        cls.nginx = subprocess.Popen(['nginx', '-p', d, '-c', d + '/nginx.conf'],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(200):
            try:
                socket.create_connection(('127.0.0.1', cls.port), timeout=1).close()
                break
            except OSError:
                if cls.nginx.poll() is not None:
                    raise AssertionError('nginx: ' + cls.nginx.stderr.read().decode())
                time.sleep(0.05)

    @classmethod
    def tearDownClass(cls):
        cls.nginx.terminate()
        cls.nginx.wait(timeout=30)

    def crawl(self, name, fetch):
        out = os.path.join(ARGS.work, 'crawl-h2-' + name)
        shutil.rmtree(out, ignore_errors=True)
        config = out + '.textproto'
        with open(config, 'w') as f:
            f.write('seeds: "https://%s/index.html"\nstrategy { name: "bfs" }\n'
                    'output_dir: "%s"\nallow_private_addresses: true\n'
                    'resolve { host_port: "%s" address: "127.0.0.1:%d" }\n'
                    'politeness { per_host_delay_ms: 0 }\nfetch { %s }\n'
                    % (self.HOST, out, self.HOST, self.port, fetch))
        mark = os.path.getsize(os.path.join(self.dir, 'access.log')) \
            if os.path.exists(os.path.join(self.dir, 'access.log')) else 0
        _, summary, _ = run_worker(config)
        fetch_log = page_fetches(read_jsonl(os.path.join(out, 'fetch_log.jsonl')))
        with open(os.path.join(self.dir, 'access.log')) as f:
            f.seek(mark)
            access = [json.loads(line) for line in f if line.strip()]
        warcs = sorted(os.path.join(out, 'warc', w) for w in os.listdir(os.path.join(out, 'warc'))
                       if w.endswith('.warc.gz'))
        return summary, fetch_log, access, warcs

    def warc_text(self, warcs):
        import gzip
        text = b''
        for w in warcs:
            with gzip.open(w) as f:
                text += f.read()
        return text.decode('utf-8', 'replace')

    def check_warcs(self, warcs):
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(
            os.path.abspath(__file__)), 'warc_check.py')] + warcs,
            capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_pages_come_over_http2_and_warc_stays_readable(self):
        summary, fetch_log, access, warcs = self.crawl(
            'on', 'ca_file: "%s/ca.pem"' % self.dir)
        self.assertEqual(sorted(e['url'].rsplit('/', 1)[1] for e in fetch_log),
                         sorted(self.PAGES), fetch_log)
        self.assertTrue(all(e['status'] == 200 and not e['error'] for e in fetch_log),
                        fetch_log)
        pages = [a for a in access if a['uri'] != '/robots.txt']
        self.assertEqual({a['protocol'] for a in pages}, {'HTTP/2.0'}, access)
        text = self.warc_text(warcs)
        # Three exchanges (and robots.txt's 404), each record saying h2.
        self.assertEqual(text.count('WARC-Protocol: h2\r\n'), 2 * (len(self.PAGES) + 1))
        self.assertIn('\r\n\r\nGET /index.html HTTP/1.1\r\n', text)
        self.assertIn('\r\n\r\nHTTP/1.1 200', text)
        self.assertNotIn('HTTP/2 ', text)
        self.check_warcs(warcs)

    def test_http11_when_http2_is_off(self):
        _, fetch_log, access, warcs = self.crawl(
            'off', 'ca_file: "%s/ca.pem" http2: false' % self.dir)
        self.assertEqual(len(fetch_log), len(self.PAGES))
        self.assertEqual({a['protocol'] for a in access}, {'HTTP/1.1'}, access)
        self.assertNotIn('WARC-Protocol', self.warc_text(warcs))
        self.check_warcs(warcs)

    def test_unknown_ca_fails_verification(self):
        summary, fetch_log, access, _ = self.crawl('no-ca', '')
        self.assertEqual(access, [])
        self.assertEqual(summary['pages_fetched'], 0, summary)


if __name__ == '__main__':
    run()

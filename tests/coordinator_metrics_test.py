#!/usr/bin/python3
"""The coordinator's scrape listener (`coordinator serve --metrics`): what a
Prometheus on the pod network may reach, and with which token.

  coordinator_metrics_test.py COORDINATOR --work DIR [unittest args]

- /metrics on --metrics answers only with the metrics token (not without
  one, not with the cluster token); the probes answer without a token;
  nothing else of the crawl is there (/status.json, /status: 404).
- /metrics on --http still wants the cluster token, not the metrics token.
- The coordinator refuses to start (exit 2, the status listener already
  running stopped cleanly): a non-loopback --metrics without a metrics
  token (and without --insecure), a metrics token equal to the cluster
  token, --metrics_token_file without --metrics, an address without a port
  or one another process holds.
"""

import argparse
import os
import subprocess
import sys
import unittest
import urllib.error
import urllib.request

ARGS = None
CLUSTER_TOKEN = 'cluster-token-0123456789abcdef'
METRICS_TOKEN = 'metrics-token-0123456789abcdef'


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)
    return path


def get(address, path, token=None):
    """(status, body) of GET http://address/path."""
    req = urllib.request.Request('http://%s%s' % (address, path))
    if token:
        req.add_header('Authorization', 'Bearer ' + token)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def run_coordinator(name, *flags):
    """Starts `coordinator serve` with its own folder; returns the process."""
    data = os.path.join(ARGS.work, name)
    return subprocess.Popen(
        [ARGS.coordinator, 'serve', '--data', data, '--listen', '127.0.0.1:0',
         '--http', '127.0.0.1:0'] + list(flags),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class MetricsListenerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.token_file = write(os.path.join(ARGS.work, 'token'), CLUSTER_TOKEN + '\n')
        cls.metrics_file = write(os.path.join(ARGS.work, 'metrics-token'),
                                 METRICS_TOKEN + '\n')
        cls.proc = run_coordinator('served', '--token_file', cls.token_file,
                                   '--metrics', '127.0.0.1:0',
                                   '--metrics_token_file', cls.metrics_file)
        line = cls.proc.stdout.readline().strip()
        if not line.startswith('coordinator grpc='):
            cls.proc.kill()
            raise AssertionError('no address line: %r %s' % (line, cls.proc.stderr.read()))
        fields = dict(f.split('=', 1) for f in line.split()[1:])
        cls.http, cls.metrics = fields['http'], fields['metrics']

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(timeout=30)

    def test_metrics_need_the_metrics_token(self):
        self.assertEqual(get(self.metrics, '/metrics')[0], 401)
        self.assertEqual(get(self.metrics, '/metrics', CLUSTER_TOKEN)[0], 401)
        status, body = get(self.metrics, '/metrics', METRICS_TOKEN)
        self.assertEqual(status, 200)
        self.assertIn('fcrawl_', body)

    def test_probes_answer_and_nothing_else_is_there(self):
        self.assertEqual(get(self.metrics, '/healthz'), (200, 'ok\n'))
        self.assertEqual(get(self.metrics, '/readyz'), (200, 'ready\n'))
        for path in ('/status.json', '/status', '/search.json?q=x'):
            self.assertEqual(get(self.metrics, path, METRICS_TOKEN)[0], 404, path)

    def test_the_status_listener_keeps_the_cluster_token(self):
        self.assertEqual(get(self.http, '/metrics', METRICS_TOKEN)[0], 401)
        self.assertEqual(get(self.http, '/metrics', CLUSTER_TOKEN)[0], 200)


class RefusedTest(unittest.TestCase):
    def refused(self, name, *flags):
        p = run_coordinator(name, *flags)
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 2, out + err)
        return err

    def test_a_pod_address_needs_a_metrics_token(self):
        err = self.refused('open', '--metrics', '0.0.0.0:0')
        self.assertIn('--metrics 0.0.0.0:0 is not a loopback address', err)

    def test_the_cluster_token_is_no_metrics_token(self):
        token = write(os.path.join(ARGS.work, 'same'), CLUSTER_TOKEN + '\n')
        err = self.refused('same', '--token', CLUSTER_TOKEN, '--metrics',
                           '127.0.0.1:0', '--metrics_token_file', token)
        self.assertIn('holds the cluster token', err)

    def test_an_address_without_port_or_taken_is_refused(self):
        err = self.refused('noport', '--metrics', '127.0.0.1')
        self.assertIn("--metrics needs HOST:PORT, not '127.0.0.1'", err)
        import socket
        with socket.socket() as held:  # the port is taken: exit 2, no abort
            held.bind(('127.0.0.1', 0))
            held.listen()
            port = held.getsockname()[1]
            err = self.refused('taken', '--metrics', '127.0.0.1:%d' % port)
        self.assertIn('cannot listen for HTTP on 127.0.0.1:%d' % port, err)

    def test_a_metrics_token_needs_metrics(self):
        token = write(os.path.join(ARGS.work, 'alone'), METRICS_TOKEN + '\n')
        err = self.refused('alone', '--metrics_token_file', token)
        self.assertIn('--metrics_token_file needs --metrics', err)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('coordinator')
    ap.add_argument('--work', required=True)
    ARGS, rest = ap.parse_known_args()
    ARGS.coordinator = os.path.abspath(ARGS.coordinator)
    os.makedirs(ARGS.work, exist_ok=True)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()

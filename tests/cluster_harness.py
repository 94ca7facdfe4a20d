#!/usr/bin/python3
"""The cluster as processes, for the tests and benchmarks that run one: a
real `coordinator` and real `worker join` processes on loopback, driven by
`crawlctl`, and readers of their fetch logs.

Set `ARGS` (bin: the build folder, source: the project root, work: a
scratch folder) before making a Cluster; tests/cluster_test.py and
tests/chaos_test.py do.
"""

import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse

from testlib import read_jsonl

ARGS = None


def testweb_module(source):
    sys.path.insert(0, os.path.join(source, 'tests', 'testweb'))
    import testweb  # noqa: E402
    return testweb


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def page_entries(entries):
    return [e for e in entries
            if urllib.parse.urlsplit(e['url']).path != '/robots.txt']


def host_of(url):
    return urllib.parse.urlsplit(url).netloc.lower()


def parse_time(s):
    return datetime.datetime.strptime(s.replace('Z', '+0000'),
                                      '%Y-%m-%dT%H:%M:%S.%f%z').timestamp()


class Cluster:
    """A coordinator and workers, each its own process and folder."""

    def __init__(self, name, lease_ms=2000, token=None, tls=None):
        self.dir = os.path.join(ARGS.work, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.lease_ms = lease_ms
        self.token = token
        self.tls = tls  # {'cert', 'key', 'ca'}: PEM files, or None
        self.grpc_port = free_port()
        self.coordinator = None
        self.workers = {}      # name → Popen
        self.addresses = {}
        self.logs = []
        self.start_coordinator()

    def bin(self, name):
        # Each binary sits in the build folder of its component.
        return os.path.join(ARGS.bin, name, name)

    def auth(self, serve=True):
        """Token and TLS flags; `serve`: also the certificate to serve with
        (the coordinator and workers; crawlctl only checks the server)."""
        out = ['--token', self.token] if self.token else []
        if self.tls:
            if serve:
                out += ['--tls_cert', self.tls['cert'], '--tls_key', self.tls['key']]
            out += ['--tls_ca', self.tls['ca']]
        return out

    def start_coordinator(self):
        log = open(os.path.join(self.dir, 'coordinator.log'), 'a')
        self.logs.append(log)
        self.coordinator = subprocess.Popen(
            [self.bin('coordinator'), 'serve', '--listen', '127.0.0.1:%d' % self.grpc_port,
             '--http', '127.0.0.1:0', '--data', os.path.join(self.dir, 'coordinator'),
             '--lease_ms', str(self.lease_ms)] + self.auth(),
            stdout=subprocess.PIPE, stderr=log, text=True)
        line = self.coordinator.stdout.readline()
        assert line.startswith('coordinator '), 'coordinator said: %r' % line
        fields = dict(kv.split('=', 1) for kv in line.split()[1:])
        self.grpc = fields['grpc']
        self.http = fields['http']

    def add_worker(self, name, extra=()):
        log = open(os.path.join(self.dir, name + '.log'), 'a')
        self.logs.append(log)
        p = subprocess.Popen(
            [self.bin('worker'), 'join', self.grpc, '--name', name,
             '--data', os.path.join(self.dir, name), '--listen', '127.0.0.1:0',
             '--export_root', os.path.abspath(ARGS.work), '--quiet'] + self.auth() +
            list(extra),
            stdout=subprocess.PIPE, stderr=log, text=True)
        line = p.stdout.readline()
        assert line.startswith('worker '), '%s said: %r' % (name, line)
        self.workers[name] = p
        self.addresses[name] = line.split('grpc=')[1].strip()
        return p

    def ctl(self, *args, check=True, timeout=60):
        r = subprocess.run([self.bin('crawlctl'), '--coordinator', self.grpc] +
                           self.auth(serve=False) + list(args),
                           capture_output=True, text=True, timeout=timeout)
        if check and r.returncode != 0:
            raise AssertionError('crawlctl %s: exit %d\n%s%s' %
                                 (' '.join(args), r.returncode, r.stdout, r.stderr))
        return r

    def status(self):
        # A loaded machine (ctest -j2 runs crawls beside this) can make one
        # call time out; a coordinator that died or stays silent fails.
        deadline = time.time() + 30
        while True:
            r = self.ctl('status', '--json', check=False)
            if r.returncode == 0:
                return json.loads(r.stdout)
            if self.coordinator.poll() is not None or time.time() > deadline:
                raise AssertionError('crawlctl status: exit %d\n%s%s' % (
                    r.returncode, r.stdout, r.stderr))
            time.sleep(0.5)

    def wait_members(self, n, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            st = self.status()
            members = st.get('view', {}).get('members', [])
            settled = int(st.get('settled_version', st.get('settledVersion', 0)) or 0)
            version = int(st.get('view', {}).get('version', 0) or 0)
            if len(members) == n and settled == version:
                return st
            time.sleep(0.1)
        raise AssertionError('the view never had %d members: %s' % (n, st))

    def start(self, config):
        out = self.ctl('start', config).stdout
        return out.strip().split()[-1]

    def wait_done(self, timeout=300):
        deadline = time.time() + timeout
        while time.time() < deadline:
            st = self.status()
            if st.get('state') in ('DONE', 'STOPPED'):
                return st
            time.sleep(0.2)
        raise AssertionError('the crawl did not finish: %s' % json.dumps(st)[:3000])

    def pages(self, crawl_id):
        """Page fetches per worker folder (also of workers that left)."""
        out = {}
        for name in sorted(os.listdir(self.dir)):
            log = os.path.join(self.dir, name, crawl_id, 'fetch_log.jsonl')
            if os.path.exists(log):
                out[name] = page_entries(read_jsonl(log))
        return out

    def stop(self):
        procs = list(self.workers.values()) + [self.coordinator]
        for p in procs:
            if p is not None and p.poll() is None:
                p.send_signal(signal.SIGKILL)
        for p in procs:
            if p is not None:
                p.wait(timeout=30)
                if p.stdout is not None:
                    p.stdout.close()
        for log in self.logs:
            log.close()

"""Python helpers for tests that use the test web (see README.md).

    from testweb import TestWeb, generate, FakeDns
    generate('synthetic', out, pages=500, hosts=10)
    with TestWeb(out) as web:
        r = web.fetch('http://www.news1.test/index.html')
        assert r.status == 200 and b'class="nav"' in r.body

Standard library only.
"""

import http.client
import json
import os
import shutil
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATE = os.path.join(HERE, 'generate.py')
NGINX_SH = os.path.join(HERE, 'nginx.sh')

from fakedns import FakeDns  # noqa: E402,F401  (re-exported for tests)


def generate(mode, out, python=sys.executable or '/usr/bin/python3', **options):
    """Runs generate.py MODE --out OUT --option value ...; returns its summary line."""
    cmd = [python, GENERATE, mode, '--out', out]
    for k, v in options.items():
        flag = '--' + k.replace('_', '-')
        cmd += [flag] if v is True else [flag, str(v)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError('generate.py failed (%d): %s' % (r.returncode, r.stderr))
    return r.stdout.strip()


def write_sites(web_dir, sites):
    """Writes `sites` ({host: {path: text or bytes}}) as a web nginx.sh
    serves: web_dir/sites/HOST/PATH and web_dir/sites.tsv (the folder is
    emptied first)."""
    shutil.rmtree(web_dir, ignore_errors=True)
    lines = []
    for host, files in sites.items():
        root = os.path.join(web_dir, 'sites', host)
        os.makedirs(root, exist_ok=True)
        for name, content in files.items():
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'wb' if isinstance(content, bytes) else 'w') as f:
                f.write(content)
        lines.append('%s\t%s\n' % (host, root))
    with open(os.path.join(web_dir, 'sites.tsv'), 'w') as f:
        f.write(''.join(lines))


def make_test_ca(folder, san, name='server'):
    """A throw-away CA made by openssl (FOLDER/ca.pem, ca.key) and a
    certificate it signs for `san` (an openssl subjectAltName value, e.g.
    "DNS:h2.test" or "IP:127.0.0.1,DNS:localhost"): FOLDER/NAME.pem and
    NAME.key. Returns their paths as {'ca', 'cert', 'key'}."""
    os.makedirs(folder, exist_ok=True)

    def openssl(*args):
        r = subprocess.run(['openssl'] + list(args), capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError('openssl %s: %s' % (' '.join(args), r.stderr))
    d = folder
    ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
    openssl('req', '-x509', *ec, '-keyout', d + '/ca.key', '-out', d + '/ca.pem',
            '-days', '2', '-subj', '/CN=fcrawl test CA')
    openssl('req', *ec, '-keyout', '%s/%s.key' % (d, name), '-out',
            '%s/%s.csr' % (d, name), '-subj', '/CN=' + name)
    with open(d + '/san.ext', 'w') as f:
        f.write('subjectAltName=%s\n' % san)
    openssl('x509', '-req', '-in', '%s/%s.csr' % (d, name), '-CA', d + '/ca.pem',
            '-CAkey', d + '/ca.key', '-CAcreateserial', '-out', '%s/%s.pem' % (d, name),
            '-days', '2', '-extfile', d + '/san.ext')
    return {'ca': d + '/ca.pem', 'cert': '%s/%s.pem' % (d, name),
            'key': '%s/%s.key' % (d, name)}


def read_tsv(path):
    with open(path, encoding='utf-8') as f:
        return [line.rstrip('\n').split('\t') for line in f if line.strip()]


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers      # lower-case names
        self.body = body

    @property
    def text(self):
        return self.body.decode('utf-8', 'replace')

    def __repr__(self):
        return '<Response %d, %d bytes>' % (self.status, len(self.body))


class TestWeb:
    """Serves a generated test web with nginx (nginx.sh) for the duration of
    a `with` block. .port is the loopback port; fetch(url) GETs a URL of the
    test web (http://HOST/path?query) from 127.0.0.1:port with Host: HOST."""

    __test__ = False    # not a test class for test collectors

    def __init__(self, dir, port=None):
        self.dir = os.path.abspath(dir)
        self.port = port

    def start(self):
        cmd = [NGINX_SH, 'start', self.dir] + ([str(self.port)] if self.port else [])
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError('nginx.sh start failed: %s' % r.stderr.strip())
        self.port = int(r.stdout.strip())
        return self.port

    def stop(self):
        r = subprocess.run([NGINX_SH, 'stop', self.dir], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError('nginx.sh stop failed: %s' % r.stderr.strip())

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    @property
    def pid_file(self):
        return os.path.join(self.dir, '.nginx', 'nginx.pid')

    @property
    def access_log(self):
        return os.path.join(self.dir, '.nginx', 'access.log')

    def fetch(self, url, headers=None, timeout=10):
        u = urllib.parse.urlsplit(url)
        if u.scheme != 'http' or not u.hostname:
            raise ValueError('not an http URL of the test web: %r' % url)
        path = (u.path or '/') + ('?' + u.query if u.query else '')
        h = {'Host': u.netloc, 'User-Agent': 'fcrawl-testweb/1', 'Connection': 'close'}
        h.update(headers or {})
        conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=timeout)
        try:
            conn.request('GET', path, headers=h)
            r = conn.getresponse()
            return Response(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
        finally:
            conn.close()

    def sites(self):
        """{host: root folder} from sites.tsv."""
        return {row[0]: row[1] for row in read_tsv(os.path.join(self.dir, 'sites.tsv'))}

    def labels(self):
        """{url: [category, ...]} from labels.tsv."""
        return {row[0]: (row[1].split(',') if len(row) > 1 and row[1] else [])
                for row in read_tsv(os.path.join(self.dir, 'labels.tsv'))}

    def log(self):
        """The access log as a list of dicts (host, request_uri, status, msec, ...)."""
        try:
            with open(self.access_log, encoding='utf-8') as f:
                return [json.loads(line) for line in f if line.strip()]
        except FileNotFoundError:
            return []

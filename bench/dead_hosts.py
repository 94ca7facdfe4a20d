#!/usr/bin/python3
"""What dead hosts cost a crawl (protocol/resolver.h, fetch.async_dns).

An old web links to many hosts that no longer exist, and on a network
without answers for them a DNS lookup waits for its timeout. This builds a
web of LIVE hosts (served by nginx on loopback) whose pages also link to
DEAD host names that a fake DNS server (tests/testweb/fakedns.py) never
answers, and crawls all of it with bfs, 64 in flight, DELAY ms per host:

- in scope: the dead hosts are in scope and their names are looked up (the
  default fetch.async_dns, dns_timeout_ms 5000);
- out of scope: scope.allowed_domains keeps to the live hosts, so the dead
  names are never looked up (the same crawl without the cost).

and reports wall time, pages, pages/s and the dead hosts' robots.txt
attempts, with the ratio of the two wall times (1.0 = the dead hosts cost
nothing). Writes the section of docs/benchmarks.md between
<!-- dead-hosts:begin --> and <!-- dead-hosts:end --> (unless --no-docs).

usage: bench/dead_hosts.py [--worker build/worker/worker] [--out DIR]
          [--live 10] [--pages 100] [--dead 300] [--delay-ms 100]
          [--repeat 2] [--no-docs]

A dead name costs its lookup's timeout once, outside the transfer slots;
the crawl waits for lookups still running when everything else is done
(the name might answer), so the crawl has to be longer than the timeout for
the ratio to say anything about the rest of the crawl.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, 'tests', 'testweb'))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import extraction  # noqa: E402  (write_section, DOC_HEADER: shared)
from fakedns import FakeDns  # noqa: E402

DOCS = os.path.join(ROOT, 'docs', 'benchmarks.md')
BEGIN, END = '<!-- dead-hosts:begin -->', '<!-- dead-hosts:end -->'


def make_web(out, live, pages, dead, seed=7):
    rng = random.Random(seed)
    live_hosts = ['site%d.live.test' % i for i in range(live)]
    dead_hosts = ['host%d.old.test' % i for i in range(dead)]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    lines = []
    for h in live_hosts:
        root = os.path.join(out, 'sites', h)
        os.makedirs(root)
        lines.append('%s\t%s\n' % (h, root))
        for p in range(pages):
            links = []
            for _ in range(5):
                links.append('http://%s/p%d.html' % (rng.choice(live_hosts), rng.randrange(pages)))
            links.append('p%d.html' % ((p + 1) % pages))
            for _ in range(3):
                links.append('http://%s/~user%d/' % (rng.choice(dead_hosts), rng.randrange(9)))
            body = ''.join('<li><a href="%s">link %d</a></li>' % (u, i) for i, u in enumerate(links))
            with open(os.path.join(root, 'p%d.html' % p), 'w') as f:
                f.write('<html><head><title>%s page %d</title></head><body><p>Page %d of %s, '
                        'an old department page.</p><ul>%s</ul></body></html>\n'
                        % (h, p, p, h, body))
    with open(os.path.join(out, 'sites.tsv'), 'w') as f:
        f.writelines(lines)
    return live_hosts, dead_hosts


def crawl(worker, out, port, dns_port, live_hosts, in_scope, delay_ms):
    shutil.rmtree(out, ignore_errors=True)
    config = out + '.textproto'
    lines = ['seeds: "http://%s/p0.html"' % h for h in live_hosts[:4]]
    lines.append('strategy { name: "bfs" }')
    lines.append('output_dir: "%s"' % out)
    lines.append('allow_private_addresses: true')
    for h in live_hosts:
        lines.append('resolve { host_port: "%s" address: "127.0.0.1:%d" }' % (h, port))
    if not in_scope:
        lines.append('scope { allowed_domains: "live.test" }')
    lines.append('politeness { per_host_delay_ms: %d }' % delay_ms)
    lines.append('fetch { max_in_flight: 64 dns_servers: "127.0.0.1:%d" }' % dns_port)
    with open(config, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    t0 = time.time()
    r = subprocess.run([worker, 'crawl', '--config', config, '--quiet'],
                       capture_output=True, text=True, timeout=3600)
    wall = time.time() - t0
    if r.returncode != 0:
        raise SystemExit('worker failed:\n' + r.stderr[-3000:])
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    dead_attempts = 0
    with open(os.path.join(out, 'fetch_log.jsonl')) as f:
        for line in f:
            if '.old.test/' in line:
                dead_attempts += 1
    return {'wall': wall, 'pages': summary['pages_fetched'],
            'dead_attempts': dead_attempts, 'dns_lookups': summary['dns_lookups'],
            'dns_failures': summary['dns_failures'],
            'hosts_parked': summary['hosts_parked'], 'stop_reason': summary['stop_reason']}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split('\n\n', 1)[1])
    ap.add_argument('--worker', default=os.path.join(ROOT, 'build', 'worker', 'worker'))
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'bench-dead-hosts'))
    ap.add_argument('--live', type=int, default=10)
    ap.add_argument('--pages', type=int, default=100)
    ap.add_argument('--delay-ms', type=int, default=100)
    ap.add_argument('--dead', type=int, default=300)
    ap.add_argument('--repeat', type=int, default=2)
    ap.add_argument('--no-docs', action='store_true')
    args = ap.parse_args()
    command = 'bench/dead_hosts.py' + ''.join(
        ' %s' % a for a in sys.argv[1:] if not a.startswith('--worker'))
    os.makedirs(args.out, exist_ok=True)
    web = os.path.join(args.out, 'web')
    live_hosts, dead_hosts = make_web(web, args.live, args.pages, args.dead)
    nginx = os.path.join(ROOT, 'tests', 'testweb', 'nginx.sh')
    port = int(subprocess.run([nginx, 'start', web], capture_output=True, text=True,
                              check=True).stdout.strip())
    dns = FakeDns({h: None for h in dead_hosts})
    rows = []
    started = time.time()
    try:
        for run in range(1, args.repeat + 1):
            for in_scope in (True, False):
                name = 'in-scope' if in_scope else 'out-of-scope'
                r = crawl(args.worker, os.path.join(args.out, '%s-%d' % (name, run)), port,
                          dns.port, live_hosts, in_scope, args.delay_ms)
                r.update(run=run, crawl=name)
                rows.append(r)
                print('%-12s run %d: %d pages in %.1f s, %d dead-host attempts, %d lookups'
                      % (name, run, r['pages'], r['wall'], r['dead_attempts'], r['dns_lookups']),
                      file=sys.stderr)
    finally:
        dns.stop()
        subprocess.run([nginx, 'stop', web], capture_output=True)
    mean = {c: sum(r['wall'] for r in rows if r['crawl'] == c) /
            max(1, sum(1 for r in rows if r['crawl'] == c))
            for c in ('in-scope', 'out-of-scope')}
    out = ['## Dead hosts (bench/dead_hosts.py)', '',
           'Command (from the project root): `%s`' % command, '',
           '- Date: %s UTC; %d cores; run time %.0f s' % (
               time.strftime('%Y-%m-%d %H:%M', time.gmtime()), os.cpu_count(),
               time.time() - started),
           '- Web: %d live hosts of %d pages (nginx on loopback), each page linking to 6 live '
           'pages and 3 URLs on %d dead host names that the fake DNS server never answers; '
           'bfs, 64 in flight, %d ms per host, every live page fetched.' % (
               args.live, args.pages, args.dead, args.delay_ms),
           '- in scope: the dead names are looked up (fetch.async_dns, the default; '
           'dns_timeout_ms 5000); out of scope: `scope.allowed_domains: "live.test"`, never '
           'looked up.', '',
           '| crawl | run | pages | seconds | pages/s | dead-host attempts | DNS lookups | '
           'lookups failed | hosts parked at the end | stop |',
           '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|']
    for r in rows:
        out.append('| %s | %d | %d | %.1f | %.1f | %d | %d | %d | %d | %s |' % (
            r['crawl'], r['run'], r['pages'], r['wall'], r['pages'] / r['wall'],
            r['dead_attempts'], r['dns_lookups'], r['dns_failures'], r['hosts_parked'],
            r['stop_reason']))
    out += ['', '- Mean wall time: %.1f s with the dead hosts in scope, %.1f s without them: '
            'ratio %.2f.' % (mean['in-scope'], mean['out-of-scope'],
                             mean['in-scope'] / mean['out-of-scope'])]
    text = '\n'.join(out) + '\n'
    print(text)
    if not args.no_docs:
        extraction.write_section(DOCS, BEGIN, END, BEGIN + '\n' + text + END,
                                 extraction.DOC_HEADER)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""What a long scope list costs a crawl (core/host_scope.h, the fetcher's
resolve map).

A crawl of "these 100,000 sites" lists them in scope.allowed_hosts, in the
config or in a file of its own (scope.allowed_hosts_file, read when the
config is loaded); here on loopback a test may also list them in
`resolve`. Every out-link is checked against the scope and every transfer
against the overrides, so what matters is whether a check costs one lookup
or a scan of the list, and what reading the list costs. This crawls the
synthetic test web (tests/testweb/generate.py, served by nginx on
loopback) with bfs, 64 in flight, no delay, once with only its own hosts
listed (baseline) and then with FILLERS more host names (names the crawl
never meets) listed three ways: in the config's allowed_hosts and in
`resolve` ("config + resolve"), in the config's allowed_hosts only
("config"), and in an allowed_hosts_file only ("file"). It reports pages,
wall time and the worker's CPU time with the ratio to the baseline of the
same run (1.00 = the list costs nothing). Writes the section of
docs/benchmarks.md between <!-- scope:begin --> and <!-- scope:end -->
(unless --no-docs).

usage: bench/scope.py [--worker build/worker/worker] [--out DIR]
          [--fillers 9980,100000] [--pages 3000] [--repeat 2] [--no-docs]
          [--before OTHER_WORKER]

--before runs another worker binary (an older build) on the same configs
in the same run, for a before/after row; configs over its limits are
refused by it (builds before host_scope.h took at most 10,000 entries:
9,980 fillers and the web's own hosts stay under that; builds before
allowed_hosts_file do not know the field).
"""

import argparse
import json
import os
import resource
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
import testweb  # noqa: E402

DOCS = os.path.join(ROOT, 'docs', 'benchmarks.md')
BEGIN, END = '<!-- scope:begin -->', '<!-- scope:end -->'


# How the fillers are listed (see the docstring).
HOWS = ('config + resolve', 'config', 'file')


def write_config(path, out, sites, port, fillers, pages, how):
    hosts = sorted(h for h in sites if h != 'ads.test')
    lines = ['seeds: "http://%s/"' % h for h in hosts[:4]]
    lines += ['strategy { name: "bfs" }', 'output_dir: "%s"' % out,
              'allow_private_addresses: true',
              'budget { max_pages: %d }' % pages,
              'politeness { per_host_delay_ms: 0 }',
              'fetch { max_in_flight: 64 }']
    # Fillers as long as the web's own names (a list compared name by name
    # pays for each equal length), the web's own names in the middle (where
    # a name of a long list is on average).
    filler = ['f%06d-news.test' % i for i in range(fillers)]
    names = filler[:fillers // 2] + list(sites) + filler[fillers // 2:]
    lines.append('scope {')
    if how == 'file':
        hosts_file = path + '.hosts.txt'
        with open(hosts_file, 'w') as f:
            f.write('# the sites of this crawl\n' + '\n'.join(names) + '\n')
        lines.append('  allowed_hosts_file: "%s"' % hosts_file)
    else:
        lines += ['  allowed_hosts: "%s"' % h for h in names]
    lines.append('}')
    for h in (names if how == 'config + resolve' else sites):
        address = '127.0.0.1:%d' % (port if h in sites else 9)
        lines.append('resolve { host_port: "%s" address: "%s" }' % (h, address))
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def config_read_seconds(worker, config):
    """Wall time of `worker print-config` (read, validate, print): the
    crawl's fixed cost of a long list."""
    t0 = time.time()
    r = subprocess.run([worker, 'print-config', '--config', config], capture_output=True)
    return time.time() - t0 if r.returncode == 0 else float('nan')


def crawl(worker, config, out):
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    r = subprocess.run([worker, 'crawl', '--config', config, '--quiet'],
                       capture_output=True, text=True, timeout=3600)
    wall = time.time() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''
        # "worker: CONFIG: field: problem; ...": the first problem.
        return {'error': last.split(': ', 2)[-1].split(';')[0] or 'exit %d' % r.returncode}
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {'pages': summary['pages_fetched'], 'wall': wall, 'cpu': cpu}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split('\n\n', 1)[1])
    ap.add_argument('--worker', default=os.path.join(ROOT, 'build', 'worker', 'worker'))
    ap.add_argument('--before', default='')
    ap.add_argument('--before-name', default='before',
                    help='what --before is, for the table (e.g. its commit)')
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'bench-scope'))
    ap.add_argument('--fillers', default='9980,100000')
    ap.add_argument('--pages', type=int, default=3000)
    ap.add_argument('--repeat', type=int, default=2)
    ap.add_argument('--no-docs', action='store_true')
    args = ap.parse_args()
    command = 'bench/scope.py --fillers %s --pages %d --repeat %d%s' % (
        args.fillers, args.pages, args.repeat,
        ' --before OLDER_BUILD/worker/worker --before-name \'%s\'' % args.before_name
        if args.before else '')
    fillers = [0] + [int(x) for x in args.fillers.split(',') if x]
    os.makedirs(args.out, exist_ok=True)
    web = os.path.join(args.out, 'web')
    testweb.generate('synthetic', web, pages=args.pages, hosts=12, seed=3)
    tw = testweb.TestWeb(web)
    port = tw.start()
    sites = tw.sites()
    workers = [('this build', args.worker)] + (
        [(args.before_name, args.before)] if args.before else [])
    rows = []
    started = time.time()
    try:
        configs = {}
        variants = [(0, 'config')] + [(n, how) for n in fillers[1:] for how in HOWS]
        for n, how in variants:
            name = 'fillers-%d-%s' % (n, how.replace(' + ', '-'))
            configs[n, how] = (os.path.join(args.out, name + '.textproto'),
                               os.path.join(args.out, 'crawl-' + name))
            write_config(configs[n, how][0], configs[n, how][1], sites, port, n,
                         args.pages, how)
        for run in range(1, args.repeat + 1):
            for name, worker in workers:
                for n, how in variants:
                    config, crawl_dir = configs[n, how]
                    r = crawl(worker, config, crawl_dir)
                    size = os.path.getsize(config) + (
                        os.path.getsize(config + '.hosts.txt') if how == 'file' else 0)
                    r.update(run=run, worker=name, fillers=n, how=how,
                             config_mb=size / 1e6,
                             config_s=config_read_seconds(worker, config))
                    rows.append(r)
                    print('%-10s %7d fillers, %s, run %d: %s' % (name, n, how, run, r),
                          file=sys.stderr)
    finally:
        tw.stop()

    def mean(worker, n, how, key):
        v = [r[key] for r in rows
             if r['worker'] == worker and r['fillers'] == n and r['how'] == how and key in r]
        return sum(v) / len(v) if v else None

    out = ['## Long scope lists (bench/scope.py)', '',
           'Command (from the project root): `%s`' % command, '',
           '- Date: %s UTC; %d cores; run time %.0f s' % (
               time.strftime('%Y-%m-%d %H:%M', time.gmtime()), os.cpu_count(),
               time.time() - started),
           '- Web: the synthetic test web (%d pages, 12 hosts) on nginx, loopback; bfs, 64 in '
           'flight, no delay, budget %d pages. Baseline: its own hosts in '
           '`scope.allowed_hosts` and `resolve`; FILLERS more names (never met, as long as '
           'the web\'s own; the web\'s own in the middle of the lists), listed in '
           '`allowed_hosts` and `resolve` ("config + resolve"), in `allowed_hosts` only '
           '("config"), or in `scope.allowed_hosts_file` only ("file"). "config MB": the '
           'config and its hosts file; "config read s": `worker print-config` on the same '
           'config (read and validate, print), a fixed cost inside the crawl\'s time.' % (
               args.pages, args.pages), '',
           '| worker | fillers | listed in | config MB | config read s | run | pages | wall s '
           '| worker CPU s | CPU ÷ baseline |',
           '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|']
    for r in rows:
        base = mean(r['worker'], 0, 'config', 'cpu')
        how = '–' if r['fillers'] == 0 else r['how']
        if 'error' in r:
            out.append('| %s | %d | %s | %.1f | | %d | refused: %s | | | |' % (
                r['worker'], r['fillers'], how, r['config_mb'], r['run'], r['error']))
            continue
        out.append('| %s | %d | %s | %.1f | %.2f | %d | %d | %.2f | %.2f | %.2f |' % (
            r['worker'], r['fillers'], how, r['config_mb'], r['config_s'], r['run'],
            r['pages'], r['wall'],
            r['cpu'], r['cpu'] / base if base else float('nan')))
    out.append('')
    for name, _ in workers:
        base = mean(name, 0, 'config', 'cpu')
        for n in fillers[1:]:
            for how in HOWS:
                m = mean(name, n, how, 'cpu')
                if m is not None and base:
                    out.append('- %s, %d fillers in %s: mean worker CPU %.2f s against %.2f s '
                               'without them: ratio %.2f (reading the config: %.2f s).'
                               % (name, n, how, m, base, m / base,
                                  mean(name, n, how, 'config_s')))
    text = '\n'.join(out) + '\n'
    print(text)
    if not args.no_docs:
        extraction.write_section(DOCS, BEGIN, END, BEGIN + '\n' + text + END,
                                 extraction.DOC_HEADER)


if __name__ == '__main__':
    main()

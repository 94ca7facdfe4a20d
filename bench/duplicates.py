#!/usr/bin/python3
"""Near-duplicates on content blocks: how right the decision is, and what
it costs (config `duplicates`, core/minhash.h).

Builds the labelled web of tests/testweb/dupweb.py (real Wikispeedia article
text on 12 news sites with their own templates; 35% of the articles
reprinted on one or two other sites, exactly or with light edits: a byline
and date added, three words replaced, sometimes the last paragraph
dropped) for the dev split (--seed 1) and the held-out split (seed 2),
serves each with nginx on loopback and crawls all of it with bfs.

Decision: a page marked duplicate_of (pages.jsonl) is right when it and the
page it names are copies of one article. Precision = right / marked;
recall = right / (pages fetched of each article - 1, summed: the first copy
fetched is the original).

Cost: a larger web of the dev split (80 articles a site) crawled REPEAT
times with duplicates on and off in turn
(per-host delay 0, 16 in flight, CPU-bound on loopback); the worker's CPU
time per page (user + system, from the kernel) and pages/s, and the ratio
on/off of the CPU time per page.

Writes the section of docs/benchmarks.md between <!-- duplicates:begin -->
and <!-- duplicates:end --> (unless --no-docs). Needs ../shared/data/
wikispeedia.tar.xz.

usage: bench/duplicates.py [--worker build/worker/worker] [--out DIR]
          [--repeat 5] [--no-docs]
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
import dupweb  # noqa: E402

DOCS = os.path.join(ROOT, 'docs', 'benchmarks.md')
BEGIN, END = '<!-- duplicates:begin -->', '<!-- duplicates:end -->'
COST_PER_HOST = 80


def read_sites(web):
    with open(os.path.join(web, 'sites.tsv')) as f:
        return [line.split('\t')[0] for line in f if line.strip()]


def crawl(worker, out, port, hosts, duplicates):
    shutil.rmtree(out, ignore_errors=True)
    config = out + '.textproto'
    lines = ['seeds: "http://%s/index.html"' % h for h in hosts]
    lines.append('strategy { name: "bfs" }')
    lines.append('output_dir: "%s"' % out)
    lines.append('allow_private_addresses: true')
    for h in hosts:
        lines.append('resolve { host_port: "%s" address: "127.0.0.1:%d" }' % (h, port))
    lines.append('scope { %s }' % ' '.join('allowed_hosts: "%s"' % h for h in hosts))
    lines.append('budget { max_pages: 100000 }')
    lines.append('politeness { per_host_delay_ms: 0 }')
    lines.append('fetch { max_in_flight: 16 }')
    lines.append('duplicates { enabled: %s }' % ('true' if duplicates else 'false'))
    with open(config, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    r = subprocess.run([worker, 'crawl', '--config', config, '--quiet'],
                       capture_output=True, text=True, timeout=3600)
    wall = time.time() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit('worker failed:\n' + r.stderr[-3000:])
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    marked = {}
    with open(os.path.join(out, 'pages.jsonl')) as f:
        for line in f:
            p = json.loads(line)
            if p.get('duplicate_of'):
                marked[p['url']] = p['duplicate_of']
    fetched = set()
    with open(os.path.join(out, 'fetch_log.jsonl')) as f:
        for line in f:
            e = json.loads(line)
            if 'kind' not in e and e['status'] == 200:
                fetched.add(e['url'])
    return {'wall': wall, 'cpu': cpu, 'pages': summary['pages_fetched'],
            'duplicates': summary['duplicates'], 'marked': marked, 'fetched': fetched}


def score(families, r):
    right = sum(1 for u, d in r['marked'].items()
                if u in families and families.get(d) == families[u])
    sizes = {}
    for u in r['fetched']:
        if u in families:
            sizes[families[u]] = sizes.get(families[u], 0) + 1
    expected = sum(n - 1 for n in sizes.values())
    return right, len(r['marked']), expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split('\n\n', 1)[1])
    ap.add_argument('--worker', default=os.path.join(ROOT, 'build', 'worker', 'worker'))
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'bench-duplicates'))
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--data', default=os.path.join(ROOT, '..', 'shared', 'data',
                                                   'wikispeedia.tar.xz'))
    ap.add_argument('--no-docs', action='store_true')
    args = ap.parse_args()
    if not os.path.isfile(args.data):
        raise SystemExit('bench/duplicates.py: %s not found' % args.data)
    command = 'bench/duplicates.py' + ''.join(
        ' %s' % a for a in sys.argv[1:] if not a.startswith('--worker'))
    started = time.time()
    nginx = os.path.join(ROOT, 'tests', 'testweb', 'nginx.sh')
    decision, cost = [], []
    for seed, split in ((1, 'dev'), (2, 'held-out')):
        web = os.path.join(args.out, 'web-%s' % split)
        _, families = dupweb.build(web, args.data, seed, 12, 25, 0.35)
        hosts = read_sites(web)
        port = int(subprocess.run([nginx, 'start', web], capture_output=True, text=True,
                                  check=True).stdout.strip())
        try:
            r = crawl(args.worker, os.path.join(args.out, 'crawl-%s' % split), port, hosts,
                      True)
            right, marked, expected = score(families, r)
            decision.append((split, len(families), len(families) - len(set(families.values())),
                             r['pages'], marked, right, expected))
            print('%s: %d marked, %d right, %d expected' % (split, marked, right, expected),
                  file=sys.stderr)
        finally:
            subprocess.run([nginx, 'stop', web], capture_output=True)
    # The cost on a larger web of the dev split (80 articles a site).
    web = os.path.join(args.out, 'web-cost')
    dupweb.build(web, args.data, 1, 12, COST_PER_HOST, 0.35)
    hosts = read_sites(web)
    port = int(subprocess.run([nginx, 'start', web], capture_output=True, text=True,
                              check=True).stdout.strip())
    try:
        for run in range(1, args.repeat + 1):
            for on in (True, False):
                c = crawl(args.worker, os.path.join(args.out, 'cost-%d-%s' % (
                    run, 'on' if on else 'off')), port, hosts, on)
                cost.append((run, on, c['pages'], c['wall'], c['cpu'], c['duplicates']))
                print('cost run %d %s: %d pages, %.2f s, %.2f CPU s' % (
                    run, 'on' if on else 'off', c['pages'], c['wall'], c['cpu']),
                    file=sys.stderr)
    finally:
        subprocess.run([nginx, 'stop', web], capture_output=True)
    out = ['## Near-duplicates (bench/duplicates.py)', '',
           'Command (from the project root): `%s`' % command, '',
           '- Date: %s UTC; %d cores; run time %.0f s' % (
               time.strftime('%Y-%m-%d %H:%M', time.gmtime()), os.cpu_count(),
               time.time() - started),
           '- Web (tests/testweb/dupweb.py): Wikispeedia article text on 12 news sites '
           'with their own templates, 25 articles each; 35% reprinted on one or two other '
           'sites, half exactly, half with light edits (byline and date added, three words '
           'replaced, the last paragraph dropped half the time from articles of five '
           'paragraphs or more). Dev split seed 1, held-out split seed 2 (disjoint '
           'articles). bfs, every page fetched, default `duplicates` settings '
           '(min_resemblance 0.7, min_words 50).', '',
           '| split | article pages | reprints | pages fetched | marked duplicate | right '
           '| to find | precision | recall |',
           '|---|---:|---:|---:|---:|---:|---:|---:|---:|']
    for split, n, reprints, pages, marked, right, expected in decision:
        out.append('| %s | %d | %d | %d | %d | %d | %d | %.3f | %.3f |' % (
            split, n, reprints, pages, marked, right, expected,
            right / marked if marked else 1.0, right / expected if expected else 1.0))
    out += ['', 'Cost: a larger web of the dev split (%d articles a site) crawled with '
            '`duplicates` on and off in turn (per-host delay 0, 16 in flight, nginx on '
            'loopback: CPU-bound). CPU = the worker process\'s user + system time.'
            % COST_PER_HOST, '',
            '| run | duplicates | pages | seconds | pages/s | CPU ms per page | marked |',
            '|---:|---|---:|---:|---:|---:|---:|']
    for run, on, pages, wall, cpu, dups in cost:
        out.append('| %d | %s | %d | %.2f | %.0f | %.3f | %d |' % (
            run, 'on' if on else 'off', pages, wall, pages / wall, 1000 * cpu / pages, dups))
    per_page = {on: sum(c[4] / c[2] for c in cost if c[1] == on) /
                max(1, sum(1 for c in cost if c[1] == on)) for on in (True, False)}
    rate = {on: sum(c[2] / c[3] for c in cost if c[1] == on) /
            max(1, sum(1 for c in cost if c[1] == on)) for on in (True, False)}
    out += ['', '- Mean CPU per page: %.3f ms with duplicates on, %.3f ms off: ratio %.3f. '
            'Mean pages/s: %.0f on, %.0f off.' % (
                1000 * per_page[True], 1000 * per_page[False],
                per_page[True] / per_page[False], rate[True], rate[False])]
    text = '\n'.join(out) + '\n'
    print(text)
    if not args.no_docs:
        extraction.write_section(DOCS, BEGIN, END, BEGIN + '\n' + text + END,
                                 extraction.DOC_HEADER)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""The chaos benchmark: tests/chaos_test.py's rounds for a long time (30 minutes
by default) and a table of what each round did and lost.

Each round builds a cluster of three workers and a coordinator (lease
1.5 s), starts a bfs crawl of a web where every page has exactly one
in-link (PAGES pages on HOSTS hosts, served by nginx; 200 ms per host),
and for its first CHAOS seconds, every 0.5-2.5 s, does one of: SIGKILL a
worker (started again on its folder 0.2-2.5 s later), SIGKILL the
coordinator (started again on its folder and port 0.3-2 s later), scale
the cluster to 1-5 workers (new workers join; `crawlctl scale` drains the
rest), fill the disk of one worker below the crawl's free-space floor or
free it again (a tmpfs; root only). Then it waits for DONE and compares
the URLs the workers fetched with a standalone crawl of the same web.

Writes the section of docs/benchmarks.md between <!-- chaos:begin --> and
<!-- chaos:end --> (unless --no-docs).

usage: bench/chaos.py [--bin build] [--minutes 30] [--pages 3000]
          [--hosts 30] [--chaos-seconds 25] [--seed 1] [--no-docs]
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, 'tests'))
import extraction  # noqa: E402  (write_section, DOC_HEADER: shared)
import chaos_test as chaos  # noqa: E402
import cluster_harness  # noqa: E402

DOCS = os.path.join(ROOT, 'docs', 'benchmarks.md')
BEGIN, END = '<!-- chaos:begin -->', '<!-- chaos:end -->'
EVENTS = ['worker SIGKILL', 'coordinator SIGKILL', 'scale up', 'scale down', 'disk filled',
          'disk freed']


def section(args, n, results, seconds, command):
    total = {k: sum(r[k] for r in results) for k in
             ('fetched', 'lost', 'extra', 'twice', 'cut', 'cut_bound', 'total_went_down')}
    events = {e: sum(r['events'].get(e, 0) for r in results) for e in EVENTS}
    crashes = [c for r in results for c in r['crashes']]
    bad = [r['round'] for r in results if not chaos.ok(r)]
    rev = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'],
                         capture_output=True, text=True).stdout.strip()
    out = ['## Chaos: kills, scale changes and a full disk during crawls (bench/chaos.py)', '',
           'Command (from the project root): `%s`' % command, '',
           '- Date: %s UTC; code %s; run time %.0f s; %d rounds' % (
               datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M'), rev, seconds,
               len(results)),
           '- Web: every page has exactly one in-link (a tree of %d pages over %d hosts, '
           'tests/chaos_test.py one_in_link_web), so a link lost on the way is never found '
           'again; the standalone `worker crawl` of it fetched all %d pages.' % (
               args.pages, args.hosts, n),
           '- Each round: 3 workers, lease 1.5 s, bfs, 200 ms per host, %d in flight, '
           'budget.min_free_disk_mb %d; %g s of events, one every 0.5-2.5 s, then the crawl '
           'runs to DONE. Killed processes start again on their folders after 0.2-2.5 s '
           '(workers) or 0.3-2 s (the coordinator).%s' % (
               chaos.IN_FLIGHT, chaos.DISK_FLOOR_MB, args.chaos_seconds,
               '' if args.no_disk or os.geteuid() != 0 else
               ' Worker w3\'s folder is a %d MB tmpfs that the disk events fill to half '
               'the floor and empty again.' % chaos.DISK_SIZE_MB),
           '',
           '| round | s | fetched | lost | extra | twice | cut (bound) | total went down | '
           + ' | '.join(EVENTS) + ' | state |',
           '|---:|---:|---:|---:|---:|---:|---:|---:|' + '---:|' * len(EVENTS) + '---|']
    for r in results:
        out.append('| %d | %.0f | %d | %d | %d | %d | %d (%d) | %d | %s | %s |' % (
            r['round'], r['seconds'], r['fetched'], r['lost'], r['extra'], r['twice'], r['cut'],
            r['cut_bound'], r['total_went_down'],
            ' | '.join(str(r['events'].get(e, 0)) for e in EVENTS), r['state']))
    out.append('| all | %.0f | %d | **%d** | %d | **%d** | %d (%d) | %d | %s | |' % (
        sum(r['seconds'] for r in results), total['fetched'], total['lost'], total['extra'],
        total['twice'], total['cut'], total['cut_bound'], total['total_went_down'],
        ' | '.join(str(events[e]) for e in EVENTS)))
    out += ['',
            'Lost: URLs of the reference that no worker fetched. Twice: a URL fetched again '
            'although no kill of the worker that fetched it first came between the two '
            'fetches (a bug). Cut: fetched again after such a kill (the first fetch was cut '
            'before its outcome was committed; allowed, at most kills × in flight). Total '
            'went down: times the coordinator\'s pages total fell between two polls. '
            'Crashes (a worker exiting with an error): %d.' % len(crashes), '',
            '**%s**' % ('Every round: 0 lost, 0 fetched twice, cut fetches within the bound, '
                        'totals never went down.' if not bad else
                        'Rounds that failed: %s.' % bad), '']
    return '\n'.join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--bin', default=os.path.join(ROOT, 'build'))
    p.add_argument('--work', default=os.path.join(ROOT, 'bench', 'out', 'chaos'))
    p.add_argument('--minutes', type=float, default=30)
    p.add_argument('--pages', type=int, default=3000)
    p.add_argument('--hosts', type=int, default=30)
    p.add_argument('--chaos-seconds', dest='chaos_seconds', type=float, default=25)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--no-disk', dest='no_disk', action='store_true')
    p.add_argument('--no-docs', dest='no_docs', action='store_true')
    args = p.parse_args()
    command = 'bench/chaos.py' + ''.join(
        ' --%s %s' % (k.replace('_', '-'), getattr(args, k))
        for k in ('minutes', 'pages', 'hosts', 'chaos_seconds', 'seed')
        if getattr(args, k) != p.get_default(k))
    if args.no_disk:
        command += ' --no-disk'
    # tests/chaos_test.py's options under the names it reads.
    cargs = argparse.Namespace(bin=args.bin, source=ROOT, work=args.work, minutes=args.minutes,
                               rounds=0, chaos_seconds=args.chaos_seconds, pages=args.pages,
                               hosts=args.hosts, delay_ms=200, seed=args.seed,
                               no_disk=args.no_disk, keep=False)
    cluster_harness.ARGS = cargs
    t0 = time.time()
    n, results = chaos.run(cargs)
    seconds = time.time() - t0
    with open(os.path.join(args.work, 'results.json'), 'w') as f:
        json.dump({'reference': n, 'rounds': results}, f, indent=1)
    text = section(args, n, results, seconds, command)
    print(text)
    if not args.no_docs:
        extraction.write_section(DOCS, BEGIN, END, BEGIN + '\n' + text + END + '\n',
                                 extraction.DOC_HEADER)
    return 0 if results and all(chaos.ok(r) for r in results) else 1


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""Chaos for the crawl cluster: random SIGKILLs of workers and of the
coordinator, scale changes and a full disk on one worker, during crawls of a
web where every page has exactly one in-link (so a link lost on the way is
never found again another way). Each round's fetched URL set is compared
with the standalone reference crawl of the same web.

  chaos_test.py --bin BUILD_DIR --source SRC --work DIR [--minutes M | --rounds N]
           [--pages P] [--hosts H] [--seed S] [--json OUT]

Per round it reports: lost (reference URLs no worker fetched), extra
(fetched, not in the reference), twice (a URL fetched again although no
kill cut its first fetch: a bug) and cut (a URL fetched again after a
SIGKILL of the worker that fetched it first, before that worker's
database had the outcome: allowed, at most kills × in-flight), and
whether the coordinator's pages total ever went down. Exit status 1 when a
round lost a URL, fetched one twice, exceeded the cut bound, saw the total
go down or did not finish.

ctest chaos_test (tests/CMakeLists.txt) runs one short round in CI;
bench/chaos.py runs rounds for 30 minutes and writes docs/benchmarks.md.
"""

import argparse
import collections
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_harness  # noqa: E402
from cluster_harness import (Cluster, page_entries, parse_time,  # noqa: E402
                             read_jsonl, testweb_module)

IN_FLIGHT = 16          # fetch.max_in_flight of every crawl here
DISK_FLOOR_MB = 48      # budget.min_free_disk_mb of every crawl here
DISK_SIZE_MB = 512      # the tmpfs of the full-disk worker


def one_in_link_web(web_dir, pages, hosts, seed, fanout=4):
    """Writes a tree web: page 0 is http://h00.test/ (the seed); page i > 0
    is linked once, from page (i - 1) // fanout, and sits on a random host.
    Returns (the hosts, the set of page URLs)."""
    rng = random.Random(seed)
    names = ['h%02d.test' % i for i in range(hosts)]
    place = [(names[0], 'index.html')]
    for i in range(1, pages):
        place.append((rng.choice(names), 'p%d.html' % i))

    def url(i):
        host, path = place[i]
        return 'http://%s/%s' % (host, '' if path == 'index.html' else path)

    sites = {h: {} for h in names}
    for i, (host, path) in enumerate(place):
        children = range(fanout * i + 1, min(pages, fanout * i + fanout + 1))
        links = ''.join('<li><a href="%s">page %d</a></li>' % (url(c), c) for c in children)
        sites[host][path] = (
            '<!doctype html><html><head><title>Page %d</title></head><body>'
            '<h1>Page %d</h1><p>Page %d of the one-in-link web, on %s. Every '
            'page here is linked from exactly one other page.</p><ul>%s</ul>'
            '</body></html>' % (i, i, i, host, links))
    testweb_module(cluster_harness.ARGS.source).write_sites(web_dir, sites)
    return names, set(url(i) for i in range(pages))


def write_config(path, web, hosts, delay_ms, output_dir='unused'):
    lines = ['seeds: "http://%s/"' % hosts[0], 'strategy { name: "bfs" }',
             'output_dir: "%s"' % output_dir, 'allow_private_addresses: true',
             'politeness { per_host_delay_ms: %d }' % delay_ms,
             'fetch { max_in_flight: %d }' % IN_FLIGHT,
             'budget { min_free_disk_mb: %d }' % DISK_FLOOR_MB]
    lines += ['resolve { host_port: "%s" address: "127.0.0.1:%d" }' % (h, web.port)
              for h in hosts]
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def standalone_urls(work, web, hosts, delay_ms):
    """The reference: one `worker crawl` of the same web and config."""
    out = os.path.join(work, 'standalone')
    shutil.rmtree(out, ignore_errors=True)
    config = write_config(out + '.textproto', web, hosts, delay_ms, out)
    r = subprocess.run([os.path.join(cluster_harness.ARGS.bin, 'worker', 'worker'),
                        'crawl', '--config', config, '--quiet'],
                       capture_output=True, text=True, timeout=1800)
    if r.returncode != 0:
        raise RuntimeError('standalone crawl: exit %d\n%s' % (r.returncode, r.stderr[-3000:]))
    return set(e['url'] for e in page_entries(read_jsonl(os.path.join(out, 'fetch_log.jsonl'))))


class Disk:
    """A tmpfs for one worker's folder, filled by a file of our own below
    the crawl's free-space floor and emptied again. None without root."""

    def __init__(self, path):
        self.path = path
        self.filler = os.path.join(path, 'filler')
        os.makedirs(path, exist_ok=True)
        r = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=%dm' % DISK_SIZE_MB,
                            'tmpfs', path], capture_output=True, text=True)
        if r.returncode != 0:
            raise OSError(r.stderr.strip())
        self.full = False

    @staticmethod
    def make(path):
        if os.geteuid() != 0:
            return None
        try:
            return Disk(path)
        except OSError as e:
            print('chaos: no full-disk events (cannot mount a tmpfs: %s)' % e)
            return None

    def fill(self):
        st = os.statvfs(self.path)
        free = st.f_bavail * st.f_frsize
        keep = DISK_FLOOR_MB * 1024 * 1024 // 2
        with open(self.filler, 'wb') as f:
            chunk = b'\0' * (1 << 20)
            left = max(0, free - keep)
            while left > 0:
                n = min(left, len(chunk))
                f.write(chunk[:n])
                left -= n
        self.full = True

    def free(self):
        if os.path.exists(self.filler):
            os.remove(self.filler)
        self.full = False

    def unmount(self):
        subprocess.run(['umount', '-l', self.path], capture_output=True)


class Round:
    """One crawl of the one-in-link web under chaos."""

    def __init__(self, name, web, hosts, delay_ms, rng, chaos_s, lease_ms=1500,
                 disk=True, log=print):
        self.rng = rng
        self.log = log
        self.chaos_s = chaos_s
        self.events = collections.Counter()
        self.kills = []            # (time, worker name)
        self.restarts = []         # (due time, worker name)
        self.coordinator_due = None
        self.crashes = []          # (worker name, exit status) of unexpected exits
        self.totals = []           # (time, pages_fetched) as the coordinator said
        self.next_name = 4
        self.disk = None
        self.c = Cluster(name, lease_ms=lease_ms)
        disk_dir = os.path.join(self.c.dir, 'w3')
        if disk:
            self.disk = Disk.make(disk_dir)
        for n in ('w1', 'w2', 'w3'):
            self.c.add_worker(n)
        self.c.wait_members(3)
        self.config = write_config(os.path.join(self.c.dir, 'chaos.textproto'), web, hosts,
                                   delay_ms)

    def live(self):
        return sorted(n for n, p in self.c.workers.items() if p.poll() is None)

    def note_total(self):
        try:
            st = self.c.status()
        except AssertionError:
            return None
        self.totals.append((time.time(), int(st.get('pages_fetched', 0) or 0)))
        return st

    def kill_worker(self):
        live = self.live()
        if not live:
            return
        n = self.rng.choice(live)
        p = self.c.workers[n]
        p.send_signal(signal.SIGKILL)
        p.wait()
        p.stdout.close()
        now = time.time()
        self.kills.append((now, n))
        self.restarts.append((now + self.rng.uniform(0.2, 2.5), n))
        self.events['worker SIGKILL'] += 1
        self.note('SIGKILL %s' % n)

    def kill_coordinator(self):
        if self.coordinator_due is not None:
            return
        if self.c.coordinator.poll() is not None:
            raise AssertionError('the coordinator exited with status %d' %
                                 self.c.coordinator.returncode)
        self.c.coordinator.send_signal(signal.SIGKILL)
        self.c.coordinator.wait()
        self.c.coordinator.stdout.close()
        self.coordinator_due = time.time() + self.rng.uniform(0.3, 2.0)
        self.events['coordinator SIGKILL'] += 1
        self.note('SIGKILL coordinator')

    def scale(self):
        if self.coordinator_due is not None:
            return
        st = self.note_total()
        if st is None:
            return
        members = len(st.get('view', {}).get('members', []))
        target = self.rng.choice([k for k in (1, 2, 3, 4, 5) if k != members] or [members])
        if target > members:
            for _ in range(target - members):
                name = 'w%d' % self.next_name
                self.next_name += 1
                self.c.add_worker(name)
                self.note('scale up: %s joins' % name)
            self.events['scale up'] += 1
        else:
            r = self.c.ctl('scale', str(target), check=False)
            self.note('scale %d: %s' % (target, ' '.join((r.stdout + r.stderr).split())))
            if r.returncode == 0:
                self.events['scale down'] += 1

    def toggle_disk(self):
        if self.disk is None:
            return
        if self.disk.full:
            self.disk.free()
            self.events['disk freed'] += 1
            self.note('disk of w3 freed')
        else:
            self.disk.fill()
            self.events['disk filled'] += 1
            self.note('disk of w3 filled')

    def due(self, now):
        """Restarts that are due: killed workers on their folders, the
        coordinator on its folder and port."""
        for t, n in list(self.restarts):
            if t <= now:
                self.restarts.remove((t, n))
                self.c.add_worker(n)
                self.note('%s started again' % n)
        if self.coordinator_due is not None and self.coordinator_due <= now:
            self.coordinator_due = None
            self.c.start_coordinator()
            self.note('coordinator started again')

    def note(self, text):
        """Appends an event, with the time, to the round's events.log."""
        with open(os.path.join(self.c.dir, 'events.log'), 'a') as f:
            f.write('%.3f %s\n' % (time.time(), text))

    def run(self, timeout_s=900):
        crawl = self.c.start(self.config)
        t0 = time.time()
        next_event = t0 + self.rng.uniform(0.5, 2.0)
        actions = [(self.kill_worker, 5), (self.kill_coordinator, 2), (self.scale, 2),
                   (self.toggle_disk, 2 if self.disk else 0)]
        state = None
        while True:
            now = time.time()
            self.due(now)
            # Drained workers exit by themselves (status 0): forget them. Any
            # other exit is a crash: counted, and the worker starts again.
            pending = [w for _, w in self.restarts]
            for n, p in list(self.c.workers.items()):
                if p.poll() is not None and n not in pending:
                    p.stdout.close()
                    if p.returncode == 0:
                        del self.c.workers[n]
                        self.note('%s drained and exited' % n)
                    else:
                        self.crashes.append((n, p.returncode))
                        self.note('%s exited with status %d' % (n, p.returncode))
                        self.log('chaos: %s exited with status %d' % (n, p.returncode))
                        self.restarts.append((now + 0.5, n))
            if now - t0 < self.chaos_s and now >= next_event:
                fn = self.rng.choices([a for a, _ in actions], [w for _, w in actions])[0]
                fn()
                next_event = now + self.rng.uniform(0.5, 2.5)
            if now - t0 >= self.chaos_s and not self.restarts and self.coordinator_due is None:
                if self.disk is not None and self.disk.full:
                    self.toggle_disk()
                if not self.c.workers:
                    self.c.add_worker('w%d' % self.next_name)
                    self.next_name += 1
                st = self.note_total()
                if st is not None and st.get('state') in ('DONE', 'STOPPED'):
                    state = st.get('state')
                    break
            elif self.coordinator_due is None and self.rng.random() < 0.3:
                self.note_total()
            if now - t0 > timeout_s:
                state = 'TIMEOUT'
                break
            time.sleep(0.1)
        self.seconds = time.time() - t0
        self.state = state
        self.crawl = crawl
        return self

    def fetches(self):
        """(url, time, worker) of every page fetch in every worker's log."""
        out = []
        for name in sorted(os.listdir(self.c.dir)):
            log = os.path.join(self.c.dir, name, self.crawl, 'fetch_log.jsonl')
            for e in page_entries(read_jsonl(log)):
                out.append((e['url'], parse_time(e['fetched_at']), name))
        return out

    def score(self, reference):
        fetches = self.fetches()
        by_url = collections.defaultdict(list)
        for url, t, w in fetches:
            by_url[url].append((t, w))
        twice, cut = [], []
        for url, fs in by_url.items():
            fs.sort()
            for (t1, w1), (t2, _) in zip(fs, fs[1:]):
                # The first fetch was cut when its worker was killed after
                # it and before the second (its outcome never committed).
                if any(w == w1 and t1 <= k + 0.05 and k <= t2 for k, w in self.kills):
                    cut.append(url)
                else:
                    twice.append(url)
        urls = set(by_url)
        went_down = sum(1 for (_, a), (_, b) in zip(self.totals, self.totals[1:]) if b < a)
        kills = self.events['worker SIGKILL']
        return {
            'state': self.state, 'seconds': round(self.seconds, 1),
            'reference': len(reference), 'fetched': len(fetches), 'distinct': len(urls),
            'lost': len(reference - urls), 'extra': len(urls - reference),
            'twice': len(twice), 'cut': len(cut), 'cut_bound': kills * IN_FLIGHT,
            'total_went_down': went_down, 'events': dict(self.events),
            'crashes': ['%s: status %d' % c for c in self.crashes],
            'lost_sample': sorted(reference - urls)[:10], 'twice_sample': sorted(twice)[:10],
            'extra_sample': sorted(urls - reference)[:10],
        }

    def stop(self, keep_disk=False):
        """Ends the processes; the full-disk worker's tmpfs stays mounted
        with `keep_disk` (a failed round's folders are for reading)."""
        self.c.stop()
        if self.disk is not None and not keep_disk:
            self.disk.unmount()


def ok(result):
    return (result['state'] == 'DONE' and result['lost'] == 0 and result['extra'] == 0 and
            result['twice'] == 0 and result['cut'] <= result['cut_bound'] and
            result['total_went_down'] == 0 and not result['crashes'])


def run(args, log=print):
    """Serves the web, crawls the reference, runs rounds; returns
    (reference size, [result per round])."""
    os.makedirs(args.work, exist_ok=True)
    web_dir = os.path.join(args.work, 'web-one-in-link')
    hosts, expected = one_in_link_web(web_dir, args.pages, args.hosts, args.seed)
    web = testweb_module(args.source).TestWeb(web_dir)
    web.start()
    results = []
    try:
        reference = standalone_urls(args.work, web, hosts, args.delay_ms)
        if reference != expected:
            raise RuntimeError('the standalone crawl fetched %d of the web\'s %d pages '
                               '(missing e.g. %s)' % (len(reference), len(expected),
                                                       sorted(expected - reference)[:5]))
        rng = random.Random(args.seed)
        t_end = time.time() + args.minutes * 60
        i = 0
        while (args.rounds and i < args.rounds) or (not args.rounds and time.time() < t_end):
            r = Round('chaos-%d' % i, web, hosts, args.delay_ms, rng, args.chaos_seconds,
                      disk=not args.no_disk, log=log)
            result = None
            try:
                result = r.run().score(reference)
            finally:
                r.stop(keep_disk=result is None or not ok(result))
            result['round'] = i
            results.append(result)
            log('chaos round %d: %s' % (i, json.dumps(result, sort_keys=True)))
            if ok(result) and not args.keep:
                shutil.rmtree(r.c.dir, ignore_errors=True)
            i += 1
    finally:
        web.stop()
    return len(reference), results


def parser():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--bin', required=True, help='the build folder')
    p.add_argument('--source', required=True, help='the project root')
    p.add_argument('--work', required=True, help='a scratch folder')
    p.add_argument('--minutes', type=float, default=30)
    p.add_argument('--rounds', type=int, default=0, help='a number of rounds instead of --minutes')
    p.add_argument('--chaos_seconds', type=float, default=25,
                   help='seconds of events at the start of each round')
    p.add_argument('--pages', type=int, default=3000)
    p.add_argument('--hosts', type=int, default=30)
    p.add_argument('--delay_ms', type=int, default=200)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--no_disk', action='store_true', help='no full-disk events')
    p.add_argument('--keep', action='store_true', help='keep the folders of good rounds')
    p.add_argument('--json', help='write the results here')
    return p


def main():
    args = parser().parse_args()
    cluster_harness.ARGS = args
    n, results = run(args)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'reference': n, 'rounds': results}, f, indent=1)
    bad = [r['round'] for r in results if not ok(r)]
    print('chaos: %d rounds, %d bad %s' % (len(results), len(bad), bad))
    return 1 if bad or not results else 0


if __name__ == '__main__':
    sys.exit(main())

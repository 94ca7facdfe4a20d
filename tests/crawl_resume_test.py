#!/usr/bin/python3
"""End-to-end crawl tests (tests/crawl_lib.py): a crawl loses nothing.

ResumeTest kills the worker with SIGKILL at several moments of a crawl,
restarts it on the same folder each time, and checks that the URLs fetched in
the end are exactly those of an uninterrupted crawl with the same config;
and stops it with SIGINT and resumes. DiskFullTest: a disk filled to zero
mid-crawl pauses the crawl and does not abort the worker.
"""

import collections
import errno
import json
import os
import shutil
import signal
import subprocess
import time
import unittest

from crawl_lib import (  # noqa: F401
    ARGS,
    write_config,
    run_worker,
    read_text,
    dump_state,
    page_fetches,
    pages_with_heads,
    serve_one_site,
    WebFixture,
    read_jsonl,
    run)


class ResumeTest(unittest.TestCase):
    """SIGKILL at several moments, restart each time: same fetched set."""

    def config(self, fx, name):
        out = os.path.join(ARGS.work, 'resume-%s-%s' % (ARGS.web, name))
        shutil.rmtree(out, ignore_errors=True)
        path = out + '.textproto'
        hosts = sorted(h for h in fx.sites if h != 'ads.test')[:3]
        write_config(path, fx.web, fx.sites, ['http://%s/' % h for h in hosts], out,
                     extra=('scope { %s }\n'
                            'politeness { per_host_delay_ms: 5 max_crawl_delay_ms: 0 }\n'
                            'fetch { max_in_flight: 8 }\n'
                            'budget { max_pages: 100000 }')
                     % ' '.join('allowed_hosts: "%s"' % h for h in hosts))
        return path, out

    def fetched_set(self, out):
        return {e['url'] for e in page_fetches(read_jsonl(os.path.join(out, 'fetch_log.jsonl')))}

    def test_sigkill_and_restart(self):
        fx = WebFixture.get()
        if ARGS.web == 'wikispeedia':
            self.skipTest('run on the synthetic web only (the calendar makes '
                          'the Wikispeedia closure too large for a quick test)')
        ref_config, ref_out = self.config(fx, 'reference')
        _, ref_summary, _ = run_worker(ref_config)
        self.assertEqual(ref_summary['stop_reason'], 'frontier empty')
        reference = self.fetched_set(ref_out)
        self.assertGreater(len(reference), 150)

        config, out = self.config(fx, 'killed')
        log = os.path.join(out, 'fetch_log.jsonl')
        kills = 0
        for threshold in (20, 60, 110, 170):
            p = subprocess.Popen([ARGS.worker, 'crawl', '--quiet', '--config', config],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            deadline = time.time() + 60
            while time.time() < deadline and p.poll() is None:
                n = len(read_jsonl(log)) if os.path.exists(log) else 0
                if n >= threshold:
                    break
                time.sleep(0.01)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                kills += 1
            p.wait()
            p.stdout.close()
            p.stderr.close()
        self.assertGreaterEqual(kills, 2, 'the crawl ended before it could be killed')
        r, summary, _ = run_worker(config)
        self.assertEqual(summary['stop_reason'], 'frontier empty', r.stderr[-2000:])
        got = self.fetched_set(out)
        self.assertEqual(sorted(got - reference), [], 'fetched only after the kills')
        self.assertEqual(sorted(reference - got), [], 'lost by the kills')
        state = dump_state(config)
        self.assertFalse([s for s in state if s['status'] in ('QUEUED', 'IN_FLIGHT')])

    def test_sigint_stops_cleanly_and_resumes(self):
        fx = WebFixture.get()
        config, out = self.config(fx, 'sigint')
        p = subprocess.Popen([ARGS.worker, 'crawl', '--config', config],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        log = os.path.join(out, 'fetch_log.jsonl')
        deadline = time.time() + 60
        while time.time() < deadline and p.poll() is None:
            if os.path.exists(log) and len(read_jsonl(log)) >= 30:
                break
            time.sleep(0.01)
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, stderr)
        summary = json.loads(stdout.strip().splitlines()[-1])
        self.assertEqual(summary['stop_reason'], 'stopped')
        first = summary['pages_fetched']
        _, summary2, _ = run_worker(config)
        self.assertEqual(summary2['stop_reason'], 'frontier empty')
        self.assertEqual(summary2['pages_fetched_total'],
                         first + summary2['pages_fetched'])
        urls = collections.Counter(e['url'] for e in page_fetches(
            read_jsonl(log)))
        self.assertEqual([u for u, n in urls.items() if n > 1], [],
                         'a clean stop must not fetch anything twice')


class DiskFullTest(unittest.TestCase):
    """budget.min_free_disk_mb: a crawl whose output folder's file system
    is below the floor starts no fetch and says why; when space comes back
    it goes on by itself and finishes. On a real small file system (a tmpfs
    mounted for the test: root only, skipped otherwise)."""

    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise unittest.SkipTest('mounting a tmpfs needs root: skipping the full-disk crawl')
        pages = {'index.html': ('', ['p%d.html' % i for i in range(20)])}
        for i in range(20):
            pages['p%d.html' % i] = ('', [])
        cls.dir, cls.web = serve_one_site('web-diskfull', 'disk.test',
                                          pages_with_heads(pages, 'is on a full disk'))
        cls.mnt = os.path.join(ARGS.work, 'diskfull-mnt')
        os.makedirs(cls.mnt, exist_ok=True)
        subprocess.run(['umount', cls.mnt], capture_output=True)
        # Room for the floor (40 MiB), the reserve (10) and the 70 MiB that
        # RocksDB preallocates for its log (1.1 write buffers).
        r = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=192m', 'tmpfs', cls.mnt],
                           capture_output=True, text=True)
        if r.returncode != 0:
            cls.web.stop()
            raise unittest.SkipTest('cannot mount a tmpfs (%s): skipping the full-disk crawl'
                                    % r.stderr.strip())

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()
        subprocess.run(['umount', cls.mnt], capture_output=True)

    def start_crawl(self, name, delay_ms, before_start=None):
        """A crawl of the web into the tmpfs (floor 40 MiB), started after
        `before_start`: (process, output folder, stderr file)."""
        out = os.path.join(self.mnt, name)
        config = os.path.join(ARGS.work, name + '.textproto')
        write_config(config, self.web, {'disk.test': None}, ['http://disk.test/'], out,
                     extra='politeness { per_host_delay_ms: %d } '
                           'budget { min_free_disk_mb: 40 }' % delay_ms)
        if before_start is not None:
            before_start()
        err_path = os.path.join(ARGS.work, name + '.stderr')
        with open(err_path, 'w') as err:
            p = subprocess.Popen([ARGS.worker, 'crawl', '--config', config],
                                 stdout=subprocess.PIPE, stderr=err, text=True)
        return p, out, err_path

    def test_pauses_and_resumes(self):
        filler = os.path.join(self.mnt, 'filler')

        def fill():  # leave 20 MiB free: below the 40 MiB floor
            st = os.statvfs(self.mnt)
            with open(filler, 'wb') as f:
                f.write(b'\0' * (st.f_bavail * st.f_frsize - (20 << 20)))
        p, out, err_path = self.start_crawl('crawl-diskfull', 0, fill)
        try:
            deadline = time.time() + 60
            while 'disk full on' not in read_text(err_path):
                self.assertIsNone(p.poll(), read_text(err_path)[-2000:])
                self.assertLess(time.time(), deadline, 'no "disk full" message')
                time.sleep(0.1)
            time.sleep(1.5)  # paused: nothing is fetched meanwhile
            self.assertEqual(page_fetches(read_jsonl(os.path.join(out, 'fetch_log.jsonl'))), [])
            self.assertIsNone(p.poll())
            os.unlink(filler)
            stdout, _ = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
        self.assertEqual(p.returncode, 0, read_text(err_path)[-2000:])
        summary = json.loads(stdout.strip().splitlines()[-1])
        self.assertEqual(summary['pages_fetched'], 21, summary)
        self.assertEqual(summary['disk_full_pauses'], 1, summary)
        self.assertEqual(summary['stop_reason'], 'frontier empty', summary)
        stderr = read_text(err_path)
        self.assertIn('disk full on %s: ' % out, stderr)
        self.assertIn('fetching resumed', stderr)


    def test_filled_to_zero_while_crawling(self):
        """Another process fills the disk to zero between two readings of
        the free space. The next write finds it full: the reserve the crawl
        holds in its folder (a quarter of the floor, disk.reserve) is
        released, the write goes through, the crawl pauses at once and goes
        on when the space comes back. No write fails and the worker does not
        abort (a RocksDB log that failed a write is never written again, and
        Debian's RocksDB asserts on it)."""
        p, out, err_path = self.start_crawl('crawl-diskzero', 150)
        fetch_log = os.path.join(out, 'fetch_log.jsonl')
        filler = os.path.join(self.mnt, 'filler-zero')
        try:
            deadline = time.time() + 60
            while not (os.path.exists(os.path.join(out, 'disk.reserve')) and
                       os.path.exists(fetch_log) and page_fetches(read_jsonl(fetch_log))):
                self.assertIsNone(p.poll(), read_text(err_path)[-2000:])
                self.assertLess(time.time(), deadline, 'the crawl did not start')
                time.sleep(0.02)
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                chunk = b'\0' * (1 << 20)
                while True:
                    os.write(fd, chunk)
            except OSError as e:
                self.assertEqual(e.errno, errno.ENOSPC, e)
            chunk = b'\0' * 4096
            try:  # the last blocks
                while True:
                    os.write(fd, chunk)
            except OSError:
                pass
            os.close(fd)
            while 'fetching paused' not in read_text(err_path):
                self.assertIsNone(p.poll(), read_text(err_path)[-2000:])
                self.assertLess(time.time(), deadline, 'no pause on a full disk')
                time.sleep(0.05)
            time.sleep(1)
            self.assertIsNone(p.poll(), read_text(err_path)[-2000:])
            os.unlink(filler)
            stdout, _ = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            if os.path.exists(filler):
                os.unlink(filler)
        stderr = read_text(err_path)
        self.assertEqual(p.returncode, 0, stderr[-2000:])
        self.assertNotIn('crawl failed', stderr)
        summary = json.loads(stdout.strip().splitlines()[-1])
        self.assertEqual(summary['pages_fetched'], 21, summary)
        self.assertGreaterEqual(summary['disk_full_pauses'], 1, summary)
        self.assertEqual(summary['stop_reason'], 'frontier empty', summary)
        self.assertIn('fetching resumed', stderr)
        # Every page once in the log, every line whole.
        urls = [e['url'] for e in page_fetches(read_jsonl(fetch_log))]
        self.assertEqual(len(urls), 21, urls)
        self.assertEqual(len(set(urls)), 21, urls)
        shutil.rmtree(out)  # the other test fills the disk by its free space


if __name__ == '__main__':
    run()

#!/usr/bin/python3
"""Every binary's command line has the same shape (core/cli.h).

  cli_help_test.py BUILD_DIR WORKDIR

For each binary: `--help`, `-h` and `help` print the usage (commands and
flags, not code) on stdout and exit 0; `COMMAND --help` prints that
command's flags and exits 0; an unknown flag exits 2 naming it; no command
exits 2; and one command that needs no network runs.
"""

import os
import shutil
import subprocess
import sys
import unittest

BUILD = None
WORK = None

# binary path under BUILD, its name in the usage, its commands.
BINARIES = {
    'worker': ('worker/worker', ['crawl', 'join', 'dump-state', 'print-config',
                                 'list-patterns', 'list-outcomes', 'export-graph',
                                 'build-interest-model', 'build-page-model']),
    'coordinator': ('coordinator/coordinator', ['serve']),
    'crawlctl': ('crawlctl/crawlctl', ['status', 'start', 'watch', 'pause',
                                       'resume', 'stop', 'scale', 'summary',
                                       'export', 'push-ranks']),
    'crawl-eval': ('eval/crawl-eval', ['compare']),
    'quark': ('quark/quark', ['segment', 'extract', 'view']),
    'ranker': ('ranker/ranker', ['run', 'round', 'output', 'info']),
    'graph_gen': ('ranker/graph_gen', ['generate']),
    'warc_sample': ('protocol/warc_sample', ['write']),
}


def run(name, *args):
    path = os.path.join(BUILD, BINARIES[name][0])
    return subprocess.run([path] + list(args), capture_output=True, text=True,
                          timeout=60)


class CliHelpTest(unittest.TestCase):
    def test_help(self):
        for name, (_, commands) in BINARIES.items():
            for args in (['--help'], ['-h'], ['help']):
                with self.subTest(binary=name, args=args):
                    r = run(name, *args)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertEqual(r.stderr, '')
                    self.assertTrue(r.stdout.startswith('usage: %s COMMAND' % name),
                                    r.stdout)
                    for command in commands:
                        self.assertIn('\n  %s' % command, r.stdout)

    def test_command_help(self):
        for name, (_, commands) in BINARIES.items():
            for command in commands:
                with self.subTest(binary=name, command=command):
                    r = run(name, command, '--help')
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertTrue(r.stdout.startswith('usage: %s %s' % (name, command)),
                                    r.stdout)

    def test_unknown_flag(self):
        for name, (_, commands) in BINARIES.items():
            with self.subTest(binary=name):
                r = run(name, commands[0], '--no_such_flag=1')
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("unknown flag '--no_such_flag'", r.stderr)
                self.assertIn('usage:', r.stderr)
                # abseil's own flags are not the binaries' flags.
                r = run(name, commands[0], '--flagfile=/dev/null')
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("unknown flag '--flagfile'", r.stderr)

    def test_no_command(self):
        for name in BINARIES:
            with self.subTest(binary=name):
                r = run(name)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn('no command given', r.stderr)

    def test_crawlctl_usage_errors(self):
        # crawlctl's commands all need a coordinator; its usage errors do not.
        for args, message in (
                (['scale', '0'], "N must be an integer from 1 to 10000, not '0'"),
                (['watch', '--interval-ms', '200'],
                 "unknown flag '--interval-ms' (did you mean --interval_ms?"),
                (['status', '--force'], "--force is not a flag of 'status'"),
                (['--coordinator', 'nohost', 'status'],
                 "--coordinator must be HOST:PORT, not 'nohost'"),
                (['start', 'c.textproto', '--labels', 'l.tsv'],
                 '--labels and --topic go together')):
            with self.subTest(args=args):
                r = run('crawlctl', *args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, '')
                self.assertIn('crawlctl: ' + message, r.stderr)
                self.assertIn('usage: crawlctl COMMAND', r.stderr)
        r = run('crawlctl', 'help', 'push-ranks')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith('usage: crawlctl push-ranks'), r.stdout)
        self.assertIn('--batch', r.stdout)
        self.assertIn('--coordinator', r.stdout)

    def test_commands_run(self):
        shards = os.path.join(WORK, 'shards')
        r = run('graph_gen', 'generate', '--out', shards, '--pages', '50',
                '--shards', '1', '--seed=3')
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run('ranker', 'info', '--quiet', shards)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('"pages":50', r.stdout)
        os.makedirs(os.path.join(WORK, 'warc'))
        r = run('warc_sample', 'write', os.path.join(WORK, 'warc'))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('.warc.gz', r.stdout)
        page = os.path.join(WORK, 'p.html')
        with open(page, 'w') as f:
            f.write('<html><body><p>%s</p></body></html>' % ('word ' * 50))
        r = run('quark', 'extract', '--nostructure_hints', page)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('word word', r.stdout)
        # A bool flag given a value the other way.
        r = run('quark', 'extract', '--structure_hints=false', page)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run('quark', 'extract', '--format', 'markdown', page)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('word word', r.stdout)
        config = os.path.join(WORK, 'c.textproto')
        with open(config, 'w') as f:
            f.write('seeds: "http://a.test/"\nstrategy { name: "bfs" }\n')
        r = run('worker', 'print-config', '--config', config)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('seeds: "http://a.test/"', r.stdout)


if __name__ == '__main__':
    BUILD = os.path.abspath(sys.argv[1])
    WORK = os.path.abspath(sys.argv[2])
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)

#!/usr/bin/python3
"""The `worker` command's usage and config errors (no network needed).

  worker_cli_test.py WORKER WORKDIR

Usage errors and bad configs exit 2 with a message that names the problem
(file:line:column and the field for parse errors, the field path for bad
values); nothing is created for a config the worker cannot run; print-config
prints the defaults; dump-state of a missing database exits 1.
"""

import json
import os
import shutil
import subprocess
import sys
import unittest

WORKER = None
WORK = None


def run(*args, timeout=30):
    return subprocess.run([WORKER] + list(args), capture_output=True, text=True,
                          timeout=timeout)


def config(name, text):
    path = os.path.join(WORK, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


def example_folders(prefix):
    """Three astronomy and three football example pages (text files) in
    WORK/<prefix>pos and WORK/<prefix>neg."""
    pos, neg = os.path.join(WORK, prefix + 'pos'), os.path.join(WORK, prefix + 'neg')
    for d, words in ((pos, 'telescope planet orbit star'),
                     (neg, 'football goal match league')):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for i in range(3):
            with open(os.path.join(d, '%d.txt' % i), 'w') as f:
                f.write('%s %s common words here %d\n' % (words, words.split()[i], i))
    return pos, neg


class WorkerCliTest(unittest.TestCase):
    def test_usage_errors_exit_2(self):
        for args in ([], ['crawl'], ['--bogus'], ['crawl', '--config'],
                     ['crawl', 'dump-state', '--config', 'x'],
                     ['--parse_threads', '-1', 'crawl', '--config', 'x']):
            r = run(*args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertIn('usage:', r.stderr)

    def test_help_prints_usage(self):
        for args in (['--help'], ['-h'], ['help']):
            r = run(*args)
            self.assertEqual(r.returncode, 0, (args, r.stderr))
            self.assertTrue(r.stdout.startswith('usage: worker COMMAND'), r.stdout)
            for command in ('crawl', 'join HOST:PORT', 'dump-state', 'print-config',
                            'list-patterns HOST|all', 'list-outcomes HOST|all',
                            'export-graph',
                            'build-interest-model', 'build-page-model'):
                self.assertIn('\n  %s\n' % command, r.stdout)
            self.assertNotIn('ABSL', r.stdout)  # usage, not code
        for args in (['export-graph', '--help'], ['help', 'export-graph']):
            r = run(*args)
            self.assertEqual(r.returncode, 0, (args, r.stderr))
            self.assertTrue(r.stdout.startswith('usage: worker export-graph'), r.stdout)
            self.assertIn('--shard_pages (integer, default 100000)', r.stdout)
            self.assertIn('--worker_name (string, default "w0")', r.stdout)
            self.assertNotIn('--parse_threads', r.stdout)  # crawl's, not export's

    def test_unknown_flag_named(self):
        r = run('crawl', '--bogus', '--config', 'x')
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown flag '--bogus'", r.stderr)
        r = run('frobnicate')
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown command 'frobnicate'", r.stderr)
        # A flag of another command is refused, naming where it belongs.
        r = run('dump-state', '--out', 'x', '--db', 'y')
        self.assertEqual(r.returncode, 2)
        self.assertIn("--out is not a flag of 'dump-state'", r.stderr)
        # Bounds name the flag.
        r = run('crawl', '--parse_threads', '300', '--config', 'x')
        self.assertEqual(r.returncode, 2)
        self.assertIn('--parse_threads must be a number in [0, 256]', r.stderr)

    def test_old_spellings_refused(self):
        # Mode flags became commands and flags snake_case; the old spelling
        # is an error that points at the new one.
        r = run('--standalone', '--config', 'x')
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown flag '--standalone'", r.stderr)
        r = run('export-graph', '--db', 'x', '--out', 'y', '--shard-pages', '5')
        self.assertEqual(r.returncode, 2)
        self.assertIn('did you mean --shard_pages?', r.stderr)

    def test_missing_config_file(self):
        r = run('crawl', '--config', os.path.join(WORK, 'nope.textproto'))
        self.assertEqual(r.returncode, 2)
        self.assertIn('nope.textproto', r.stderr)

    def test_unknown_field_names_line_and_field(self):
        path = config('unknown.textproto', 'seeds: "http://a.test/"\nfoo: 1\n')
        r = run('crawl', '--config', path)
        self.assertEqual(r.returncode, 2)
        self.assertIn('unknown.textproto:2:', r.stderr)
        self.assertIn('"foo"', r.stderr)

    def test_bad_values_name_the_fields(self):
        path = config('bad.textproto', 'seeds: "ftp://a.test/"\nbudget { max_pages: -3 }\n'
                      'strategy { name: "bfs" }\n')
        r = run('crawl', '--config', path)
        self.assertEqual(r.returncode, 2)
        self.assertIn('seeds[0]', r.stderr)
        self.assertIn('budget.max_pages', r.stderr)

    def test_unloadable_interest_model_creates_nothing(self):
        out = os.path.join(WORK, 'interest-out')
        shutil.rmtree(out, ignore_errors=True)
        path = config('interest.textproto',
                      'seeds: "http://a.test/"\nstrategy { name: "interest" '
                      'interest { model_file: "%s/no-such-model.pb" } }\n'
                      'topic { keywords: "x" }\noutput_dir: "%s"\n' % (WORK, out))
        r = run('crawl', '--config', path)
        self.assertEqual(r.returncode, 1)
        self.assertIn('strategy.interest', r.stderr)
        self.assertIn('no-such-model.pb', r.stderr)
        self.assertFalse(os.path.exists(out))

    def test_build_interest_model(self):
        pos, neg = example_folders('')
        path = config('build-model.textproto',
                      'seeds: "http://a.test/"\nstrategy { name: "interest" }\n'
                      'topic { positive_examples_dir: "%s" negative_examples_dir: "%s" }\n'
                      % (pos, neg))
        model = os.path.join(WORK, 'model.pb')
        r = run('build-interest-model', '--config', path, '--out', model)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreater(json.loads(r.stdout)['terms'], 0)
        self.assertGreater(os.path.getsize(model), 0)
        # Missing --out, and a folder that does not exist.
        self.assertEqual(run('build-interest-model', '--config', path).returncode, 2)
        bad = config('bad-model.textproto',
                     'seeds: "http://a.test/"\nstrategy { name: "interest" }\n'
                     'topic { positive_examples_dir: "%s/nope" negative_examples_dir: "%s" }\n'
                     % (WORK, neg))
        r = run('build-interest-model', '--config', bad, '--out', model)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('nope', r.stderr)

    def test_build_page_model_and_crawl_with_it(self):
        pos, neg = example_folders('page-')
        path = config('page-model.textproto',
                      'seeds: "http://a.test/"\n'
                      'topic { keywords: "star" positive_examples_dir: "%s" '
                      'negative_examples_dir: "%s" }\n' % (pos, neg))
        model = os.path.join(WORK, 'page_model.pb')
        r = run('build-page-model', '--config', path, '--out', model)
        self.assertEqual(r.returncode, 0, r.stderr)
        made = json.loads(r.stdout)
        self.assertEqual((made['positives'], made['negatives']), (3, 3))
        self.assertGreater(made['features'], 0)
        self.assertGreater(os.path.getsize(model), 0)
        self.assertEqual(run('build-page-model', '--config', path).returncode, 2)
        # One folder only: the error names what is missing.
        one = config('page-model-one.textproto',
                     'seeds: "http://a.test/"\n'
                     'topic { keywords: "star" positive_examples_dir: "%s" }\n' % pos)
        r = run('build-page-model', '--config', one, '--out', model + '.x')
        self.assertEqual(r.returncode, 2)
        self.assertIn('negative one is not given', r.stderr)
        # A crawl config naming a model file that is not a model: refused
        # before the output folder is made, naming the field.
        out = os.path.join(WORK, 'page-model-out')
        shutil.rmtree(out, ignore_errors=True)
        with open(os.path.join(WORK, 'garbage.pb'), 'wb') as f:
            f.write(b'\xff\xfe not a model')
        bad = config('page-model-bad.textproto',
                     'seeds: "http://a.test/"\ntopic { keywords: "star" '
                     'judge { model_file: "%s/garbage.pb" } }\noutput_dir: "%s"\n'
                     % (WORK, out))
        r = run('crawl', '--config', bad)
        self.assertEqual(r.returncode, 2)  # a config error
        self.assertIn('topic.judge.model_file', r.stderr)
        self.assertIn('not a page model', r.stderr)
        self.assertFalse(os.path.exists(out))

    def test_list_patterns_errors(self):
        r = run('list-patterns', 'a.test', '--db', os.path.join(WORK, 'no-such-db'))
        self.assertEqual(r.returncode, 1)
        self.assertIn('no-such-db', r.stderr)
        self.assertEqual(run('list-patterns').returncode, 2)

    def test_list_outcomes_errors(self):
        r = run('list-outcomes', 'all', '--db', os.path.join(WORK, 'no-such-db'))
        self.assertEqual(r.returncode, 1)
        self.assertIn('no-such-db', r.stderr)
        self.assertEqual(run('list-outcomes').returncode, 2)
        self.assertEqual(run('list-outcomes', 'all').returncode, 2)  # no --db

    def test_print_config_fills_defaults(self):
        path = config('small.textproto', 'seeds: "http://a.test/"\nstrategy { name: "bfs" }\n')
        r = run('print-config', '--config', path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('per_host_delay_ms: 1000', r.stdout)
        self.assertIn('max_body_bytes: 10485760', r.stdout)
        self.assertIn('user_agent: "fcrawl/0.1"', r.stdout)

    def test_strict_is_window_one_and_one_in_flight(self):
        path = config('strict.textproto', 'seeds: "http://a.test/"\n'
                      'topic { keywords: "course" }\n'
                      'strategy { name: "learned" order_window: 64 }\n'
                      'fetch { max_in_flight: 256 }\n'
                      'politeness { per_host_delay_ms: 300 }\n')
        r = run('print-config', '--config', path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('order_window: 64', r.stdout)
        self.assertIn('max_in_flight: 256', r.stdout)
        r = run('print-config', '--strict', '--config', path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('order_window: 1\n', r.stdout)
        self.assertIn('max_in_flight: 1\n', r.stdout)
        self.assertIn('per_host_delay_ms: 300', r.stdout)  # politeness kept

    def test_dump_state_of_missing_database(self):
        r = run('dump-state', '--db', os.path.join(WORK, 'no-such-db'))
        self.assertEqual(r.returncode, 1)
        self.assertIn('no-such-db', r.stderr)


if __name__ == '__main__':
    WORKER = os.path.abspath(sys.argv[1])
    WORK = os.path.abspath(sys.argv[2])
    os.makedirs(WORK, exist_ok=True)
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)

#!/usr/bin/python3
"""The ranking batch jobs of deploy/: deploy/rank.sh and the commands the
Kubernetes manifests run, executed here on a generated graph.

  deploy_rank_test.py --bin BUILD_DIR --source SRC --work DIR

- deploy/rank.sh round -n 2 (mpirun, ranker-mpi) run round after round gives
  the scores of one uninterrupted single-process `deploy/rank.sh run` (to
  1e-9), and `output` writes the ranking from the last checkpoint.
- deploy/k8s/ranker-round-job.yaml: the Job's container command, with the
  image's /opt/fcrawl mapped to this checkout's build and /data to a
  folder here, runs a round with the manifest's environment.
- deploy/k8s/ranker-mpijob.yaml: the launcher's mpirun command runs a round
  here the same way (oversubscribed: this machine has fewer cores).
- Bad usage of deploy/rank.sh exits 2 naming the problem.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import unittest

import yaml

ARGS = None


def env():
    e = dict(os.environ)
    e['BUILD'] = ARGS.bin
    # OpenMPI refuses root unless told (CI runs as root).
    e['OMPI_ALLOW_RUN_AS_ROOT'] = '1'
    e['OMPI_ALLOW_RUN_AS_ROOT_CONFIRM'] = '1'
    e['OMPI_MCA_rmaps_base_oversubscribe'] = '1'
    return e


def run(cmd, expect=0, extra_env=None):
    e = env()
    e.update(extra_env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=e)
    if p.returncode != expect:
        raise AssertionError('%s: exit %d, wanted %d\n%s%s' % (
            ' '.join(cmd), p.returncode, expect, p.stdout[-2000:], p.stderr[-3000:]))
    return p


def read_scores(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split('\t')
    i_url, i_score = head.index('url'), head.index('score')
    return {l.split('\t')[i_url]: float(l.split('\t')[i_score]) for l in lines[1:]}


class DeployRankTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = ARGS.work
        shutil.rmtree(cls.work, ignore_errors=True)
        cls.data = os.path.join(cls.work, 'data')
        cls.shards = os.path.join(cls.data, 'shards')
        os.makedirs(cls.data)
        run([os.path.join(ARGS.bin, 'ranker', 'graph_gen'), 'generate', '--out', cls.shards,
             '--pages', '20000', '--hosts', '40', '--shards', '3', '--seed', '7'])
        cls.rank = os.path.join(ARGS.source, 'deploy', 'rank.sh')

    def test_rounds_under_mpirun_equal_one_run(self):
        single = os.path.join(self.work, 'single.tsv')
        run([self.rank, 'run', '--algorithm', 'quarkrank', '--quiet',
             '--max_rounds', '6', '--out', single, self.shards])
        ckpt = os.path.join(self.work, 'ckpt')
        for _ in range(6):
            run([self.rank, 'round', '-n', '2', '--algorithm', 'quarkrank',
                 '--quiet', '--max_rounds', '6', '--checkpoint_dir', ckpt,
                 self.shards])
        rounds = os.path.join(self.work, 'rounds.tsv')
        run([self.rank, 'output', '--algorithm', 'quarkrank', '--quiet',
             '--max_rounds', '6', '--checkpoint_dir', ckpt, '--out', rounds,
             self.shards])
        a, b = read_scores(single), read_scores(rounds)
        self.assertEqual(set(a), set(b))
        self.assertLessEqual(max(abs(a[u] - b[u]) for u in a), 1e-9)

    def container(self, manifest, pick):
        with open(os.path.join(ARGS.source, 'deploy', 'k8s', manifest)) as f:
            doc = yaml.safe_load(f)
        c = pick(doc)
        cmd = list(c.get('command', [])) + list(c.get('args', []))
        # The image's paths → this machine's.
        data = os.path.join(self.work, 'k8s-' + doc['kind'])
        shutil.rmtree(data, ignore_errors=True)
        os.makedirs(data)
        os.symlink(self.shards, os.path.join(data, 'shards'))

        def local(s):
            s = s.replace('/opt/fcrawl/build', ARGS.bin)
            s = s.replace('/opt/fcrawl', ARGS.source)
            return s.replace('/data', data)
        cmd = [local(x) for x in cmd]
        extra = {e['name']: e['value'] for e in c.get('env', [])}
        return doc, cmd, extra, data

    def test_kubernetes_job_runs_a_round(self):
        doc, cmd, extra, data = self.container(
            'ranker-round-job.yaml',
            lambda d: d['spec']['template']['spec']['containers'][0])
        self.assertEqual(doc['apiVersion'], 'batch/v1')
        self.assertEqual(doc['kind'], 'Job')
        self.assertEqual(doc['spec']['template']['spec']['restartPolicy'], 'Never')
        for n in (1, 2):  # two Jobs: two rounds
            run(cmd, extra_env=extra)
        self.assertTrue(os.path.exists(os.path.join(data, 'checkpoints', 'checkpoint.fcr')))
        p = run([os.path.join(ARGS.bin, 'ranker', 'ranker'), 'output', '--algorithm',
                 extra['ALGORITHM'], '--checkpoint_dir', os.path.join(data, 'checkpoints'),
                 '--quiet', os.path.join(data, 'shards')])
        self.assertEqual(json.loads(p.stdout)['round'], 2)

    def test_mpijob_launcher_runs_a_round(self):
        doc, cmd, extra, data = self.container(
            'ranker-mpijob.yaml',
            lambda d: d['spec']['mpiReplicaSpecs']['Launcher']['template']['spec']['containers'][0])
        self.assertEqual(doc['kind'], 'MPIJob')
        self.assertEqual(cmd[0], 'mpirun')
        np = int(cmd[cmd.index('-np') + 1])
        self.assertEqual(np, doc['spec']['mpiReplicaSpecs']['Worker']['replicas'])
        p = run(cmd, extra_env=extra)
        self.assertTrue(os.path.exists(os.path.join(data, 'checkpoints', 'checkpoint.fcr')))
        summary = json.loads(p.stdout)
        self.assertEqual(summary['processes'], np)
        self.assertEqual(summary['round'], 1)

    def test_bad_usage(self):
        p = run([self.rank, 'frobnicate'], expect=2)
        self.assertIn("unknown command 'frobnicate'", p.stderr)
        p = run([self.rank, 'round', '-n', 'x', self.shards], expect=2)
        self.assertIn('-n needs a process count', p.stderr)
        p = run([self.rank, 'round', '-n', '0', self.shards], expect=2)
        self.assertIn('at least 1', p.stderr)
        # round without a checkpoint folder: the ranker's own refusal.
        p = run([self.rank, 'round', '-n', '2', '--quiet', self.shards], expect=2)
        self.assertIn('checkpoint', p.stderr)


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument('--bin', required=True)
    p.add_argument('--source', required=True)
    p.add_argument('--work', required=True)
    ARGS, rest = p.parse_known_args()
    ARGS.bin = os.path.abspath(ARGS.bin)
    ARGS.source = os.path.abspath(ARGS.source)
    ARGS.work = os.path.abspath(ARGS.work)
    unittest.main(argv=[sys.argv[0], '-v'] + rest)


if __name__ == '__main__':
    main()

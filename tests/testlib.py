"""Helpers the Python tests share (each puts tests/ on sys.path)."""

import argparse
import json
import os
import sys


def read_jsonl(path):
    """The JSON values of the non-blank lines of `path`; [] when the file
    does not exist (a crawl that has not written it yet)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def worker_test_args():
    """What a crawl test is run with, `TEST.py WORKER --work DIR [unittest
    options]`: (the worker binary, the test's own folder, both absolute and
    the folder made; the argv to give unittest.main)."""
    ap = argparse.ArgumentParser()
    ap.add_argument('worker')
    ap.add_argument('--work', required=True)
    args, rest = ap.parse_known_args()
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    return os.path.abspath(args.worker), work, [sys.argv[0]] + rest

"""Helpers the Python tests share (each puts tests/ on sys.path)."""

import json
import os


def read_jsonl(path):
    """The JSON values of the non-blank lines of `path`; [] when the file
    does not exist (a crawl that has not written it yet)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]

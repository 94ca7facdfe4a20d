"""Helpers every bench script shares (they put bench/ first on sys.path)."""

import sys


def logger(prefix):
    """A log(message) that writes "[prefix] message" to stderr at once, so
    a long benchmark's progress shows while it runs."""
    def log(message):
        print("[%s] %s" % (prefix, message), file=sys.stderr, flush=True)
    return log

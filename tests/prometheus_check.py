#!/usr/bin/python3
"""Checks that the coordinator's /metrics is valid Prometheus text.

    /usr/bin/python3 tests/prometheus_check.py URL_OR_FILE [--require NAME]...

Parses the text with prometheus_client's parser (Debian
python3-prometheus-client) and exits 1 with a message naming the problem on
a parse failure, on a sample outside its family, on a duplicate series or
when a required family is missing; exits 0 and prints a one-line summary
otherwise. The cluster test calls check() directly; the default required
families are the ones every coordinator serves (REQUIRED).
"""

import argparse
import math
import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

# Families the coordinator always serves. The parser strips "_total" from
# counter family names, so they are matched on sample names instead.
REQUIRED = (
    "fcrawl_pages_fetched_total",
    "fcrawl_workers",
    "fcrawl_pages_per_second",
    "fcrawl_queue_urls",
)

# Largest /metrics accepted: thousands of workers stay far below.
MAX_BYTES = 16 << 20


class CheckError(Exception):
    pass


def read(source, timeout=10):
    """The text at an http(s) URL or in a file ("-" for stdin)."""
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=timeout) as r:
            if r.status != 200:
                raise CheckError(f"{source}: HTTP {r.status}")
            ctype = r.headers.get("Content-Type", "")
            if not ctype.startswith("text/plain"):
                raise CheckError(
                    f"{source}: Content-Type {ctype!r}, expected text/plain")
            data = r.read(MAX_BYTES + 1)
    elif source == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
    else:
        with open(source, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise CheckError(f"{source}: more than {MAX_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CheckError(f"{source}: not UTF-8: {e}") from None


def check(text, required=REQUIRED, source="metrics"):
    """Parses `text`; returns {sample name: [(labels, value)]}.

    Raises CheckError naming the problem.
    """
    if text and not text.endswith("\n"):
        raise CheckError(f"{source}: the last line has no newline")
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as e:  # the parser raises ValueError and others
        raise CheckError(f"{source}: not Prometheus text: {e}") from None
    samples = {}
    seen_families = set()
    for family in families:
        if family.name in seen_families:
            raise CheckError(f"{source}: family {family.name} appears twice")
        seen_families.add(family.name)
        if family.type == "counter" and not any(
                s.name.endswith("_total") for s in family.samples) and \
                family.samples:
            raise CheckError(
                f"{source}: counter {family.name} has no _total sample")
        series = set()
        for s in family.samples:
            key = (s.name, tuple(sorted(s.labels.items())))
            if key in series:
                raise CheckError(f"{source}: duplicate series {s.name}"
                                 f"{dict(s.labels)}")
            series.add(key)
            if family.type == "counter" and not math.isnan(s.value) and \
                    s.value < 0:
                raise CheckError(
                    f"{source}: counter {s.name}{dict(s.labels)} is negative")
            samples.setdefault(s.name, []).append((dict(s.labels), s.value))
    # A family declared with # TYPE but without samples still counts as
    # present when the name matches the family.
    present = set(samples) | seen_families
    missing = [name for name in required
               if name not in present and
               not (name.endswith("_total") and name[:-6] in seen_families)]
    if missing:
        raise CheckError(f"{source}: missing families: {', '.join(missing)}")
    return samples


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source", help="http(s) URL of /metrics, a file or -")
    p.add_argument("--require", action="append", default=[],
                   help="a further family that must be present")
    args = p.parse_args(argv)
    try:
        text = read(args.source)
        samples = check(text, tuple(REQUIRED) + tuple(args.require),
                        args.source)
    except CheckError as e:
        print(f"prometheus_check: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"prometheus_check: {args.source}: {e}", file=sys.stderr)
        return 1
    n = sum(len(v) for v in samples.values())
    print(f"prometheus_check: {args.source}: {len(samples)} metrics, "
          f"{n} samples, OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Which gzip library the WARC writer uses, by measurement (issue 18).

Runs build/bench/gzip_bench (bench/gzip_bench.cc) on the real pages of
../shared/data/extraction-dev.tar.xz (CleanEval and Dragnet, English and
Chinese news, blogs, forums; unpacked into bench/out/data once) made into
WARC-like response records: zlib, libdeflate and ISA-L igzip, one gzip
member per record as the writer makes them, single-threaded, best of
--repeat; every output is checked with zlib's inflate. Writes the section of
docs/benchmarks.md between <!-- gzip:begin --> and <!-- gzip:end -->
(unless --no-docs). Skips with a message when the data is absent.

usage: bench/gzip.py [--bench build/bench/gzip_bench] [--repeat 5] [--no-docs]
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import extraction  # noqa: E402  (write_section, DOC_HEADER: shared)

DOCS = os.path.join(ROOT, 'docs', 'benchmarks.md')
BEGIN, END = '<!-- gzip:begin -->', '<!-- gzip:end -->'
ARCHIVE = os.path.join(ROOT, '..', 'shared', 'data', 'extraction-dev.tar.xz')
DATA = os.path.join(HERE, 'out', 'data')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split('\n\n', 1)[1])
    ap.add_argument('--bench', default=os.path.join(ROOT, 'build', 'bench', 'gzip_bench'))
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--no-docs', action='store_true')
    args = ap.parse_args()
    if not os.path.exists(ARCHIVE):
        print('gzip.py: %s not found (the shared data folder is absent); nothing to do'
              % ARCHIVE, file=sys.stderr)
        return
    if not os.path.isdir(os.path.join(DATA, 'dragnet_data')):
        os.makedirs(DATA, exist_ok=True)
        with tarfile.open(ARCHIVE) as t:
            t.extractall(DATA)
    # Only the archive's own folders: bench/out/data holds other data sets
    # too (WCXB's, unpacked by bench/extraction_wcxb.py).
    files = sorted(p for folder in ('cleaneval-dev', 'dragnet_data')
                   for p in glob.glob(os.path.join(DATA, folder, '**', '*.html'),
                                      recursive=True))
    listing = os.path.join(HERE, 'out', 'gzip-files.txt')
    with open(listing, 'w') as f:
        f.write(''.join(p + '\n' for p in files))
    started = time.time()
    r = subprocess.run([args.bench, '--repeat', str(args.repeat), '--list', listing],
                       capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    zlib1 = next(x for x in rows if x['codec'] == 'zlib' and x['level'] == 1)
    out = ['## gzip for the WARC files (bench/gzip.py)', '',
           'Command (from the project root): `bench/gzip.py --repeat %d`' % args.repeat, '',
           '- Date: %s UTC; %d cores, one used; run time %.0f s' % (
               time.strftime('%Y-%m-%d %H:%M', time.gmtime()), os.cpu_count(),
               time.time() - started),
           '- Input: %d real pages (`extraction-dev.tar.xz`: CleanEval and Dragnet), each made '
           'a WARC response record (WARC header, HTTP head, page), %.1f MB; each record '
           'compressed as one gzip member (zstd: one frame, the optional .warc.zst), best '
           'of %d runs; "reads back": zlib\'s inflate (zstd: ZSTD_decompress) gives back '
           'every record.' % (rows[0]['records'], rows[0]['input_mb'],
                                                 args.repeat), '',
           '| library | level | MB/s (input) | ÷ zlib level 1 | size / input | reads back |',
           '|---|---:|---:|---:|---:|---|']
    for x in rows:
        out.append('| %s | %d | %.1f | %.2f | %.3f | %s |' % (
            x['codec'], x['level'], x['mb_per_s'], x['mb_per_s'] / zlib1['mb_per_s'],
            x['size_share'], 'yes' if x['reads_back'] else '**no**'))
    best = max((x for x in rows if x['reads_back'] and not x['codec'].startswith('zstd')
                and x['size_share'] <= zlib1['size_share']), key=lambda x: x['mb_per_s'])
    out += ['', '- Fastest gzip with output no larger than zlib level 1\'s: %s level %d, %.1f '
            'times zlib level 1. The WARC writer (protocol/warc.h) uses ISA-L igzip level 1 for '
            '.warc.gz, and zstd level 3 for the optional .warc.zst (`warc { compression: '
            '"zstd" }`).'
            % (best['codec'], best['level'], best['mb_per_s'] / zlib1['mb_per_s'])]
    text = '\n'.join(out) + '\n'
    print(text)
    if not args.no_docs:
        extraction.write_section(DOCS, BEGIN, END, BEGIN + '\n' + text + END,
                                 extraction.DOC_HEADER)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""Generate a test web of static sites for the crawler, to be served by nginx.

  generate.py wikispeedia [--data TAR] --out DIR [--sites subject|category]
  generate.py synthetic --pages N --hosts H --out DIR [--seed S]
  generate.py university [--pages N] [--hosts H] [--departments D] --out DIR [--seed S]
                         [--frameset-seeds]
  generate.py mdn [--data TAR] --out DIR

Output (see README.md beside this file):
  DIR/sites/<host>/...   one folder per virtual host (the nginx root)
  DIR/sites.tsv          host<TAB>absolute root folder
  DIR/labels.tsv         article URL<TAB>category[,category...] (university: every page)
  DIR/manifest.json      what was generated, counts and bytes
  DIR/seeds.txt          university: the seed URLs (the department home pages);
                         mdn: the locales' home pages
  DIR/nginx/             mdn only: the maps and locations nginx.sh includes

Standard library only; deterministic (same input and seed, same bytes).
"""

import argparse
import gc
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

# The shared template and each web kind are modules beside this file (split
# for length: testweb_common.py, gen_wikispeedia.py, gen_synthetic.py,
# gen_university.py and its university_*.py). Besides what main() needs,
# the names other scripts use through `import generate` are re-exported
# here: dupweb.py the template and the Wikispeedia reader,
# bench/crawl_bench.py and bench/strategies.py topic_vocab.
from testweb_common import (  # noqa: E402,F401
    esc, prepare_out, render_page, short_hash, Site, slug, Writer)
from gen_wikispeedia import (  # noqa: E402,F401
    DEFAULT_DATA, gen_wikispeedia, load_wikispeedia, parse_article, pretty)
from gen_synthetic import gen_synthetic, topic_vocab  # noqa: E402,F401
from gen_university import gen_university  # noqa: E402,F401
import university_parts  # noqa: E402
import gen_mdn  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='mode', required=True)
    a = sub.add_parser('wikispeedia', help='sites from the Wikispeedia data')
    a.add_argument('--data', default=DEFAULT_DATA, help='wikispeedia.tar.xz (default: %(default)s)')
    a.add_argument('--out', required=True)
    a.add_argument('--sites', choices=['subject', 'category'], default='subject',
                   help='one site per top-level subject, or per second-level category')
    a.add_argument('--calendar-months', type=int, default=600,
                   help='months of the calendar trap on each site (0: none)')
    b = sub.add_parser('synthetic', help='a web of any size from topic vocabularies')
    b.add_argument('--pages', type=int, required=True)
    b.add_argument('--hosts', type=int, required=True)
    b.add_argument('--out', required=True)
    b.add_argument('--seed', type=int, default=1)
    b.add_argument('--calendar-months', type=int, default=600,
                   help='months of the calendar trap on hosts that have one (0: none)')
    b.add_argument('--calendar-every', type=int, default=10,
                   help='every Nth host (0, N, 2N, ...) has a calendar trap')
    c = sub.add_parser('university', help='a 1990s university web (course pages as the topic)')
    c.add_argument('--pages', type=int, default=8000, help='pages in all (default: %(default)s)')
    c.add_argument('--hosts', type=int, default=600, help='hosts in all (default: %(default)s)')
    c.add_argument('--departments', type=int, default=4,
                   help='department sites, the seeds (default: %(default)s)')
    c.add_argument('--out', required=True)
    c.add_argument('--seed', type=int, default=1,
                   help='1: the dev split, 2: the held-out split (default: %(default)s)')
    c.add_argument('--frameset-seeds', action='store_true',
                   help='each department home page (a seed) is a frameset whose one '
                        'frame, main.html, is the home page')
    c.add_argument('--course-rot-share', type=float,
                   default=university_parts.COURSE_ROT_SHARE,
                   help='share of the department sites whose course pages link many '
                        'gone sub-pages (default: %(default)s)')
    c.add_argument('--course-rot-links', default='%d,%d' % university_parts.COURSE_ROT_LINKS,
                   metavar='MIN,MAX',
                   help='gone sub-pages per course page on those sites (default: %(default)s)')
    m = sub.add_parser('mdn', help='the archived MDN Web Docs, a real documentation web')
    m.add_argument('--data', default=gen_mdn.DEFAULT_DATA,
                   help='mdn-archive.tar.xz (default: %(default)s)')
    m.add_argument('--out', required=True)
    args = ap.parse_args(argv)
    t0 = time.time()
    gc.disable()    # many long-lived objects, no cycles worth collecting
    if args.mode == 'wikispeedia':
        if not os.path.isfile(args.data):
            sys.exit('generate.py: data not found: %s' % args.data)
        n, s, w = gen_wikispeedia(args)
    elif args.mode == 'mdn':
        if not os.path.isfile(args.data):
            sys.exit('generate.py: data not found: %s' % args.data)
        n, s, w = gen_mdn.gen_mdn(args)
    elif args.mode == 'university':
        # More or fewer dead course sub-pages than the dev split (the real
        # web's worst failure class, stressed); both go into the manifest.
        if not 0 <= args.course_rot_share <= 1:
            sys.exit('generate.py: --course-rot-share must be in [0, 1]')
        try:
            lo, hi = (int(x) for x in args.course_rot_links.split(','))
        except ValueError:
            sys.exit('generate.py: --course-rot-links wants MIN,MAX')
        if not 0 <= lo <= hi <= 200:
            sys.exit('generate.py: --course-rot-links wants 0 <= MIN <= MAX <= 200')
        args.course_rot_links = (lo, hi)
        n, s, w = gen_university(args)
    else:
        if args.calendar_every < 1:
            sys.exit('generate.py: --calendar-every must be >= 1')
        n, s, w = gen_synthetic(args)
    print('%d article pages, %d sites, %d files, %.1f MB in %.1f s -> %s'
          % (n, s, w.files, w.bytes / 1e6, time.time() - t0, w.out))


if __name__ == '__main__':
    main()

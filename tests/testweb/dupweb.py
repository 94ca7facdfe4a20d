#!/usr/bin/python3
"""A labelled web for the near-duplicate benchmark (bench/duplicates.py).

Real article text (the Wikispeedia articles, ../shared/data) on HOSTS news
sites, each with its own look (generate.py's two page templates: header,
nav bar, breadcrumb, related links, ads and footer, with the site's name in
them). Every site carries PER_HOST original articles; a share of the
originals is reprinted on one or two other sites:

- exact: the same text on the other site's template;
- edited: light edits as a syndicating site makes them: a byline and date
  line added above the text, three words replaced, and for longer articles
  (five paragraphs or more) half the time the last paragraph dropped.

Every other pair of pages is a different article: on one template (the
"template twins" a template-level fingerprint would confuse) or on two.
Each site's index lists all its pages and the other sites' indexes, so a
crawl reaches everything.

Writes DIR/sites/<host>/..., DIR/sites.tsv (for testweb.TestWeb) and
DIR/families.tsv: url <TAB> family, one family per original article (its
reprints share it). --seed picks the articles: 1 the dev split, 2 the
held-out split (disjoint halves of the articles, by a hash of the title).

usage: tests/testweb/dupweb.py --out DIR [--seed 1] [--hosts 12]
          [--per-host 25] [--reprint-share 0.35] [--data wikispeedia.tar.xz]
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import generate as g  # noqa: E402

BYLINES = ['By Staff Writer', 'By our correspondent', 'From wire reports',
           'By the news desk', 'Agency report']
MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July',
          'August', 'September', 'October', 'November', 'December']


def article_html(title, blocks, byline=None):
    parts = ['<h1>%s</h1>' % g.esc(title)]
    if byline:
        parts.append('<p class="byline">%s</p>' % g.esc(byline))
    for kind, text in blocks:
        if kind == 'h':
            parts.append('<h2>%s</h2>' % g.esc(text))
        elif kind == 'p':
            parts.append('<p>%s</p>' % g.esc(text))
    return '\n'.join(parts)


def edit(rng, blocks):
    """Three words replaced by other words of the article; the last
    paragraph dropped half the time when there are five or more."""
    paras = [i for i, (k, _) in enumerate(blocks) if k == 'p']
    out = list(blocks)
    if len(paras) >= 5 and rng.random() < 0.5:
        del out[paras[-1]]
        paras = paras[:-1]
    vocab = ' '.join(t for k, t in out if k == 'p').split()
    for _ in range(3):
        i = rng.choice(paras)
        words = out[i][1].split()
        j = rng.randrange(len(words))
        words[j] = rng.choice(vocab)
        out[i] = ('p', ' '.join(words))
    return out


def build(out, data, seed, hosts, per_host, reprint_share):
    articles, texts, _, _ = g.load_wikispeedia(data)
    g.prepare_out(out)
    w = g.Writer(out)
    rng = random.Random(seed)
    pool = []
    for name in articles:
        if name not in texts or int(g.short_hash(name, n=8), 16) % 2 != seed % 2:
            continue
        title, blocks = g.parse_article(texts[name])
        words = sum(len(t.split()) for k, t in blocks if k == 'p')
        if title and words >= 150:
            pool.append((title, blocks))
    rng.shuffle(pool)
    need = hosts * per_host
    if len(pool) < need:
        sys.exit('dupweb.py: %d usable articles, %d needed' % (len(pool), need))
    sites = []
    for i in range(hosts):
        s = g.Site('news%02d.dup.test' % i, '%s Herald' % g.pretty(
            ['River', 'Valley', 'Harbour', 'Summit', 'Prairie', 'Coast', 'Lake',
             'Forest', 'Desert', 'Island', 'Delta', 'Canyon'][i % 12]) + (
            ' %d' % (i // 12) if i >= 12 else ''), i, calendar_months=0)
        s.sections = [('/index.html', 'Front page'), ('/about.html', 'About us')]
        sites.append(s)
    pages = {s.host: [] for s in sites}   # host -> [(path, title)]
    families = {}                          # url -> family
    for n, (title, blocks) in enumerate(pool[:need]):
        site = sites[n % hosts]
        path = '/news/%s.html' % g.slug(title)[:60]
        html = g.render_page(site, path, title, article_html(title, blocks),
                             breadcrumb=[('/index.html', 'Front page')])
        w.write(site.host, path, html)
        pages[site.host].append((path, title))
        families[site.url(path)] = n
        if rng.random() >= reprint_share:
            continue
        others = [s for s in sites if s is not site]
        for other in rng.sample(others, rng.choice([1, 1, 2])):
            rpath = '/news/%s-%d.html' % (g.slug(title)[:50], n)
            if rng.random() < 0.5:
                main = article_html(title, blocks)
            else:
                byline = '%s, %d %s %d' % (rng.choice(BYLINES), rng.randint(1, 28),
                                           rng.choice(MONTHS), rng.randint(2005, 2024))
                main = article_html(title, edit(rng, blocks), byline)
            w.write(other.host, rpath, g.render_page(
                other, rpath, title, main, breadcrumb=[('/index.html', 'Front page')]))
            pages[other.host].append((rpath, title))
            families[other.url(rpath)] = n
    for s in sites:
        items = ''.join('<li><a href="%s">%s</a></li>' % (
            g.esc(s.href('/index.html', s.host, p)), g.esc(t)) for p, t in pages[s.host])
        peers = ''.join('<li><a href="%s">%s</a></li>' % (
            g.esc(s.href('/index.html', o.host, '/index.html')), g.esc(o.title))
            for o in sites if o is not s)
        w.write(s.host, '/index.html', g.render_page(
            s, '/index.html', s.title,
            '<h1>%s</h1><ul class="stories">%s</ul><h2>Other papers</h2><ul>%s</ul>'
            % (g.esc(s.title), items, peers)))
        w.write(s.host, '/about.html', g.render_page(
            s, '/about.html', 'About us',
            '<h1>About us</h1><p>%s has been the paper of record since 1901.</p>'
            % g.esc(s.title)))
        w.write(s.host, '/robots.txt', 'User-agent: *\nDisallow:\n')
    with open(os.path.join(w.out, 'sites.tsv'), 'w') as f:
        for s in sites:
            f.write('%s\t%s\n' % (s.host, w.root(s.host)))
    with open(os.path.join(w.out, 'families.tsv'), 'w') as f:
        for url in sorted(families):
            f.write('%s\t%d\n' % (url, families[url]))
    return sites, families


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--hosts', type=int, default=12)
    ap.add_argument('--per-host', type=int, default=25)
    ap.add_argument('--reprint-share', type=float, default=0.35)
    ap.add_argument('--data', default=g.DEFAULT_DATA)
    args = ap.parse_args(argv)
    if not os.path.isfile(args.data):
        sys.exit('dupweb.py: data not found: %s' % args.data)
    sites, families = build(os.path.abspath(args.out), args.data, args.seed,
                            args.hosts, args.per_host, args.reprint_share)
    print('%d sites, %d article pages, %d reprints -> %s' % (
        len(sites), len(families), len(families) - len(set(families.values())), args.out))


if __name__ == '__main__':
    main()

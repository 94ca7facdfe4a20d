"""`generate.py wikispeedia`: sites from the Wikispeedia data (real text,
real links, real categories), read in place from the tarball, in the
shared template (testweb_common.py).

One web kind of generate.py, in a module of its own so that no module of
the generator passes ~1,000 lines. Moved as it was.
"""

import bisect
import collections
import os
import posixpath
import random
import re
import sys
import tarfile
import time
import urllib.parse

from testweb_common import (
    dir_of, esc, finish, prepare_out, render_page, RESERVED, safe_file_name, short_hash, Site,
    slug, write_ads_site, write_common, write_listing, write_media, write_media_index, Writer)


HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.normpath(
    os.path.join(HERE, '..', '..', '..', 'shared', 'data', 'wikispeedia.tar.xz'))


# --------------------------------------------------------------------------
# Wikispeedia

def read_tsv(data):
    for line in data.decode('utf-8').splitlines():
        if line and not line.startswith('#'):
            yield line.split('\t')


def load_wikispeedia(tar_path):
    texts, tsv = {}, {}
    with tarfile.open(tar_path, 'r:*') as tf:
        for m in tf:
            if not m.isfile():
                continue
            base = posixpath.basename(m.name)
            parent = posixpath.basename(posixpath.dirname(m.name))
            if parent == 'plaintext_articles' and base.endswith('.txt'):
                texts[base[:-4]] = tf.extractfile(m).read().decode('utf-8', 'replace')
            elif base in ('articles.tsv', 'links.tsv', 'categories.tsv') and \
                    (base not in tsv or 'original_snap' in m.name):
                tsv[base] = tf.extractfile(m).read()
    for need in ('articles.tsv', 'links.tsv', 'categories.tsv'):
        if need not in tsv:
            sys.exit('generate.py: %s not found in %s' % (need, tar_path))
    articles = [r[0] for r in read_tsv(tsv['articles.tsv'])]
    links = collections.defaultdict(list)
    for r in read_tsv(tsv['links.tsv']):
        if len(r) == 2 and r[1] not in links[r[0]]:
            links[r[0]].append(r[1])
    cats = collections.defaultdict(list)
    for r in read_tsv(tsv['categories.tsv']):
        if len(r) == 2 and r[1] not in cats[r[0]]:
            cats[r[0]].append(r[1])
    return articles, texts, links, cats


BLANK_LINES = re.compile(r'\n(?:[ \t]*\n)+')


def parse_article(text):
    """-> (title, blocks) with blocks [('h'|'p'|'src', text)]. The file is
    '#copyright', the title, the 'Related subjects' line, then paragraphs
    (indented lines) and headings (one unindented line) between blank lines."""
    chunks = BLANK_LINES.split(text.replace('\r', '').strip('\n'))
    title, blocks = '', []
    for chunk in chunks:
        if not chunk.strip():
            continue
        if not title:
            if chunk.strip() == '#copyright':
                continue
            title = ' '.join(chunk.split())
            continue
        t = ' '.join(chunk.split())
        if t.startswith('2007 Schools Wikipedia Selection'):
            continue
        if '\n' not in chunk and not chunk.startswith((' ', '\t')):
            blocks.append(('h', t))
            continue
        blocks.append(('src' if t.startswith('Retrieved from') else 'p', t))
    return title, blocks


def fold(t):
    """Lower case with the length kept (so offsets map back to the text)."""
    lt = t.lower()
    if len(lt) == len(t):
        return lt
    return ''.join(c.lower() if len(c.lower()) == 1 else c for c in t)


def place_links(blocks, targets):
    """Wraps the first free occurrence of each target's title words in a
    paragraph in a link (longest titles first, whole words, case-insensitive).
    targets: [(variants, href, title)].
    Returns (html of the blocks, [(href, title)] not placed)."""
    paras = [i for i, (k, _) in enumerate(blocks) if k == 'p']
    starts, pieces, pos = [], [], 0
    for i in paras:
        starts.append(pos)
        pieces.append(fold(blocks[i][1]))
        pos += len(blocks[i][1]) + 1
    hay = '\x00'.join(pieces)
    occupied = collections.defaultdict(list)     # paragraph -> [(start, end, href, title)]
    unplaced = []
    for variants, href, title in sorted(targets, key=lambda x: -len(x[0][0])):
        done = False
        for v in variants:
            if len(v) < 3:
                continue
            needle = fold(v)
            start = hay.find(needle)
            while start >= 0:
                end = start + len(needle)
                if (start == 0 or not hay[start - 1].isalnum()) and \
                        (end == len(hay) or not hay[end].isalnum()):
                    j = bisect.bisect_right(starts, start) - 1
                    s0 = start - starts[j]
                    e0 = end - starts[j]
                    occ = occupied[paras[j]]
                    if all(e0 <= a or s0 >= b for a, b, _, _ in occ):
                        occ.append((s0, e0, href, title))
                        done = True
                        break
                start = hay.find(needle, start + 1)
            if done:
                break
        if not done:
            unplaced.append((href, title))
    out = []
    for i, (kind, text) in enumerate(blocks):
        if kind == 'h':
            out.append('<h2>%s</h2>' % esc(text))
        elif kind == 'src':
            out.append('<p class="source">%s</p>' % esc(text))
        else:
            spans = sorted(occupied.get(i, ()))
            pos, parts = 0, []
            for s, e, href, title in spans:
                parts.append(esc(text[pos:s]))
                parts.append('<a href="%s" title="%s">%s</a>' % (esc(href), esc(title),
                                                                esc(text[s:e])))
                pos = e
            parts.append(esc(text[pos:]))
            out.append('<p>%s</p>' % ''.join(parts))
    return '\n'.join(out), unplaced


def pretty(cat_part):
    return cat_part.replace('_', ' ')


def gen_wikispeedia(args):
    t0 = time.time()
    out = os.path.abspath(args.out)
    articles, texts, links, cats = load_wikispeedia(args.data)
    prepare_out(out)
    w = Writer(out)

    def place(cat):
        """category -> (host, site title, [dir slugs], [labels of dirs])."""
        parts = cat.split('.')[1:] if cat.startswith('subject.') else cat.split('.')
        if args.sites == 'category' and len(parts) >= 2:
            host = '%s.%s.wiki.test' % (slug(parts[1]), slug(parts[0]))
            return host, '%s Wiki' % pretty(parts[1]), parts[2:]
        return '%s.wiki.test' % slug(parts[0]), '%s Wiki' % pretty(parts[0]), parts[1:]

    # Sites, directory nodes and the home of every article.
    sites = {}
    site_titles = {}
    nodes = {}          # (host, dirpath) -> {'label', 'subdirs': set, 'members': [name], 'cat'}
    cat_node = {}       # category -> (host, dirpath)

    def node_for(cat):
        if cat in cat_node:
            return cat_node[cat]
        host, stitle, rest = place(cat)
        site_titles.setdefault(host, stitle)
        dirpath, prev = '/', None
        if (host, '/') not in nodes:
            nodes[(host, '/')] = {'label': stitle, 'subdirs': set(), 'members': [],
                                  'parent': None}
        for j, part in enumerate(rest):
            s = slug(part)
            if j == 0 and s in RESERVED:
                s += '-section'
            prev, dirpath = dirpath, dirpath + s + '/'
            if (host, dirpath) not in nodes:
                nodes[(host, dirpath)] = {'label': pretty(part), 'subdirs': set(),
                                          'members': [], 'parent': prev}
            nodes[(host, prev)]['subdirs'].add(dirpath)
        cat_node[cat] = (host, dirpath)
        return cat_node[cat]

    MISC = 'misc.wiki.test'
    home = {}           # article -> (host, path)
    used = collections.defaultdict(set)   # (host, dir) -> lower-case file names
    for name in articles:
        if name in cats:
            for c in cats[name]:
                node_for(c)
            host, d = cat_node[cats[name][0]]
        else:
            host, d = MISC, '/'
            site_titles.setdefault(MISC, 'Misc Wiki')
            nodes.setdefault((MISC, '/'), {'label': 'Misc Wiki', 'subdirs': set(),
                                           'members': [], 'parent': None})
        base = safe_file_name(urllib.parse.unquote(name))
        fn, k = base, 1
        while fn.lower() in used[(host, d)] or fn.lower() in RESERVED:
            k += 1
            fn = '%s_%d' % (base, k)
        used[(host, d)].add(fn.lower())
        home[name] = (host, d + fn + '.html')
    for name in articles:
        if name in texts:
            for c in cats.get(name, ()):
                nodes[cat_node[c]]['members'].append(name)
            if name not in cats:
                nodes[(MISC, '/')]['members'].append(name)

    host_list = sorted(site_titles)
    for i, host in enumerate(host_list):
        sites[host] = Site(host, site_titles[host], i,
                           calendar_months=args.calendar_months,
                           crawl_delay=1 if i % 4 == 2 else None,
                           robots_variant=i % 3)
    for (host, d), nd in nodes.items():
        if nd['parent'] == '/':
            sites[host].sections.append((d + 'index.html', nd['label']))
    for s in sites.values():
        s.sections.sort(key=lambda x: x[1])
    # Media: one or two directories per site (those with the most resident
    # articles whose hash is smallest, deterministic).
    resident = collections.Counter((h, dir_of(p)) for h, p in home.values())
    for host, s in sites.items():
        cands = sorted((d for (h, d) in resident if h == host),
                       key=lambda d: short_hash(host, d))
        s.media_dirs = set(cands[:2 if len(cands) > 3 else 1])

    def title_of(name):
        return urllib.parse.unquote(name).replace('_', ' ')

    def crumbs_for(host, d):
        out_, cur = [], d
        while cur is not None:
            nd = nodes[(host, cur)]
            out_.append((cur + 'index.html', 'Home' if cur == '/' else nd['label']))
            cur = nd['parent']
        return out_[::-1]

    labels = {}
    media_entries = collections.defaultdict(list)
    n_articles = 0
    for name in articles:
        if name not in texts:
            continue
        host, path = home[name]
        site = sites[host]
        d = dir_of(path)
        title, blocks = parse_article(texts[name])
        title = title or title_of(name)
        targets = []
        for t in links.get(name, ()):
            if t == name:
                continue
            th, tp = home.get(t) or (MISC, '/' + safe_file_name(urllib.parse.unquote(t)) + '.html')
            tt = title_of(t)
            variants = [tt]
            short = re.sub(r'\s*\([^)]*\)\s*$', '', tt)
            if short != tt:
                variants.append(short)
            targets.append((variants, site.href(path, th, tp), tt))
        body, unplaced = place_links(blocks, targets)
        main = ['<div class="article"><h1>%s</h1>' % esc(title), body]
        if unplaced:
            main.append('<div class="see-also"><h2>See also</h2><ul>%s</ul></div>' % ''.join(
                '<li><a href="%s">%s</a></li>' % (esc(h), esc(t)) for h, t in unplaced))
        if d in site.media_dirs:
            fn = posixpath.basename(path)[:-5]
            main.append(write_media(w, site, d, fn, path))
            media_entries[(host, d)].append((fn, title))
        if name in cats:
            main.append('<p class="categories">Categories: %s</p>' % ', '.join(
                '<a href="%s">%s</a>' % (esc(site.href(path, cat_node[c][0],
                                                       cat_node[c][1] + 'index.html')),
                                         esc(pretty(c.split('.')[-1])))
                for c in cats[name]))
        main.append('</div>')
        # Related: 5-8 other articles sharing the first category (then the others).
        rng = random.Random('related:' + name)
        pool = []
        for c in cats.get(name, [None]):
            mem = nodes[cat_node[c]]['members'] if c else nodes[(MISC, '/')]['members']
            pool.extend(m for m in mem if m != name and m not in pool)
            if len(pool) >= 8:
                break
        k = rng.randint(5, 8)
        pick = pool[:k] if len(pool) <= k else rng.sample(pool[:60], k)
        related = [home[m] + (title_of(m),) for m in pick]
        desc = next((t for kind, t in blocks if kind == 'p'), title)
        w.write(host, path, render_page(site, path, title, '\n'.join(main), related=related,
                                        breadcrumb=crumbs_for(host, d), description=desc))
        labels[site.url(path)] = cats.get(name, [])
        n_articles += 1

    # Section index pages (the root one is the site's home page).
    for (host, d), nd in sorted(nodes.items()):
        site = sites[host]
        subdirs = sorted(((sd + 'index.html', nodes[(host, sd)]['label']) for sd in nd['subdirs']),
                         key=lambda x: x[1])
        items = sorted((home[m] + (title_of(m),) for m in nd['members']), key=lambda x: x[2])
        extra = ''
        if d in site.media_dirs:
            extra = '<p class="media-link"><a href="%s">Media in this section</a></p>' % esc(
                site.href(d + 'index.html', host, d + 'media/index.html'))
        intro = ''
        if d == '/':
            mine = sorted(p for n, (h, p) in home.items() if h == host and n in texts)
            rng = random.Random('featured:' + host)
            feat = rng.sample(mine, min(10, len(mine)))
            intro = ('<p>Welcome to %s.</p><h2>Featured articles</h2><ul class="featured">%s</ul>'
                     % (esc(site.title), ''.join(
                         '<li><a href="%s">%s</a></li>' % (esc(site.href('/index.html', host, p)),
                                                           esc(posixpath.basename(p)[:-5].replace('_', ' ')))
                         for p in feat)))
            if site.calendar_months:
                intro += '<p><a href="%s">Upcoming events</a></p>' % esc(
                    site.href('/index.html', host, '/calendar/index.html'))
        title = nd['label'] if d != '/' else site.title
        write_listing(w, site, d, title, crumbs_for(host, d)[:-1] or None, subdirs, items,
                      intro_html=intro, extra_html=extra)
    for (host, d), entries in media_entries.items():
        write_media_index(w, sites[host], d, entries, crumbs_for(host, d))
    for site in sites.values():
        write_common(w, site, 0)
    all_sites = list(sites.values()) + [write_ads_site(w)]
    finish(out, w, all_sites, labels, {
        'mode': 'wikispeedia', 'site_mode': args.sites, 'data': os.path.abspath(args.data),
        'calendar_months': args.calendar_months,
        'seconds': round(time.time() - t0, 1)})
    return n_articles, len(all_sites), w

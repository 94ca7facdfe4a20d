"""The `mdn` web kind: the archived part of MDN Web Docs (2021) served as it
was, a real documentation web with the defects real webs have.

Input: ../shared/data/mdn-archive.tar.xz (see ../shared/data/README.md),
read in place with tarfile. Every `files/<locale>/<slug path>/index.html`
holds a YAML header (title, slug, tags, ...) and the body MDN rendered.

What is served (one virtual host, developer.mozilla.org, over http):
  - /<Locale>/docs/<slug>: the body wrapped in a page with its title, a
    header, breadcrumbs built from the slug (to parents that may or may not
    exist, as on MDN) and a footer; the YAML header is stripped, so the tags,
    which are the labels, never reach the HTML. Links are the authors' own,
    except that absolute links to https://developer.mozilla.org/ are made
    relative, because the test web is served over http.
  - URLs matched case-insensitively, as MDN does (nginx's `map` compares
    strings ignoring case), with or without a trailing slash.
  - the locale's `_redirects.txt` as 301s (a relative Location).
  - /<Locale>/: a home page listing the pages of the first two slug levels
    (MDN's archive has no page for its top folders; a user starts here).
  - everything else 404 with a small 404 page; links to other hosts stay in
    the pages and answer 404 from nginx's default server, as dead hosts do.

Output, besides the usual sites/, sites.tsv, labels.tsv, manifest.json:
  DIR/nginx/http.conf            maps (http level), included by nginx.sh
  DIR/nginx/server-<host>.conf   the host's locations, included by nginx.sh
  DIR/nginx/pages.map, DIR/nginx/redirects.map
Labels: every page's URL with `<locale>.tag.<tag>` for each of its tags
(lower case, spaces, commas and dots as '-'), e.g. `en-us.tag.firefox-os`,
and `<locale>.path.<slug components>`, e.g.
`en-us.path.mozilla.tech.accessibility.at-apis`: a topic is a locale's
pages with any of a few tags or under a few sections (crawl-eval --topic
takes a comma-separated list of label prefixes). A quarter of the pages
carry no tag, so a section devoted to the topic counts as its author's
label too.
"""

import hashlib
import os
import re
import shutil
import tarfile
import urllib.parse

from testweb_common import Writer, esc, finish

HOST = 'developer.mozilla.org'
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.normpath(
    os.path.join(HERE, '..', '..', '..', 'shared', 'data', 'mdn-archive.tar.xz'))
LOCALES = {'en-us': 'en-US', 'zh-cn': 'zh-CN'}
# Characters a slug keeps unescaped in a URL (RFC 3986 pchar minus '%').
URL_SAFE = "/:@!$&'()*+,;=-._~"
# What the 404 page says (small, as real 404 pages are).
NOT_FOUND = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
             '<title>Page not found | MDN</title></head><body><h1>Page not found'
             '</h1><p>Sorry, the page you requested does not exist.</p>'
             '<p><a href="/en-US/">Go to the MDN home page</a></p></body></html>\n')
ROBOTS = 'User-agent: *\nDisallow: /api/\nDisallow: /*$history\nDisallow: /*$edit\n'


def parse_front_matter(text):
    """Splits '---\\nYAML\\n---\\n' from the body. Understands the subset the
    archive uses: `key: value` (plain or quoted), folded `key: >-` with
    indented continuation lines, and `key:` followed by `  - item` lines.
    Returns (fields, body); fields is {} when there is no header."""
    m = re.match(r'---\r?\n(.*?)\r?\n---\r?\n', text, re.S)
    if not m:
        return {}, text
    fields, key, folded = {}, None, None
    for line in m.group(1).split('\n'):
        line = line.rstrip('\r')
        if folded is not None and (line.startswith(' ') or not line):
            folded.append(line.strip())
            fields[key] = unquote_yaml(' '.join(x for x in folded if x))
            continue
        folded = None
        item = re.match(r'\s+-\s+(.*)$', line)
        if item and key is not None and isinstance(fields.get(key), list):
            fields[key].append(unquote_yaml(item.group(1)))
            continue
        kv = re.match(r'([A-Za-z_][\w-]*):\s*(.*)$', line)
        if not kv:
            continue
        key, value = kv.group(1), kv.group(2).strip()
        if value in ('>-', '>', '|', '|-'):
            folded = []
            fields[key] = ''
        elif value == '':
            fields[key] = []
        else:
            fields[key] = unquote_yaml(value)
    return fields, text[m.end():]


def unquote_yaml(v):
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    if len(v) >= 2 and v[0] == v[-1] == '"':
        return re.sub(r'\\(.)', r'\1', v[1:-1])
    return v


def label_part(s):
    """One component of a label: lower case, runs of white space, dots
    (the label's own separator) and commas (labels.tsv's) as '-'."""
    return re.sub(r'[\s.,]+', '-', s.strip().lower()).strip('-')


def label_of_tag(tag):
    t = label_part(tag)
    return 'tag.' + t if t else None


def path_label(locale, slug):
    """`<locale>.path.<a>.<b>...` from the slug's components: the section
    the authors filed the page in, so a topic can be a section's pages too
    (prefix `en-us.path.mozilla.tech`)."""
    return '.'.join([locale, 'path'] + [label_part(p) or '-' for p in slug.split('/')])


def doc_path(locale, slug):
    return '/%s/docs/%s' % (LOCALES[locale], slug)


def doc_href(locale, slug):
    """The page's path as a link writes it (percent-encoded)."""
    return urllib.parse.quote(doc_path(locale, slug), safe=URL_SAFE)


def page_url(path):
    return 'http://%s%s' % (HOST, urllib.parse.quote(path, safe=URL_SAFE))


def nginx_string(s):
    """A double-quoted nginx config string."""
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


def usable_key(s):
    """Paths the maps can hold: no control characters or white space that
    nginx's parser would split on, no '$' (a variable in a value)."""
    return s and not re.search(r'[\x00-\x20\x7f$]', s)


def read_archive(path):
    """{(locale, slug lower-cased): (slug, fields, body)} and
    {locale: [(from, to)]} from the tarball, in archive order."""
    pages, redirects = {}, {loc: [] for loc in LOCALES}
    with tarfile.open(path, 'r:*') as tf:
        for member in tf:
            if not member.isfile():
                continue
            parts = member.name.split('/')
            try:
                i = parts.index('files')
            except ValueError:
                continue
            rest = parts[i + 1:]
            if len(rest) < 2 or rest[0] not in LOCALES:
                continue
            loc = rest[0]
            data = tf.extractfile(member).read().decode('utf-8', 'replace')
            if rest[1:] == ['_redirects.txt']:
                for line in data.split('\n'):
                    cols = line.rstrip('\r').split('\t')
                    if len(cols) == 2 and not line.startswith('#'):
                        redirects[loc].append((cols[0], cols[1]))
            elif rest[-1] == 'index.html':
                fields, body = parse_front_matter(data)
                slug = fields.get('slug') or '/'.join(rest[1:-1])
                if not isinstance(slug, str):
                    continue
                slug = slug.strip('/')
                key = (loc, slug.lower())
                if slug and key not in pages:
                    pages[key] = (slug, fields, body)
    return pages, redirects


SELF_LINK = re.compile(r'(href|src)="https?://developer\.mozilla\.org/', re.I)


def render(locale, slug, title, body, exists):
    """The page around MDN's body: header, breadcrumbs, title, footer."""
    L = LOCALES[locale]
    lang = 'zh-CN' if locale == 'zh-cn' else 'en'
    crumbs = ['<li><a href="/%s/">MDN Web Docs</a></li>' % L]
    parts = slug.split('/')
    for k in range(1, len(parts)):
        parent = '/'.join(parts[:k])
        crumbs.append('<li><a href="%s">%s</a></li>' % (
            esc(doc_href(locale, parent)),
            esc(exists.get((locale, parent.lower()), parts[k - 1].replace('_', ' ')))))
    crumbs.append('<li class="current">%s</li>' % esc(title))
    body = SELF_LINK.sub(lambda m: '%s="/' % m.group(1), body)
    return ''.join([
        '<!DOCTYPE html>\n<html lang="%s"><head><meta charset="utf-8">' % lang,
        '<title>%s - Archive of obsolete content | MDN</title>' % esc(title),
        '<link rel="canonical" href="%s">' % esc(page_url(doc_path(locale, slug))),
        '</head><body><header class="page-header"><a class="logo" href="/%s/">MDN Web Docs'
        '</a><nav class="main-nav"><ul><li><a href="/%s/docs/Web">Technologies</a></li>'
        '<li><a href="/%s/docs/Learn">References &amp; Guides</a></li>'
        '<li><a href="/%s/docs/MDN/Feedback">Feedback</a></li></ul></nav>'
        '<form class="search" action="/%s/search"><input name="q"></form></header>'
        % (L, L, L, L, L),
        '<nav class="breadcrumbs"><ol>%s</ol></nav>' % ''.join(crumbs),
        '<main id="content"><article class="main-page-content"><h1>%s</h1>\n' % esc(title),
        body,
        '\n</article></main><footer class="page-footer"><ul>'
        '<li><a href="/%s/docs/MDN/About">About MDN</a></li>'
        '<li><a href="/%s/docs/MDN/Contribute">Contribute</a></li>'
        '<li><a href="https://www.mozilla.org/about/legal/terms/mozilla">Terms</a></li>'
        '<li><a href="https://www.mozilla.org/privacy/websites/">Privacy</a></li></ul>'
        '<p>Content available under a Creative Commons license.</p></footer>'
        '</body></html>\n' % (L, L)])


def home_page(locale, entries):
    L = LOCALES[locale]
    items = ''.join('<li><a href="%s">%s</a></li>' % (esc(doc_href(locale, slug)), esc(title))
        for slug, title in entries)
    return ('<!DOCTYPE html>\n<html lang="%s"><head><meta charset="utf-8">'
            '<title>MDN Web Docs</title></head><body><header class="page-header">'
            '<a class="logo" href="/%s/">MDN Web Docs</a></header><main><h1>MDN Web Docs'
            '</h1><p>Resources for developers, by developers: the archived documentation.'
            '</p><ul class="sections">%s</ul></main></body></html>\n'
            % ('zh-CN' if locale == 'zh-cn' else 'en', L, items))


def gen_mdn(args):
    out = os.path.abspath(args.out)
    pages, redirects = read_archive(args.data)
    w = Writer(out)
    for d in (w.sites_dir, os.path.join(out, 'nginx')):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(out, 'nginx'))
    titles = {k: (v[1].get('title') if isinstance(v[1].get('title'), str) else '') or
              v[0].rsplit('/', 1)[-1].replace('_', ' ') for k, v in pages.items()}
    page_map, labels, seen = [], {}, set()
    for key in sorted(pages):
        locale, _ = key
        slug, fields, body = pages[key]
        path = doc_path(locale, slug)
        if not usable_key(path):
            continue
        name = '/_pages/%s/%s.html' % (locale, hashlib.sha1(
            slug.lower().encode('utf-8')).hexdigest()[:20])
        w.write(HOST, name, render(locale, slug, titles[key], body, titles))
        for k in (path, path + '/'):
            if k.lower() not in seen:   # ASCII case folding, as nginx's
                seen.add(k.lower())
                page_map.append((k, name))
        tags = fields.get('tags') if isinstance(fields.get('tags'), list) else []
        cats = sorted({locale + '.' + c for c in map(label_of_tag, tags) if c})
        cats.append(path_label(locale, slug))
        labels[page_url(path)] = cats
    for locale in sorted(LOCALES):
        entries = sorted(((pages[k][0], titles[k]) for k in pages
                          if k[0] == locale and pages[k][0].count('/') <= 1),
                         key=lambda e: e[0].lower())
        name = '/_pages/%s/home.html' % locale
        w.write(HOST, name, home_page(locale, entries))
        for k in ('/%s' % LOCALES[locale], '/%s/' % LOCALES[locale]):
            seen.add(k.lower())
            page_map.append((k, name))
    redirect_map = []
    n_redirects = 0
    for locale in sorted(LOCALES):
        for frm, to in redirects[locale]:
            frm = urllib.parse.unquote(frm)
            # A key that does not start with '/' could read as one of map's
            # own words (default, include, hostnames, volatile) or a regex.
            if (not frm.startswith('/') or not (usable_key(frm) and usable_key(to)) or
                    frm.lower() in seen):
                continue
            seen.add(frm.lower())
            redirect_map.append((frm, to))
            n_redirects += 1
    w.write(HOST, '/404.html', NOT_FOUND)
    w.write(HOST, '/robots.txt', ROBOTS)
    nginx_dir = os.path.join(out, 'nginx')
    longest = 0
    for fname, rows in (('pages.map', page_map), ('redirects.map', redirect_map)):
        with open(os.path.join(nginx_dir, fname), 'w', encoding='utf-8') as f:
            for k, v in rows:
                f.write('%s %s;\n' % (nginx_string(k), nginx_string(v)))
                longest = max(longest, len(k.encode('utf-8')))
    bucket = 64
    while bucket < longest + 32:
        bucket *= 2
    with open(os.path.join(nginx_dir, 'http.conf'), 'w') as f:
        f.write('# Written by tests/testweb/gen_mdn.py: MDN paths, case-insensitive.\n'
                'map_hash_bucket_size %d;\nmap_hash_max_size %d;\n'
                'map $uri $mdn_page { default ""; include %s; }\n'
                'map $uri $mdn_redirect { default ""; include %s; }\n'
                % (bucket, 4 * (len(page_map) + len(redirect_map)),
                   nginx_string(os.path.join(nginx_dir, 'pages.map')),
                   nginx_string(os.path.join(nginx_dir, 'redirects.map'))))
    with open(os.path.join(nginx_dir, 'server-%s.conf' % HOST), 'w') as f:
        f.write('# Written by tests/testweb/gen_mdn.py.\n'
                'absolute_redirect off;\n'
                'error_page 404 /404.html;\n'
                'location = /404.html { internal; }\n'
                'location = /robots.txt { }\n'
                'location /_pages/ { internal; }\n'
                'location / {\n'
                '  if ($mdn_page != "") { rewrite ^ $mdn_page last; }\n'
                '  if ($mdn_redirect != "") { return 301 $mdn_redirect; }\n'
                '  return 404;\n'
                '}\n')

    class _Site:
        host = HOST
    manifest = {'mode': 'mdn', 'data': os.path.basename(args.data),
                'pages_by_locale': {loc: sum(1 for k in pages if k[0] == loc)
                                    for loc in sorted(LOCALES)},
                'redirects': n_redirects}
    finish(out, w, [_Site()], labels, manifest)
    with open(os.path.join(out, 'seeds.txt'), 'w') as f:
        for loc in sorted(LOCALES):
            f.write('http://%s/%s/\n' % (HOST, LOCALES[loc]))
    return len(labels), 1, w

"""What every web kind of generate.py shares: the hosts and constants of the
ads and traps, the page template (header, nav bar, breadcrumb, related
links, ads, footer), section listings, robots.txt, the pages and traps every
site has (about, contact, session ids, private area, calendar), the ads
site, media files, and writing the output (Writer, finish, prepare_out).

Apart from generate.py (the command line, which re-exports the names other
scripts use, e.g. dupweb.py the template) and from the web kinds
(gen_wikispeedia.py, gen_synthetic.py, gen_university.py) so that no module
of the generator passes ~1,000 lines. Moved as it was.
"""

import hashlib
import html
import json
import os
import re
import shutil
import unicodedata


AD_HOST = 'ads.test'
N_ADS = 40
# Hosts that appear in links but are not served (nginx's default server
# answers 404 for them; a real resolver would not find them).
DEAD_AD_HOST = 'click.adnet-nowhere.test'
PIXEL_HOST = 'pixel.tracker.invalid'
LISTING_PAGE_SIZE = 100          # links per section index page
CALENDAR_START = (2000, 1)       # first month on disk
CALENDAR_ENTRY = (2007, 1)       # month the calendar index links to
PRIVATE_PAGES = 4                # /private/staff-N.html
RESERVED = {'index', 'private', 'calendar', 'media', 'about', 'contact',
            'login', 'item', 'robots', 'style', 'search'}

ADS = [
    'Cheap flights to anywhere - book today and save 70%',
    'Lose 10 pounds in 10 days with this one weird trick',
    'Low-rate mortgages: compare 50 lenders in 2 minutes',
    'Win a free cruise to the Caribbean - enter now',
    'Online casino bonus: 200 free spins for new players',
    'Refinance your car loan and cut your payments',
    'Hot singles in your area are waiting to chat',
    'Luxury watches at 90% off - limited stock',
    'Earn money from home: no experience needed',
    'Best credit cards of the year - apply online',
    'Cheap car insurance quotes in seconds',
    'Miracle anti-aging cream doctors hate',
    'Download free ringtones and wallpapers',
    'Get your degree online in 12 months',
    'Designer handbags outlet sale ends tonight',
    'Instant payday loans approved in 5 minutes',
    'Bet on tonight\'s match: double your first deposit',
    'Stop snoring tonight with this simple device',
    'Compare broadband deals and switch provider',
    'Hotel rooms from 19 dollars a night',
    'Your computer may be infected - scan now for free',
    'Buy followers and likes for your profile',
    'Solar panels for your home with zero down payment',
    'Meet local contractors: free renovation quotes',
    'Cheap printer ink cartridges delivered tomorrow',
    'Trade stocks with zero commission - open an account',
    'Teeth whitening kit: results in one week',
    'Learn a language in 30 days, guaranteed',
    'Unclaimed lottery prizes: check your numbers',
    'Holiday packages to sunny beaches - all inclusive',
]

MEDIA_MP4 = b'\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom' + b'\x00' * 40
MEDIA_MP3 = b'ID3\x03\x00\x00\x00\x00\x00\x00' + b'\xff\xfb\x90\x00' + b'\x00' * 40
MEDIA_KINDS = (('.mp4', 'video'), ('.mp3', 'audio'), ('.swf', 'animation'))
MEDIA_SWF = b'FWS\x09\x40\x00\x00\x00' + b'\x00' * 56
GIF_1PX = (b'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!'
           b'\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00'
           b'\x00\x02\x02D\x01\x00;')

STYLE_CSS = """body{font-family:sans-serif;margin:0}
.site-header{background:#234;color:#fff;padding:8px}
.site-header a{color:#fff}
.nav ul{list-style:none;margin:0;padding:4px;background:#eee}
.nav li{display:inline;margin-right:12px}
.page{display:flex}.content{flex:3;padding:8px}.sidebar{flex:1;padding:8px}
.ads{border:1px dashed #c00;font-size:small}
.footer{border-top:1px solid #999;font-size:small;padding:8px}
"""

MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July',
          'August', 'September', 'October', 'November', 'December']


def esc(s):
    return html.escape(s, quote=True)


def slug(s):
    s = unicodedata.normalize('NFKD', s).encode('ascii', 'ignore').decode()
    s = re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')
    return s or 'x'


def safe_file_name(s):
    s = unicodedata.normalize('NFKD', s).encode('ascii', 'ignore').decode()
    s = re.sub(r'[^A-Za-z0-9_.-]+', '_', s)
    s = re.sub(r'_+', '_', s).strip('_.-')
    return s or 'article'


def dir_of(path):
    """'/a/b.html' -> '/a/', '/b.html' -> '/'."""
    return path[:path.rindex('/') + 1]


def short_hash(*parts, n=16):
    return hashlib.md5('\x1f'.join(parts).encode()).hexdigest()[:n]


class Writer:
    """Writes files under DIR/sites/<host>/ and counts them."""

    def __init__(self, out):
        self.out = os.path.abspath(out)
        self.sites_dir = os.path.join(self.out, 'sites')
        self.dirs = set()
        self.files = 0
        self.bytes = 0
        # (page URL, media URL, kind) of every media resource a page carries:
        # written to media.tsv, the labels media extraction is measured on.
        self.media = []

    def root(self, host):
        return os.path.join(self.sites_dir, host)

    def write(self, host, path, data):
        full = self.root(host) + path
        d = os.path.dirname(full)
        if d not in self.dirs:
            os.makedirs(d, exist_ok=True)
            self.dirs.add(d)
        if isinstance(data, str):
            data = data.encode('utf-8')
        with open(full, 'wb') as f:
            f.write(data)
        self.files += 1
        self.bytes += len(data)


class Site:
    """One virtual host: its look (template variant, link style) and policies."""

    def __init__(self, host, title, index, calendar_months=600, crawl_delay=None,
                 robots_variant=0):
        self.host = host
        self.title = title
        self.variant = ('html5', 'table')[index % 2]
        self.link_style = ('root', 'relative', 'absolute')[index % 3]
        self.calendar_months = calendar_months
        self.crawl_delay = crawl_delay
        self.robots_variant = robots_variant
        self.sections = []            # [(path of section index, label)] for the nav bar
        self.media_dirs = set()       # directory paths ('/a/b/') whose pages embed media
        self.chrome_cache = {}

    def href(self, frm, host, path):
        """Link from page `frm` of this site to `path` on `host`."""
        if host != self.host or self.link_style == 'absolute':
            return 'http://%s%s' % (host, path)
        if self.link_style == 'root':
            return path
        a = frm.split('/')[1:-1]          # directories of the linking page
        b = path.split('/')[1:]           # directories + file name ('' for a dir)
        i = 0
        while i < len(a) and i < len(b) - 1 and a[i] == b[i]:
            i += 1
        return ('../' * (len(a) - i) + '/'.join(b[i:])) or './'

    def url(self, path):
        return 'http://%s%s' % (self.host, path)


# --------------------------------------------------------------------------
# The page template: header, nav bar, breadcrumb, main, related, ads, footer.

def ads_block(site, path):
    h = int(short_hash(site.host, path, n=8), 16)
    items = []
    for ad in (h % N_ADS + 1,):
        items.append(
            '<li><a href="http://%s/ad/%d.html?ref=%s" rel="sponsored">'
            '<img src="http://%s/banner/%d.gif" alt="ad">'
            ' %s</a></li>' % (AD_HOST, ad, site.host, AD_HOST, ad,
                              esc(ADS[(ad - 1) % len(ADS)])))
    c = (h >> 16) % len(ADS)
    items.append('<li><a href="http://%s/c?id=%d&amp;ref=%s">%s</a></li>'
                 % (DEAD_AD_HOST, c, site.host, esc(ADS[c])))
    return ('<div class="ads"><p class="ad-label">Advertisement</p><ul>%s</ul>'
            '<img src="http://%s/p.gif?h=%s" alt=""></div>'
            % (''.join(items), PIXEL_HOST, short_hash(site.host, path, n=10)))


def related_block(site, path, related):
    if not related:
        return ''
    lis = ''.join('<li><a href="%s">%s</a></li>' % (esc(site.href(path, h, p)), esc(t))
                  for h, p, t in related)
    return '<div class="related"><h2>Related articles</h2><ul>%s</ul></div>' % lis


def chrome(site, d):
    """The parts of the template that depend only on the page's directory."""
    c = site.chrome_cache.get(d)
    if c is not None:
        return c
    frm = d + 'x.html'

    def h(p):
        return esc(site.href(frm, site.host, p))
    home = h('/index.html')
    nav = ['<li><a href="%s">Home</a></li>' % home]
    for p, label in site.sections:
        nav.append('<li><a href="%s">%s</a></li>' % (h(p), esc(label)))
    foot = ['<a href="%s">About us</a>' % h('/about.html'),
            '<a href="%s">Contact</a>' % h('/contact.html'),
            '<a href="%s">Staff area</a>' % h('/private/index.html')]
    if site.calendar_months:
        foot.append('<a href="%s">Events</a>' % h('/calendar/index.html'))
    c = {'home': home, 'nav': ''.join(nav), 'foot': ' | '.join(foot),
         'css': h('/style.css'), 'login': h('/login.html'), 'item': h('/item.html')}
    site.chrome_cache[d] = c
    return c


def render_page(site, path, title, main_html, related=None, breadcrumb=None,
                description='', ads=True):
    c = chrome(site, dir_of(path))
    sid = short_hash(site.host, path)
    crumbs = ''
    if breadcrumb:
        crumbs = '<div class="breadcrumb">%s</div>' % ' &rsaquo; '.join(
            '<a href="%s">%s</a>' % (esc(site.href(path, site.host, p)), esc(t))
            for p, t in breadcrumb)
    offers = '%s?sid=%s' % (c['item'], sid)
    footer = '<p>&copy; 2007&ndash;2024 %s</p><p>%s</p>' % (esc(site.title), c['foot'])
    rel = related_block(site, path, related)
    adv = ads_block(site, path) if ads else ''
    head = ('<head>\n<meta charset="utf-8">\n<title>%s - %s</title>\n'
            '<meta name="description" content="%s">\n'
            '<link rel="stylesheet" href="%s">\n</head>\n'
            % (esc(title), esc(site.title), esc(description[:120]), c['css']))
    user = ('<a href="%s?sid=%s">Sign in</a> | <a href="%s">Special offers</a>'
            % (c['login'], sid, offers))
    if site.variant == 'html5':
        return ('<!DOCTYPE html>\n<html lang="en">\n%s<body>\n'
                '<header class="site-header"><a class="logo" href="%s">%s</a>\n'
                '<form class="search" action="/search.html"><input name="q"></form>\n'
                '<span class="user-links">%s</span></header>\n'
                '<nav class="nav"><ul>%s</ul></nav>\n%s\n'
                '<div class="page">\n<main class="content">\n%s\n</main>\n'
                '<aside class="sidebar">\n%s\n%s\n</aside>\n</div>\n'
                '<footer class="footer">%s</footer>\n</body>\n</html>\n'
                % (head, c['home'], esc(site.title), user, c['nav'], crumbs, main_html,
                   rel, adv, footer))
    return ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">\n'
            '<html>\n%s<body bgcolor="#ffffff">\n'
            '<table class="layout" width="100%%" border="0" cellpadding="4">\n'
            '<tr><td colspan="3" class="site-header"><a href="%s"><b>%s</b></a>'
            ' &nbsp; %s</td></tr>\n'
            '<tr><td class="nav" valign="top" width="160"><ul>%s</ul></td>\n'
            '<td class="content" valign="top">%s\n%s\n</td>\n'
            '<td class="sidebar" valign="top" width="220">%s\n%s</td></tr>\n'
            '<tr><td colspan="3" class="footer">%s</td></tr>\n'
            '</table>\n</body>\n</html>\n'
            % (head, c['home'], esc(site.title), user, c['nav'], crumbs, main_html, rel,
               adv, footer))


def listing_path(dirpath, k):
    return dirpath + ('index.html' if k == 1 else 'index-%d.html' % k)


def write_listing(w, site, dirpath, title, breadcrumb, subdirs, items, intro_html='',
                  extra_html=''):
    """Section index page(s) of a directory: its subsections and its pages,
    LISTING_PAGE_SIZE links per page, chained by previous/next links.
    subdirs: [(path, label)]; items: [(host, path, title)]."""
    npages = max(1, (len(items) + LISTING_PAGE_SIZE - 1) // LISTING_PAGE_SIZE)
    for k in range(1, npages + 1):
        path = listing_path(dirpath, k)
        parts = ['<div class="listing"><h1>%s</h1>' % esc(title)]
        if k == 1:
            parts.append(intro_html)
            if subdirs:
                parts.append('<h2>Sections</h2><ul class="sections">%s</ul>' % ''.join(
                    '<li><a href="%s">%s</a></li>' % (esc(site.href(path, site.host, p)),
                                                      esc(label))
                    for p, label in subdirs))
        chunk = items[(k - 1) * LISTING_PAGE_SIZE:k * LISTING_PAGE_SIZE]
        if chunk:
            parts.append('<h2>Articles</h2><ul class="articles">%s</ul>' % ''.join(
                '<li><a href="%s">%s</a></li>' % (esc(site.href(path, h, p)), esc(t))
                for h, p, t in chunk))
        pager = []
        if k > 1:
            pager.append('<a rel="prev" href="%s">&laquo; previous page</a>'
                         % esc(site.href(path, site.host, listing_path(dirpath, k - 1))))
        if k < npages:
            pager.append('<a rel="next" href="%s">next page &raquo;</a>'
                         % esc(site.href(path, site.host, listing_path(dirpath, k + 1))))
        if pager:
            parts.append('<p class="pager">Page %d of %d: %s</p>' % (k, npages, ' '.join(pager)))
        if k == 1:
            parts.append(extra_html)
        parts.append('</div>')
        w.write(site.host, path, render_page(site, path, title, '\n'.join(parts),
                                             breadcrumb=breadcrumb,
                                             description=title))


def robots_txt(site):
    v = site.robots_variant
    delay = 'Crawl-delay: %s\n' % site.crawl_delay if site.crawl_delay else ''
    if v == 1:
        return ('# robots.txt for %s\n\nUser-agent: BadBot\nDisallow: /\n\n'
                'User-agent: *\nDisallow: /private/\nDisallow: /search.html\n%s'
                % (site.host, delay))
    if v == 2:
        # Lower-case directives, CRLF line ends, trailing comments.
        return ('user-agent: *\r\ndisallow: /private/   # staff only\r\n%s'
                'allow: /\r\n' % delay.lower().replace('\n', '\r\n'))
    return 'User-agent: *\nDisallow: /private/\n%s' % delay


def write_common(w, site, rng_seed):
    """robots.txt, style.css, about/contact, session-id pages, private area,
    calendar trap."""
    host = site.host
    w.write(host, '/robots.txt', robots_txt(site))
    w.write(host, '/style.css', STYLE_CSS)
    crumbs = [('/index.html', 'Home')]
    w.write(host, '/about.html', render_page(
        site, '/about.html', 'About us',
        '<div class="article"><h1>About %s</h1><p>%s is a collection of articles '
        'maintained by volunteers. Our editors review every page before it is '
        'published.</p><p>Write to us through the <a href="%s">contact page</a>.</p></div>'
        % (esc(site.title), esc(site.title), esc(site.href('/about.html', host, '/contact.html'))),
        breadcrumb=crumbs, description='About ' + site.title))
    w.write(host, '/contact.html', render_page(
        site, '/contact.html', 'Contact',
        '<div class="article"><h1>Contact</h1><p>Editorial office: editors@%s. '
        'Advertising: sales@%s.</p></div>' % (esc(host), esc(host)),
        breadcrumb=crumbs, description='Contact ' + site.title))
    # Session-id trap 1: every page links /login.html?sid=<per-page id>; the
    # query is ignored by nginx, so each of those URLs serves this same page.
    w.write(host, '/login.html', render_page(
        site, '/login.html', 'Sign in',
        '<div class="article"><h1>Sign in</h1><form action="/login.html" method="post">'
        '<input name="user"> <input name="password" type="password"> '
        '<button>Sign in</button></form><p>Your session will expire after 20 minutes.</p>'
        '</div>', breadcrumb=crumbs, description='Sign in'))
    # Session-id trap 2 (endless): item.html is served with SSI on; each
    # response carries links with a fresh session id ($request_id), so every
    # fetch reveals new distinct URLs for the same page.
    items = ''.join(
        '<li><a href="/item.html?sid=<!--# echo var="request_id" -->&amp;product=%d">'
        'Special offer #%d</a></li>' % (i, i) for i in range(1, 4))
    w.write(host, '/item.html', render_page(
        site, '/item.html', 'Special offers',
        '<div class="article"><h1>Special offers</h1><p>Offers change every visit.</p>'
        '<ul class="offers">%s</ul><p><a href="/item.html?sid=<!--# echo var="request_id" -->">'
        'Refresh offers</a></p></div>' % items,
        breadcrumb=crumbs, description='Special offers'))
    # Private area: disallowed in robots.txt but linked from every footer.
    priv = '/private/index.html'
    links = ''.join('<li><a href="%s">Staff memo %d</a></li>'
                    % (esc(site.href(priv, host, '/private/staff-%d.html' % i)), i)
                    for i in range(1, PRIVATE_PAGES + 1))
    w.write(host, priv, render_page(
        site, priv, 'Staff area',
        '<div class="article"><h1>Staff area</h1><p>Internal documents. Not for '
        'robots.</p><ul>%s</ul></div>' % links, breadcrumb=crumbs, description='Staff area'))
    for i in range(1, PRIVATE_PAGES + 1):
        p = '/private/staff-%d.html' % i
        nxt = '/private/staff-%d.html' % (i % PRIVATE_PAGES + 1)
        w.write(host, p, render_page(
            site, p, 'Staff memo %d' % i,
            '<div class="article"><h1>Staff memo %d</h1><p>Confidential: editorial '
            'schedule and payroll notes, draft %s.</p><p><a href="%s">Next memo</a></p></div>'
            % (i, short_hash(host, p, n=6), esc(site.href(p, host, nxt))),
            breadcrumb=crumbs + [(priv, 'Staff area')], description='Staff memo'))
    if site.calendar_months:
        write_calendar(w, site)


def month_path(y, m):
    return '/calendar/%04d/%02d.html' % (y, m)


def write_calendar(w, site):
    """Calendar trap: CALENDAR_START plus calendar_months months on disk, each
    month linking to the previous and the next one (the first month's
    'previous' link and the last month's 'next' link are 404s)."""
    host = site.host
    y0, m0 = CALENDAR_START
    n = site.calendar_months
    crumbs = [('/index.html', 'Home'), ('/calendar/index.html', 'Events')]
    ey, em = CALENDAR_ENTRY
    w.write(host, '/calendar/index.html', render_page(
        site, '/calendar/index.html', 'Events calendar',
        '<div class="calendar"><h1>Events calendar</h1><p><a href="%s">%s %d</a></p></div>'
        % (esc(site.href('/calendar/index.html', host, month_path(ey, em))), MONTHS[em - 1], ey),
        breadcrumb=crumbs[:1], description='Events calendar', ads=False))
    for i in range(n):
        t = (y0 * 12 + m0 - 1) + i
        y, m = divmod(t, 12)
        m += 1
        py, pm = divmod(t - 1, 12)
        ny, nm = divmod(t + 1, 12)
        p = month_path(y, m)
        days = ''.join('<td>%d</td>' % d + ('</tr><tr>' if d % 7 == 0 else '')
                       for d in range(1, 29))
        body = ('<div class="calendar"><h1>Events in %s %d</h1>'
                '<table class="month"><tr>%s</tr></table><p>No events this month.</p>'
                '<p class="pager"><a rel="prev" href="%s">&laquo; previous month</a> | '
                '<a rel="next" href="%s">next month &raquo;</a></p></div>'
                % (MONTHS[m - 1], y, days, esc(site.href(p, host, month_path(py, pm + 1))),
                   esc(site.href(p, host, month_path(ny, nm + 1)))))
        w.write(host, p, render_page(site, p, 'Events in %s %d' % (MONTHS[m - 1], y), body,
                                     breadcrumb=crumbs, description='Events calendar',
                                     ads=False))


def write_ads_site(w):
    site = Site(AD_HOST, 'AdNet', 0, calendar_months=0, robots_variant=0)
    site.sections = [('/index.html', 'All offers')]
    write_common(w, site, 0)
    w.write(AD_HOST, '/robots.txt', 'User-agent: *\nDisallow: /private/\nDisallow: /banner/\n')
    for i in range(1, N_ADS + 1):
        p = '/ad/%d.html' % i
        text = ADS[(i - 1) % len(ADS)]
        others = ''.join('<li><a href="/ad/%d.html?ref=ads.test">%s</a></li>'
                         % (j, esc(ADS[(j - 1) % len(ADS)]))
                         for j in ((i % N_ADS) + 1, ((i + 6) % N_ADS) + 1))
        w.write(AD_HOST, p, render_page(
            site, p, text,
            '<div class="article"><h1>%s</h1><p>Limited time offer! Click below to claim '
            'your deal. Terms and conditions apply. Offer valid while supplies last.</p>'
            '<p><a href="http://%s/c?id=%d">Claim now</a></p><ul>%s</ul></div>'
            % (esc(text), DEAD_AD_HOST, i, others), description=text, ads=False))
        w.write(AD_HOST, '/banner/%d.gif' % i, GIF_1PX)
    write_listing(w, site, '/', 'All offers', None, [],
                  [(AD_HOST, '/ad/%d.html' % i, ADS[(i - 1) % len(ADS)])
                   for i in range(1, N_ADS + 1)])
    return site


def write_media(w, site, dirpath, fname, frm):
    """Placeholder media files for one page; returns the HTML that embeds them."""
    base = dirpath + 'media/' + fname
    w.write(site.host, base + '.mp4', MEDIA_MP4)
    w.write(site.host, base + '.mp3', MEDIA_MP3)
    w.write(site.host, base + '.swf', MEDIA_SWF)
    for ext, kind in MEDIA_KINDS:
        w.media.append((site.url(frm), site.url(base + ext), kind))
    h = lambda p: esc(site.href(frm, site.host, p))
    return ('<div class="media"><h2>Media</h2>'
            '<video controls width="480" src="%s">Your browser does not support video.</video>'
            '<p><a href="%s">Listen to the audio (MP3)</a></p>'
            '<embed src="%s" type="application/x-shockwave-flash" width="400" height="300">'
            '<p><a href="%s">All media in this section</a></p></div>'
            % (h(base + '.mp4'), h(base + '.mp3'), h(base + '.swf'),
               h(dirpath + 'media/index.html')))


def write_media_index(w, site, dirpath, entries, breadcrumb):
    p = dirpath + 'media/index.html'
    for f, _ in entries:
        for ext, kind in MEDIA_KINDS:
            w.media.append((site.url(p), site.url(dirpath + 'media/' + f + ext), kind))
    lis = ''.join('<li>%s: <a href="%s">video</a>, <a href="%s">audio</a>, '
                  '<a href="%s">animation</a></li>'
                  % (esc(t), esc(site.href(p, site.host, dirpath + 'media/' + f + '.mp4')),
                     esc(site.href(p, site.host, dirpath + 'media/' + f + '.mp3')),
                     esc(site.href(p, site.host, dirpath + 'media/' + f + '.swf')))
                  for f, t in entries)
    w.write(site.host, p, render_page(site, p, 'Media', '<div class="listing"><h1>Media</h1>'
                                      '<ul class="media-list">%s</ul></div>' % lis,
                                      breadcrumb=breadcrumb, description='Media'))


def finish(out, w, sites, labels, manifest):
    with open(os.path.join(w.out, 'sites.tsv'), 'w') as f:
        for s in sorted(sites, key=lambda s: s.host):
            f.write('%s\t%s\n' % (s.host, w.root(s.host)))
    with open(os.path.join(w.out, 'labels.tsv'), 'w') as f:
        for url in sorted(labels):
            f.write('%s\t%s\n' % (url, ','.join(labels[url])))
    with open(os.path.join(w.out, 'media.tsv'), 'w') as f:
        for row in sorted(set(w.media)):
            f.write('%s\t%s\t%s\n' % row)
    manifest.update({'sites': len(sites), 'article_pages': len(labels),
                     'files': w.files, 'bytes': w.bytes})
    with open(os.path.join(w.out, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write('\n')


def prepare_out(out):
    os.makedirs(out, exist_ok=True)
    sd = os.path.join(out, 'sites')
    if os.path.isdir(sd):
        shutil.rmtree(sd)
    for name in ('labels.tsv', 'sites.tsv', 'manifest.json', 'media.tsv'):
        try:
            os.unlink(os.path.join(out, name))
        except FileNotFoundError:
            pass

#!/usr/bin/python3
"""Generate a test web of static sites for the crawler, to be served by nginx.

  generate.py wikispeedia [--data TAR] --out DIR [--sites subject|category]
  generate.py synthetic --pages N --hosts H --out DIR [--seed S]
  generate.py university [--pages N] [--hosts H] [--departments D] --out DIR [--seed S]
                         [--frameset-seeds]

Output (see README.md beside this file):
  DIR/sites/<host>/...   one folder per virtual host (the nginx root)
  DIR/sites.tsv          host<TAB>absolute root folder
  DIR/labels.tsv         article URL<TAB>category[,category...] (university: every page)
  DIR/manifest.json      what was generated, counts and bytes
  DIR/seeds.txt          university only: the seed URLs (the department home pages)

Standard library only; deterministic (same input and seed, same bytes).
"""

import argparse
import bisect
import collections
import gc
import hashlib
import html
import json
import os
import posixpath
import random
import re
import shutil
import sys
import tarfile
import time
import unicodedata
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.normpath(
    os.path.join(HERE, '..', '..', '..', 'shared', 'data', 'wikispeedia.tar.xz'))

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

FILLER = (
    'the of and to in is was for on that with as by at from it an be this '
    'which are or has have had were their its also one two new first many '
    'other more most some such into over after between during about used '
    'known later time part well years while where when who both these may '
    'can will would could only made being under since early main large high '
    'several often however around called became found because each same '
    'number form three including although among through against much small '
    'general until then there than what very long work world area important '
    'different based possible common public local modern national major '
    'following set system way make use show given case point group order '
    'result example level place people report year day today recent still'
).split()

TOPICS = [
    ('astronomy', 'star planet galaxy telescope orbit comet nebula asteroid '
     'cosmic solar lunar eclipse supernova quasar pulsar constellation astronomer '
     'observatory meteor spectrum redshift exoplanet satellite gravity universe '
     'cosmology nova zodiac equinox solstice aurora celestial parallax hubble '
     'kepler jupiter saturn mars venus neptune uranus pluto moon sunspot corona '
     'photosphere interstellar magnetar lightyear '
     'planetarium orbital meteorite cosmonaut stellar'),
    ('biology', 'cell gene protein enzyme species evolution organism bacteria '
     'virus dna rna chromosome mutation tissue membrane mitochondria '
     'photosynthesis ecology habitat predator mammal reptile amphibian insect '
     'fungus botany zoology genome mitosis meiosis hormone neuron antibody microbe '
     'nucleus ribosome cytoplasm taxonomy vertebrate invertebrate embryo larva '
     'pollen metabolism symbiosis parasite fossil biologist chlorophyll '
     'organelle phylum genus biome'),
    ('chemistry', 'atom molecule element compound reaction acid alkali salt '
     'oxide catalyst electron ion isotope polymer solvent solution crystal bond '
     'covalent ionic oxidation titration hydrogen oxygen nitrogen sulfur chlorine '
     'sodium alloy inorganic periodic valence molar entropy enthalpy equilibrium '
     'distillation precipitate reagent ester alcohol benzene hydrocarbon '
     'electrolysis spectroscopy chemist beaker '
     'molecular atomic solute neutron proton reactant'),
    ('football', 'football goal striker midfielder defender goalkeeper referee '
     'penalty league cup championship stadium match tournament coach transfer '
     'club season fixture kickoff offside tackle dribble header corner freekick '
     'foul card trophy derby supporters squad captain substitute pitch halftime '
     'victory defeat draw relegation promotion scorer assist winger fullback '
     'playoff manager '
     'goalscorer footballer quarterfinal semifinal'),
    ('cooking', 'recipe flour sugar butter oven bake roast simmer boil fry saute '
     'garlic onion pepper spice herb basil oregano sauce soup stew broth pastry '
     'dough bread cake dessert chocolate vanilla cream cheese yogurt marinade '
     'grill skillet whisk knead ingredient kitchen chef cuisine noodle rice pasta '
     'tomato lemon vinegar olive seasoning '
     'baking chutney casserole'),
    ('music', 'melody harmony rhythm chord guitar piano violin drum orchestra '
     'symphony concerto opera choir singer album song lyrics tempo octave tune '
     'composer conductor sonata jazz blues rock band concert bass cello flute '
     'trumpet saxophone acoustic recording chorus verse ballad hymn quartet '
     'overture rehearsal microphone vinyl musician '
     'melodic orchestral pianist guitarist drummer soprano tenor'),
    ('finance', 'stock bond market investor dividend portfolio equity shares '
     'trading broker bank interest loan credit debt mortgage inflation currency '
     'exchange hedge fund asset capital revenue profit earnings valuation audit '
     'tax deficit treasury securities derivative futures nasdaq liquidity '
     'recession banking fiscal monetary accounting ledger pension investment '
     'stockbroker shareholder banker creditor lender bankruptcy bullion forex cryptocurrency bailout'),
    ('computing', 'software hardware computer program code compiler processor '
     'memory algorithm database server network internet protocol browser kernel '
     'linux binary byte cache thread function variable debugging python java '
     'javascript cloud encryption router firewall bandwidth storage disk cpu gpu '
     'motherboard laptop ethernet packet latency runtime interpreter repository '
     'programmer '
     'bitrate kilobyte megabyte ssd unix opensource chipset'),
    ('medicine', 'patient doctor hospital disease symptom diagnosis treatment '
     'therapy surgery vaccine infection fever cancer tumor diabetes heart blood '
     'cardiac lung kidney liver nurse clinic prescription drug dose antibiotic '
     'pain chronic acute syndrome epidemic pandemic immune allergy asthma stroke '
     'fracture physician pharmacy medical health rehabilitation anesthesia '
     'transplant '
     'vaccination surgeon paediatric cardiology oncology radiology pathogen'),
    ('history', 'empire king queen dynasty war battle kingdom emperor revolution '
     'treaty medieval ancient century colony monarchy republic conquest army '
     'soldier siege castle crusade pharaoh roman greek viking feudal throne reign '
     'rebellion independence civilization chronicle manuscript artifact ruins '
     'heritage peasant nobility knight samurai sultan tsar historian invasion '
     'archaeology archaeologist battlefield emperors chivalry warlord dynastic'),
    ('geography', 'mountain river valley lake ocean sea island coast desert forest '
     'plateau volcano continent peninsula delta canyon plain rainfall latitude '
     'longitude region province capital city village border terrain elevation '
     'map atlas population tropical arctic savanna wetland basin strait bay '
     'archipelago highland lowland tundra monsoon watershed hemisphere '
     'cartography '
     'geographer topography mountainous riverbank isthmus fjord estuary'),
    ('travel', 'hotel flight airport passport luggage tourist tour vacation '
     'holiday resort beach cruise itinerary booking hostel backpack sightseeing '
     'destination guidebook ticket train station visa suitcase journey trip '
     'adventure camping hiking museum landmark souvenir excursion airline '
     'boarding departure arrival reservation checkin luxury motel inn lodge '
     'ferry '
     'traveller tourism backpacker sightseer jetlag roundtrip stopover layover'),
    ('law', 'court judge jury lawyer attorney trial verdict lawsuit plaintiff '
     'defendant statute legislation contract tort crime criminal appeal supreme '
     'justice evidence testimony witness prosecutor sentence prison bail custody '
     'rights amendment clause regulation compliance litigation settlement patent '
     'copyright trademark ordinance felony misdemeanor arbitration subpoena '
     'affidavit counsel precedent jurisdiction '
     'legal lawful injunction indictment acquittal barrister'),
    ('religion', 'god church temple mosque prayer faith worship bible quran '
     'scripture prophet saint monk priest bishop pope ritual sacred holy '
     'spiritual theology doctrine heaven soul buddhism hinduism christianity '
     'islam judaism sikhism meditation pilgrimage sermon gospel psalm monastery '
     'cathedral chapel deity divine blessing salvation covenant rabbi imam karma '
     'nirvana '
     'clergy liturgy worshipper baptism reincarnation'),
    ('farming', 'farm crop harvest wheat maize barley soil tractor irrigation '
     'fertilizer livestock cattle sheep goat poultry dairy orchard vineyard '
     'plough seedling greenhouse pesticide field barn silo grain pasture grazing '
     'compost manure hay drought farmer ranch agronomy cultivation sowing tillage '
     'rotation hectare acre herd cereal '
     'agriculture agricultural harvester fodder smallholding orchardist beekeeping plantation sharecropper'),
    ('cars', 'car engine vehicle motor wheel tyre brake gearbox transmission '
     'clutch piston cylinder exhaust fuel petrol diesel electric hybrid battery '
     'chassis suspension steering sedan coupe hatchback truck van dealership '
     'mileage horsepower torque turbo radiator ignition headlight bumper '
     'windshield dashboard airbag racing garage mechanic highway parking '
     'speedometer accelerator '
     'automobile automotive motorist hubcap roadster carburetor'),
    ('fashion', 'dress shirt trousers jacket coat skirt jeans sweater fabric '
     'cotton silk wool leather denim fashion designer runway model boutique '
     'collection style tailor sewing stitch pattern button zipper collar sleeve '
     'hat scarf shoes boots sneakers handbag jewelry necklace bracelet earring '
     'accessory wardrobe outfit vintage couture textile embroidery lace '
     'couturier catwalk hemline fashionable knitwear'),
    ('film', 'film movie cinema director actor actress screenplay script scene '
     'camera shot editing hollywood premiere festival oscar award documentary '
     'animation sequel trailer boxoffice producer cast character plot thriller '
     'comedy drama horror western blockbuster cinematography soundtrack subtitle '
     'screening projector reel stuntman casting audition filmmaker genre villain '
     'hero '
     'cinematic filmmaking screenwriter moviegoer animator biopic multiplex'),
    ('education', 'school student teacher classroom lesson curriculum exam '
     'homework university college professor lecture degree diploma semester '
     'grade tuition scholarship campus library textbook literacy pupil '
     'kindergarten enrollment syllabus assignment thesis dissertation tutor '
     'academic learning teaching principal graduation faculty course quiz essay '
     'seminar vocational pedagogy '
     'schoolteacher educator classmate headmaster timetable coursework schooling tutoring learner examination'),
    ('environment', 'emission pollution recycling renewable wind energy '
     'sustainability ecosystem conservation deforestation wildlife warming ozone '
     'smog waste landfill plastic emissions biofuel reforestation rainforest '
     'endangered extinction footprint greenpeace activist biomass turbine '
     'hydropower geothermal acidification contamination pesticides overfishing '
     'coral mangrove peatland permafrost glaciers environmentalist ecological '
     'sustainable recycle compostable '
     'ecologist climatologist conservationist smokestack wastewater landfills deforested'),
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


# --------------------------------------------------------------------------
# Synthetic

def topic_vocab():
    """20 topics x 50 words, no word in two topics."""
    seen = collections.Counter()
    for _, words in TOPICS:
        seen.update(set(words.split()))
    vocab = []
    for name, words in TOPICS:
        ws = []
        for x in words.split():
            if seen[x] == 1 and x not in ws and x not in FILLER:
                ws.append(x)
        assert len(ws) >= 50, (name, len(ws))
        vocab.append((name, ws[:50]))
    return vocab


KINDS = ['news', 'wiki', 'blog', 'forum', 'portal', 'guide', 'shop', 'journal']


def gen_synthetic(args):
    t0 = time.time()
    out = os.path.abspath(args.out)
    N, H, seed = args.pages, args.hosts, args.seed
    if N < 1 or H < 1:
        sys.exit('generate.py: --pages and --hosts must be positive')
    vocab = topic_vocab()
    T = len(vocab)
    rng = random.Random('synthetic:%d' % seed)
    prepare_out(out)
    w = Writer(out)

    # Hosts: names, topic mixes, sizes (power law), subsections.
    hosts = []
    for i in range(H):
        primary = i % T
        kind = KINDS[(i // T) % len(KINDS)]
        if i % 2 == 0:
            name = '%s-%s%d.test' % (vocab[primary][1][rng.randrange(10)], kind, i)
        else:
            name = 'www.%s%d.test' % (kind, i)
        portal = (i % 10 == 9)
        if portal:
            mix = [(t, 1.0) for t in range(T)]
        else:
            others = rng.sample([t for t in range(T) if t != primary], 2)
            mix = [(primary, 0.7), (others[0], 0.2), (others[1], 0.1)]
        subs = {t: sorted(rng.sample(vocab[t][1][:12], rng.randint(2, 4))) for t, _ in mix}
        hosts.append({'name': name, 'mix': mix, 'subs': subs, 'portal': portal})
    weights = [1.0 / (r + 1) ** 0.7 for r in range(H)]
    rng.shuffle(weights)
    tot = sum(weights)
    minimum = 1 if N < 3 * H else 3
    counts = [max(minimum, int(N * x / tot)) for x in weights]
    # Fix the total to exactly N.
    order = sorted(range(H), key=lambda h: -counts[h])
    diff = N - sum(counts)
    j = 0
    while diff != 0:
        h = order[j % H]
        if diff > 0:
            counts[h] += 1
            diff -= 1
        elif counts[h] > 1:
            counts[h] -= 1
            diff += 1
        j += 1
        if j > 100 * H + N:
            break

    # Pages.
    p_host, p_topic, p_path, p_title = [], [], [], []
    by_host = [[] for _ in range(H)]
    by_host_topic = collections.defaultdict(list)
    by_topic = [[] for _ in range(T)]
    by_dir = collections.defaultdict(list)
    for h in range(H):
        mix = hosts[h]['mix']
        tw = [x for _, x in mix]
        tl = [t for t, _ in mix]
        for _ in range(counts[h]):
            pid = len(p_host)
            t = rng.choices(tl, tw)[0] if len(tl) > 1 else tl[0]
            words = vocab[t][1]
            sub = rng.choice(hosts[h]['subs'][t])
            tws = [words[int(50 * rng.random() ** 1.6)] for _ in range(rng.randint(2, 3))]
            title = ' '.join(x.capitalize() for x in tws)
            path = '/%s/%s/%s-%d.html' % (vocab[t][0], sub, '-'.join(tws), pid)
            p_host.append(h)
            p_topic.append(t)
            p_path.append(path)
            p_title.append(title)
            by_host[h].append(pid)
            by_host_topic[(h, t)].append(pid)
            by_topic[t].append(pid)
            by_dir[(h, dir_of(path))].append(pid)

    def skewed(lst):
        return lst[int(len(lst) * rng.random() ** 2.0)]

    # Out-links: power-law count; mostly same host (same topic preferred),
    # some cross-host (same topic preferred).
    p_links = []
    for pid in range(N):
        h, t = p_host[pid], p_topic[pid]
        k = min(80, int(rng.paretovariate(1.3) * 2))
        seen = set()
        lst = []
        for _ in range(k):
            x = rng.random()
            if x < 0.85 and len(by_host[h]) > 1:
                if rng.random() < 0.75 and len(by_host_topic[(h, t)]) > 1:
                    q = skewed(by_host_topic[(h, t)])
                else:
                    q = skewed(by_host[h])
            else:
                q = skewed(by_topic[t]) if rng.random() < 0.7 else rng.randrange(N)
            if q != pid and q not in seen:
                seen.add(q)
                lst.append(q)
        p_links.append(lst)

    sites = []
    for h in range(H):
        hn = hosts[h]['name']
        s = Site(hn, hn.replace('www.', '').split('.')[0].replace('-', ' ').title(), h,
                 calendar_months=args.calendar_months if h % args.calendar_every == 0 else 0,
                 crawl_delay=1 if h % 10 == 1 else None, robots_variant=(h // 3) % 3)
        s.sections = [('/%s/index.html' % vocab[t][0], vocab[t][0].capitalize())
                      for t, _ in sorted(hosts[h]['mix'])]
        if h % 3 == 0:
            t0_ = hosts[h]['mix'][0][0]
            s.media_dirs = {'/%s/%s/' % (vocab[t0_][0], hosts[h]['subs'][t0_][0])}
        sites.append(s)

    labels = {}
    media_entries = collections.defaultdict(list)
    heads = ['Overview', 'Background', 'Details', 'History', 'Discussion', 'Notes']
    for pid in range(N):
        h, t = p_host[pid], p_topic[pid]
        site = sites[h]
        path = p_path[pid]
        d = dir_of(path)
        r = random.Random('%d:%d' % (seed, pid))
        tw = vocab[t][1]
        rr = r.random
        paras = []
        for _ in range(r.randint(2, 3)):
            sents = []
            for _ in range(r.randint(2, 4)):
                ws = []
                for _ in range(r.randint(7, 14)):
                    x = rr()
                    if x < 0.3:
                        ws.append(tw[int(50 * rr() ** 1.5)])
                    elif x < 0.34:
                        ws.append(vocab[int(T * rr())][1][int(50 * rr())])
                    else:
                        ws.append(FILLER[int(len(FILLER) * rr() ** 1.3)])
                ws[0] = ws[0].capitalize()
                sents.append(' '.join(ws) + '.')
            paras.append(sents)
        desc = paras[0][0]
        see_also = []
        for q in p_links[pid]:
            href = esc(site.href(path, hosts[p_host[q]]['name'], p_path[q]))
            a = '<a href="%s">%s</a>' % (href, p_title[q])
            if rr() < 0.65:
                sents = paras[int(len(paras) * rr())]
                i = int(len(sents) * rr())
                sents[i] = sents[i][:-1] + (', see %s.' % a)
            else:
                see_also.append(a)
        main = ['<div class="article"><h1>%s</h1>' % p_title[pid]]
        for i, sents in enumerate(paras):
            if i == 1:
                main.append('<h2>%s</h2>' % heads[pid % len(heads)])
            main.append('<p>%s</p>' % ' '.join(sents))
        if see_also:
            main.append('<div class="see-also"><h2>See also</h2><ul>%s</ul></div>'
                        % ''.join('<li>%s</li>' % a for a in see_also))
        if d in site.media_dirs:
            fn = posixpath.basename(path)[:-5]
            main.append(write_media(w, site, d, fn, path))
            media_entries[(h, d)].append((fn, p_title[pid]))
        main.append('</div>')
        same = by_dir[(h, d)]
        k = min(len(same) - 1, r.randint(4, 6))
        rel = []
        if k > 0:
            for q in r.sample(same[:200], min(k + 1, len(same[:200]))):
                if q != pid and len(rel) < k:
                    rel.append((site.host, p_path[q], p_title[q]))
        topic = vocab[t][0]
        crumbs = [('/index.html', 'Home'), ('/%s/index.html' % topic, topic.capitalize()),
                  (d + 'index.html', d.split('/')[2].capitalize())]
        w.write(site.host, path, render_page(site, path, p_title[pid], '\n'.join(main),
                                             related=rel, breadcrumb=crumbs,
                                             description=desc))
        labels[site.url(path)] = [topic]

    for h in range(H):
        site = sites[h]
        host = site.host
        topics = sorted(t for t, _ in hosts[h]['mix'])
        r = random.Random('home:%d:%d' % (seed, h))
        feat = r.sample(by_host[h], min(10, len(by_host[h])))
        intro = ('<p>Welcome to %s.</p><h2>Featured</h2><ul class="featured">%s</ul>'
                 % (esc(site.title), ''.join(
                     '<li><a href="%s">%s</a></li>' % (esc(site.href('/index.html', host, p_path[q])),
                                                       p_title[q]) for q in feat)))
        if site.calendar_months:
            intro += '<p><a href="%s">Upcoming events</a></p>' % esc(
                site.href('/index.html', host, '/calendar/index.html'))
        write_listing(w, site, '/', site.title, None, site.sections, [], intro_html=intro)
        for t in topics:
            name = vocab[t][0]
            td = '/%s/' % name
            subs = [(td + s + '/index.html', s.capitalize()) for s in hosts[h]['subs'][t]
                    if by_dir.get((h, td + s + '/'))]
            write_listing(w, site, td, name.capitalize(), [('/index.html', 'Home')], subs, [])
            for s in hosts[h]['subs'][t]:
                sd = td + s + '/'
                pids = by_dir.get((h, sd))
                if not pids:
                    continue
                extra = ''
                if sd in site.media_dirs:
                    extra = '<p class="media-link"><a href="%s">Media in this section</a></p>' % esc(
                        site.href(sd + 'index.html', host, sd + 'media/index.html'))
                write_listing(w, site, sd, s.capitalize(),
                              [('/index.html', 'Home'), (td + 'index.html', name.capitalize())],
                              [], [(host, p_path[q], p_title[q]) for q in pids],
                              extra_html=extra)
        write_common(w, site, seed)
    for (h, d), entries in media_entries.items():
        write_media_index(w, sites[h], d, entries, [('/index.html', 'Home')])
    all_sites = sites + [write_ads_site(w)]
    finish(out, w, all_sites, labels, {
        'mode': 'synthetic', 'pages': N, 'hosts': H, 'seed': seed,
        'calendar_months': args.calendar_months, 'calendar_every': args.calendar_every,
        'topics': [v[0] for v in vocab], 'seconds': round(time.time() - t0, 1)})
    return N, len(all_sites), w

# --------------------------------------------------------------------------
# University: a 1990s university web, the shape a focused crawler meets in
# practice (department sites, personal home pages, course home pages as the
# topic, hundreds of small hosts, many dead links, era HTML).

UNI_TOPIC = 'course'
UNI_KEYWORDS = ['course', 'syllabus', 'lecture', 'homework', 'assignment', 'exam',
                'grading', 'textbook', 'instructor', 'prerequisite', 'midterm']
UNI_ON_TOPIC_RATE = 0.036        # on-topic pages per page: 288 of 8,000
UNI_SEED_SHARE = 0.75            # share of the on-topic pages on the department sites
UNI_SMALL_MAX = 20               # pages of a small host, at most

FIRST_NAMES = (
    'James John Robert Michael William David Richard Joseph Thomas Charles '
    'Mary Patricia Linda Barbara Elizabeth Jennifer Maria Susan Margaret Lisa '
    'Nancy Karen Helen Sandra Donna Carol Ruth Sharon Michelle Laura Sarah '
    'Kimberly Deborah Jessica Cynthia Angela Melissa Brenda Amy Anna Rebecca '
    'Kathleen Pamela Martha Amanda Stephanie Christine Janet Catherine Ann '
    'Diane Alice Julie Heather Teresa Evelyn Jean Joan Judith Rose Kelly '
    'Steven Paul Mark Donald George Kenneth Edward Brian Ronald Anthony Kevin '
    'Jason Gary Timothy Jeffrey Ryan Jacob Eric Stephen Andrew Raymond Gregory '
    'Joshua Jerry Dennis Walter Patrick Peter Harold Douglas Henry Carl Arthur '
    'Wei Ming Yuan Li Hui Jun Xiaoming Hiroshi Kenji Takashi Akira Yuki Sanjay '
    'Raj Anand Vijay Ravi Priya Sunil Rajeev Deepak Amit Dimitri Sven Lars '
    'Pierre Jacques Francois Ahmed Omar Mehmet Jorge Carlos Luis Miguel Elena '
    'Olga Ingrid Hans Klaus Jurgen Marco Giovanni Paolo Ana Sofia Yael Avi '
    'Chen Hyun Sung Jin Seung Tomas Erik Nils Kurt Ilya Sergei Boris Natasha'
).split()

LAST_NAMES = (
    'Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor '
    'Thomas Moore Martin Jackson Thompson White Harris Clark Lewis Robinson '
    'Walker Young Allen King Wright Scott Green Baker Adams Nelson Hill '
    'Campbell Mitchell Roberts Carter Phillips Evans Turner Parker Collins '
    'Edwards Stewart Morris Murphy Cook Rogers Morgan Peterson Cooper Reed '
    'Bailey Bell Kelly Howard Ward Cox Richardson Wood Watson Brooks Bennett '
    'Gray James Hughes Price Sanders Myers Long Ross Foster Powell Jenkins '
    'Perry Russell Sullivan Fisher Henderson Coleman Simmons Patterson Jordan '
    'Reynolds Hamilton Graham Wallace Cole West Stone Meyer Hoffman Schmidt '
    'Weber Becker Schulz Keller Fischer Wagner Larsen Nielsen Hansen Berg '
    'Lindqvist Johansson Dubois Moreau Laurent Rossi Russo Bianchi Romano '
    'Garcia Martinez Rodriguez Lopez Gonzalez Hernandez Perez Sanchez Ramirez '
    'Chen Wang Zhang Liu Yang Huang Zhao Wu Zhou Lin Xu Sun Ma Zhu Hu Guo '
    'Tanaka Suzuki Takahashi Watanabe Ito Yamamoto Nakamura Kobayashi Kato '
    'Kim Lee Park Choi Jung Kang Cho Yoon Patel Shah Gupta Sharma Singh Kumar '
    'Rao Iyer Reddy Mehta Agarwal Ivanov Petrov Volkov Novak Kowalski Cohen '
    'Levy Friedman Katz Goldberg Klein Weiss Schwartz Stein Rosen Bauer'
).split()

PLACE_A = ('North South East West Lake River Green Oak Cedar Maple Stone Pine '
           'Fair Clear Silver Red High Elm Bay Spring Ash Brook Glen Rock Hill '
           'Wood Mill Fox Deer Eagle Summit Cross Bridge Iron Gold Willow').split()
PLACE_B = ('field wood dale ton ford brook view mont ridge port haven land vale '
           'burg wick stead side water mere chester bury ham worth gate crest').split()
STATES = ('AL AZ CA CO CT FL GA IA IL IN KS KY MA MD MI MN MO NC NE NJ NM NY OH OK OR PA SC TN '
          'TX UT VA WA WI').split()
STREETS = ['University Avenue', 'Campus Drive', 'College Street', 'Engineering Drive',
           'Science Way', 'Observatory Drive', 'Hall Road', 'Main Street', 'Dayton Street',
           'Library Mall', 'Research Park Boulevard', 'Memorial Drive']

# Computer science areas: the course title and the words its course pages,
# research pages, publications and project pages draw from (on purpose, the
# same words serve the topic and its hard negatives).
CS_AREAS = [
    ('Operating Systems', 'process scheduling;virtual memory;file systems;synchronization;'
     'deadlock;kernel design;device drivers;paging;threads;protection'),
    ('Compiler Construction', 'lexical analysis;parsing;code generation;register allocation;'
     'type checking;code optimization;intermediate representations;dataflow analysis;'
     'garbage collection;attribute grammars'),
    ('Data Structures', 'linked lists;binary trees;hash tables;heaps;balanced search trees;'
     'graphs;sorting;recursion;abstract data types;amortized analysis'),
    ('Algorithms', 'divide and conquer;dynamic programming;greedy algorithms;graph algorithms;'
     'NP-completeness;approximation algorithms;randomized algorithms;network flow;'
     'shortest paths;lower bounds'),
    ('Database Systems', 'relational model;SQL;query optimization;transaction processing;'
     'concurrency control;recovery;indexing;B+ trees;object-oriented databases;data mining'),
    ('Computer Networks', 'TCP/IP;routing;congestion control;local area networks;ATM networks;'
     'network protocols;sockets;multicast;wireless networks;network security'),
    ('Artificial Intelligence', 'heuristic search;knowledge representation;planning;'
     'first-order logic;expert systems;reasoning under uncertainty;game playing;'
     'constraint satisfaction;natural language understanding;learning'),
    ('Machine Learning', 'decision trees;neural networks;reinforcement learning;Bayesian learning;'
     'inductive logic programming;computational learning theory;clustering;genetic algorithms;'
     'boosting;text classification'),
    ('Computer Graphics', 'rendering;ray tracing;3D transformations;shading;texture mapping;'
     'geometric modeling;animation;hidden surface removal;radiosity;virtual reality'),
    ('Theory of Computation', 'finite automata;regular languages;context-free grammars;'
     'Turing machines;decidability;complexity classes;computability;reductions;'
     'formal languages;pushdown automata'),
    ('Programming Languages', 'functional programming;type systems;operational semantics;'
     'lambda calculus;logic programming;object-oriented languages;polymorphism;interpreters;'
     'program verification;concurrency'),
    ('Computer Architecture', 'instruction sets;pipelining;caches;memory hierarchy;'
     'superscalar processors;multiprocessors;branch prediction;cache coherence;RISC;'
     'performance evaluation'),
    ('Software Engineering', 'requirements analysis;software design;software testing;'
     'object-oriented design;software process;formal methods;software maintenance;'
     'version control;design patterns;team projects'),
    ('Distributed Systems', 'remote procedure call;distributed shared memory;fault tolerance;'
     'replication;consensus;clock synchronization;distributed transactions;naming;'
     'mobile computing;group communication'),
    ('Computer Vision', 'image processing;edge detection;stereo;motion analysis;'
     'object recognition;segmentation;shape from shading;active vision;image understanding;'
     'feature extraction'),
    ('Natural Language Processing', 'syntactic parsing;unification grammars;semantic '
     'interpretation;discourse;machine translation;information extraction;corpus linguistics;'
     'speech recognition;text retrieval;morphology'),
    ('Robotics', 'kinematics;motion planning;sensors;feedback control;mobile robots;manipulation;'
     'localization;path planning;behavior-based robotics;robot vision'),
    ('Numerical Analysis', 'floating point arithmetic;linear systems;interpolation;'
     'numerical integration;differential equations;eigenvalues;iterative methods;'
     'error analysis;least squares;sparse matrices'),
    ('Parallel Computing', 'parallel algorithms;message passing;shared memory;PVM;MPI;'
     'load balancing;data parallelism;supercomputers;parallel architectures;'
     'performance modeling'),
    ('Human-Computer Interaction', 'user interfaces;usability;interface design;user studies;'
     'graphical interfaces;hypertext;the World Wide Web;multimedia;cognitive models;'
     'information visualization'),
    ('Computer Security', 'encryption;public-key cryptography;authentication;digital signatures;'
     'security protocols;firewalls;access control;computer viruses;network security;'
     'zero-knowledge proofs'),
    ('Introduction to Programming', 'variables;loops;procedures;arrays;recursion;C++;Pascal;'
     'Scheme;debugging;program design'),
    ('Information Retrieval', 'inverted indexes;vector space model;relevance feedback;'
     'text categorization;search engines;Web robots;query expansion;precision and recall;'
     'document clustering;digital libraries'),
    ('Discrete Mathematics', 'propositional logic;sets;relations;combinatorics;graph theory;'
     'induction;discrete probability;counting;proof techniques;recurrences'),
]

# Other departments of other universities: (host label, course prefix, name, areas).
OTHER_DEPTS = [
    ('ece', 'ECE', 'Electrical and Computer Engineering', [
        ('Digital Signal Processing', 'z-transform;FIR filters;FFT;sampling;spectral analysis'),
        ('Circuit Analysis', 'Kirchhoff laws;transient response;op amps;phasors;two-port networks'),
        ('VLSI Design', 'CMOS;layout;timing analysis;logic synthesis;design rules'),
        ('Control Systems', 'feedback;stability;root locus;state space;PID controllers')]),
    ('math', 'MATH', 'Mathematics', [
        ('Linear Algebra', 'vector spaces;matrices;determinants;eigenvectors;linear maps'),
        ('Real Analysis', 'sequences;limits;continuity;Riemann integral;metric spaces'),
        ('Abstract Algebra', 'groups;rings;fields;homomorphisms;Galois theory'),
        ('Probability Theory', 'random variables;expectation;limit theorems;Markov chains;martingales'),
        ('Differential Equations', 'initial value problems;series solutions;Laplace transform;'
         'stability;boundary value problems')]),
    ('physics', 'PHYS', 'Physics', [
        ('Quantum Mechanics', 'wave functions;Schrodinger equation;angular momentum;spin;'
         'perturbation theory'),
        ('Classical Mechanics', 'Newton laws;Lagrangian;Hamiltonian;oscillations;rigid bodies'),
        ('Thermodynamics', 'entropy;heat engines;free energy;phase transitions;kinetic theory')]),
    ('stat', 'STAT', 'Statistics', [
        ('Statistical Inference', 'estimation;hypothesis testing;likelihood;confidence intervals;'
         'Bayesian inference'),
        ('Regression Analysis', 'least squares;residuals;model selection;ANOVA;logistic regression')]),
    ('econ', 'ECON', 'Economics', [
        ('Microeconomic Theory', 'consumer choice;production;markets;game theory;general equilibrium'),
        ('Econometrics', 'regression;time series;instrumental variables;panel data;forecasting')]),
    ('ling', 'LING', 'Linguistics', [
        ('Syntax', 'phrase structure;transformations;binding;government;X-bar theory'),
        ('Phonology', 'features;syllables;stress;optimality theory;rules')]),
]

# Computer science departments: (host label, course prefix, name).
CS_DEPTS = [('cs', 'CS', 'Computer Sciences'), ('cs', 'CS', 'Computer Science'),
            ('cse', 'CSE', 'Computer Science and Engineering'),
            ('cis', 'CIS', 'Computer and Information Science'),
            ('eecs', 'EECS', 'Electrical Engineering and Computer Science'),
            ('cs', 'CPSC', 'Computer Science'), ('cs', 'CMSC', 'Computer Science')]

# Word forms of the topic words: a page uses one of them, so exact keyword
# matching (no stemming) misses many on-topic pages.
FORMS = {
    'course': ['Course', 'Course', 'Class', 'course', 'Courses', 'class'],
    'syllabus': ['Syllabus', 'Syllabus', 'Course Outline', 'Outline', 'Topics Covered',
                 'syllabus', 'Schedule of Topics', 'Syllabi'],
    'lecture': ['Lectures', 'Lecture Notes', 'Lecture', 'Class Notes', 'Lecture Slides',
                'Notes', 'Lecture notes', 'lectures'],
    'homework': ['Homework', 'Homeworks', 'HW', 'Problem Sets', 'Homework Assignments',
                 'homework', 'Homework sets', 'Exercises'],
    'assignment': ['Assignments', 'Programming Assignments', 'Projects', 'Assignment',
                   'Programs', 'Programming Projects', 'assignments', 'Labs'],
    'exam': ['Exams', 'Examinations', 'Exam', 'Tests', 'Final Exam', 'exams', 'Quizzes'],
    'grading': ['Grading', 'Grades', 'Grading Policy', 'Evaluation', 'Grade Breakdown',
                'grading', 'Course Grade'],
    'textbook': ['Textbook', 'Text', 'Textbooks', 'Required Text', 'Books', 'Readings',
                 'Required Reading', 'Text Book'],
    'instructor': ['Instructor', 'Professor', 'Lecturer', 'Instructors', 'Taught by',
                   'Teacher', 'Faculty'],
    'prerequisite': ['Prerequisites', 'Prerequisite', 'Prereq', 'Prereqs', 'Background',
                     'Requirements', 'Pre-requisites'],
    'midterm': ['Midterm', 'Midterms', 'Mid-term Exam', 'Midterm Exam', 'Midterm exam',
                'midterm', 'Mid-Term'],
    'ta': ['Teaching Assistant', 'TA', 'TAs', 'Teaching Assistants', 'T.A.', 'Grader'],
    'office': ['Office Hours', 'Office hours', 'Hours', 'Office hrs'],
    'announce': ['Announcements', 'News', "What's New", 'Latest News', 'Bulletin Board',
                 'Important Notices'],
}

PUBLISHERS = ['Addison-Wesley', 'Prentice Hall', 'McGraw-Hill', 'MIT Press',
              'Morgan Kaufmann', 'Benjamin/Cummings', 'W. H. Freeman', 'Wiley',
              'Springer-Verlag', 'Jones and Bartlett', 'PWS Publishing', 'Academic Press']
HOBBIES = ['hiking', 'photography', 'rock climbing', 'chess', 'bicycling', 'ultimate frisbee',
           'cooking', 'jazz', 'science fiction', 'soccer', 'basketball', 'skiing', 'juggling',
           'origami', 'playing the guitar', 'old movies', 'traveling', 'reading mystery novels',
           'sailing', 'tennis', 'running marathons', 'brewing beer', 'birdwatching', 'kayaking',
           'playing the piano', 'collecting stamps', 'volleyball', 'role-playing games']
COMPANY_WORDS = ('sun micro info data net soft tech logic quantum vector pixel byte '
                 'cyber digi nova apex orbit zen prime core meta link wave star').split()
COMPANY_SUFFIX = ['soft', 'systems', 'tech', 'net', 'data', 'works', 'ware', 'com', 'labs', 'corp']
ISP_NAMES = ['netcom', 'aol', 'compuserve', 'prodigy', 'earthlink', 'mindspring', 'ix',
             'geocities', 'tripod', 'xmission', 'panix', 'well', 'best', 'erols', 'iquest']
CONF_NAMES = ['SOSP', 'PLDI', 'SIGMOD', 'VLDB', 'STOC', 'FOCS', 'ICML', 'AAAI', 'IJCAI',
              'SIGGRAPH', 'ISCA', 'OSDI', 'SIGCOMM', 'POPL', 'ICSE', 'CVPR', 'ACL', 'CHI',
              'SIGIR', 'KDD', 'PODC', 'ICDE', 'ASPLOS', 'USENIX']
CLUB_WORDS = ['chess', 'cycling', 'hiking', 'ultimate', 'rugby', 'choir', 'astronomy',
              'sailing', 'scifi', 'anime', 'juggling', 'skiing', 'softball', 'folkdance']
MACHINES = ['SPARCstation 20', 'SPARCstation 5', 'DEC Alpha 3000', 'HP 9000/735',
            'SGI Indy', 'SGI Onyx', 'IBM RS/6000', 'Pentium PCs running Linux',
            'Macintosh Quadra', 'NeXTstation', 'Sun Ultra 1', 'DECstation 5000']


def hash_int(*parts):
    return int(hashlib.md5('\x1f'.join(str(x) for x in parts).encode()).hexdigest()[:8], 16)


def cap(s):
    return s[:1].upper() + s[1:]


def mail_host(site):
    return site.host[4:] if site.host.startswith('www.') else site.host


def join_and(items):
    items = list(items)
    if len(items) <= 1:
        return ''.join(items)
    return ', '.join(items[:-1]) + ' and ' + items[-1]


def area_terms(area):
    t = area[1] if isinstance(area[1], list) else area[1].split(';')
    return t or ['the basics']


RESEARCH_SENT = [
    'my research interests include {a}, {b} and {c}.',
    'I am interested in {a} and {b}, in particular {c}.',
    'our group works on {a} for {b}.',
    'current work focuses on {a} and its applications to {b}.',
    'we study {a}, {b}, and {c}.',
    'the goal of this work is to make {a} practical for {b}.',
    'recent results include new techniques for {a} and {b}.',
    'this research combines {a} with {b}.',
    'we have built a prototype system that uses {a} to support {b}.',
    'the project explores the interaction between {a} and {c}.',
]
DESC_SENT = [
    'an introduction to {A}: {a}, {b} and {c}.',
    'topics include {a}, {b}, {c}, and selected research papers.',
    'covers {a} and {b}, with an emphasis on {c}.',
    'the fundamentals of {A}, including {a} and {b}.',
    'a survey of {a}, {b} and {c}. Students complete a project.',
    'principles and practice of {A}; {a}; {b}.',
]
PROBLEM_SENT = [
    'give an example of {a} and explain how it relates to {b}.',
    'implement {a} in C or C++ and measure its performance.',
    'prove that your solution for {a} is correct.',
    'compare {a} and {b}; when is each preferable?',
    'write a program that uses {a} to solve the problem described in class.',
    'exercise {n} at the end of chapter {k} ({a}).',
]
ANNOUNCE = [
    '{hw} {n} is due {d}.', 'The {mid} will be held on {d} in class.', 'Solutions to {hw} {n} are posted.',
    'No class on {d}.', '{a} {n} has been handed out.', 'Office hours moved to Thursday this week.',
    'The final {exam} is on {d}.', 'Grades for {hw} {n} are on-line.', 'Reading for next week: chapters 4-5.',
    'Check the newsgroup for clarifications on {a} {n}.',
]
FACIL_TEXT = [
    'All accounts are subject to the university computing policy.',
    'Printing is limited to 500 pages a month per user; duplex printers are in room 1350.',
    'Home directories are backed up every night; restores take a day.',
    'The instructional labs are open 24 hours a day with a valid ID card.',
    'Dial-in access is available at 28.8K; see the modem pool page.',
    'Software in /usr/local includes GNU Emacs, gcc, TeX, Mathematica and Netscape.',
    'Report hardware problems to the lab staff by e-mail.',
    'Do not run long jobs on the file servers; use the compute servers instead.',
]
MISC_TEXT = [
    'Everyone is welcome; we meet once a month during the semester.',
    'This page is maintained by volunteers and may be out of date.',
    'For more information please send e-mail or stop by the main office.',
    'The annual picnic will be held in the park near the lake, weather permitting.',
    'Our newsletter appears twice a year and is mailed to alumni and friends.',
    'The department library holds journals, proceedings and technical reports from other universities.',
    'We thank our industrial affiliates for their generous support.',
    'Parking permits are available from the transportation office.',
    'Job announcements are posted on the bulletin board outside the main office.',
    'Please report broken links to the webmaster.',
    'Congratulations to all of this year\'s award winners!',
    'Photos from last year\'s events are on the photo page.',
]
MISC_TITLES = {'acm': 'ACM Student Chapter', 'faq': 'Frequently Asked Questions', 'softball': 'Softball Team',
               'picnic': 'Department Picnic', 'wics': 'Women in Computer Science', 'jobs': 'Job Openings',
               'alumni': 'Alumni', 'newsletter': 'Newsletter', 'library': 'Department Library',
               'awards': 'Awards', 'history': 'History of the Department', 'parking': 'Parking'}
STAFF_DUTIES = {
    'Graduate Program Coordinator': 'graduate admissions, student records and qualifying exams',
    'Undergraduate Advisor': 'course registration, add/drop, prerequisite overrides and degree audits',
    'Department Administrator': 'budget, personnel and space',
    'Systems Administrator': 'workstations, file servers, accounts and the network',
    'Instructional Program Manager': 'course scheduling, room assignments and TA appointments',
}
COMPANY_TEXT = [
    'We build software for networked workstations and PCs.',
    'Our products are used by more than 500 companies worldwide.',
    'Founded in 1991, the company is headquartered in a small town near the campus.',
    'Download a free evaluation copy from our FTP site.',
    'We are hiring C++ programmers and UNIX system administrators.',
    'Read our latest press releases for news about new products.',
    'Technical support is available by e-mail and phone, Monday through Friday.',
]
CONF_TEXT = [
    'Papers must be submitted electronically in PostScript by the deadline.',
    'The program committee will select about 30 papers from the submissions.',
    'Registration includes the proceedings, lunches and the banquet.',
    'A block of rooms has been reserved at the conference hotel.',
    'Tutorials will be held on the day before the conference.',
]
# The topic's words in other senses, on pages that are not course pages.
NOISE_SENT = [
    'Of course, everyone is welcome.',
    'In the course of the project we built three prototypes.',
    'The qualifying exam is offered twice a year.',
    'The preliminary exam covers three areas of the graduate curriculum.',
    'She gave an invited lecture at the summer school.',
    'The Distinguished Lecture Series brings leading researchers to campus.',
    'Room assignments for next year are posted outside the office.',
    'His new textbook appeared this spring.',
    'This is a textbook example of technology transfer.',
    'Finals week is coming, so updates will be slow.',
    'I spend way too much time on homework.',
    'I was a teaching assistant for two semesters.',
    'The golf course behind the campus is open to students.',
    'The instructor for the summer workshop was a visiting professor.',
    'Grading of the qualifying exams will be finished by Friday.',
    'Lecture halls are in the basement of the building.',
    'Students should check prerequisites with their advisor before registering.',
    'The reading list for the qualifying exam is on-line.',
    'Teaching evaluations are due at the end of the semester.',
    'He teaches the undergraduate course on operating systems every fall.',
    'My assignment this summer is at a research lab.',
    'The syllabus of the summer school is available from the organizers.',
    'Course registration opens in November.',
    'Take the exam seriously: it is a prerequisite for candidacy.',
]
NOISE_P = {'person': 0.35, 'news': 0.4, 'd-misc': 0.3, 'd-facil': 0.2, 'd-colloq': 0.3, 'about': 1,
           'admissions': 1, 'undergrad': 1, 'staff': 0.5, 'person-sub': 0.2, 'ta-list': 1,
           'catalog': 1, 'registrar': 1, 'term-list': 0.5}
NEWS_HEAD = {
    'award': '{f} receives NSF Young Investigator award', 'colloquium': 'Distinguished lecture on {A}',
    'grant': 'New grant for research on {a}', 'hire': 'The department welcomes {f}',
    'registration': 'Registration reminder', 'building': 'New building on schedule',
    'graduation': 'Congratulations to our graduates', 'paper': 'Best paper award for {s}',
    'alumni': 'Alumni reception', 'newcourse': 'New course on {A}', 'software': 'Release of new software',
    'visit': 'Visit by the National Science Foundation'}


def sentence(r, area, templates):
    t = area_terms(area)
    pick = r.sample(t, min(3, len(t)))
    while len(pick) < 3:
        pick.append(t[0])
    return r.choice(templates).format(a=pick[0], b=pick[1], c=pick[2], A=area[0].lower(),
                                      n=r.randint(1, 20), k=r.randint(1, 12))


def title_case(s):
    return ' '.join(w if w.isupper() or len(w) < 3 and w != 'ai' else w[:1].upper() + w[1:]
                    for w in s.split())


def pub_title(r, area):
    t = area_terms(area)
    a, b = r.choice(t), r.choice(t)
    return r.choice(['Efficient {a} in {b}', 'On the Complexity of {a}', '{a}: A New Approach',
                     'Towards Scalable {a}', 'An Empirical Study of {a} and {b}', 'Using {a} for {b}',
                     'A Framework for {a}', '{a} Revisited', 'Fast Algorithms for {a}',
                     'Experience with {a} in {b}']).format(a=title_case(a), b=title_case(b))


def venue(r, area):
    x = r.random()
    if x < 0.4:
        return 'Proceedings of %s \'%d' % (r.choice(CONF_NAMES), r.randint(88, 97))
    if x < 0.7:
        return 'Journal of %s' % area[0]
    if x < 0.85:
        return 'IEEE Transactions on %s' % area[0]
    return 'Technical Report %d-%02d' % (r.randint(88, 97), r.randint(1, 40))


def news_headline(web, n):
    r = random.Random('news:' + n.url)
    a = r.choice(web.areas)
    return NEWS_HEAD[n.m['what']].format(
        f='Professor %s' % r.choice(web.last), s='%s %s' % (r.choice(web.first), r.choice(web.last)),
        A=a[0], a=area_terms(a)[0])


NEWS_TEXT = {
    'award': '{f} has received an award for research on {t0}.',
    'colloquium': 'The speaker will discuss {t0} and {t1}. Everyone is welcome.',
    'grant': '{f} and colleagues received a three-year grant to study {tl}.',
    'hire': 'We are pleased to announce that {f} has joined the faculty.',
    'building': 'Construction of the new computer science building is on schedule; we expect to '
                'move next year.',
    'graduation': 'Congratulations to {s} and all students who graduated this term.',
    'paper': 'A paper by {s} and {f} on {t0} won the best paper award.',
    'alumni': 'Alumni are invited to a reception at the annual conference.',
    'software': "Version 2.0 of the group's {t0} toolkit is available for anonymous FTP.",
    'visit': 'A review panel will visit the department; faculty are asked to be available.',
}


def course_description(r, c):
    return cap(sentence(r, c.area, DESC_SENT))


def material_anchor(ctx, m):
    what = m.m['what']
    if what == 'hw':
        return '%s %s' % (ctx.form('homework'), re.sub(r'\D', '', m.path.rsplit('/', 1)[-1]) or '1')
    if what == 'faq':
        return 'FAQ'
    return ctx.form(what)


def canonical_path(path):
    """'/a/index.html' -> '/a/' (how every link names a folder's index page)."""
    return path[:-len('index.html')] if path.endswith('/index.html') else path


def url_dir(path):
    return path[:path.rindex('/') + 1]


def rel_href(frm, to):
    """Relative reference from the page at URL path `frm` to URL path `to`
    (same host), with '../' where needed."""
    a = url_dir(frm).split('/')[1:-1]
    b = to.split('/')[1:]
    i = 0
    while i < len(a) and i < len(b) - 1 and a[i] == b[i]:
        i += 1
    return ('../' * (len(a) - i) + '/'.join(b[i:])) or './'


class UPage:
    """A page of the university web: where it lives, its label and what the
    planner knows about it (kind and data for the renderer)."""

    __slots__ = ('site', 'path', 'url', 'label', 'kind', 'title', 'm', 'ext', 'links')

    def __init__(self, site, path, label, kind, title='', **m):
        self.site = site
        self.path = path
        self.url = 'http://%s%s' % (site.host, canonical_path(path))
        self.label = label
        self.kind = kind
        self.title = title
        self.m = m
        self.ext = []           # [(UPage, anchor text)] links placed by the host linker
        self.links = []


class USite:
    """A host: its kind, its look and its pages."""

    def __init__(self, host, kind, title, r):
        self.host = host
        self.kind = kind
        self.title = title
        self.pages = []
        self.by_path = {}
        self.home = None            # the page other hosts link to
        self.nav = []               # [(UPage or path, text)] on every page of the site template
        self.upper = r.random() < 0.35                  # upper-case tags
        self.quote = r.random() < 0.75                  # quoted attribute values
        st = r.random()
        self.style = r.randrange(4)                     # template variant
        # How in-site links are written: relative, root-relative or absolute.
        self.link_mix = (0.6, 0.3, 0.1) if st < 0.5 else (0.2, 0.6, 0.2) if st < 0.85 else (0.1, 0.2, 0.7)
        self.bg = r.choice(['#ffffff', '#ffffff', '#fffff0', '#f0f0ff', '#c0c0c0', '#ffffcc'])
        self.modified = '%s %d, 199%d' % (MONTHS[r.randrange(12)], r.randint(1, 28),
                                          r.choice([5, 6, 6, 7, 7]))
        self.private = False
        self.robots = 0

    def add(self, path, label, kind, title='', **m):
        assert path not in self.by_path, (self.host, path)
        p = UPage(self, path, label, kind, title, **m)
        self.pages.append(p)
        self.by_path[path] = p
        return p


class Person:
    __slots__ = ('first', 'last', 'name', 'login', 'role', 'site', 'page', 'courses',
                 'areas', 'advisor', 'students', 'projects', 'extra', 'ta_for', 'title')

    def __init__(self, first, last, login, role, site):
        self.first, self.last, self.login, self.role, self.site = first, last, login, role, site
        self.name = '%s %s' % (first, last)
        self.page = None
        self.courses = []
        self.areas = []
        self.advisor = None
        self.students = []
        self.projects = []
        self.extra = []
        self.ta_for = []
        self.title = ''


class Course:
    __slots__ = ('prefix', 'num', 'title', 'area', 'term', 'instructor', 'tas',
                 'site', 'page', 'materials', 'dept')

    def __init__(self, prefix, num, title, area, term, site, dept):
        self.prefix, self.num, self.title, self.area = prefix, num, title, area
        self.term, self.site, self.dept = term, site, dept
        self.instructor = None
        self.tas = []
        self.page = None
        self.materials = []

    def dir(self):
        """The folder of the course home page."""
        return url_dir(canonical_path(self.page.path))

    def code(self, r=None):
        """'CS 537' or one of the ways pages write it."""
        if r is None:
            return '%s %d' % (self.prefix, self.num)
        x = r.random()
        if x < 0.55:
            return '%s %d' % (self.prefix, self.num)
        if x < 0.75:
            return '%s%d' % (self.prefix, self.num)
        if x < 0.85:
            return '%s-%d' % (self.prefix, self.num)
        if x < 0.93:
            return '%s%d' % (self.prefix.lower(), self.num)
        return '%s %d' % (self.dept, self.num)


class Ctx:
    """Renders one page: writes its links (recording every target) and
    knows the page's random generator."""

    def __init__(self, web, page):
        self.web = web
        self.page = page
        self.site = page.site
        self.r = random.Random('%d:%s' % (web.seed, page.url))
        self.links = []

    def href(self, target, frag=None):
        """target: a UPage, an absolute URL or a path on this host."""
        r, site = self.r, self.site
        query = ''
        if isinstance(target, UPage):
            host, path = target.site.host, canonical_path(target.path)
        else:
            if target.startswith('http://'):
                host, _, path = target[7:].partition('/')
                path = '/' + path
            else:
                host, path = site.host, target
            path, q, query = path.partition('?')
            query = q + query
        self.links.append('http://%s%s%s' % (host, path, query))
        if host != site.host:
            h = host.upper() if r.random() < 0.03 else host
            ref = 'http://%s%s' % (h, path)
        else:
            x = r.random()
            frm = canonical_path(self.page.path)
            if x < site.link_mix[0]:
                ref = rel_href(frm, path)
            elif x < site.link_mix[0] + site.link_mix[1]:
                ref = path
            else:
                ref = 'http://%s%s' % (host, path)
        ref += query
        if frag:
            ref += '#' + frag
        return ref

    def a(self, target, text, frag=None):
        ref = self.href(target, frag)
        if not self.site.quote and re.fullmatch(r'[A-Za-z0-9._~:/#-]*[A-Za-z0-9._~#-]', ref):
            return '<a href=%s>%s</a>' % (ref, text)
        return '<a href="%s">%s</a>' % (esc(ref), text)

    def mailto(self, addr, text=None):
        return '<a href="mailto:%s">%s</a>' % (addr, text or addr)

    def pick(self, seq):
        return seq[int(len(seq) * self.r.random())]

    def form(self, word):
        return self.pick(FORMS[word])


def upper_tags(doc):
    """Upper-case tag and attribute names, as many hand-written pages of the
    time had them."""
    doc = re.sub(r'<(/?)([a-zA-Z][a-zA-Z0-9]*)', lambda m: '<' + m.group(1) + m.group(2).upper(), doc)
    return re.sub(r'(<[A-Z][^<>]*?\s)(href|src|alt|border|width|height|bgcolor|align|valign|'
                  r'cellpadding|cellspacing|size|face|color|name|content|colspan|text|link)=',
                  lambda m: m.group(1) + m.group(2).upper() + '=', doc)


def page_doc(site, title, body, r, head_extra=''):
    """The document around a body: a few shapes of the time (with or
    without DOCTYPE, head, closing tags)."""
    x = r.random()
    if x < 0.1:
        doc = '<title>%s</title>\n%s\n' % (esc(title), body)
    else:
        dt = '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML//EN">\n' if x < 0.45 else (
            '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">\n' if x < 0.7 else '')
        gen = ('<meta name="GENERATOR" content="%s">\n' % r.choice(
            ['Mozilla/3.0Gold (X11; I; SunOS 5.5 sun4m) [Netscape]', 'Microsoft FrontPage 2.0',
             'HoTMetaL PRO 3.0', 'vi', 'Emacs html-mode'])) if r.random() < 0.3 else ''
        doc = ('%s<html>\n<head>\n<title>%s</title>\n%s%s</head>\n<body bgcolor="%s">\n%s\n'
               '</body>\n</html>\n' % (dt, esc(title), gen, head_extra, site.bg, body))
    return upper_tags(doc) if site.upper else doc


SMALL_KINDS = [('uni-dept', 0.17), ('uni-person', 0.22), ('uni-central', 0.04), ('lab', 0.11),
               ('company', 0.14), ('isp', 0.14), ('conf', 0.07), ('hobby', 0.11)]
MATERIALS = [('syllabus.html', 'syllabus'), ('lectures.html', 'lecture'),
             ('homework.html', 'homework'), ('hw1.html', 'hw'), ('hw2.html', 'hw'),
             ('assignments.html', 'assignment'), ('project.html', 'assignment'),
             ('exams.html', 'exam'), ('midterm.html', 'exam'), ('grades.html', 'grading'),
             ('schedule.html', 'syllabus'), ('handouts.html', 'lecture'),
             ('readings.html', 'textbook'), ('faq.html', 'faq')]
COURSE_SCHEMES = ['/courses/{c}/index.html', '/class/{c}/index.html',
                  '/education/courses/{c}/index.html', '/~{c}/index.html',
                  '/{instr}/{c}/index.html', '/courses/{term}/{c}/index.html']
INSTR = [('instruction', 'Instruction'), ('teaching', 'Teaching'), ('academics', 'Academics'),
         ('education', 'Education'), ('instruction', 'Courses'), ('academic', 'Academic Programs')]


class UniWeb:
    """Plans the hosts and pages of the university web, then renders them."""

    def __init__(self, args):
        self.N, self.H, self.D, self.seed = args.pages, args.hosts, args.departments, args.seed
        self.rng = random.Random('university:%d' % self.seed)
        r = self.rng
        self.sites = []
        self.hosts = {}
        self.courses = []
        self.first = FIRST_NAMES[:]
        self.last = LAST_NAMES[:]
        r.shuffle(self.first)
        r.shuffle(self.last)
        self.first = self.first[:int(len(self.first) * 0.8)]   # each web its own name draw
        self.last = self.last[:int(len(self.last) * 0.8)]
        self.areas = CS_AREAS[:]
        r.shuffle(self.areas)
        self.seed_unis = [(self.seed - 1) * self.D + i + 1 for i in range(self.D)]
        rest = [k for k in range(1, 5000) if k not in self.seed_unis]
        r.shuffle(rest)
        self.uni_pool = rest
        self.uni_names = {}
        self.year = r.choice([1996, 1997])
        self.dead_hosts = []

    # ---- names -----------------------------------------------------------

    def uni(self, k):
        """(title, short name, city line) of university k."""
        if k not in self.uni_names:
            r = random.Random('uni:%d:%d' % (self.seed, k))
            place = r.choice(PLACE_A) + r.choice(PLACE_B)
            t = r.random()
            title = ('%s University' % place if t < 0.35 else 'University of %s' % place if t < 0.7
                     else '%s State University' % place if t < 0.9
                     else '%s Institute of Technology' % place)
            city = '%s, %s %05d' % (r.choice(PLACE_A) + r.choice(PLACE_B), r.choice(STATES),
                                    r.randint(10000, 99999))
            self.uni_names[k] = (title, place, city)
        return self.uni_names[k]

    def new_uni(self):
        return self.uni_pool.pop()

    def person(self, r, site, role, used):
        for _ in range(50):
            first, last = r.choice(self.first), r.choice(self.last)
            x = r.random()
            login = (first[0] + last if x < 0.45 else last if x < 0.7 else first if x < 0.85
                     else first + last[0]).lower()
            if login not in used:
                used.add(login)
                return Person(first, last, login, role, site)
        login = '%s%d' % (last.lower(), len(used))
        used.add(login)
        return Person(first, last, login, role, site)

    def new_site(self, host, kind, title):
        s = USite(host, kind, title, random.Random('site:%d:%s' % (self.seed, host)))
        s.r = random.Random('plan:%d:%s' % (self.seed, host))
        s.used = set()
        s.nums = set()
        self.sites.append(s)
        self.hosts[host] = s
        return s

    def company_name(self, r):
        return r.choice(COMPANY_WORDS) + r.choice(COMPANY_WORDS + COMPANY_SUFFIX)

    def small_host_name(self, kind, r):
        if kind in ('uni-dept', 'uni-person'):
            k = self.new_uni()
            if kind == 'uni-person' or r.random() < 0.5:
                d = r.choice(CS_DEPTS)
                fmt = 'www.%s.uni%d.test' if r.random() < 0.7 else '%s.uni%d.test'
                return fmt % (d[0], k), k, d
            d = r.choice(OTHER_DEPTS)
            return 'www.%s.uni%d.test' % (d[0], k), k, d
        if kind == 'uni-central':
            k = self.new_uni()
            return 'www.uni%d.test' % k, k, None
        if kind == 'lab':
            x = r.random()
            acr = ''.join(r.choice('ABCDEFGHIKLMNPRSTVW') for _ in range(r.randint(3, 4)))
            if x < 0.4:
                return 'www.%s-lab.test' % acr.lower(), None, acr
            if x < 0.7:
                return 'research.%s.test' % self.company_name(r), None, acr
            return '%s.%s-labs.test' % (acr.lower(), r.choice(PLACE_A).lower()), None, acr
        if kind == 'company':
            return 'www.%s.test' % self.company_name(r), None, None
        if kind == 'isp':
            return '%s.%s%s.test' % (r.choice(['members', 'www', 'home', 'users']), r.choice(ISP_NAMES),
                                     r.choice(['', '', str(r.randint(1, 99))])), None, None
        if kind == 'conf':
            c = r.choice(CONF_NAMES)
            if r.random() < 0.6:
                return 'www.%s%d.test' % (c.lower(), r.choice([96, 97, 98])), None, c
            return '%s%d.%s.test' % (c.lower(), r.choice([96, 97]),
                                     r.choice(['acm', 'ieee', 'usenix', 'aaai'])), None, c
        club = r.choice(CLUB_WORDS)
        return 'www.%s%s.test' % (r.choice(PLACE_A).lower(), club), None, club

    # ---- plan ------------------------------------------------------------

    def plan(self):
        N, H, D, r = self.N, self.H, self.D, self.rng
        # Department sites (the seeds).
        self.depts = []
        for i, k in enumerate(self.seed_unis):
            d = CS_DEPTS[0] if i == 0 else r.choice(CS_DEPTS)
            host = 'www.%s.uni%d.test' % (d[0], k)
            s = self.new_site(host, 'dept', 'Department of %s' % d[2])
            s.uni_k, s.prefix, s.dept = k, d[1], d[2]
            self.depts.append(s)
        # Small hosts: kinds and sizes.
        small = []
        kinds = ['uni-central'] * D + ['uni-dept'] * min(D, H - 2 * D)
        names, weights = zip(*SMALL_KINDS)
        while len(kinds) < H - D:
            kinds.append(r.choices(names, weights)[0])
        for i, kind in enumerate(kinds):
            if i < D:
                k = self.seed_unis[i]
                host, info = 'www.uni%d.test' % k, None
            elif i < D + min(D, H - 2 * D):
                k = self.seed_unis[i - D]
                d = r.choice(OTHER_DEPTS)
                host, info = 'www.%s.uni%d.test' % (d[0], k), d
            else:
                for _ in range(100):
                    host, k, info = self.small_host_name(kind, r)
                    if host not in self.hosts:
                        break
            s = self.new_site(host, kind, '')
            s.uni_k, s.info = k, info
            size = 1 + int((UNI_SMALL_MAX - 1) * r.random() ** 2.6)
            if kind == 'uni-central':
                size = max(size, 5 if i < D else 3)
            elif kind in ('uni-dept', 'conf', 'hobby'):
                size = max(size, 2)
            s.size = size
            s.ncourses = 0
            small.append(s)
        self.small = small
        total = sum(s.size for s in small)
        if total > 0.5 * N:
            f = 0.5 * N / total
            for s in small:
                s.size = max(1 if s.kind not in ('uni-dept', 'uni-central') else 2, int(s.size * f))
        # On-topic pages: most on the department sites, the rest on other
        # universities' hosts (personal course pages, other departments).
        T = max(D + 2, int(round(N * UNI_ON_TOPIC_RATE * r.uniform(0.97, 1.04))))
        t_seed = int(round(T * UNI_SEED_SHARE))
        t_other = T - t_seed
        cands = [s for s in small[D:] if s.kind in ('uni-dept', 'uni-person')]
        r.shuffle(cands)
        i = 0
        while t_other > 0 and cands:
            s = cands[i % len(cands)]
            cap = 3 if s.kind == 'uni-dept' else 2
            if s.ncourses < cap:
                s.ncourses += 1
                t_other -= 1
            i += 1
            if i > 10 * len(cands):
                break
        t_seed += t_other
        for s in small:
            if s.ncourses:
                need = (2 + s.ncourses + (s.ncourses + 1) // 2) if s.kind == 'uni-dept' else 1 + s.ncourses
                s.size = max(s.size, need + r.randint(0, 2))
                s.size = min(s.size, max(UNI_SMALL_MAX, need))
        for s in small:
            self.plan_small(s)
        # Department budgets: the rest of the pages.
        rest = N - sum(len(s.pages) for s in small)
        w = [r.uniform(0.8, 1.2) for _ in range(D)]
        budgets = [int(rest * x / sum(w)) for x in w]
        budgets[0] += rest - sum(budgets)
        cw = [r.uniform(0.8, 1.2) * b for b in budgets]
        ncourses = [int(t_seed * x / sum(cw)) for x in cw]
        for j in range(t_seed - sum(ncourses)):
            ncourses[j % D] += 1
        for s, b, c in zip(self.depts, budgets, ncourses):
            if b < 60 + 6 * c:
                sys.exit('generate.py: --pages %d is too small for --hosts %d and --departments %d '
                         '(a department site would get %d pages)' % (N, H, D, b))
            self.plan_dept(s, b, c)
        self.link_hosts()
        self.make_dead_hosts()

    def add_course(self, site, r, area, dept_prefix, dept_name, instructor, term):
        for _ in range(100):        # a number not used on the site yet
            lvl = r.random()
            num = (r.randint(100, 299) if lvl < 0.25 else r.randint(300, 499) if lvl < 0.6
                   else r.randint(500, 699) if lvl < 0.9 else r.randint(700, 899))
            if num not in site.nums:
                break
        site.nums.add(num)
        if isinstance(area, tuple):
            name, terms = area
        else:
            name, terms = area, ''
        if name.startswith('Introduction to'):
            title = name
        elif num < 300:
            title = r.choice(['Introduction to %s', '%s I', 'Elementary %s', '%s']) % name
        elif num < 500:
            title = r.choice(['%s', 'Principles of %s', 'Introduction to %s', '%s', '%s II']) % name
        elif num < 700:
            title = r.choice(['Advanced %s', '%s', 'Design of %s', 'Graduate %s']) % name
        else:
            title = r.choice(['Topics in %s', 'Seminar in %s', 'Advanced Topics in %s']) % name
        c = Course(dept_prefix, num, title, (name, terms.split(';') if terms else []), term,
                   site, dept_name)
        c.instructor = instructor
        if instructor:
            instructor.courses.append(c)
        self.courses.append(c)
        return c

    def term_names(self):
        y = self.year
        return [('Fall %d' % (y - 1), 'fall%02d' % ((y - 1) % 100)),
                ('Spring %d' % y, 'spring%02d' % (y % 100)),
                ('Fall %d' % y, 'fall%02d' % (y % 100))]

    def course_pages(self, site, c, base, r):
        """The course home page at `base` (a path ending in index.html or a
        .html file) and its material pages."""
        c.page = site.add(base, UNI_TOPIC, 'course', '%s %s' % (c.code(), c.title), course=c)
        d = url_dir(base) if base.endswith('/index.html') else base[:-5] + '/'
        k = r.choices([0, 1, 2, 3, 4, 5], [0.15, 0.2, 0.25, 0.2, 0.12, 0.08])[0]
        for fn, what in r.sample(MATERIALS, k):
            if d + fn not in site.by_path:
                c.materials.append(site.add(d + fn, 'other.course-material', 'material',
                                            fn[:-5], course=c, what=what))
        return c.page

    def personal_pages(self, site, p, base, r, nsub, course_list_ok=True):
        """A person's home page at `base` (folder) and nsub subpages."""
        label = {'faculty': 'faculty', 'student': 'student', 'staff': 'staff'}.get(p.role, 'other')
        p.page = site.add(base + 'index.html', label, 'person', p.name, person=p)
        subs = (['papers.html', 'cv.html', 'research.html', 'teaching.html', 'students.html']
                if p.role == 'faculty' else
                ['resume.html', 'hobbies.html', 'links.html', 'photos.html', 'research.html',
                 'courses.html'])
        if not course_list_ok:
            subs = [x for x in subs if x not in ('teaching.html', 'courses.html')]
        for fn in r.sample(subs, min(nsub, len(subs))):
            lab = 'other.course-list' if fn in ('teaching.html', 'courses.html') else 'other'
            p.extra.append(site.add(base + fn, lab, 'person-sub', fn[:-5], person=p, what=fn[:-5]))
        return p.page

    def trim_materials(self, s, size):
        """Drops course material pages (the last first) until the host has `size` pages."""
        while len(s.pages) > size:
            victim = next(p for p in reversed(s.pages) if p.kind == 'material')
            s.pages.remove(victim)
            del s.by_path[victim.path]
            victim.m['course'].materials.remove(victim)

    def plan_small(self, s):
        r = s.r
        kind, size = s.kind, s.size
        if kind == 'uni-central':
            title, place, city = self.uni(s.uni_k)
            s.title = title
            s.home = s.add('/index.html', 'other', 'central-home', title)
            pages = [('/registrar/schedule.html', 'other.course-list', 'registrar', 'Timetable of Classes'),
                     ('/admissions/index.html', 'other', 'central-misc', 'Admissions'),
                     ('/library/index.html', 'other', 'central-misc', 'Libraries'),
                     ('/registrar/index.html', 'other', 'central-misc', 'Office of the Registrar'),
                     ('/directory.html', 'other', 'central-misc', 'Campus Directory'),
                     ('/athletics.html', 'other', 'central-misc', 'Athletics'),
                     ('/visitors.html', 'other', 'central-misc', 'Visitor Information'),
                     ('/registrar/exams.html', 'other.course-list', 'registrar',
                      'Final Examination Schedule'),
                     ('/news/index.html', 'other', 'central-misc', 'Campus News'),
                     ('/calendar.html', 'other', 'central-misc', 'Academic Calendar'),
                     ('/housing.html', 'other', 'central-misc', 'Housing'),
                     ('/jobs.html', 'other', 'central-misc', 'Employment Opportunities')]
            i = 0
            while len(s.pages) < size:
                if i < len(pages):
                    path, lab, kd, t = pages[i]
                else:
                    path, lab, kd, t = ('/news/%d.html' % i, 'other', 'central-misc', 'Campus News')
                s.add(path, lab, kd, t)
                i += 1
        elif kind == 'uni-dept':
            title, place, city = self.uni(s.uni_k)
            sub, prefix, dname = s.info[0], s.info[1], s.info[2]
            areas = s.info[3] if len(s.info) > 3 else [(a[0], a[1]) for a in self.areas]
            s.prefix, s.dept = prefix, dname
            s.title = 'Department of %s, %s' % (dname, title)
            s.home = s.add('/index.html', 'department', 'sd-home', s.title)
            people = s.add('/people.html', 'department.index', 'sd-people', 'People') if size >= 2 else None
            s.nav = [(s.home, 'Home')] + ([(people, 'People')] if people else [])
            clist = None
            nf = max(1, (s.ncourses + 1) // 2) if s.ncourses else 0
            if s.ncourses and size >= 3 + s.ncourses + nf:
                clist = s.add('/courses.html', 'department.course-list', 'sd-courses', 'Courses')
                s.nav.append((clist, r.choice(['Courses', 'Classes', 'Course Web Pages'])))
            fac = []
            for j in range(nf):
                p = self.person(r, s, 'faculty', s.used)
                self.personal_pages(s, p, '/~%s/' % p.login, r, 0)
                fac.append(p)
            for j in range(s.ncourses):
                p = fac[j % len(fac)]
                c = self.add_course(s, r, r.choice(areas), prefix, dname, p,
                                    self.term_names()[1][0])
                cc = '%s%d' % (prefix.lower(), c.num)
                base = ('/courses/%s/index.html' % cc if clist and r.random() < 0.5
                        else '/~%s/%s/index.html' % (p.login, cc))
                self.course_pages(s, c, base, r)
            self.trim_materials(s, size)
            while len(s.pages) < size:
                x = r.random()
                if x < 0.55:
                    p = self.person(r, s, 'student', s.used)
                    self.personal_pages(s, p, '/~%s/' % p.login, r, 0)
                elif x < 0.85:
                    p = self.person(r, s, 'faculty', s.used)
                    self.personal_pages(s, p, '/~%s/' % p.login, r, 0)
                    fac.append(p)
                else:
                    n = len(s.pages)
                    t = r.choice(['Seminars', 'Graduate Program', 'Undergraduate Program',
                                  'Facilities', 'Newsletter', 'Directions'])
                    s.add('/%s-%d.html' % (slug(t), n), 'other', 'sd-misc', t)
            s.people = [p.m['person'] for p in s.pages if p.kind == 'person']
        elif kind == 'uni-person':
            title, place, city = self.uni(s.uni_k)
            s.prefix, s.dept = s.info[1], s.info[2]
            s.title = title
            role = 'faculty' if s.ncourses or r.random() < 0.4 else 'student'
            p = self.person(r, s, role, s.used)
            base = r.choice(['/~%s/', '/~%s/', '/people/%s/', '/users/%s/']) % p.login
            s.home = self.personal_pages(s, p, base, r, 0)
            for j in range(s.ncourses):
                c = self.add_course(s, r, r.choice(self.areas), s.prefix, s.dept, p,
                                    self.term_names()[1][0])
                self.course_pages(s, c, '%s%s%d/index.html' % (base, s.prefix.lower(), c.num), r)
            self.trim_materials(s, size)
            subs = (['papers.html', 'cv.html', 'research.html', 'teaching.html', 'students.html']
                    if role == 'faculty' else
                    ['resume.html', 'hobbies.html', 'links.html', 'photos.html', 'research.html',
                     'courses.html'])
            for fn in subs:
                if len(s.pages) >= size:
                    break
                lab = 'other.course-list' if fn in ('teaching.html', 'courses.html') else 'other'
                p.extra.append(s.add(base + fn, lab, 'person-sub', fn[:-5], person=p, what=fn[:-5]))
            j = 0
            while len(s.pages) < size:
                j += 1
                p.extra.append(s.add('%smisc%d.html' % (base, j), 'other', 'person-sub', 'notes',
                                     person=p, what='misc'))
        elif kind == 'isp':
            s.title = s.host.split('.')[1].rstrip('0123456789').capitalize() + ' Members'
            if size >= 3:
                s.home = s.add('/index.html', 'other', 'isp-home', s.title)
            owners = []
            while len(s.pages) < size:
                p = self.person(r, s, 'other', s.used)
                base = r.choice(['/~%s/', '/users/%s/', '/%s/']) % p.login
                self.personal_pages(s, p, base, r, 0)
                owners.append(p)
                for fn in ['links.html', 'hobbies.html', 'photos.html', 'resume.html']:
                    if len(s.pages) >= size or r.random() < 0.4:
                        break
                    p.extra.append(s.add(base + fn, 'other', 'person-sub', fn[:-5], person=p,
                                         what=fn[:-5]))
            if s.home is None:
                s.home = owners[0].page
                owners[0].page.ext.extend((o.page, o.name) for o in owners[1:])
            s.people = owners
        else:
            spec = {
                'lab': (['Projects', 'People', 'Publications', 'Software', 'Jobs', 'Contact',
                         'Seminars', 'Visitors'], 'project'),
                'company': (['Products', 'About Us', 'Jobs', 'Press Releases', 'Support',
                             'Customers', 'Contact', 'Downloads'], 'other'),
                'conf': (['Call for Papers', 'Program', 'Registration', 'Committee', 'Hotel',
                          'Travel', 'Accepted Papers', 'Tutorials'], 'other'),
                'hobby': (['Members', 'Events', 'Photos', 'Links', 'Newsletter', 'Join',
                           'Results', 'History'], 'other'),
            }[kind]
            sections, lab = spec
            if kind == 'lab':
                s.title = '%s Laboratory' % s.info
            elif kind == 'company':
                s.title = s.host.split('.')[1].capitalize() + r.choice(
                    [' Inc.', ' Corporation', ' Systems', ''])
            elif kind == 'conf':
                s.title = '%s \'%s' % (s.info, re.search(r'\d\d', s.host).group(0))
            else:
                s.title = '%s %s Club' % (s.host.split('.')[1][:-len(s.info)].capitalize(),
                                          s.info.capitalize())
            s.home = s.add('/index.html', lab, kind + '-home', s.title)
            j = 0
            while len(s.pages) < size:
                t = sections[j % len(sections)]
                if j < len(sections):
                    path = '/%s.html' % slug(t)
                else:
                    path = '/%s/%d.html' % (slug(t), j)
                pl = 'project' if kind == 'lab' and t == 'Projects' else 'other'
                if kind == 'lab' and j >= len(sections):
                    pl = 'project'
                s.add(path, pl, kind + '-page', t)
                j += 1
        # A few small hosts keep a /private/ area that robots.txt disallows
        # (in the host's size: the last page becomes it).
        if kind in ('company', 'lab', 'uni-central') and size >= 4 and r.random() < 0.15:
            last = s.pages[-1]
            if last.kind.endswith('-page') or last.kind == 'central-misc':
                s.pages.pop()
                del s.by_path[last.path]
                s.private = True
                s.add('/private/index.html', 'other', 'private', 'Internal')
        if kind not in ('uni-dept', 'uni-person', 'isp'):
            s.nav = [(p, 'Home' if p is s.home else p.title)
                     for p in s.pages[:7] if p.kind != 'private']
        if r.random() < 0.5:        # a page that is gone, linked from every page
            s.nav.append((r.choice(['/whatsnew.html', '/new/', '/cgi-bin/guestbook.pl', '/sitemap.html',
                                    '/search.html', '/feedback.html']),
                          r.choice(["What's New", 'Guestbook', 'Site Map', 'Search', 'Feedback'])))
        s.robots = self.robots_variant(s, r)

    def robots_variant(self, s, r):
        if s.private:
            return r.choice([1, 2, 3, 4])
        return r.choice([0, 0, 0, 5, 5, 6])

    def plan_dept(self, s, B, C):
        r = s.r
        title, place, city = self.uni(s.uni_k)
        s.uni_title, s.place, s.city = title, place, city
        s.title = '%s, %s' % (s.title, title)
        s.instr_dir, s.instr_label = r.choice(INSTR)
        s.home_style = r.choice(['/~%s/', '/~%s/', '/~%s/', '/people/%s/', '/homes/%s/'])
        s.scheme = r.choice(COURSE_SCHEMES)
        s.private = r.random() < 0.75
        s.central = self.hosts['www.uni%d.test' % s.uni_k]
        s.phone = '(%03d) %03d' % (r.randint(201, 989), r.randint(200, 899))
        s.street = '%d %s' % (r.randint(10, 3999), r.choice(STREETS))
        s.building = '%s Hall' % r.choice(self.last)
        add = s.add
        idx = s.idx = {}
        s.home = idx['home'] = add('/index.html', 'department', 'dept-home', s.title)
        idx['people'] = add('/people.html', 'department.index', 'people', 'People')
        idx['faculty'] = add('/faculty/index.html', 'department.index', 'faculty-index', 'Faculty')
        idx['students'] = add('/students/index.html', 'department.index', 'student-index',
                              'Graduate Students')
        idx['staff'] = add('/staff/index.html', 'department.index', 'staff-index', 'Staff')
        idx['research'] = add('/research/index.html', 'department.index', 'research-index', 'Research')
        idx['instr'] = add('/%s/index.html' % s.instr_dir, 'department.index', 'instr-index',
                           s.instr_label)
        terms = self.term_names()
        idx['terms'] = [add('/%s/%s.html' % (s.instr_dir, ts), 'department.course-list', 'term-list',
                            '%s Courses' % tl, term=tl, current=(j == 1))
                        for j, (tl, ts) in enumerate(terms)]
        idx['catalog'] = add('/%s/catalog.html' % s.instr_dir, 'department.course-list', 'catalog',
                             'Course Descriptions')
        idx['tas'] = (add('/%s/tas.html' % s.instr_dir, 'department.course-list', 'ta-list',
                          'Teaching Assistant Assignments') if r.random() < 0.7 else None)
        idx['news'] = add('/news/index.html', 'department.index', 'news-index', 'News')
        idx['tr'] = add('/techreports/index.html', 'other', 'tr-index', 'Technical Reports')
        idx['colloq'] = add('/colloquia/index.html', 'other', 'colloq-index', 'Colloquia')
        idx['facil'] = add('/facilities/index.html', 'other', 'facil-index', 'Computing Facilities')
        idx['depts'] = add('/depts.html', 'other', 'depts', 'Other Computer Science Departments')
        idx['about'] = add('/about.html', 'other', 'about', 'About the Department')
        idx['directions'] = add('/directions.html', 'other', 'directions', 'Directions')
        idx['admissions'] = add('/grad/admissions.html', 'other', 'admissions', 'Graduate Admissions')
        idx['undergrad'] = add('/undergrad/index.html', 'other', 'undergrad', 'Undergraduate Program')
        if s.private:
            idx['private'] = add('/private/index.html', 'other', 'private', 'Faculty and Staff Only')
            add('/private/minutes.html', 'other', 'private-memo', 'Faculty Meeting Minutes')
        used = len(s.pages)
        R = max(40, B - used - 3.2 * C)
        F = max(3, (C + 1) // 2, int(0.085 * R / 2.3))
        S = max(4, int(0.33 * R / 2.0))
        St = max(1, int(0.015 * R))
        P = max(1, int(0.06 * R / 3))
        Nw = max(2, int(0.035 * R))
        # Faculty.
        s.faculty = []
        for _ in range(F):
            p = self.person(r, s, 'faculty', s.used)
            p.title = r.choice(['Professor', 'Professor', 'Associate Professor', 'Assistant Professor',
                                'Assistant Professor', 'Lecturer'])
            p.areas = r.sample(self.areas, 2)
            self.personal_pages(s, p, s.home_style % p.login, r,
                                r.choices([0, 1, 2, 3], [0.3, 0.3, 0.25, 0.15])[0])
            s.faculty.append(p)
        # Courses: mostly this term, on the department's course scheme or in
        # the instructor's own folder.
        area_cycle = self.areas[:]
        r.shuffle(area_cycle)
        s.courses = []
        for j in range(C):
            load = min(len(p.courses) for p in s.faculty)
            inst = r.choice([p for p in s.faculty if len(p.courses) <= load + 1])
            x = r.random()
            term = terms[1] if x < 0.75 else terms[0] if x < 0.95 else terms[2]
            c = self.add_course(s, r, area_cycle[j % len(area_cycle)], s.prefix, s.dept, inst,
                                term[0])
            cc = '%s%d' % (s.prefix.lower(), c.num)
            if r.random() < 0.25:
                base = (s.home_style % inst.login) + r.choice(
                    ['%s/index.html', 'courses/%s.html', 'teaching/%s/index.html', '%s.html']) % cc
            else:
                base = s.scheme.format(c=cc, instr=s.instr_dir, term=term[1])
            if base in s.by_path:
                base = '/courses/%s-%s/index.html' % (cc, term[1])
            self.course_pages(s, c, base, r)
            s.courses.append(c)
        # Students (some of them TAs), staff, former students (no page).
        s.students = []
        for _ in range(S):
            p = self.person(r, s, 'student', s.used)
            p.areas = [r.choice(self.areas)]
            p.advisor = r.choice(s.faculty)
            p.advisor.students.append(p)
            self.personal_pages(s, p, s.home_style % p.login, r,
                                r.choices([0, 1, 2, 3], [0.4, 0.3, 0.2, 0.1])[0])
            s.students.append(p)
        for c in s.courses:
            for p in r.sample(s.students, min(len(s.students), r.choices([0, 1, 2], [0.3, 0.5, 0.2])[0])):
                c.tas.append(p)
                p.ta_for.append(c)
        s.alumni = [self.person(r, s, 'student', s.used) for _ in range(max(2, S // 8))]
        s.former = [self.person(r, s, 'faculty', s.used) for _ in range(max(1, F // 8))]
        s.staff = []
        for _ in range(St):
            p = self.person(r, s, 'staff', s.used)
            p.title = r.choice(['Graduate Program Coordinator', 'Undergraduate Advisor',
                                'Department Administrator', 'Systems Administrator',
                                'Administrative Assistant', 'Payroll and Benefits',
                                'Receptionist', 'Computer Operator', 'Instructional Program Manager'])
            p.page = add('/staff/%s.html' % p.login, 'staff', 'staff', p.name, person=p)
            s.staff.append(p)
        # Research projects.
        s.projects = []
        for j in range(P):
            acr = ''.join(r.choice('ABCDEFGHIKLMNOPRSTUVWXYZ') for _ in range(r.randint(3, 5)))
            while '/research/projects/%s/index.html' % acr.lower() in s.by_path:
                acr += 'X'
            area = r.choice(self.areas)
            base = r.choice(['/research/projects/%s/', '/research/projects/%s/', '/projects/%s/',
                             '/~%s/']) % acr.lower()
            if any(q.startswith(base) for q in s.by_path):
                base = '/research/projects/%s%d/' % (acr.lower(), j)
            pg = add(base + 'index.html', 'project', 'project', acr, area=area, acr=acr)
            members = r.sample(s.faculty, min(len(s.faculty), r.randint(1, 2))) + \
                r.sample(s.students, min(len(s.students), r.randint(1, 4)))
            pg.m['members'] = members
            for p in members:
                p.projects.append(pg)
            pg.m['subs'] = [add(base + fn, 'other', 'proj-sub', fn[:-5], project=pg, what=fn[:-5])
                            for fn in r.sample(['people.html', 'papers.html', 'software.html',
                                                'demo.html', 'related.html'],
                                               r.choices([0, 1, 2, 3, 4], [0.2, 0.25, 0.25, 0.2, 0.1])[0])]
            s.projects.append(pg)
        # News.
        s.news = []
        for j in range(Nw):
            y = self.year - (1 if r.random() < 0.4 else 0)
            mo = r.randint(1, 12)
            s.news.append(add('/news/%d-%02d-%d.html' % (y, mo, j + 1), 'department.news', 'news',
                              'News', date='%s %d, %d' % (MONTHS[mo - 1], r.randint(1, 28), y),
                              what=r.choice(['award', 'colloquium', 'grant', 'hire', 'registration',
                                             'building', 'graduation', 'paper', 'alumni',
                                             'newcourse', 'software', 'visit'])))
        s.news.sort(key=lambda n: n.path)
        # Everything else, to the site's budget: technical reports,
        # colloquium announcements, facilities documentation, other pages.
        if len(s.pages) > B:
            sys.exit('generate.py: --pages %d is too small for --hosts %d (department site %s '
                     'needs %d pages, has %d)' % (self.N, self.H, s.host, len(s.pages), B))
        s.misc = {'tr': [], 'colloq': [], 'facil': [], 'misc': []}
        j = 0
        while len(s.pages) < B:
            j += 1
            kind = r.choices(['tr', 'colloq', 'facil', 'misc'], [0.35, 0.25, 0.2, 0.2])[0]
            if kind == 'tr':
                path = '/techreports/%d/tr%d-%02d.html' % (self.year - r.randint(0, 3), 1000 + j,
                                                           r.randint(1, 99))
            elif kind == 'colloq':
                path = '/colloquia/talk%d.html' % j
            elif kind == 'facil':
                path = '/facilities/%s-%d.html' % (r.choice(['printers', 'accounts', 'software', 'labs',
                                                            'email', 'backups', 'network', 'x11',
                                                            'modems', 'policies']), j)
            else:
                path = '/misc/%s-%d.html' % (r.choice(['acm', 'faq', 'softball', 'picnic', 'wics',
                                                       'jobs', 'alumni', 'newsletter', 'library',
                                                       'awards', 'history', 'parking']), j)
            if path in s.by_path:
                continue
            s.misc[kind].append(add(path, 'other', 'd-' + kind, kind, area=r.choice(self.areas)))
        s.nav = [(idx['home'], 'Home'), (idx['people'], 'People'), (idx['research'], 'Research'),
                 (idx['instr'], s.instr_label), (idx['news'], 'News'),
                 (idx['tr'], r.choice(['Technical Reports', 'Tech Reports', 'Publications'])),
                 (idx['colloq'], r.choice(['Colloquia', 'Seminars', 'Talks'])),
                 ('/cgi-bin/search', 'Search'),
                 (r.choice(['/calendar/', '/whatsnew.html', '/events/', '/jobs.html']),
                  r.choice(['Calendar', "What's New", 'Events', 'Jobs'])),
                 (s.central.home, place)]
        s.robots = self.robots_variant(s, r)

    def link_hosts(self):
        """Links every small host from a page that is reachable from the
        seeds: a department page (faculty, student, project, news, the list
        of other departments) or a page of a host linked before it (so some
        hosts sit several hosts away from the seeds)."""
        r = self.rng
        pool = collections.defaultdict(list)
        for d in self.depts:
            pool['faculty'].extend(p.page for p in d.faculty)
            pool['student'].extend(p.page for p in d.students)
            pool['project'].extend(d.projects)
            pool['news'].extend(d.news)
            pool['depts'].append(d.idx['depts'])
            pool['misc'].extend(d.misc['misc'])
        for d in self.depts:
            d.central.home.ext.append((d.home, d.dept))
        refs = {'uni-dept': ['depts', 'depts', 'faculty'], 'uni-person': ['faculty', 'student'],
                'lab': ['project', 'faculty'], 'company': ['student', 'project', 'misc'],
                'isp': ['student', 'student', 'misc'], 'conf': ['faculty', 'news', 'project'],
                'hobby': ['student', 'misc'], 'uni-central': ['faculty', 'depts']}
        chain = []
        order = self.small[self.D:]
        order = order[:]
        r.shuffle(order)
        for s in order:
            text = self.anchor_for(s)
            same = [d for d in self.depts if d.uni_k == s.uni_k]
            if same:
                same[0].idx['about'].ext.append((s.home, text))
            n = r.choice([1, 1, 2, 2, 3])
            for j in range(n):
                if chain and r.random() < (0.25 if j == 0 else 0.5):
                    ref = r.choice(chain)
                else:
                    ref = r.choice(pool[r.choice(refs[s.kind])])
                if ref.site is not s and all(t is not s.home for t, _ in ref.ext):
                    ref.ext.append((s.home, text))
            chain.extend(p for p in s.pages if p.kind in (
                'person', 'sd-people', 'isp-home', 'hobby-home', 'company-home', 'lab-home',
                'conf-home', 'hobby-page'))

    def anchor_for(self, s):
        if s.kind == 'uni-person' or (s.kind == 'isp' and s.home.kind == 'person'):
            return s.home.m['person'].name
        if s.kind == 'uni-dept':
            return '%s at %s' % (s.dept, self.uni(s.uni_k)[0])
        return s.title

    def make_dead_hosts(self):
        r = random.Random('dead:%d' % self.seed)
        kinds = [k for k, _ in SMALL_KINDS]
        weights = [0.35, 0.15, 0.1, 0.08, 0.14, 0.08, 0.05, 0.05]
        seen = set(self.hosts)
        while len(self.dead_hosts) < max(300, 3 * self.H):
            host = self.small_host_name(r.choices(kinds, weights)[0], r)[0]
            if host not in seen:
                seen.add(host)
                self.dead_hosts.append(host)

    # ---- links that lead nowhere -------------------------------------------

    def is_live(self, url):
        u = url[7:]
        host, _, path = u.partition('/')
        path = '/' + path.partition('?')[0]
        s = self.hosts.get(host.lower())
        if s is None:
            return False
        bp = s.by_path
        return (path in bp or (path.endswith('/') and path + 'index.html' in bp) or
                path + '/index.html' in bp)

    def dead_url(self, r, kind=None):
        """An absolute URL of a page that does not exist: on a host that is
        not served (most), or a page gone from a served host."""
        for _ in range(20):
            login = (r.choice(self.first)[0] + r.choice(self.last)).lower()
            if r.random() < 0.8:
                host = r.choice(self.dead_hosts)
            else:
                host = r.choice(self.small).host
            x = r.random()
            path = ('/' if x < 0.4 else '/~%s/' % login if x < 0.6 else
                    '/people/%s.html' % login if x < 0.7 else
                    '/pub/papers/%s%d.ps' % (login, r.randint(90, 97)) if x < 0.8 else
                    '/index.html' if x < 0.9 else '/%s/' % r.choice(['research', 'projects', 'www', 'home']))
            u = 'http://%s%s' % (host, path)
            if not self.is_live(u):
                return u
        return 'http://%s/gone.html' % r.choice(self.dead_hosts)

    def dead_local(self, site, r, what, base=None):
        """A path on `site` that does not exist (a graduated student, a
        paper never put up, last year's course, a CGI script)."""
        for _ in range(20):
            if what == 'person':
                p = (site.home_style if hasattr(site, 'home_style') else '/~%s/') % \
                    (r.choice(self.first)[0] + r.choice(self.last)).lower()
            elif what == 'paper':
                p = '%spapers/%s%d.ps%s' % (url_dir(canonical_path(r.choice(site.pages).path)),
                                            r.choice(self.last).lower(), r.randint(90, 97),
                                            r.choice(['', '', '.Z', '.gz']))
            elif what == 'file':
                p = '%s%s%d.%s' % (base or url_dir(canonical_path(r.choice(site.pages).path)),
                                   r.choice(['lec', 'notes', 'hw', 'sol', 'slides']), r.randint(1, 25),
                                   r.choice(['ps', 'ps', 'pdf', 'txt', 'html', 'dvi']))
            elif what == 'cgi':
                p = r.choice(['/cgi-bin/finger?%s' % r.choice(self.last).lower(), '/cgi-bin/search',
                              '/cgi-bin/counter.pl', '/cgi-bin/imagemap/nav', '/cgi-bin/guestbook.pl'])
            else:
                p = '/%s/%s.html' % (r.choice(['old', 'www', 'tmp', 'misc', 'info', 'new']),
                                     r.choice(self.last).lower())
            if not self.is_live('http://%s%s' % (site.host, p)):
                return p
        return '/nonexistent/%d.html' % r.randint(1, 10 ** 6)

    # ---- render ------------------------------------------------------------

    def render(self, w):
        for s in self.sites:
            for pg in s.pages:
                ctx = Ctx(self, pg)
                ctx.ext_done = False
                fn = getattr(self, 'r_' + pg.kind.replace('-', '_'))
                title, body = fn(ctx, pg)
                if pg.kind not in ('course', 'material') and ctx.r.random() < NOISE_P.get(pg.kind, 0.1):
                    body += '<p>%s\n' % esc(ctx.r.choice(NOISE_SENT))
                if pg.ext and not ctx.ext_done:
                    body += self.ext_block(ctx, pg, 'Links')
                doc = self.wrap(ctx, pg, title, body)
                pg.links = ctx.links
                w.write(s.host, pg.path, doc)
            w.write(s.host, '/robots.txt', self.robots(s))

    def robots(self, s):
        v = s.robots
        if v == 1:
            return 'User-agent: *\nDisallow: /private/\n'
        if v == 2:
            return ('# robots.txt for %s\nUser-agent: *\nDisallow: /cgi-bin/\nDisallow: /private/\n'
                    'Disallow: /tmp/\n' % s.host)
        if v == 3:
            return ('User-agent: EmailSiphon\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n'
                    'Disallow: /cgi-bin/\n')
        if v == 4:
            return 'user-agent: *\r\ndisallow: /private/   # internal\r\n'
        if v == 5:
            return 'User-agent: *\nDisallow: /cgi-bin/\n'
        if v == 6:
            return '# no restrictions\nUser-agent: *\nDisallow:\n'
        return 'User-agent: *\nDisallow:\n'

    # ---- templates -----------------------------------------------------

    def wrap(self, ctx, pg, title, body):
        s, kind = ctx.site, pg.kind
        if kind in ('person', 'person-sub'):
            inner = self.chrome_person(ctx, pg.m['person'], body)
        elif kind in ('course', 'material'):
            inner = self.chrome_course(ctx, pg.m['course'], pg, body)
        elif kind in ('project', 'proj-sub'):
            proj = pg if kind == 'project' else pg.m['project']
            items = [ctx.a(proj, proj.m['acr'] + ' home')] + [ctx.a(x, x.title.capitalize())
                                                              for x in proj.m['subs']]
            inner = '<p align="center">[ %s ]</p>\n<hr>\n%s' % (' | '.join(items), body)
            inner = self.chrome_site(ctx, inner)
        else:
            inner = self.chrome_site(ctx, body)
        return page_doc(s, title, inner, ctx.r)

    def nav_links(self, ctx, images=False):
        out = []
        for t, text in ctx.site.nav:
            if images:
                out.append(ctx.a(t, '<img src="/icons/%s.gif" alt="%s" border="0">'
                                 % (slug(text), esc(text))))
            else:
                out.append(ctx.a(t, esc(text)))
        return out

    def footer(self, ctx):
        s, r = ctx.site, ctx.r
        if s.kind == 'dept':
            return ('<hr>\n<address>%s<br>\n%s, %s<br>\n%s, %s<br>\nTelephone %s-%04d &nbsp; '
                    'Fax %s-%04d<br>\n%s</address>\n<font size="-1">Last modified: %s%s</font>\n'
                    % (esc(s.dept), esc(s.uni_title), esc(s.building), esc(s.street), esc(s.city),
                       s.phone, 1000 + hash_int(s.host) % 9000, s.phone, 1000 + hash_int(s.host, 1) % 9000,
                       ctx.mailto('webmaster@' + mail_host(s)),
                       s.modified, ('<br>&copy; 199%d Board of Regents' % r.choice([5, 6, 7]))
                       if s.style % 2 == 0 else ''))
        return ('<hr>\n<font size="-1">%s &middot; %s &middot; updated %s</font>\n'
                % (esc(s.title), ctx.mailto('info@' + s.host.split('.', 1)[-1], 'Contact'), s.modified))

    def chrome_site(self, ctx, body):
        s = ctx.site
        if not s.nav:
            return body + self.footer(ctx)
        st = s.style
        if st == 0:          # navigation column in a layout table
            nav = '<br>\n'.join(self.nav_links(ctx))
            return ('<table width="100%%" border="0" cellspacing="0" cellpadding="6">\n<tr>'
                    '<td valign="top" width="150" bgcolor="#ccccff"><img src="/images/logo.gif" '
                    'alt="%s"><p>\n<font size="2">%s</font></td>\n<td valign="top">'
                    '<font face="helvetica,arial" size="+1"><b>%s</b></font><hr>\n%s\n</td></tr>\n'
                    '</table>\n%s' % (esc(s.title), nav, esc(s.title), body, self.footer(ctx)))
        if st == 1:          # a text bar on top and at the bottom
            top = ' | '.join(self.nav_links(ctx))
            return ('<center><img src="/images/banner.gif" alt="%s" width="468" height="60"><br>\n'
                    '[ %s ]</center>\n<hr>\n%s\n<hr>\n<center>[ %s ]</center>\n%s'
                    % (esc(s.title), top, body, ' | '.join(self.nav_links(ctx)), self.footer(ctx)))
        if st == 2:          # image buttons: the anchor text is an ALT text only
            return ('<center>%s</center>\n<h2>%s</h2>\n%s\n<p><font size="-1">%s</font>\n%s'
                    % (' '.join(self.nav_links(ctx, images=True)), esc(s.title), body,
                       ' - '.join(self.nav_links(ctx)), self.footer(ctx)))
        return ('<table border="0" width="100%%"><tr><td bgcolor="#000080"><font color="#ffffff" '
                'size="+2"><b>%s</b></font></td></tr>\n<tr><td><font size="-1">%s</font></td></tr>'
                '</table>\n%s\n%s' % (esc(s.title), ' &middot; '.join(self.nav_links(ctx)), body,
                                      self.footer(ctx)))

    def chrome_person(self, ctx, p, body):
        s, r = ctx.site, ctx.r
        st = hash_int(s.host, p.login) % 4
        own = [ctx.a(p.page, 'Home')] + [ctx.a(x, x.m['what'].capitalize()) for x in p.extra]
        back = []
        if s.home is not None and s.home is not p.page:
            back.append(ctx.a(s.home, esc(getattr(s, 'dept', '') or s.title)))
        if s.kind == 'dept':
            back.append(ctx.a(s.idx['people'], 'People'))
        addr = '%s@%s' % (p.login, mail_host(s))
        if st == 0:
            return ('%s\n<hr>\n%s<br>\n<address>%s</address>\n<p>%s\n'
                    % (body, ' | '.join(back + own[1:]), ctx.mailto(addr),
                       ctx.a(self.dead_url(r), 'My old home page')))
        if st == 1:
            return ('<center>%s</center>\n%s\n<hr>\n<i>Last updated %s by %s</i>\n%s'
                    % (' - '.join(own), body, s.modified, ctx.mailto(addr, esc(p.name)),
                       ('<br>' + ' | '.join(back)) if back else ''))
        if st == 2:
            return ('<table border="0" cellpadding="8"><tr><td valign="top" width="120">'
                    '<img src="me.gif" alt="[photo]" width="100"><br>%s</td>\n<td valign="top">%s'
                    '</td></tr></table>\n<hr>%s\n'
                    % ('<br>'.join(own + back), body, ctx.mailto(addr)))
        return ('%s\n<p><img src="/icons/construction.gif" alt="Under construction"> This page is '
                'always under construction.\n<p>%s\n<p><img src="http://counter.digits-nowhere.test/'
                'count.cgi?df=%s.dat" alt="counter"> visitors since %s. %s\n'
                % (body, ' | '.join(own + back), p.login, s.modified,
                   ctx.a('/cgi-bin/guestbook.pl?%s' % p.login, 'Sign my guestbook')))

    def chrome_course(self, ctx, c, pg, body):
        s, r = ctx.site, ctx.r
        items = [ctx.a(c.page, '%s Home' % esc(c.code()))]
        for m in c.materials:
            items.append(ctx.a(m, esc(material_anchor(ctx, m))))
        if r.random() < 0.3:
            items.append(ctx.a(self.dead_local(s, r, 'file', c.dir()), esc(ctx.form('lecture'))))
        bar = '<p>[ %s ]\n<hr>\n' % ' | '.join(items)
        foot = '<hr>\n%s' % ctx.mailto('%s%d@%s' % (c.prefix.lower(), c.num, mail_host(s)))
        if c.instructor and c.instructor.page:
            foot += ' &middot; ' + ctx.a(c.instructor.page, esc(c.instructor.name))
        if s.kind == 'dept' and s.style % 2 == 1 and '/~' not in c.page.path:
            return self.chrome_site(ctx, bar + body + foot)
        return bar + body + foot + (' &middot; ' + ctx.a(s.home, esc(getattr(s, 'dept', s.title)))
                                    if s.home is not None else '')

    def ext_block(self, ctx, pg, heading):
        ctx.ext_done = True
        if not pg.ext:
            return ''
        return '<h3>%s</h3>\n<ul>\n%s</ul>\n' % (heading, ''.join(
            '<li>%s\n' % ctx.a(t, esc(text)) for t, text in pg.ext))

    def dead_list(self, ctx, n, local=None):
        """n links that lead nowhere, with plausible anchor texts."""
        r, out = ctx.r, []
        for _ in range(n):
            if local and r.random() < 0.5:
                u = self.dead_local(ctx.site, r, local)
            else:
                u = self.dead_url(r)
            host = u[7:].split('/')[0] if u.startswith('http://') else 'Old page'
            text = r.choice([host, host, '%s %s' % (r.choice(self.first), r.choice(self.last)),
                             r.choice(['My old page', 'Cool site', 'Mirror', 'Home page',
                                       'Research group', 'Friends', 'Fun stuff', 'Archive'])])
            out.append(ctx.a(u, esc(text)))
        return out

    # ---- department pages ----------------------------------------------------

    def r_dept_home(self, ctx, pg):
        s, r, idx = ctx.site, ctx.r, ctx.site.idx
        news = s.news[-3:]
        secs = [(idx['people'], 'People'), (idx['research'], 'Research'),
                (idx['instr'], s.instr_label), (idx['admissions'], 'Graduate Admissions'),
                (idx['undergrad'], 'Undergraduate Program'), (idx['tr'], 'Technical Reports'),
                (idx['colloq'], 'Colloquia'), (idx['facil'], 'Computing Facilities'),
                (idx['depts'], 'Other CS Departments'), (idx['about'], 'About the Department'),
                (idx['directions'], 'How to get here')]
        body = ('<h1>%s</h1>\n<p>Welcome to the Department of %s at %s. The department has %d faculty, '
                'about %d graduate students and offers B.S., M.S. and Ph.D. degrees.\n<p>%s\n<ul>\n%s</ul>\n'
                '<h3>%s</h3>\n<ul>\n%s</ul>\n<p>%s | %s\n'
                % (esc(s.dept), esc(s.dept), esc(s.uni_title), len(s.faculty),
                   len(s.students) + len(s.alumni),
                   r.choice(['Information about the department:', 'Start here:', 'Contents:']),
                   ''.join('<li>%s\n' % ctx.a(t, x) for t, x in secs),
                   r.choice(["What's New", 'Recent News', 'Highlights']),
                   ''.join('<li>%s: %s\n' % (n.m['date'], ctx.a(n, esc(news_headline(self, n))))
                           for n in news),
                   ctx.a(s.central.home, esc(s.uni_title)),
                   ctx.a('/cgi-bin/search', 'Search this server')))
        return s.title, body

    def r_people(self, ctx, pg):
        s, idx, r = ctx.site, ctx.site.idx, ctx.r
        body = ('<h1>People</h1>\n<ul>\n<li>%s\n<li>%s\n<li>%s\n<li>Emeritus faculty: %s\n'
                '<li>%s</ul>\n<h3>Visitors</h3>\n<p>%s\n'
                % (ctx.a(idx['faculty'], 'Faculty'), ctx.a(idx['students'], 'Graduate Students'),
                   ctx.a(idx['staff'], 'Staff'),
                   ', '.join('%s %s' % (r.choice(self.first), r.choice(self.last)) for _ in range(3)),
                   ctx.a(self.dead_local(s, r, 'cgi'), 'Finger a user'),
                   ', '.join(self.dead_list(ctx, r.randint(1, 4)))))
        return 'People - ' + s.dept, body

    def r_faculty_index(self, ctx, pg):
        s, r = ctx.site, ctx.r
        rows = ''.join('<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n'
                       % (ctx.a(p.page, esc(p.name)), esc(p.title),
                          esc(', '.join(a[0] for a in p.areas))) for p in s.faculty)
        former = ''.join('<li>%s (now at %s)\n' % (ctx.a(self.dead_url(r), esc(p.name)),
                                                     esc(self.uni(r.choice(self.uni_pool))[0]))
                         for p in s.former)
        return 'Faculty', ('<h1>Faculty</h1>\n<table border="1" cellpadding="3">\n<tr><th>Name</th>'
                           '<th>Title</th><th>Research</th></tr>\n%s</table>\n<h3>Former faculty</h3>'
                           '\n<ul>\n%s</ul>\n' % (rows, former))

    def r_student_index(self, ctx, pg):
        s, r = ctx.site, ctx.r
        everyone = [(p.name, p.page) for p in s.students] + \
            [(p.name, self.dead_local(s, r, 'person')) for p in s.alumni]
        everyone.sort(key=lambda x: x[0].split()[-1])
        return 'Graduate Students', (
            '<h1>Graduate Students</h1>\n<p>Students with home pages on this server. (Some pages '
            'may have moved.)\n<ul>\n%s</ul>\n' % ''.join('<li>%s\n' % ctx.a(t, esc(n))
                                                          for n, t in everyone))

    def r_staff_index(self, ctx, pg):
        s, r, idx = ctx.site, ctx.r, ctx.site.idx
        lis = ''.join('<li>%s, %s\n' % (ctx.a(p.page, esc(p.name)), esc(p.title)) for p in s.staff)
        priv = ('<p>%s (restricted)\n' % ctx.a(idx['private'], 'Internal information')) if s.private else ''
        return 'Staff', ('<h1>Staff</h1>\n<ul>\n%s</ul>\n<p>Questions about registration and '
                         'enrollment go to the undergraduate advisor.\n%s' % (lis, priv))

    def r_research_index(self, ctx, pg):
        s, r = ctx.site, ctx.r
        areas = []
        for a in self.areas[:8]:
            who = [p for p in s.faculty if a in p.areas]
            if who:
                areas.append('<dt><b>%s</b>\n<dd>%s %s\n' % (
                    esc(a[0]), esc(cap(sentence(r, a, RESEARCH_SENT))),
                    ', '.join(ctx.a(p.page, esc(p.name)) for p in who)))
        projs = ''.join('<li>%s: %s\n' % (ctx.a(p, p.m['acr']), esc(p.m['area'][0])) for p in s.projects)
        old = ''.join('<li>%s\n' % ctx.a(self.dead_local(s, r, 'other'), 'Project %s (completed)' % ''.join(
            r.choice('ABCDEFGHKLMPRSTW') for _ in range(4))) for _ in range(2))
        return 'Research', ('<h1>Research</h1>\n<dl>\n%s</dl>\n<h2>Projects</h2>\n<ul>\n%s%s</ul>\n'
                            '<p>See also the %s.\n' % (''.join(areas), projs, old,
                                                       ctx.a(s.idx['tr'], 'technical reports')))

    def r_instr_index(self, ctx, pg):
        s, r, idx = ctx.site, ctx.r, ctx.site.idx
        terms = idx['terms']
        reg = s.central.by_path.get('/registrar/schedule.html')
        lis = ['<li>%s\n' % ctx.a(t, esc(t.title)) for t in terms]
        lis.append('<li>%s\n' % ctx.a(idx['catalog'], r.choice(['Course Descriptions', 'Catalog of Courses',
                                                                  'Course Catalog'])))
        if idx['tas']:
            lis.append('<li>%s\n' % ctx.a(idx['tas'], 'TA Assignments'))
        if reg:
            lis.append('<li>%s (Registrar)\n' % ctx.a(reg, 'Timetable of Classes'))
        lis.append('<li>%s\n' % ctx.a('/%s/old/' % s.instr_dir, 'Previous semesters'))
        lis.append('<li>%s\n' % ctx.a(idx['undergrad'], 'Undergraduate Program'))
        lis.append('<li>%s\n' % ctx.a('/cgi-bin/evaluations', 'Course evaluations'))
        direct = ''
        if hash_int(s.host, 'direct') % 3 == 0:
            cur = [c for c in s.courses if c.term == terms[1].m['term']]
            direct = '<h3>%s</h3>\n<ul>\n%s</ul>\n' % (
                r.choice(['Class Web Pages', 'Course Home Pages', 'On-line Course Information']),
                ''.join('<li>%s\n' % ctx.a(c.page, '%s %s' % (esc(c.code(r)), esc(c.title)))
                        for c in cur[:len(cur) // 2]))
        return s.instr_label, ('<h1>%s</h1>\n<p>The department offers undergraduate and graduate '
                               'instruction in all areas of computer science.\n<ul>\n%s</ul>\n%s'
                               % (esc(s.instr_label), ''.join(lis), direct))

    def r_term_list(self, ctx, pg):
        s, r = ctx.site, ctx.r
        term = pg.m['term']
        rows = []
        mine = [c for c in s.courses if c.term == term]
        extra = r.randint(3, 10)
        for c in mine:
            rows.append((c.num, ctx.a(c.page, esc(c.code(r))), esc(c.title),
                         ctx.a(c.instructor.page, esc(c.instructor.last))))
        for _ in range(extra):
            num = r.randint(100, 899)
            a = r.choice(self.areas)
            if r.random() < 0.6:
                code = ctx.a('/courses/%s%d-%s/' % (s.prefix.lower(), num, r.choice(['f94', 'sp95', 'f95'])),
                             '%s %d' % (s.prefix, num))
            else:
                code = '%s %d' % (s.prefix, num)
            rows.append((num, code, esc(a[0]), esc(r.choice(self.last))))
        rows.sort(key=lambda x: x[0])
        return pg.title, ('<h1>%s</h1>\n<p>Times and rooms are in the %s.\n<table border="1">\n'
                          '<tr><th>Course</th><th>Title</th><th>Instructor</th></tr>\n%s</table>\n'
                          % (esc(pg.title), 'Timetable', ''.join(
                              '<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n' % x[1:] for x in rows)))

    def r_catalog(self, ctx, pg):
        s, r = ctx.site, ctx.r
        items = []
        for c in s.courses:
            link = ctx.a(c.page, esc(c.code())) if r.random() < 0.4 else esc(c.code())
            items.append((c.num, '<dt><b>%s %s</b> (%d cr.)\n<dd>%s %s: %s %d.\n'
                          % (link, esc(c.title), r.choice([3, 3, 4]), esc(course_description(r, c)),
                             ctx.form('prerequisite'), s.prefix, max(100, c.num - r.randint(50, 200)))))
        for _ in range(max(3, len(s.courses) // 2)):
            a = r.choice(self.areas)
            num = r.randint(100, 899)
            items.append((num, '<dt><b>%s %d %s</b>\n<dd>%s\n' % (s.prefix, num, esc(a[0]),
                                                                  esc(cap(sentence(r, a, DESC_SENT))))))
        items.sort(key=lambda x: x[0])
        return pg.title, '<h1>Course Descriptions</h1>\n<dl>\n%s</dl>\n' % ''.join(x[1] for x in items)

    def r_ta_list(self, ctx, pg):
        s, r = ctx.site, ctx.r
        rows = ''.join('<tr><td>%s</td><td>%s</td></tr>\n' % (
            ctx.a(c.page, esc(c.code(r))) if r.random() < 0.3 else esc(c.code()),
            ', '.join(ctx.a(p.page, esc(p.name)) for p in c.tas) or 'TBA') for c in s.courses)
        return pg.title, ('<h1>%s</h1>\n<p>%s for this semester. %s are posted on the course pages.\n'
                          '<table border="1">\n%s</table>\n' % (esc(pg.title), esc(ctx.form('ta')),
                                                              esc(ctx.form('office')), rows))

    def r_news_index(self, ctx, pg):
        s, r = ctx.site, ctx.r
        lis = ''.join('<li>%s - %s\n' % (n.m['date'], ctx.a(n, esc(news_headline(self, n))))
                      for n in reversed(s.news))
        return 'News', ('<h1>Department News</h1>\n<ul>\n%s</ul>\n<p>%s\n'
                        % (lis, ctx.a(self.dead_local(s, r, 'other'), 'Older news')))

    def r_news(self, ctx, pg):
        s, r = ctx.site, ctx.r
        what = pg.m['what']
        f = r.choice(s.faculty)
        st = r.choice(s.students)
        a = r.choice(self.areas)
        if what == 'newcourse' and s.courses:
            c = r.choice(s.courses)
            text = ('A new %s, %s, will be offered next semester by %s. It covers %s.'
                    % (ctx.form('course').lower(), esc(c.title), ctx.a(f.page, esc(f.name)),
                       esc(join_and(r.sample(c.area[1] or ['the basics'], min(3, len(c.area[1]) or 1))))))
        elif what == 'registration':
            text = ('Registration for next semester begins soon. Check the %s and see your advisor '
                    'before you enroll.' % ctx.a(s.idx['terms'][2], 'list of courses'))
        else:
            tmpl = NEWS_TEXT[what]
            t = area_terms(a)
            text = tmpl.format(f=ctx.a(f.page, esc(f.name)) if '{f}' in tmpl else '',
                               s=ctx.a(st.page, esc(st.name)) if '{s}' in tmpl else '',
                               t0=esc(t[0]), t1=esc(t[1 % len(t)]), tl=esc(t[-1]))
        more = ''
        if r.random() < 0.5:
            more = '<p>More information: %s\n' % ', '.join(self.dead_list(ctx, 1))
        ext = self.ext_block(ctx, pg, 'See also')
        return news_headline(self, pg), ('<h2>%s</h2>\n<p><i>%s</i>\n<p>%s\n%s%s<p>%s\n'
                                         % (esc(news_headline(self, pg)), pg.m['date'], text, more, ext,
                                            ctx.a(s.idx['news'], 'All news')))

    def r_tr_index(self, ctx, pg):
        s, r = ctx.site, ctx.r
        lis = ''.join('<li>%s\n' % ctx.a(t, esc(pub_title(r, t.m['area']))) for t in s.misc['tr'])
        old = ''.join('<li>TR-%d-%02d: %s [%s]\n' % (
            self.year - r.randint(2, 6), r.randint(1, 40), esc(pub_title(r, r.choice(self.areas))),
            ctx.a(self.dead_local(s, r, 'paper'), 'postscript')) for _ in range(r.randint(5, 15)))
        return 'Technical Reports', ('<h1>Technical Reports</h1>\n<p>Abstracts are on-line from %d on.'
                                     '\n<ul>\n%s%s</ul>\n' % (self.year - 1, lis, old))

    def r_d_tr(self, ctx, pg):
        s, r = ctx.site, ctx.r
        a = pg.m['area']
        authors = r.sample(s.faculty + s.students, min(3, r.randint(1, 3)))
        t = pub_title(r, a)
        return t, ('<h2>%s</h2>\n<p>%s\n<p><b>Abstract.</b> %s %s %s\n<p>%s | %s\n'
                   % (esc(t), ', '.join(ctx.a(p.page, esc(p.name)) for p in authors),
                      esc(cap(sentence(r, a, RESEARCH_SENT))), esc(cap(sentence(r, a, RESEARCH_SENT))),
                      esc(cap(sentence(r, a, DESC_SENT))),
                      ' | '.join([ctx.a(self.dead_local(s, r, 'paper'), x)
                                  for x in ('PostScript', 'compressed PostScript', 'DVI')[:r.randint(1, 3)]]),
                      ctx.a(s.idx['tr'], 'All reports'))
                   + '<p>Related reports: %s\n' % ', '.join(
                       ctx.a(self.dead_local(s, r, 'paper'), 'TR-%d-%02d' % (self.year - r.randint(1, 5),
                                                                               r.randint(1, 40)))
                       for _ in range(r.randint(1, 3))))

    def r_colloq_index(self, ctx, pg):
        s, r = ctx.site, ctx.r
        lis = ''.join('<li>%s\n' % ctx.a(t, 'Talk %d' % (i + 1)) for i, t in enumerate(s.misc['colloq']))
        return 'Colloquia', ('<h1>Colloquium Series</h1>\n<p>Talks are on Thursdays at 4:00 in %s. '
                             'Refreshments at 3:45.\n<ul>\n%s</ul>\n<p>%s\n'
                             % (esc(s.building), lis, ctx.a(self.dead_local(s, r, 'other'), 'Past talks')))

    def r_d_colloq(self, ctx, pg):
        s, r = ctx.site, ctx.r
        a = pg.m['area']
        who = '%s %s' % (r.choice(self.first), r.choice(self.last))
        k = r.choice(self.uni_pool)
        return 'Colloquium', ('<h2>%s</h2>\n<p><b>%s</b>, %s\n<p>%s, 4:00 pm, %s\n<p>%s %s\n<p>Host: %s\n'
                              % (esc(pub_title(r, a)), esc(who), ctx.a(self.dead_url(r), esc(self.uni(k)[0])),
                                 '%s %d' % (MONTHS[r.randrange(12)], r.randint(1, 28)), esc(s.building),
                                 esc(cap(sentence(r, a, RESEARCH_SENT))),
                                 esc(cap(sentence(r, a, RESEARCH_SENT))),
                                 ctx.a(r.choice(s.faculty).page, 'faculty host'))
                              + '<p>%s | %s\n' % (ctx.a(self.dead_local(s, r, 'file'), 'Slides'),
                                                  ctx.a(self.dead_local(s, r, 'other'), 'Previous talk')))

    def r_facil_index(self, ctx, pg):
        s, r = ctx.site, ctx.r
        lis = ''.join('<li>%s\n' % ctx.a(t, esc(t.path.split('/')[-1][:-5].split('-')[0].capitalize()))
                      for t in s.misc['facil'])
        return 'Computing Facilities', (
            '<h1>Computing Facilities</h1>\n<p>The department operates %s, %s and %s, connected by '
            'Ethernet and FDDI.\n<ul>\n%s</ul>\n' % (r.choice(MACHINES), r.choice(MACHINES),
                                                     r.choice(MACHINES), lis))

    def r_d_facil(self, ctx, pg):
        s, r = ctx.site, ctx.r
        topic = pg.path.split('/')[-1][:-5].split('-')[0]
        return topic.capitalize(), (
            '<h2>%s</h2>\n<p>%s\n<p>%s\n<pre>\n%% %s\n</pre>\n<p>Problems? Send mail to %s.\n<p>%s\n'
            % (esc(topic.capitalize()), esc(FACIL_TEXT[hash_int(topic) % len(FACIL_TEXT)]),
               esc(r.choice(FACIL_TEXT)), r.choice(['lpr -Plw2 file.ps', 'quota -v', 'passwd',
                                                    'man xterm', 'setenv DISPLAY host:0']),
               ctx.mailto('lab@' + mail_host(s)), ctx.a(s.idx['facil'], 'Facilities'))
            + '<p>See also: %s\n' % ', '.join(
                ctx.a(self.dead_local(s, r, r.choice(['other', 'cgi', 'file'])),
                      r.choice(['man page', 'local guide', 'old instructions', 'FAQ', 'status']))
                for _ in range(r.randint(1, 3))))

    def r_d_misc(self, ctx, pg):
        s, r = ctx.site, ctx.r
        topic = pg.path.split('/')[-1][:-5].split('-')[0]
        title = MISC_TITLES.get(topic, topic.capitalize())
        ext = self.ext_block(ctx, pg, 'Links')
        return title, ('<h2>%s</h2>\n<p>%s\n<p>%s\n%s<p>%s\n'
                       % (esc(title), esc(r.choice(MISC_TEXT)), esc(r.choice(MISC_TEXT)), ext,
                          ', '.join(self.dead_list(ctx, r.randint(1, 5), 'other'))))

    def r_depts(self, ctx, pg):
        s, r = ctx.site, ctx.r
        lis = ['<li>%s\n' % ctx.a(d.home, esc('%s, %s' % (d.dept, d.uni_title)))
               for d in self.depts if d is not s]
        lis += ['<li>%s\n' % ctx.a(t, esc(text)) for t, text in pg.ext]
        ctx.ext_done = True
        for _ in range(r.randint(15, 35)):
            k = r.choice(self.uni_pool)
            lis.append('<li>%s\n' % ctx.a('http://www.cs.uni%d.test/' % k if r.random() < 0.7
                                          else self.dead_url(r), esc(self.uni(k)[0])))
        lis.sort(key=lambda x: re.sub('<[^>]*>', '', x))
        return pg.title, ('<h1>Computer Science Departments on the Web</h1>\n<p>An incomplete list. '
                          'Send additions to the webmaster.\n<ul>\n%s</ul>\n' % ''.join(lis))

    def r_about(self, ctx, pg):
        s, r = ctx.site, ctx.r
        misc = ''.join('<li>%s\n' % ctx.a(t, esc(MISC_TITLES.get(t.path.split('/')[-1][:-5].split('-')[0],
                                                                    'Information')))
                       for t in s.misc['misc'])
        ext = self.ext_block(ctx, pg, 'Related departments')
        return pg.title, ('<h1>About the Department</h1>\n<p>The %s was founded in 19%d. %s\n'
                          '<p>Department resources:\n<ul>\n%s</ul>\n%s'
                          % (esc(s.dept), r.randint(55, 75), esc(r.choice(MISC_TEXT)), misc, ext))

    def r_directions(self, ctx, pg):
        s, r = ctx.site, ctx.r
        return pg.title, ('<h2>How to get here</h2>\n<p>The department is in %s, %s. From the airport, '
                          'take a taxi or the campus bus. Visitor parking is available in Lot %d.\n'
                          '<p><img src="map.gif" alt="campus map">\n<p>%s\n'
                          % (esc(s.building), esc(s.street), r.randint(1, 80),
                             ctx.a(s.central.home, 'Campus information')))

    def r_admissions(self, ctx, pg):
        s, r = ctx.site, ctx.r
        return pg.title, ('<h1>Graduate Admissions</h1>\n<p>Applications for fall admission are due '
                          'January 15. We require GRE scores, three letters of recommendation and a '
                          'statement of purpose. Financial aid is available as research and teaching '
                          'assistantships.\n<p>%s | %s\n'
                          % (ctx.a(self.dead_local(s, r, 'other'), 'Application forms'),
                             ctx.mailto('gradadmissions@' + mail_host(s), 'Questions')))

    def r_undergrad(self, ctx, pg):
        s, r = ctx.site, ctx.r
        req = ', '.join('%s %d' % (s.prefix, n) for n in sorted(r.sample(range(100, 500), 6)))
        return pg.title, ('<h1>Undergraduate Program</h1>\n<p>Majors take %s and four electives. '
                          'See an advisor to plan your schedule.\n<p>%s\n'
                          % (req, ctx.a(s.idx['catalog'], 'Course descriptions')))

    def r_private(self, ctx, pg):
        s, r = ctx.site, ctx.r
        memo = s.by_path.get('/private/minutes.html')
        extra = ('<p>%s\n' % ctx.a(memo, 'Faculty meeting minutes')) if memo and memo is not pg else ''
        return pg.title, ('<h1>%s</h1>\n<p>These pages are for department members only.\n%s'
                          % (esc(pg.title), extra))

    def r_private_memo(self, ctx, pg):
        s, r = ctx.site, ctx.r
        return pg.title, ('<h1>Faculty Meeting Minutes</h1>\n<p>Present: %s.\n<p>Teaching assignments '
                          'for next year were discussed. Budget: see attached.\n'
                          % esc(', '.join(p.name for p in s.faculty[:6])))

    def r_staff(self, ctx, pg):
        s, r = ctx.site, ctx.r
        p = pg.m['person']
        duty = STAFF_DUTIES.get(p.title, 'general office support')
        return p.name, ('<h2>%s</h2>\n<p>%s<br>\nRoom %d %s<br>\nPhone %s-%04d<br>\n%s\n<p>Responsibilities:'
                        ' %s.\n<p>%s\n' % (esc(p.name), esc(p.title), r.randint(1000, 7999), esc(s.building),
                                           s.phone, r.randint(1000, 9999),
                                           ctx.mailto('%s@%s' % (p.login, mail_host(s))), esc(duty),
                                           ctx.a(s.idx['staff'], 'Staff list')))

    # ---- personal pages ----------------------------------------------------

    def r_person(self, ctx, pg):
        p = pg.m['person']
        if p.role == 'faculty':
            return self.faculty_page(ctx, pg, p)
        if p.role == 'student':
            return self.student_page(ctx, pg, p)
        return self.other_person_page(ctx, pg, p)

    def faculty_page(self, ctx, pg, p):
        s, r = ctx.site, ctx.r
        areas = p.areas or r.sample(self.areas, 2)
        dept = getattr(s, 'dept', '')
        uni = self.uni(s.uni_k)[0] if s.uni_k else ''
        he = r.choice(['He', 'She'])
        parts = ['<h1>%s</h1>\n<p>%s<br>\n%s<br>\n%s\n' % (
            esc(p.name),
            esc(p.title or r.choice(['Professor', 'Associate Professor', 'Assistant Professor'])),
            esc(dept), esc(uni))]
        parts.append('<p><img src="%s.gif" alt="%s" align="right">Office: %d %s<br>Phone: %s<br>E-mail: %s\n'
                     % (p.login, esc(p.first), r.randint(1000, 7999), esc(getattr(s, 'building', 'Hall')),
                        '(%03d) %03d-%04d' % (r.randint(201, 989), r.randint(200, 899), r.randint(0, 9999)),
                        ctx.mailto('%s@%s' % (p.login, mail_host(s)))))
        parts.append('<h2>Research</h2>\n<p>%s %s\n' % (esc(cap(sentence(r, areas[0], RESEARCH_SENT))),
                                                        esc(cap(sentence(r, areas[-1], RESEARCH_SENT)))))
        parts.append('<p>%s received the Ph.D. from %s in 19%d.\n'
                     % (he if r.random() < 0.5 else 'I',
                        ctx.a(self.dead_url(r), esc(self.uni(r.choice(self.uni_pool))[0])),
                        r.randint(70, 94)))
        # Teaching: the words of the topic, on a page that is not about a course.
        if p.courses or r.random() < 0.5:
            t = r.random()
            links = [ctx.a(c.page, '%s %s' % (esc(c.code(r)), esc(c.title)) if r.random() < 0.5
                           else esc(c.code(r))) for c in p.courses
                     if r.random() < 0.8 or s.kind != 'dept']
            old = ['%s %d' % (getattr(s, 'prefix', 'CS'), r.randint(100, 899))
                   for _ in range(r.randint(0, 3))]
            if t < 0.4:
                parts.append('<h2>Teaching</h2>\n<p>%s teaches %s. %s\n'
                             % (he, esc(join_and([a[0] for a in areas])),
                                ('This semester: ' + ', '.join(links) + '.') if links else ''))
            elif t < 0.75:
                parts.append('<h3>Courses taught</h3>\n<ul>\n%s</ul>\n'
                             % ''.join('<li>%s\n' % x for x in links + old))
            else:
                parts.append('<p>I have taught %s. %s\n' % (
                    esc(join_and(old or ['undergraduate courses'])),
                    ('Currently I am teaching ' + join_and(links) + '.') if links else ''))
        if p.projects:
            parts.append('<h3>Projects</h3>\n<ul>\n%s</ul>\n'
                         % ''.join('<li>%s\n' % ctx.a(x, x.m['acr']) for x in p.projects))
        if p.students:
            parts.append('<h3>Students</h3>\n<p>%s\n' % ', '.join(
                ctx.a(x.page, esc(x.name)) for x in p.students[:8]))
        pubs = ''.join('<li>%s. <i>%s</i>, %s. [%s]\n' % (
            esc(pub_title(r, r.choice(areas))), esc(venue(r, r.choice(areas))), 1990 + r.randint(0, 7),
            ctx.a(self.dead_local(s, r, 'paper'), 'ps')) for _ in range(r.randint(0, 5)))
        if pubs:
            parts.append('<h3>Selected Publications</h3>\n<ol>\n%s</ol>\n' % pubs)
        parts.append(self.ext_block(ctx, pg, r.choice(['Collaborators', 'Links', 'Related sites'])))
        dl = self.dead_list(ctx, r.choices([0, 1, 2, 3, 4], [0.1, 0.2, 0.3, 0.25, 0.15])[0], 'person')
        if dl:
            parts.append('<p>Other pages: %s\n' % ', '.join(dl))
        return p.name, ''.join(parts)

    def student_page(self, ctx, pg, p):
        s, r = ctx.site, ctx.r
        area = (p.areas or [r.choice(self.areas)])[0]
        parts = ['<h1>%s</h1>\n' % r.choice([esc(p.name), "%s's Home Page" % esc(p.first),
                                              'Welcome to my home page!'])]
        parts.append('<p>I am a %s student in %s at %s. ' % (
            r.choice(['first-year', 'second-year', 'third-year', 'Ph.D.', "Master's", 'graduate',
                      'senior undergraduate']), esc(getattr(s, 'dept', 'the department') or 'the department'),
            esc(self.uni(s.uni_k)[0] if s.uni_k else 'the university')))
        if p.advisor:
            parts.append('My advisor is %s. ' % ctx.a(p.advisor.page, esc(p.advisor.name)))
        parts.append('I work on %s.\n' % esc(join_and(r.sample(area[1].split(';'), 2))))
        if p.ta_for:
            parts.append('<p>This semester I am the %s for %s.\n' % (
                r.choice(['TA', 'Teaching Assistant', 'T.A.', 'grader']),
                join_and([ctx.a(c.page, esc(c.code(r))) for c in p.ta_for])))
        if r.random() < 0.35:     # courses I take: a hard negative
            cs = []
            for _ in range(r.randint(2, 4)):
                a = r.choice(self.areas)
                cs.append('%s %d: %s' % (getattr(s, 'prefix', 'CS'), r.randint(300, 899), a[0]))
            parts.append('<p>%s\n<ul>\n%s</ul>\n' % (
                r.choice(["Courses I'm taking this semester:", 'Classes this term:', 'Courses I took:',
                          'My schedule:']), ''.join('<li>%s\n' % esc(x) for x in cs)))
        parts.append('<p>In my spare time I enjoy %s.\n' % esc(join_and(r.sample(HOBBIES, r.randint(1, 3)))))
        parts.append(self.ext_block(ctx, pg, r.choice(['Cool links', 'Friends', 'Some of my favorite links',
                                                       'Links'])))
        dl = self.dead_list(ctx, r.choices([1, 2, 3, 4, 5, 6], [0.1, 0.2, 0.25, 0.2, 0.15, 0.1])[0], 'person')
        parts.append('<p>%s\n<ul>\n%s</ul>\n' % (r.choice(['Hot links:', 'Elsewhere:', 'Check these out:']),
                                                 ''.join('<li>%s\n' % x for x in dl)))
        return p.name, ''.join(parts)

    def other_person_page(self, ctx, pg, p):
        s, r = ctx.site, ctx.r
        parts = ['<center><h1>%s</h1></center>\n<p>Hi! I live in %s and work as a %s.\n<p>My interests: %s.\n'
                 % (r.choice(["%s's Homepage" % esc(p.first), esc(p.name), 'Welcome!']),
                    esc(r.choice(PLACE_A) + r.choice(PLACE_B)),
                    r.choice(['software engineer', 'consultant', 'teacher', 'system administrator',
                              'web designer', 'nurse', 'student']),
                    esc(join_and(r.sample(HOBBIES, 3))))]
        parts.append(self.ext_block(ctx, pg, 'My favorite links'))
        parts.append('<ul>\n%s</ul>\n' % ''.join('<li>%s\n' % x
                                                 for x in self.dead_list(ctx, r.randint(2, 6))))
        return p.name, ''.join(parts)

    def r_person_sub(self, ctx, pg):
        s, r = ctx.site, ctx.r
        p, what = pg.m['person'], pg.m['what']
        areas = p.areas or [r.choice(self.areas)]
        back = '<p>%s\n<p>%s\n' % (ctx.a(p.page, 'Back to my home page'), ' | '.join(
            self.dead_list(ctx, r.randint(1, 3), r.choice(['paper', 'other', 'file']))))
        if what == 'papers':
            items = ''.join('<li>%s. %s, %d. [%s]\n' % (
                esc(pub_title(r, r.choice(areas))), esc(venue(r, r.choice(areas))), 1988 + r.randint(0, 9),
                ctx.a(self.dead_local(s, r, 'paper'), r.choice(['postscript', 'ps.Z', 'abstract'])))
                for _ in range(r.randint(4, 12)))
            return 'Publications', '<h1>Publications</h1>\n<ol>\n%s</ol>\n%s' % (items, back)
        if what == 'cv':
            courses = ', '.join('%s %d' % (getattr(s, 'prefix', 'CS'), r.randint(100, 899)) for _ in range(3))
            return 'Curriculum Vitae', ('<h1>Curriculum Vitae</h1>\n<pre>\nEducation:  Ph.D. %s, 19%d\n'
                                        'Positions:  %s, 19%d-present\nTeaching:   %s\n</pre>\n%s'
                                        % (esc(self.uni(r.choice(self.uni_pool))[0]), r.randint(70, 94),
                                           esc(p.title or 'Professor'), r.randint(80, 95), courses, back))
        if what == 'research':
            return 'Research', '<h1>Research</h1>\n<p>%s\n<p>%s\n%s' % (
                esc(cap(sentence(r, areas[0], RESEARCH_SENT))),
                esc(cap(sentence(r, areas[-1], RESEARCH_SENT))), back)
        if what == 'teaching':      # a list of courses taught, not a course page
            lis = [ctx.a(c.page, '%s: %s' % (esc(c.code(r)), esc(c.title))) for c in p.courses]
            for _ in range(r.randint(1, 4)):
                num = r.randint(100, 899)
                lis.append('%s %d (%s)' % (getattr(s, 'prefix', 'CS'), num, r.choice(
                    ['Fall 1994', 'Spring 1995', 'Fall 1995', 'Spring 1996'])))
            return 'Teaching', ('<h1>%s</h1>\n<p>Courses I have taught:\n<ul>\n%s</ul>\n%s'
                                % (r.choice(['Teaching', 'Courses', 'Classes Taught']),
                                   ''.join('<li>%s\n' % x for x in lis), back))
        if what == 'students':
            return 'Students', '<h1>Students</h1>\n<ul>\n%s</ul>\n%s' % (
                ''.join('<li>%s\n' % ctx.a(x.page, esc(x.name)) for x in p.students)
                or '<li>None yet.\n', back)
        if what == 'courses':       # courses a student takes, not a course page
            cs = ''.join('<li>%s %d - %s (%s)\n' % (getattr(s, 'prefix', 'CS'), r.randint(100, 899),
                                                    esc(r.choice(self.areas)[0]),
                                                    r.choice(['A', 'AB', 'B', 'in progress']))
                         for _ in range(r.randint(3, 8)))
            return 'Courses', '<h1>%s</h1>\n<ul>\n%s</ul>\n%s' % (
                r.choice(["Courses I've taken", 'My courses', 'Coursework']), cs, back)
        if what == 'resume':
            return 'Resume', ('<h1>Resume</h1>\n<p><b>Objective:</b> a summer internship in %s.\n<p><b>Skills:'
                              '</b> C, C++, Perl, Tcl/Tk, HTML, UNIX.\n<p><b>Experience:</b> %s.\n%s'
                              % (esc(areas[0][0]), r.choice(['research assistant', 'web developer',
                                                             'summer intern', 'lab consultant']), back))
        if what == 'links':
            ctx.ext_done = True
            lis = [ctx.a(t, esc(x)) for t, x in pg.ext] + self.dead_list(ctx, r.randint(3, 10))
            return 'Links', '<h1>Cool Links</h1>\n<ul>\n%s</ul>\n%s' % (
                ''.join('<li>%s\n' % x for x in lis), back)
        return pg.title.capitalize(), (
            '<h1>%s</h1>\n<p>I enjoy %s. %s\n<p><img src="pic%d.jpg" alt="photo">\n%s'
            % (esc(what.capitalize()), esc(join_and(r.sample(HOBBIES, 2))), esc(r.choice(MISC_TEXT)),
               r.randint(1, 9), back))

    # ---- courses ----------------------------------------------------------
    def r_course(self, ctx, pg):
        """A course home page: the topic. The topic's words come in varied
        forms (FORMS), the sections in varied order and markup; about one in
        eight is a bare page (a title, the instructor, a few links)."""
        s, r, F = ctx.site, ctx.r, ctx.form
        c = pg.m['course']
        code, title = esc(c.code(r)), esc(c.title)
        head = r.choice(['{code}: {title}', '{code} - {title}', '{title} ({code})',
                         '{code} {title}, {term}', '{code} Home Page', '{code}: {title} -- {term}',
                         'Welcome to {code}', '{code} {term}']).format(code=code, title=title,
                                                                       term=c.term)
        h = r.choice(['<h2>%s</h2>\n', '<h3>%s</h3>\n', '<p><b><font size="+1">%s</font></b><br>\n'])
        if r.random() < 0.7:
            parts = ['<h1>%s</h1>\n' % head]
        else:
            parts = ['<center><font size="+2"><b>%s</b></font></center>\n' % head]
        if '{title}' not in head and r.random() < 0.6:
            parts.append('<p><b>%s</b>, %s\n' % (title, c.term))
        inst, rows = c.instructor, []
        if inst:
            rows.append((F('instructor'), '%s, Room %d, %s' % (
                ctx.a(inst.page, esc(inst.name)) if inst.page else esc(inst.name),
                r.randint(1000, 7999), ctx.mailto('%s@%s' % (inst.login, mail_host(s))))))
            start = r.randint(9, 15)
            rows.append((F('office'), '%s %d:00-%d:%s' % (
                r.choice(['Mon', 'Tue', 'Wed', 'Thu', 'MW', 'TTh']), start, start + 1,
                r.choice(['00', '30']))))
        if c.tas:
            rows.append((F('ta'), ', '.join(ctx.a(t.page, esc(t.name)) for t in c.tas)))
        rows.append((F('lecture'), '%s %d:%02d, %s %d' % (
            r.choice(['MWF', 'TuTh', 'MW', 'TTh']), r.randint(8, 16), r.choice([0, 30, 0, 25]),
            r.choice(['Room', 'Hall']), r.randint(100, 3999))))
        if r.random() < 0.5:
            parts.append('<table border="%d" cellpadding="3">\n%s</table>\n' % (r.choice([0, 1]), ''.join(
                '<tr><td><b>%s:</b></td><td>%s</td></tr>\n' % (esc(k), v) for k, v in rows)))
        else:
            parts.append('<p>%s\n' % '<br>\n'.join('<b>%s:</b> %s' % (esc(k), v) for k, v in rows))
        if r.random() < 0.12:
            parts.append('<p>%s\n' % ' | '.join(ctx.a(m, esc(material_anchor(ctx, m)))
                                                 for m in c.materials))
            parts.append('<p><a href="#top">Top</a>\n')
            return '%s %s' % (c.code(), c.title), ''.join(parts)
        secs = []
        day = lambda: '%s %d' % (MONTHS[r.randrange(12)][:3], r.randint(1, 28))
        ann = [x.format(hw=F('homework'), exam=F('exam'), mid=F('midterm'), a=F('assignment'),
                        n=r.randint(1, 6), d=day())
               for x in r.sample(ANNOUNCE, r.randint(1, 4))]
        secs.append(h % esc(F('announce')) + '<ul>\n%s</ul>\n' % ''.join('<li>%s\n' % esc(x)
                                                                         for x in ann))
        secs.append(h % esc(r.choice(['Description', 'Course Description', 'Overview',
                                      'About the Course', 'About this Class']))
                    + '<p>%s\n' % esc(course_description(r, c)))
        pre = '%s %d' % (c.prefix, max(100, c.num - r.randint(50, 300)))
        secs.append('<p><b>%s:</b> %s%s\n' % (esc(F('prerequisite')), pre, r.choice(
            ['', ' or consent of instructor', ', or equivalent',
             ' and %s %d' % (c.prefix, r.randint(100, 300))])))
        author = '%s. %s' % (r.choice(self.first)[0], r.choice(self.last))
        pub = r.choice(PUBLISHERS)
        book = r.choice(['%s', 'Principles of %s', '%s: Concepts and Techniques',
                         'Introduction to %s', 'Modern %s']) % c.area[0]
        plink = ctx.a(self.dead_url(r), esc(pub)) if r.random() < 0.25 else esc(pub)
        secs.append('<p><b>%s:</b> %s, <i>%s</i>, %s, 199%d.\n' % (
            esc(F('textbook')), esc(author), esc(book), plink, r.randint(0, 6)))
        g = r.sample([F('homework'), F('assignment'), F('midterm'), 'Final', 'Project', 'Quizzes',
                      'Participation'], r.randint(3, 4))
        cut = sorted(r.sample(range(1, 20), len(g) - 1))
        share = [5 * (b - a) for a, b in zip([0] + cut, cut + [20])]
        secs.append(h % esc(F('grading')) + '<p>%s\n' % ', '.join(
            '%s %d%%' % (esc(k), v) for k, v in zip(g, share)))
        mats = [ctx.a(m, esc(material_anchor(ctx, m)),
                      frag=r.choice([None, None, None, 'top', 'current'])) for m in c.materials]
        for _ in range(r.randint(1, 5)):          # handouts that are not on-line any more
            what = r.choice([F('lecture'), F('homework'), F('assignment'), 'Handout', 'Solutions'])
            mats.append(ctx.a(self.dead_local(s, r, 'file', c.dir()),
                              esc('%s %d' % (what, r.randint(1, 12)))))
        secs.append(h % esc(r.choice(['Course Materials', 'Handouts', F('lecture'), 'On-line Material']))
                    + '<ul>\n%s</ul>\n' % ''.join('<li>%s\n' % x for x in mats))
        if r.random() < 0.4:
            secs.append('<p><b>%s:</b> %s %s %d, %s.\n' % (
                esc(F('midterm')), r.choice(['Tuesday', 'Thursday', 'Friday']),
                MONTHS[r.randint(9, 10)], r.randint(1, 28),
                r.choice(['in class', 'evening, room TBA'])))
        if r.random() < 0.3:
            group = 'uni%d.class.%s%d' % (s.uni_k or 0, c.prefix.lower(), c.num)
            secs.append('<p>Newsgroup: <a href="news:%s">%s</a>\n' % (group, group))
        r.shuffle(secs)
        parts.extend(secs)
        parts.append('<p><a href="#top">Top</a>\n')
        return '%s %s' % (c.code(), c.title), ''.join(parts)

    def r_material(self, ctx, pg):
        """A page under a course home page (its syllabus, homework, ...):
        full of the topic's words, but not a course home page."""
        s, r, F = ctx.site, ctx.r, ctx.form
        c, what = pg.m['course'], pg.m['what']
        code = esc(c.code(r))
        terms = area_terms(c.area)
        day = lambda: '%s %d' % (MONTHS[r.randrange(12)], r.randint(1, 28))
        files = lambda: self.dead_local(s, r, 'file', c.dir())
        if what == 'syllabus':
            rows = ''.join('<tr><td>%d</td><td>%s</td><td>Ch. %d</td></tr>\n'
                           % (i + 1, esc(cap(terms[i % len(terms)])), i // 2 + 1)
                           for i in range(r.randint(8, 15)))
            body = ('<h2>%s %s</h2>\n<table border="1">\n<tr><th>Week</th><th>Topic</th>'
                    '<th>Reading</th></tr>\n%s</table>\n' % (code, esc(F('syllabus')), rows))
        elif what == 'lecture':
            lis = ''.join('<li>%s %d: %s [%s]\n' % (esc(F('lecture')), i + 1,
                                                    esc(cap(terms[i % len(terms)])), ctx.a(files(), 'ps'))
                          for i in range(r.randint(5, 20)))
            body = '<h2>%s %s</h2>\n<ol>\n%s</ol>\n' % (code, esc(F('lecture')), lis)
        elif what in ('homework', 'hw'):
            probs = ''.join('<li>%s\n' % esc(cap(sentence(r, c.area, PROBLEM_SENT)))
                            for _ in range(r.randint(2, 5)))
            body = ('<h2>%s %s %d</h2>\n<p>Due: %s, in class.\n<ol>\n%s</ol>\n<p>%s\n'
                    % (code, esc(F('homework')), r.randint(1, 8), day(), probs,
                       ctx.a(files(), 'Solutions')))
        elif what == 'assignment':
            body = ('<h2>%s: %s %d</h2>\n<p>%s\n<p>Hand in your code with the <tt>handin</tt> '
                    'program by midnight on the due date. Late %s lose 10%% a day.\n'
                    % (code, esc(F('assignment')), r.randint(1, 5),
                       esc(cap(sentence(r, c.area, PROBLEM_SENT))), esc(F('assignment').lower())))
        elif what == 'exam':
            body = ('<h2>%s %s</h2>\n<p>%s: %s, in class. Final: see the registrar\'s schedule.\n'
                    '<p>Old exams: %s\n' % (code, esc(F('exam')), esc(F('midterm')), day(), ', '.join(
                        ctx.a(files(), str(1990 + i)) for i in range(r.randint(1, 4)))))
        elif what == 'grading':
            rows = ''.join('<tr><td>%04d</td><td>%d</td><td>%d</td></tr>\n'
                           % (r.randint(0, 9999), r.randint(40, 100), r.randint(40, 100))
                           for _ in range(r.randint(10, 40)))
            body = ('<h2>%s %s</h2>\n<table border="1">\n<tr><th>ID</th><th>HW</th><th>Exam</th>'
                    '</tr>\n%s</table>\n' % (code, esc(F('grading')), rows))
        elif what == 'textbook':
            body = '<h2>%s %s</h2>\n<ul>\n%s</ul>\n' % (code, esc(F('textbook')), ''.join(
                '<li>%s, <i>%s</i>\n' % (esc(r.choice(self.last)), esc(pub_title(r, c.area)))
                for _ in range(r.randint(2, 6))))
        else:
            body = ('<h2>%s FAQ</h2>\n<dl>\n<dt>Q: Can I use C++?\n<dd>A: Yes.\n<dt>Q: Where do I '
                    'hand in %s?\n<dd>A: In the box outside room %d.\n</dl>\n'
                    % (code, esc(F('homework').lower()), r.randint(1000, 7999)))
        old = ', '.join(ctx.a(files(), x) for x in r.sample(
            ['Solutions', 'Last year', 'Printable version', 'Examples'], r.randint(1, 2)))
        return '%s %s' % (c.code(), what), body + '<p>%s\n<p>%s\n' % (
            old, ctx.a(c.page, 'Back to %s' % esc(c.code(r))))

    # ---- projects --------------------------------------------------------

    def r_project(self, ctx, pg):
        s, r = ctx.site, ctx.r
        a = pg.m['area']
        parts = ['<h1>The %s Project</h1>\n<p>%s %s %s\n' % (
            pg.m['acr'], esc(cap(sentence(r, a, RESEARCH_SENT))), esc(cap(sentence(r, a, RESEARCH_SENT))),
            esc(cap(sentence(r, a, RESEARCH_SENT))))]
        parts.append('<h3>People</h3>\n<ul>\n%s</ul>\n' % ''.join('<li>%s\n' % ctx.a(p.page, esc(p.name))
                                                                   for p in pg.m['members']))
        parts.append('<h3>Publications</h3>\n<ul>\n%s</ul>\n' % ''.join(
            '<li>%s [%s]\n' % (esc(pub_title(r, a)), ctx.a(self.dead_local(s, r, 'paper'), 'ps'))
            for _ in range(r.randint(1, 5))))
        if r.random() < 0.4:
            parts.append('<p>Software: <a href="ftp://ftp.%s/pub/%s/">ftp://ftp.%s/pub/%s/</a>\n'
                         % (s.host[4:] if s.host.startswith('www.') else s.host, pg.m['acr'].lower(),
                            s.host[4:] if s.host.startswith('www.') else s.host, pg.m['acr'].lower()))
        parts.append('<p>Supported by %s.\n' % join_and(
            [ctx.a(self.dead_url(r), x) if r.random() < 0.5 else x
             for x in r.sample(['NSF', 'DARPA', 'ONR', 'AFOSR', 'IBM', 'Intel', 'DEC', 'Sun Microsystems',
                                'HP Labs', 'NASA'], r.randint(1, 3))]))
        parts.append(self.ext_block(ctx, pg, r.choice(['Related projects', 'Partners', 'Links'])))
        return '%s Project' % pg.m['acr'], ''.join(parts)

    def r_proj_sub(self, ctx, pg):
        s, r = ctx.site, ctx.r
        proj = pg.m['project']
        a = proj.m['area']
        what = pg.m['what']
        if what == 'people':
            body = '<ul>\n%s</ul>\n' % ''.join('<li>%s\n' % ctx.a(p.page, esc(p.name))
                                               for p in proj.m['members'])
        elif what == 'papers':
            body = '<ol>\n%s</ol>\n' % ''.join(
                '<li>%s. %s [%s]\n' % (esc(pub_title(r, a)), esc(venue(r, a)),
                                       ctx.a(self.dead_local(s, r, 'paper'), 'ps'))
                for _ in range(r.randint(2, 8)))
        elif what == 'related':
            body = '<ul>\n%s</ul>\n' % ''.join('<li>%s\n' % x
                                               for x in self.dead_list(ctx, r.randint(3, 8)))
        else:
            body = '<p>%s\n<p>%s\n' % (esc(cap(sentence(r, a, RESEARCH_SENT))),
                                       esc(cap(sentence(r, a, DESC_SENT))))
        return '%s %s' % (proj.m['acr'], what), '<h2>%s: %s</h2>\n%s' % (
            proj.m['acr'], esc(what.capitalize()), body)

    # ---- small hosts -----------------------------------------------------

    def host_pages_list(self, ctx, pages):
        return '<ul>\n%s</ul>\n' % ''.join('<li>%s\n' % ctx.a(p, esc(p.title or 'Page')) for p in pages)

    def r_sd_home(self, ctx, pg):
        s, r = ctx.site, ctx.r
        others = [p for p in s.pages if p.kind in ('sd-people', 'sd-courses', 'sd-misc')]
        central = 'http://www.uni%d.test/' % s.uni_k
        return s.title, ('<h1>%s</h1>\n<h3>%s</h3>\n<p>%s\n%s<p>%s\n'
                         % (esc(s.dept), ctx.a(central, esc(self.uni(s.uni_k)[0])),
                            esc(r.choice(MISC_TEXT)), self.host_pages_list(ctx, others),
                            ', '.join(self.dead_list(ctx, r.randint(1, 3), 'other'))))

    def r_sd_people(self, ctx, pg):
        s, r = ctx.site, ctx.r
        lis = ''.join('<li>%s (%s)\n' % (ctx.a(p.page, esc(p.name)), p.role) for p in s.people)
        lis += ''.join('<li>%s\n' % ctx.a(self.dead_local(s, r, 'person'), esc('%s %s' % (
            r.choice(self.first), r.choice(self.last)))) for _ in range(r.randint(1, 4)))
        return 'People', '<h1>People</h1>\n<ul>\n%s</ul>\n%s' % (lis, self.ext_block(ctx, pg, 'Links'))

    def r_sd_courses(self, ctx, pg):
        s, r = ctx.site, ctx.r
        lis = ''.join('<li>%s %s\n' % (ctx.a(c.page, esc(c.code(r))), esc(c.title))
                      for c in self.courses if c.site is s)
        lis += ''.join('<li>%s %d\n' % (s.prefix, r.randint(100, 899)) for _ in range(r.randint(1, 5)))
        return 'Courses', '<h1>%s</h1>\n<ul>\n%s</ul>\n' % (
            r.choice(['Courses', 'Course Web Pages', 'Classes']), lis)

    def r_sd_misc(self, ctx, pg):
        s, r = ctx.site, ctx.r
        return pg.title, '<h2>%s</h2>\n<p>%s\n<p>%s\n' % (esc(pg.title), esc(r.choice(MISC_TEXT)),
                                                          esc(r.choice(MISC_TEXT)))

    def r_central_home(self, ctx, pg):
        s, r = ctx.site, ctx.r
        others = [p for p in s.pages if p is not pg]
        depts = [ctx.a(t, esc(x)) for t, x in pg.ext]
        ctx.ext_done = True
        depts += [ctx.a('http://www.%s.uni%d.test/' % (d, s.uni_k), esc(d.capitalize()))
                  for d in r.sample(['math', 'physics', 'chem', 'bio', 'english', 'history', 'econ',
                                     'law', 'med', 'music'], 4)]
        return s.title, ('<center><h1>%s</h1></center>\n<p>%s\n%s<h3>Schools and Departments</h3>\n<p>%s\n'
                         % (esc(s.title), esc(r.choice(MISC_TEXT)), self.host_pages_list(ctx, others),
                            ' | '.join(depts)))

    def r_registrar(self, ctx, pg):
        s, r = ctx.site, ctx.r
        rows = []
        mine = [c for c in self.courses if c.site.uni_k == s.uni_k]
        for c in mine:
            code = ctx.a(c.page, esc(c.code())) if r.random() < 0.25 else esc(c.code())
            rows.append((c.prefix, c.num, code, esc(c.title)))
        for _ in range(r.randint(20, 50)):
            d = r.choice(OTHER_DEPTS)
            a = r.choice(d[3])
            num = r.randint(100, 899)
            rows.append((d[1], num, '%s %d' % (d[1], num), esc(a[0])))
        rows.sort()
        body = ''.join('<tr><td>%s</td><td>%s</td><td>%s %d:%02d</td><td>%d</td></tr>\n'
                       % (x[2], x[3], r.choice(['MWF', 'TR', 'MW']), r.randint(8, 16), r.choice([0, 30]),
                          r.randint(1, 4)) for x in rows)
        return pg.title, ('<h1>%s</h1>\n<p>%s. Sections, times and credits; see departments for '
                          'details.\n<table border="1">\n<tr><th>Course</th><th>Title</th><th>Time</th>'
                          '<th>Cr</th></tr>\n%s</table>\n' % (esc(pg.title), self.term_names()[1][0], body))

    def r_central_misc(self, ctx, pg):
        s, r = ctx.site, ctx.r
        return pg.title, '<h2>%s</h2>\n<p>%s\n<p>%s\n' % (
            esc(pg.title), esc(r.choice(MISC_TEXT)),
            ', '.join(self.dead_list(ctx, r.randint(0, 2), 'other')))

    def generic_home(self, ctx, pg, blurb):
        s, r = ctx.site, ctx.r
        others = [p for p in s.pages if p is not pg and p.kind != 'private']
        if s.private and pg is s.home:
            others.append(s.by_path['/private/index.html'])
        ext = self.ext_block(ctx, pg, 'Links')
        return s.title, ('<h1>%s</h1>\n<p>%s\n%s%s<p>%s\n' % (
            esc(s.title), esc(blurb), self.host_pages_list(ctx, others), ext,
            ', '.join(self.dead_list(ctx, r.randint(0, 3), 'other'))))

    def generic_page(self, ctx, pg, blurb):
        s, r = ctx.site, ctx.r
        ext = self.ext_block(ctx, pg, 'Links')
        return '%s - %s' % (pg.title, s.title), ('<h2>%s</h2>\n<p>%s\n%s<p>%s\n' % (
            esc(pg.title), esc(blurb), ext, ', '.join(self.dead_list(ctx, r.randint(1, 5), 'other'))))

    def r_lab_home(self, ctx, pg):
        a = self.areas[hash_int(ctx.site.host) % len(self.areas)]
        return self.generic_home(ctx, pg, 'The %s conducts research in %s. %s' % (
            ctx.site.title, a[0].lower(), cap(sentence(ctx.r, a, RESEARCH_SENT))))

    def r_lab_page(self, ctx, pg):
        a = self.areas[hash_int(ctx.site.host) % len(self.areas)]
        return self.generic_page(ctx, pg, cap(sentence(ctx.r, a, RESEARCH_SENT)) + ' ' +
                                 cap(sentence(ctx.r, a, RESEARCH_SENT)))

    def r_company_home(self, ctx, pg):
        return self.generic_home(ctx, pg, ctx.r.choice(COMPANY_TEXT))

    def r_company_page(self, ctx, pg):
        return self.generic_page(ctx, pg, ctx.r.choice(COMPANY_TEXT) + ' ' + ctx.r.choice(COMPANY_TEXT))

    def r_conf_home(self, ctx, pg):
        a = ctx.r.choice(self.areas)
        return self.generic_home(ctx, pg, 'The conference brings together researchers in %s. Topics '
                                 'include %s.' % (a[0].lower(), join_and(a[1].split(';')[:4])))

    def r_conf_page(self, ctx, pg):
        return self.generic_page(ctx, pg, ctx.r.choice(CONF_TEXT))

    def r_hobby_home(self, ctx, pg):
        return self.generic_home(ctx, pg, 'Welcome to the club! We meet every %s. New members are '
                                 'always welcome.' % ctx.r.choice(['Tuesday', 'weekend', 'other Friday']))

    def r_hobby_page(self, ctx, pg):
        return self.generic_page(ctx, pg, ctx.r.choice(MISC_TEXT))

    def r_isp_home(self, ctx, pg):
        s, r = ctx.site, ctx.r
        lis = ''.join('<li>%s\n' % ctx.a(p.page, esc(p.name)) for p in s.people)
        return s.title, ('<h1>%s</h1>\n<p>Member home pages:\n<ul>\n%s</ul>\n%s'
                         % (esc(s.title), lis, self.ext_block(ctx, pg, 'Links')))

    # ---- statistics ----------------------------------------------------------

    def stats(self):
        pages = [p for s in self.sites for p in s.pages]
        by_url = {}
        for p in pages:
            by_url[p.url] = p
            by_url['http://%s%s' % (p.site.host, p.path)] = p
        links = dead = cross = cross_dead = 0
        for p in pages:
            for u in set(p.links):
                if u == p.url:
                    continue
                links += 1
                live = self.is_live(u)
                dead += not live
                if u[7:].split('/')[0].lower() != p.site.host:
                    cross += 1
                    cross_dead += not live
        # Click depth from the seeds (breadth-first over the links; robots.txt
        # not considered).
        depth = {}
        frontier = [d.home for d in self.depts]
        for p in frontier:
            depth[p.url] = 0
        k = 0
        while frontier:
            k += 1
            nxt = []
            for p in frontier:
                for u in p.links:
                    q = by_url.get(u.split('?')[0]) if self.is_live(u) else None
                    if q is not None and q.url not in depth:
                        depth[q.url] = k
                        nxt.append(q)
            frontier = nxt
        on = [p for p in pages if p.label == UNI_TOPIC]
        dep = sorted(depth[p.url] for p in on if p.url in depth)
        seed_hosts = {d.host for d in self.depts}
        labels = collections.Counter(p.label.split('.')[0] for p in pages)
        return {
            'pages': len(pages), 'hosts': len(self.sites),
            'on_topic': len(on),
            'on_topic_seed_sites': sum(1 for p in on if p.site.host in seed_hosts),
            'on_topic_seed_share': round(sum(1 for p in on if p.site.host in seed_hosts) / max(1, len(on)), 3),
            'labels': dict(sorted(labels.items())),
            'hard_negatives': dict(sorted(collections.Counter(
                p.label for p in pages if p.label.endswith(('course-list', 'course-material'))).items())),
            'links': links, 'dead_links': dead, 'dead_link_share': round(dead / max(1, links), 3),
            'cross_host_links': cross, 'cross_host_dead_share': round(cross_dead / max(1, cross), 3),
            'in_site_dead_share': round((dead - cross_dead) / max(1, links - cross), 3),
            'reachable_pages': len(depth),
            'on_topic_unreachable': len(on) - len(dep),
            'on_topic_click_depth': {
                'min': dep[0] if dep else None, 'median': dep[len(dep) // 2] if dep else None,
                'max': dep[-1] if dep else None,
                'histogram': sorted(collections.Counter(dep).items())},
        }


def gen_university(args):
    t0 = time.time()
    out = os.path.abspath(args.out)
    if args.departments < 1 or args.hosts < 2 * args.departments + 4:
        sys.exit('generate.py: --hosts must be at least 2 * --departments + 4')
    if args.pages < 200 * args.departments:
        sys.exit('generate.py: --pages must be at least 200 * --departments')
    prepare_out(out)
    try:
        os.unlink(os.path.join(out, 'seeds.txt'))
    except FileNotFoundError:
        pass
    w = Writer(out)
    web = UniWeb(args)
    web.plan()
    web.render(w)
    labels = {p.url: [p.label] for s in web.sites for p in s.pages}
    seeds = ['http://%s/' % d.host for d in web.depts]
    if args.frameset_seeds:
        # The old home page becomes the one frame of a frameset home page,
        # as on sites of the late 1990s: the seed has no link but a frame.
        for d in web.depts:
            root = w.root(d.host)
            os.rename(os.path.join(root, 'index.html'), os.path.join(root, 'main.html'))
            w.write(d.host, '/index.html',
                    '<HTML><HEAD><TITLE>%s</TITLE></HEAD>\n<FRAMESET ROWS="100%%">'
                    '<FRAME SRC="main.html" NAME=main></FRAMESET></HTML>\n' % esc(d.host))
    with open(os.path.join(out, 'seeds.txt'), 'w') as f:
        f.write(''.join(u + '\n' for u in seeds))
    counts = web.stats()
    finish(out, w, web.sites, labels, {
        'mode': 'university', 'pages': args.pages, 'hosts': args.hosts,
        'departments': args.departments, 'seed': args.seed,
        'frameset_seeds': args.frameset_seeds,
        'split': {1: 'dev', 2: 'held-out'}.get(args.seed, 'other'),
        'topic': UNI_TOPIC, 'keywords': UNI_KEYWORDS, 'seeds': seeds, 'counts': counts,
        'seconds': round(time.time() - t0, 1)})
    return len(labels), len(web.sites), w


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
    args = ap.parse_args(argv)
    t0 = time.time()
    gc.disable()    # many long-lived objects, no cycles worth collecting
    if args.mode == 'wikispeedia':
        if not os.path.isfile(args.data):
            sys.exit('generate.py: data not found: %s' % args.data)
        n, s, w = gen_wikispeedia(args)
    elif args.mode == 'university':
        n, s, w = gen_university(args)
    else:
        if args.calendar_every < 1:
            sys.exit('generate.py: --calendar-every must be >= 1')
        n, s, w = gen_synthetic(args)
    print('%d article pages, %d sites, %d files, %.1f MB in %.1f s -> %s'
          % (n, s, w.files, w.bytes / 1e6, time.time() - t0, w.out))


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""Generate a test web of static sites for the crawler, to be served by nginx.

  generate.py wikispeedia [--data TAR] --out DIR [--sites subject|category]
  generate.py synthetic --pages N --hosts H --out DIR [--seed S]

Output (see README.md beside this file):
  DIR/sites/<host>/...   one folder per virtual host (the nginx root)
  DIR/sites.tsv          host<TAB>absolute root folder
  DIR/labels.tsv         article URL<TAB>category[,category...]
  DIR/manifest.json      what was generated, counts and bytes

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
    for name in ('labels.tsv', 'sites.tsv', 'manifest.json'):
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
    args = ap.parse_args(argv)
    t0 = time.time()
    gc.disable()    # many long-lived objects, no cycles worth collecting
    if args.mode == 'wikispeedia':
        if not os.path.isfile(args.data):
            sys.exit('generate.py: data not found: %s' % args.data)
        n, s, w = gen_wikispeedia(args)
    else:
        if args.calendar_every < 1:
            sys.exit('generate.py: --calendar-every must be >= 1')
        n, s, w = gen_synthetic(args)
    print('%d article pages, %d sites, %d files, %.1f MB in %.1f s -> %s'
          % (n, s, w.files, w.bytes / 1e6, time.time() - t0, w.out))


if __name__ == '__main__':
    main()

"""`generate.py synthetic`: a web of any size whose pages draw their words
from topic vocabularies (TOPICS, FILLER, topic_vocab; bench/ reads
topic_vocab through generate.py), in the shared template (testweb_common.py).

One web kind of generate.py, in a module of its own so that no module of
the generator passes ~1,000 lines. Moved as it was.
"""

import collections
import os
import posixpath
import random
import sys
import time

from testweb_common import (
    dir_of, esc, finish, prepare_out, render_page, Site, write_ads_site, write_common,
    write_listing, write_media, write_media_index, Writer)


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

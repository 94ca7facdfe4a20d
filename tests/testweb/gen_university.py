"""`generate.py university`: a labelled 1990s university web, course home
pages as the topic (tests/testweb/README.md, "The university web").

UniWeb plans the hosts and pages (here), renders them (its base classes
UniRender, university_render.py, and UniRenderPages, university_pages.py)
and counts what it made (stats, here); gen_university writes the output.
UniWeb was one class: its renderers are base classes in modules of their
own only so that no module of the generator passes ~1,000 lines. Its
pieces (words, records, Ctx, page_doc) are university_parts.py's. Moved as
it was.
"""

import collections
import os
import random
import re
import sys
import time

from testweb_common import esc, finish, MONTHS, prepare_out, slug, Writer
from university_parts import (
    canonical_path, hash_int, CLUB_WORDS, COMPANY_SUFFIX, COMPANY_WORDS, CONF_NAMES, Course,
    COURSE_SCHEMES, COURSE_SUBS, CS_AREAS, CS_DEPTS, FIRST_NAMES, INSTR, ISP_NAMES, LAST_NAMES, MATERIALS,
    OTHER_DEPTS, Person, PLACE_A, PLACE_B, SMALL_KINDS, STATES, STREETS, UNI_KEYWORDS,
    SIBLING_HOST_SHARE, UNI_ON_TOPIC_RATE, UNI_SEED_SHARE, UNI_SMALL_MAX, UNI_TOPIC, url_dir,
    USite)
from university_render import UniRender
from university_pages import UniRenderPages


class UniWeb(UniRender, UniRenderPages):
    """Plans the hosts and pages of the university web, then renders them."""

    def __init__(self, args):
        self.N, self.H, self.D, self.seed = args.pages, args.hosts, args.departments, args.seed
        # How many course pages link gone sub-pages, and how many each.
        self.course_rot_share = args.course_rot_share
        self.course_rot_links = args.course_rot_links
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
        # The departments on two hostnames (split_people_host): their
        # sibling hosts count in --hosts.
        order = sorted(self.depts, key=lambda d: hash_int(self.seed, d.host, 'sibling'))
        self.split_depts = order[:round(SIBLING_HOST_SHARE * D)]
        # Small hosts: kinds and sizes.
        small = []
        kinds = ['uni-central'] * D + ['uni-dept'] * min(D, H - 2 * D)
        names, weights = zip(*SMALL_KINDS)
        while len(kinds) < H - D - len(self.split_depts):
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
        for s in self.depts:
            self.split_people_host(s)
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
        rot = sorted(self.depts, key=lambda d: hash_int(self.seed, d.host, 'rot'))
        s.course_rot = rot.index(s) < round(self.course_rot_share * len(rot))
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

    def split_people_host(self, s):
        """Half the departments serve their people's folders (and so the
        courses kept in them) from a sibling hostname of the same
        institution, as old department webs did ("cs.uniN.test" beside
        "www.cs.uniN.test"): the site a user names as the seed is then two
        hostnames, and a crawl that keeps to the seed's host misses them."""
        if s not in self.split_depts:
            return
        host = s.host[4:] if s.host.startswith('www.') else 'www-' + s.host
        folder = s.home_style.split('%s')[0]          # '/~', '/people/', '/homes/'
        sib = self.new_site(host, 'dept', s.title)
        for k, v in s.__dict__.items():
            if k not in ('host', 'pages', 'by_path', 'r', 'used', 'nums'):
                setattr(sib, k, v)
        s.sibling = sib
        moved = [p for p in s.pages if p.path.startswith(folder)]
        for p in moved:
            s.pages.remove(p)
            del s.by_path[p.path]
            p.site = sib
            p.url = 'http://%s%s' % (host, canonical_path(p.path))
            sib.pages.append(p)
            sib.by_path[p.path] = p

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
            elif what == 'course-sub':
                p = base + r.choice(COURSE_SUBS).replace('%d', str(r.randint(1, 12)))
            elif what == 'cgi':
                p = r.choice(['/cgi-bin/finger?%s' % r.choice(self.last).lower(), '/cgi-bin/search',
                              '/cgi-bin/counter.pl', '/cgi-bin/imagemap/nav', '/cgi-bin/guestbook.pl'])
            else:
                p = '/%s/%s.html' % (r.choice(['old', 'www', 'tmp', 'misc', 'info', 'new']),
                                     r.choice(self.last).lower())
            if not self.is_live('http://%s%s' % (site.host, p)):
                return p
        return '/nonexistent/%d.html' % r.randint(1, 10 ** 6)

    # ---- statistics ----------------------------------------------------------

    def stats(self):
        pages = [p for s in self.sites for p in s.pages]
        by_url = {}
        for p in pages:
            by_url[p.url] = p
            by_url['http://%s%s' % (p.site.host, p.path)] = p
        links = dead = cross = cross_dead = 0
        # Dead links by the section of the page that carries them: a course
        # (its home page and materials) and people (home pages and their
        # subpages), where old academic webs lose most.
        section_links = collections.Counter()
        section_dead = collections.Counter()
        for p in pages:
            section = ('course' if p.label == UNI_TOPIC or p.kind == 'material' else
                       'people' if p.kind in ('person', 'person-sub') else 'other')
            for u in set(p.links):
                if u == p.url:
                    continue
                links += 1
                live = self.is_live(u)
                dead += not live
                section_links[section] += 1
                section_dead[section] += not live
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
        sibling_hosts = {d.sibling.host for d in self.depts if getattr(d, 'sibling', None)}
        seed_hosts = {d.host for d in self.depts} | sibling_hosts    # the departments' sites
        labels = collections.Counter(p.label.split('.')[0] for p in pages)
        return {
            'pages': len(pages), 'hosts': len(self.sites),
            'on_topic': len(on),
            'on_topic_seed_sites': sum(1 for p in on if p.site.host in seed_hosts),
            'on_topic_seed_share': round(sum(1 for p in on if p.site.host in seed_hosts) / max(1, len(on)), 3),
            'sibling_hosts': sorted(sibling_hosts),
            'on_topic_sibling_hosts': sum(1 for p in on if p.site.host in sibling_hosts),
            'labels': dict(sorted(labels.items())),
            'hard_negatives': dict(sorted(collections.Counter(
                p.label for p in pages if p.label.endswith(('course-list', 'course-material'))).items())),
            'links': links, 'dead_links': dead, 'dead_link_share': round(dead / max(1, links), 3),
            'cross_host_links': cross, 'cross_host_dead_share': round(cross_dead / max(1, cross), 3),
            'in_site_dead_share': round((dead - cross_dead) / max(1, links - cross), 3),
            'section_dead_share': {k: round(section_dead[k] / max(1, section_links[k]), 3)
                                   for k in sorted(section_links)},
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
        'course_rot_share': args.course_rot_share,
        'course_rot_links': list(args.course_rot_links),
        'split': {1: 'dev', 2: 'held-out'}.get(args.seed, 'other'),
        'topic': UNI_TOPIC, 'keywords': UNI_KEYWORDS, 'seeds': seeds, 'counts': counts,
        'seconds': round(time.time() - t0, 1)})
    return len(labels), len(web.sites), w

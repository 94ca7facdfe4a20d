"""UniWeb's rendering (gen_university.py), first part: the page loop,
robots.txt, the site, personal and course templates around a page's body,
and the department pages.

A base class of UniWeb, and apart from it only so that no module of the
generator passes ~1,000 lines: its methods use UniWeb's state and methods
(self.sites, self.dead_url, ...). Moved as it was.
"""

import re

from testweb_common import esc, MONTHS, slug
from university_parts import (
    area_terms, cap, course_description, Ctx, DESC_SENT, FACIL_TEXT, hash_int, join_and,
    MACHINES, mail_host, material_anchor, MISC_TEXT, MISC_TITLES, news_headline, NEWS_TEXT,
    NOISE_P, NOISE_SENT, page_doc, pub_title, RESEARCH_SENT, sentence, STAFF_DUTIES)


class UniRender:
    """UniWeb's renderers, first part (a base class of UniWeb)."""

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
        if hash_int(s.host, 'direct') % 4 != 0:   # three in four list this term's classes
            cur = [c for c in s.courses if c.term == terms[1].m['term']]
            direct = '<h3>%s</h3>\n<ul>\n%s</ul>\n' % (
                r.choice(['Class Web Pages', 'Course Home Pages', 'On-line Course Information']),
                ''.join('<li>%s\n' % ctx.a(c.page, '%s %s' % (esc(c.code(r)), esc(c.title)))
                        for c in cur))
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

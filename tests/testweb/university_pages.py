"""UniWeb's rendering (gen_university.py), second part: personal pages,
course home pages and their materials, project pages and the pages of the
small hosts.

A base class of UniWeb, and apart from it only so that no module of the
generator passes ~1,000 lines: its methods use UniWeb's state and methods
(self.dead_url, self.chrome_site, ...). Moved as it was.
"""

from testweb_common import esc, MONTHS
from university_parts import (
    ANNOUNCE, area_terms, cap, COMPANY_TEXT, CONF_TEXT, course_description,
    course_sub_anchor, DESC_SENT, hash_int, MATERIAL_INFO_SHARE,
    HOBBIES, join_and, mail_host, material_anchor, MISC_TEXT, OTHER_DEPTS, PLACE_A, PLACE_B,
    PROBLEM_SENT, pub_title, PUBLISHERS, RESEARCH_SENT, sentence, venue)


class UniRenderPages:
    """UniWeb's renderers, second part (a base class of UniWeb)."""

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
        below = [x for x in getattr(c.site, 'courses', []) if x.num < c.num and x.page is not None]
        if below and r.random() < 0.5:            # a prerequisite with a page of its own
            x = r.choice(below)
            pre = ctx.a(x.page, esc(x.code(r)))
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
        if getattr(s, 'course_rot', False):      # sub-pages gone with the term
            for _ in range(r.randint(*self.course_rot_links)):
                path = self.dead_local(s, r, 'course-sub', c.dir())
                mats.append(ctx.a(path, esc(course_sub_anchor(ctx, path))))
        else:
            for _ in range(r.randint(1, 5)):      # handouts that are not on-line any more
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
        files = lambda: self.dead_local(
            s, r, 'course-sub' if getattr(s, 'course_rot', False) and r.random() < 0.5 else 'file',
            c.dir())
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
        if r.random() < MATERIAL_INFO_SHARE:
            body = self.material_info(ctx, c, what) + body
        old = ', '.join(ctx.a(files(), x) for x in r.sample(
            ['Solutions', 'Last year', 'Printable version', 'Examples'], r.randint(1, 2)))
        return '%s %s' % (c.code(), what), body + '<p>%s\n<p>%s\n' % (
            old, ctx.a(c.page, 'Back to %s' % esc(c.code(r))))

    def material_info(self, ctx, c, what):
        """The course's facts again at the top of one of its material pages
        (who teaches it, when, the book, how it is graded, what it needs,
        when the exams are), as course sites did on every page: a page
        that uses most of the topic's words and is no course home page."""
        r, F = ctx.r, ctx.form
        inst = c.instructor
        facts = [('%s %s' % (esc(c.code(r)), esc(c.title)), esc(c.term))]
        if inst:
            facts.append((esc(F('instructor')), esc(inst.name)))
        facts.append((esc(F('lecture')), '%s %d:%02d' % (
            r.choice(['MWF', 'TuTh', 'MW']), r.randint(8, 16), r.choice([0, 30]))))
        facts.append((esc(F('textbook')), '<i>%s</i>' % esc(pub_title(r, c.area))))
        facts.append((esc(F('prerequisite')), '%s %d' % (c.prefix, max(100, c.num - r.randint(50, 300)))))
        g = r.sample([F('homework'), F('assignment'), F('midterm'), 'Final ' + F('exam').lower(),
                      'Project', 'Quizzes'], r.randint(3, 4))
        facts.append((esc(F('grading')), ', '.join('%s %d%%' % (esc(k), v) for k, v in zip(
            g, [40, 30, 20, 10][:len(g)]))))
        r.shuffle(facts)
        if r.random() < 0.5:
            return '<table border="0">\n%s</table>\n' % ''.join(
                '<tr><td><b>%s</b></td><td>%s</td></tr>\n' % f for f in facts)
        return '<p>%s\n' % '<br>\n'.join('<b>%s:</b> %s' % f for f in facts)

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

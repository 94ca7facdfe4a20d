"""The pieces of `generate.py university`'s web (gen_university.py plans
and renders it): its constants, word lists, names and sentence templates,
text helpers, the records of pages, hosts, people and courses, the
per-page renderer context (Ctx) and the page document of the time.

Apart from gen_university.py (UniWeb) only so that no module of the
generator passes ~1,000 lines: none of this holds the web's state. Moved as
it was.
"""

import hashlib
import random
import re

from testweb_common import esc, MONTHS


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
# Share of the department sites whose people's folders (and the courses in
# them) are on a sibling hostname ("cs.uniN.test" beside "www.cs.uniN.test").
SIBLING_HOST_SHARE = 0.5
# Share of the department sites whose course pages link many sub-pages that
# are gone (errata, handouts, solutions, lecture notes: HTML names in the
# course's folder), COURSE_ROT_LINKS of them per course page; elsewhere a
# course page links 1-5 gone files, mostly PostScript.
COURSE_ROT_SHARE = 0.5
COURSE_ROT_LINKS = (4, 14)
# Share of a course's material pages that repeat the course's facts
# (instructor, lectures, textbook, grading, prerequisites) at their top:
# hard negatives that use most of the topic's words, as a real web has.
MATERIAL_INFO_SHARE = 0.6
# Names of a course's gone sub-pages ('%d': a number).
COURSE_SUBS = ['errata.html', 'handouts.html', 'solutions.html', 'hw%d.html', 'hw%d-sol.html',
               'lecture%d.html', 'lec%d.html', 'notes/week%d.html', 'sol/hw%d.html',
               'project%d.html', 'labs/lab%d.html', 'announcements.html', 'old-exams.html',
               'exams/midterm%d.html', 'handouts/h%d.html', 'slides/lecture%d.html', 'links.html',
               'staff.html', 'calendar.html', 'newsgroup.html']

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


def course_sub_anchor(ctx, path):
    """The anchor text of a link to a course's sub-page `path` (a name
    from COURSE_SUBS), in the topic's varied word forms."""
    name = path.rstrip('/').split('/')[-1]
    folder = path.rstrip('/').split('/')[-2] if path.count('/') > 1 else ''
    num = re.sub(r'\D', '', name) or '1'
    F = ctx.form
    if name.startswith('hw') and name.endswith('-sol.html') or folder == 'sol':
        return 'Solutions to %s %s' % (F('homework'), num)
    if name.startswith('hw'):
        return '%s %s' % (F('homework'), num)
    if name.startswith(('lecture', 'lec')):
        return '%s %s%s' % (F('lecture'), num, ' slides' if folder == 'slides' else '')
    if folder == 'notes':
        return 'Week %s notes' % num
    if name.startswith('project'):
        return 'Project %s' % num
    if folder == 'labs':
        return 'Lab %s' % num
    if name.startswith('midterm'):
        return '%s %s' % (F('midterm'), num)
    if folder == 'handouts':
        return 'Handout %s' % num
    return {'errata.html': 'Errata', 'handouts.html': 'Handouts', 'solutions.html': 'Solutions',
            'announcements.html': F('announce'), 'old-exams.html': 'Old ' + F('exam').lower(),
            'links.html': 'Links', 'staff.html': 'Course staff', 'calendar.html': 'Calendar',
            'newsgroup.html': 'Newsgroup archive'}.get(name, name[:-5].capitalize())


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

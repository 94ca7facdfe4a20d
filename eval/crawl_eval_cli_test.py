#!/usr/bin/python3
"""End-to-end test of the crawl-eval binary on the fixtures in testdata/.

usage: crawl_eval_cli_test.py CRAWL_EVAL TESTDATA_DIR WORK_DIR

The expected numbers are worked out by hand in crawl_eval_test.cc
(EvaluateTest): crawl-a has 5 pages, 3 on topic, 4 on-topic labelled pages.
"""

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = '{http://www.w3.org/2000/svg}'


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True,
                          timeout=60)


def main():
    binary, data, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    out = os.path.join(work, 'out')
    labels = os.path.join(data, 'labels.tsv')

    # Two crawls: a folder (name from NAME=) and a file with a cut-off last
    # line (bfs-like: no relevance scores).
    r = run(binary, 'compare', '--labels', labels, '--topic', 'astronomy', '--segment',
            '2', '--out', out, 'ssaps=' + os.path.join(data, 'crawl-a'),
            'bfs=' + os.path.join(data, 'crawl-b.jsonl'))
    assert r.returncode == 0, r.stderr
    md = open(os.path.join(out, 'report.md'), encoding='utf-8').read()
    assert r.stdout == md
    assert '| ssaps | 5 | 3 | 0.6000 | 0.7500 (3/4) | 3 | 1.05 | 5 |' in md, md
    assert '| bfs | 2 | 1 | 0.5000 | 0.2500 (1/4) | – | – | 0 |' in md, md
    assert '## sum_of_info per segment' in md

    report = json.load(open(os.path.join(out, 'report.json')))
    assert report['topic'] == ['astronomy']
    assert report['on_topic_total'] == 4
    assert report['segment_size'] == 2
    a, b = report['crawls']
    assert a['name'] == 'ssaps' and b['name'] == 'bfs'
    assert a['pages'] == 5 and a['robots_lines'] == 1
    assert a['duplicate_lines'] == 1
    assert a['harvest_rate'] == 0.6 and a['recall'] == 0.75
    assert a['sum_of_relevantPage'] == 3
    assert abs(a['sum_of_info'] - 1.05) < 1e-9
    assert [s['sum_of_relevantPage'] for s in a['segments']] == [1, 1, 1]
    assert a['curves']['recall'] == [0, 0.25, 0.25, 0.5, 0.75]
    assert b['truncated_tail_lines'] == 1
    assert b['sum_of_info'] is None and b['curves']['sum_of_info'] is None

    # The SVG is well-formed XML: two panels, one polyline per crawl in each,
    # a legend naming both crawls, ticks labelled.
    root = ET.parse(os.path.join(out, 'curves.svg')).getroot()
    assert root.tag == SVG + 'svg'
    panels = root.findall(SVG + 'g[@class="panel"]')
    assert len(panels) == 2
    for p in panels:
        assert len(p.findall(SVG + 'polyline')) == 2
        texts = [t.text for t in p.findall(SVG + 'text')]
        assert 'pages fetched' in texts, texts
    legend = ' '.join(t.text for t in root.iter(SVG + 'text'))
    assert 'ssaps (5 pages)' in legend and 'bfs (2 pages)' in legend

    # A bare path: the name is the folder's.
    r = run(binary, 'compare', '--labels', labels, '--topic', 'astronomy', '--out', out,
            os.path.join(data, 'crawl-a', 'fetch_log.jsonl'))
    assert r.returncode == 0, r.stderr
    assert '| crawl-a | 5 |' in r.stdout

    # Malformed line: exit 1 naming file:line; --skip_malformed counts it.
    bad = os.path.join(data, 'bad.jsonl')
    r = run(binary, 'compare', '--labels', labels, '--topic', 'astronomy', '--out', out,
            'x=' + bad)
    assert r.returncode == 1, r
    assert 'bad.jsonl:2: ' in r.stderr, r.stderr
    r = run(binary, 'compare', '--labels', labels, '--topic', 'astronomy', '--out', out,
            '--skip_malformed', 'x=' + bad)
    assert r.returncode == 0, r.stderr
    assert '| x | 2 | 0 | 0 | 1 | 0 |' in r.stdout, r.stdout

    # A topic no label has, a missing file, usage errors.
    r = run(binary, 'compare', '--labels', labels, '--topic', 'astro', '--out', out,
            'x=' + bad)
    assert r.returncode == 1 and 'no labelled page is on topic' in r.stderr
    assert 'most frequent labels: ' in r.stderr, r.stderr
    r = run(binary, 'compare', '--labels', labels, '--topic', 'astronomy', '--out', out,
            'x=/nonexistent/fetch_log.jsonl')
    assert r.returncode == 1 and '/nonexistent/fetch_log.jsonl' in r.stderr
    for args in (['compare', '--topic', 'astronomy', 'x=' + bad],
                 ['compare', '--labels', labels, 'x=' + bad],
                 ['compare', '--labels', labels, '--topic', 'astronomy'],
                 ['compare', '--labels', labels, '--topic', 'astronomy',
                  '--segment', '0', 'x=' + bad],
                 ['compare', '--labels', labels, '--topic', 'astronomy',
                  'x=' + bad, 'x=' + bad],
                 ['compare', '--bogus'], ['--labels', labels], ['frob'],
                 ['compare', '--relevance-threshold', '0.2']):
        r = run(binary, *args)
        assert r.returncode == 2, (args, r)
        assert 'usage:' in r.stderr, (args, r.stderr)
    r = run(binary, 'compare', '--bogus')
    assert "unknown flag '--bogus'" in r.stderr, r.stderr

    # --help, help and COMMAND --help: the usage on stdout, exit 0, with
    # the flags' meanings and defaults, never a usage error.
    for args in (['--help'], ['help'], ['-h'], ['compare', '--help'],
                 ['help', 'compare']):
        r = run(binary, *args)
        assert r.returncode == 0, (args, r)
        assert r.stdout.startswith('usage: crawl-eval'), (args, r.stdout)
        assert r.stderr == '', (args, r.stderr)
    r = run(binary, 'compare', '--help')
    assert '--relevance_threshold (number, default 0.1)' in r.stdout, r.stdout
    assert '--skip_malformed' in r.stdout
    print('crawl_eval_cli_test: OK')


if __name__ == '__main__':
    main()

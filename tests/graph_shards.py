"""Graph shards (proto/graph.proto, graphio/shard.h) read in Python, for
tests and the demo: a small protobuf wire-format decoder for the few fields
they need, so that nothing has to generate Python code from the protos.

  read_shard(path) -> [{'url', 'relevance', 'blocks': [type name],
                        'template': [bool per block],
                        'links': [(target url, block index or -1)],
                        'template_blocks': count (only when any)}]
"""

import struct

BLOCK_TYPES = {0: 'UNSPECIFIED', 1: 'CONTENT', 2: 'RELATED_LINKS', 3: 'NAVIGATION', 4: 'NOISE'}
MAGIC = b'FCGRAPH1\n'


def varint(buf, i):
    shift = result = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7


def fields(buf):
    """(field number, wire type, value) of one message; values of
    length-delimited fields are bytes."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 1:
            v = struct.unpack('<d', buf[i:i + 8])[0]
            i += 8
        elif wt == 2:
            n, i = varint(buf, i)
            v = buf[i:i + n]
            i += n
        elif wt == 5:
            v = buf[i:i + 4]
            i += 4
        else:
            raise ValueError('wire type %d' % wt)
        yield num, wt, v


def read_shard(path):
    """GraphPage records of one shard as dicts {url, blocks: [type], links:
    [(target, block)], template_blocks: count (when any), aliases: [url]
    and duplicate_of: url (when any)}; header and
    footer skipped."""
    with open(path, 'rb') as f:
        data = f.read()
    assert data.startswith(MAGIC), path
    i = len(MAGIC)
    records = []
    while i < len(data):
        n, i = varint(data, i)
        records.append(data[i:i + n])
        i += n
    pages = []
    for rec in records[1:-1]:  # header first, footer last
        page = {'url': '', 'relevance': 0.0, 'blocks': [], 'template': [], 'links': []}
        for num, wt, v in fields(rec):
            if num == 1 and wt == 2:
                page['url'] = v.decode()
            elif num == 2 and wt == 1:
                page['relevance'] = v
            elif num == 4 and wt == 2:
                t = 0
                template = False
                for bn, bwt, bv in fields(v):
                    if bn == 1 and bwt == 0:
                        t = bv
                    elif bn == 6 and bwt == 0 and bv:  # site_template
                        template = True
                        page['template_blocks'] = page.get('template_blocks', 0) + 1
                page['blocks'].append(BLOCK_TYPES.get(t, 'UNSPECIFIED'))
                page['template'].append(template)
            elif num == 5 and wt == 2:
                target, block = '', -1
                for ln, lwt, lv in fields(v):
                    if ln == 1 and lwt == 2:
                        target = lv.decode()
                    elif ln == 2 and lwt == 0:
                        block = lv - (1 << 64) if lv >= 1 << 63 else lv
                page['links'].append((target, block))
            elif num == 7 and wt == 2:  # aliases
                page.setdefault('aliases', []).append(v.decode())
            elif num == 8 and wt == 2:  # duplicate_of
                page['duplicate_of'] = v.decode()
        pages.append(page)
    return pages


def linked_from_templates(pages, share=0.9):
    """URLs at least `share` of whose in-links sit in site-template blocks
    (a menu, footer or banner the site repeats on most pages). Not all of
    them: a site's first pages are read before its template is known (the
    crawl flags a block from the site's 4th page on)."""
    counts = {}
    for p in pages:
        for target, block in p['links']:
            t = 0 <= block < len(p['template']) and p['template'][block]
            c = counts.setdefault(target, [0, 0])
            c[0 if t else 1] += 1
    return {u for u, (t, other) in counts.items() if t >= share * (t + other)}

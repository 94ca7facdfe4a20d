#!/usr/bin/env python3
"""A strict standalone WARC 1.1 reader and checker (ctest: warc_check_test).

    python3 tests/warc_check.py FILE.warc.gz...             check the files
    python3 tests/warc_check.py --self-test FILE.warc.gz... check the checker

No standard WARC tool (warcio, jwat, warc-tools) is packaged in Debian 12, so
this script stands in for one, and is deliberately stricter than the usual
readers. It uses only the Python standard library (zlib, hashlib).

For every file it checks:
  * gzip: the file is a sequence of complete gzip members (CRC and length
    verified by zlib), each decompressed on its own, with no trailing bytes
    (a .warc.zst: of complete zstd frames, read with python3-zstandard);
  * one record per member: the member is exactly version line, header
    fields, CRLF, block of Content-Length bytes, CRLF CRLF -- nothing more;
  * the version line is "WARC/1.1" (or what --version says);
  * header fields: well-formed "Name: value" lines, the mandatory fields
    (WARC-Record-ID, Content-Length, WARC-Date, WARC-Type), no repeats of
    non-repeatable fields, record IDs as <uri> and unique over all files,
    W3C-DTF UTC dates, a known WARC-Type, WARC-Target-URI on request and
    response records (a plain URI: no <>, no whitespace), a valid
    WARC-IP-Address, Content-Type on every non-empty block;
  * digests: WARC-Block-Digest (required on warcinfo, request, response) and
    WARC-Payload-Digest (required on HTTP responses: the bytes after the HTTP
    head) recomputed with hashlib, as sha1:BASE32 (base16 is accepted too);
  * HTTP blocks: a request line / status line, a head ending with CRLF CRLF,
    and a body length equal to the HTTP Content-Length when the head has one
    (unless the record says WARC-Truncated, or the status has no body);
  * warcinfo: the first record of each file, application/warc-fields with
    "name: value" lines, WARC-Filename equal to the file's name;
    WARC-Warcinfo-ID of later records names that record;
  * request/response pairs: every request's WARC-Concurrent-To names a
    response in the same file with the same WARC-Target-URI, and that
    response's WARC-Concurrent-To names the request back.

Exit status 0 when every file passes, 1 otherwise (each problem printed as
FILE@OFFSET: message), 2 on usage errors.
"""

import base64
import datetime
import hashlib
import ipaddress
import os
import re
import sys
import zlib

KNOWN_TYPES = {"warcinfo", "response", "resource", "request", "metadata",
               "revisit", "conversion", "continuation"}
REPEATABLE = {"warc-concurrent-to"}
TOKEN = re.compile(rb"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
RECORD_ID = re.compile(r"^<[A-Za-z][A-Za-z0-9+.\-]*:[^\s<>]+>$")
WARC_DATE = re.compile(
    r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d{1,9})?Z$")
REQUEST_LINE = re.compile(rb"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ \S+ HTTP/\d\.\d$")
STATUS_LINE = re.compile(rb"^HTTP/\d(\.\d)? (\d{3})( [^\r\n]*)?$")
NEEDS_TARGET = {"response", "resource", "request", "revisit", "conversion",
                "continuation"}


class Record:
    def __init__(self, offset):
        self.offset = offset
        self.version = ""
        self.fields = []  # (name, value) as str, in order
        self.block = b""

    def get(self, name):
        name = name.lower()
        for n, v in self.fields:
            if n.lower() == name:
                return v
        return None

    def get_all(self, name):
        name = name.lower()
        return [v for n, v in self.fields if n.lower() == name]


class Checker:
    def __init__(self, version="WARC/1.1"):
        self.version = version
        self.errors = []
        self.record_ids = {}  # id -> (file, offset)
        self.counts = {}

    def error(self, where, message):
        self.errors.append(f"{where}: {message}")

    # ---- gzip members --------------------------------------------------

    def members(self, name, data):
        """Yields (offset, uncompressed bytes) for each gzip member (each
        zstd frame of a .warc.zst)."""
        if name.endswith(".warc.zst"):
            yield from self.zstd_frames(name, data)
            return
        pos = 0
        while pos < len(data):
            if data[pos:pos + 2] != b"\x1f\x8b":
                self.error(f"{name}@{pos}", "not a gzip member (bad magic); "
                           "trailing or corrupt bytes")
                return
            d = zlib.decompressobj(wbits=31)  # gzip wrapper only
            try:
                out = d.decompress(data[pos:])
                out += d.flush()
            except zlib.error as e:
                self.error(f"{name}@{pos}", f"corrupt gzip member: {e}")
                return
            if not d.eof:
                self.error(f"{name}@{pos}", "truncated gzip member")
                return
            used = len(data) - pos - len(d.unused_data)
            yield pos, out
            pos += used

    def zstd_frames(self, name, data):
        try:
            import zstandard  # Debian's python3-zstandard
        except ImportError:
            self.error(name, "reading .warc.zst needs python3-zstandard")
            return
        pos = 0
        while pos < len(data):
            if data[pos:pos + 4] != b"\x28\xb5\x2f\xfd":
                self.error(f"{name}@{pos}", "not a zstd frame (bad magic); "
                           "trailing or corrupt bytes")
                return
            d = zstandard.ZstdDecompressor().decompressobj()
            try:
                out = d.decompress(data[pos:])
            except zstandard.ZstdError as e:
                self.error(f"{name}@{pos}", f"corrupt zstd frame: {e}")
                return
            if not d.eof:
                self.error(f"{name}@{pos}", "truncated zstd frame")
                return
            used = len(data) - pos - len(d.unused_data)
            yield pos, out
            pos += used

    # ---- one record ----------------------------------------------------

    def parse(self, where, offset, member):
        """Parses a member as exactly one record; None when unusable."""
        r = Record(offset)
        end = member.find(b"\r\n\r\n")
        if end < 0:
            self.error(where, "no end of the header block (CRLF CRLF)")
            return None
        lines = member[:end].split(b"\r\n")
        r.version = lines[0].decode("latin-1")
        if r.version != self.version:
            self.error(where, f"version line {r.version!r}, "
                       f"expected {self.version!r}")
        for raw in lines[1:]:
            if raw[:1] in (b" ", b"\t") and r.fields:
                n, v = r.fields[-1]
                r.fields[-1] = (n, v + " " + raw.strip().decode("utf-8", "replace"))
                continue
            colon = raw.find(b":")
            if colon <= 0 or not TOKEN.match(raw[:colon]):
                self.error(where, f"malformed header line {raw[:80]!r}")
                continue
            value = raw[colon + 1:].strip(b" \t")
            if any(c < 0x20 and c != 0x09 or c == 0x7F for c in value):
                self.error(where, f"control character in {raw[:colon]!r}")
            try:
                value_s = value.decode("utf-8")
            except UnicodeDecodeError:
                self.error(where, f"header {raw[:colon]!r} is not UTF-8")
                value_s = value.decode("utf-8", "replace")
            r.fields.append((raw[:colon].decode("ascii"), value_s))
        seen = set()
        for n, _ in r.fields:
            key = n.lower()
            if key in seen and key not in REPEATABLE:
                self.error(where, f"repeated field {n}")
            seen.add(key)
        for n in ("WARC-Record-ID", "Content-Length", "WARC-Date",
                  "WARC-Type"):
            if r.get(n) is None:
                self.error(where, f"missing mandatory field {n}")
        length_s = r.get("Content-Length") or ""
        if not re.fullmatch(r"\d+", length_s):
            self.error(where, f"bad Content-Length {length_s!r}")
            return None
        length = int(length_s)
        start = end + 4
        r.block = member[start:start + length]
        if len(r.block) != length:
            self.error(where, f"Content-Length {length} but only "
                       f"{len(r.block)} bytes follow the header")
            return None
        rest = member[start + length:]
        if rest != b"\r\n\r\n":
            if rest.startswith(b"\r\n\r\n"):
                self.error(where, f"{len(rest) - 4} bytes after the record in "
                           "its gzip member (more than one record per member?)")
            else:
                self.error(where, f"block not followed by CRLF CRLF (got "
                           f"{rest[:8]!r}); Content-Length does not match")
        return r

    def check_digest(self, where, field, value, data):
        m = re.fullmatch(r"([A-Za-z0-9\-]+):(\S+)", value or "")
        if not m:
            self.error(where, f"malformed {field} {value!r}")
            return
        algo, encoded = m.group(1).lower(), m.group(2)
        if algo not in ("sha1", "sha-1"):
            self.error(where, f"{field}: unsupported algorithm {algo}")
            return
        digest = hashlib.sha1(data).digest()
        ok = (encoded.upper() == base64.b32encode(digest).decode()
              or encoded.lower() == digest.hex())
        if not ok:
            self.error(where, f"{field} mismatch: record says {value}, "
                       f"content gives sha1:{base64.b32encode(digest).decode()}")

    def check_record(self, name, where, r):
        rtype = r.get("WARC-Type") or ""
        self.counts[rtype] = self.counts.get(rtype, 0) + 1
        if rtype not in KNOWN_TYPES:
            self.error(where, f"unknown WARC-Type {rtype!r}")
        rid = r.get("WARC-Record-ID") or ""
        if not RECORD_ID.match(rid):
            self.error(where, f"bad WARC-Record-ID {rid!r}")
        elif rid in self.record_ids:
            self.error(where, f"duplicate WARC-Record-ID {rid} "
                       f"(first at {self.record_ids[rid]})")
        else:
            self.record_ids[rid] = where
        date = r.get("WARC-Date") or ""
        m = WARC_DATE.match(date)
        if not m:
            self.error(where, f"bad WARC-Date {date!r}")
        else:
            try:
                datetime.datetime(*(int(g) for g in m.groups()[:6]))
            except ValueError:
                self.error(where, f"impossible WARC-Date {date!r}")
        for f in ("WARC-Concurrent-To", "WARC-Warcinfo-ID", "WARC-Refers-To"):
            for v in r.get_all(f):
                if not RECORD_ID.match(v):
                    self.error(where, f"bad {f} {v!r}")
        target = r.get("WARC-Target-URI")
        if rtype in NEEDS_TARGET:
            if target is None:
                self.error(where, f"{rtype} record without WARC-Target-URI")
            elif (not target or target.startswith("<") or
                  re.search(r"\s", target) or
                  not re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", target)):
                self.error(where, f"bad WARC-Target-URI {target!r}")
        ip = r.get("WARC-IP-Address")
        if ip is not None:
            try:
                ipaddress.ip_address(ip)
            except ValueError:
                self.error(where, f"bad WARC-IP-Address {ip!r}")
        ctype = r.get("Content-Type")
        if r.block and ctype is None:
            self.error(where, "non-empty block without Content-Type")

        block_digest = r.get("WARC-Block-Digest")
        if block_digest is not None:
            self.check_digest(where, "WARC-Block-Digest", block_digest, r.block)
        elif rtype in ("warcinfo", "request", "response", "revisit"):
            self.error(where, f"{rtype} record without WARC-Block-Digest")

        is_http = (ctype or "").replace(" ", "").lower().startswith(
            "application/http")
        if rtype == "warcinfo":
            if (ctype or "").lower() != "application/warc-fields":
                self.error(where, f"warcinfo Content-Type {ctype!r}")
            for line in r.block.split(b"\r\n"):
                if line and not re.match(rb"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:",
                                         line):
                    self.error(where, f"bad warc-fields line {line[:60]!r}")
            if not r.block.endswith(b"\r\n"):
                self.error(where, "warc-fields block does not end with CRLF")
            filename = r.get("WARC-Filename")
            if filename is not None and filename != os.path.basename(name):
                self.error(where, f"WARC-Filename {filename!r} is not the "
                           f"file's name {os.path.basename(name)!r}")
        elif rtype in ("request", "response") and is_http:
            self.check_http(where, rtype, r)
        elif rtype == "revisit" and is_http:
            self.check_revisit(where, r)
        elif rtype in ("request", "response", "revisit"):
            self.error(where, f"{rtype} with Content-Type {ctype!r}, "
                       "expected application/http")

    def check_revisit(self, where, r):
        """WARC 1.1 §6.7: a profile, the earlier capture's URI (and date if
        given, a W3C-DTF UTC date), a block that is the HTTP response head
        alone; identical-payload-digest carries the payload's digest."""
        profile = r.get("WARC-Profile") or ""
        base = "http://netpreserve.org/warc/1.1/revisit/"
        if profile not in (base + "identical-payload-digest",
                           base + "server-not-modified"):
            self.error(where, f"revisit with WARC-Profile {profile!r}")
        if not r.get("WARC-Refers-To-Target-URI"):
            self.error(where, "revisit without WARC-Refers-To-Target-URI")
        date = r.get("WARC-Refers-To-Date")
        if date is not None and not WARC_DATE.match(date):
            self.error(where, f"bad WARC-Refers-To-Date {date!r}")
        if profile.endswith("identical-payload-digest") and \
                not r.get("WARC-Payload-Digest"):
            self.error(where, "identical-payload-digest revisit without "
                       "WARC-Payload-Digest")
        if "msgtype=response" not in (r.get("Content-Type") or "").replace(" ", ""):
            self.error(where, "revisit Content-Type lacks msgtype=response")
        end = r.block.find(b"\r\n\r\n")
        if end < 0 or end + 4 != len(r.block):
            self.error(where, "revisit block is not an HTTP head alone")
        elif not STATUS_LINE.match(r.block.split(b"\r\n", 1)[0]):
            self.error(where, "revisit block without an HTTP status line")

    def check_http(self, where, rtype, r):
        msgtype = "request" if rtype == "request" else "response"
        ctype = (r.get("Content-Type") or "").replace(" ", "").lower()
        if f"msgtype={msgtype}" not in ctype:
            self.error(where, f"Content-Type {ctype!r} lacks msgtype={msgtype}")
        end = r.block.find(b"\r\n\r\n")
        if end < 0:
            self.error(where, "HTTP head without CRLF CRLF")
            return
        head, payload = r.block[:end], r.block[end + 4:]
        lines = head.split(b"\r\n")
        first = lines[0]
        headers = {}
        for line in lines[1:]:
            colon = line.find(b":")
            if colon <= 0:
                self.error(where, f"malformed HTTP header {line[:60]!r}")
                continue
            headers[line[:colon].strip().lower()] = line[colon + 1:].strip()
        status = None
        if rtype == "request":
            if not REQUEST_LINE.match(first):
                self.error(where, f"bad HTTP request line {first[:80]!r}")
        else:
            m = STATUS_LINE.match(first)
            if not m:
                self.error(where, f"bad HTTP status line {first[:80]!r}")
            else:
                status = int(m.group(2))
            pd = r.get("WARC-Payload-Digest")
            if pd is None:
                self.error(where, "response without WARC-Payload-Digest")
            else:
                self.check_digest(where, "WARC-Payload-Digest", pd, payload)
        length = headers.get(b"content-length")
        no_body = status is not None and (status < 200 or status in (204, 304))
        if (length is not None and not no_body and
                r.get("WARC-Truncated") is None and
                b"chunked" not in headers.get(b"transfer-encoding", b"")):
            if not length.isdigit() or int(length) != len(payload):
                self.error(where, f"HTTP Content-Length {length!r} but the "
                           f"body has {len(payload)} bytes")

    # ---- a file ----------------------------------------------------------

    def check_file(self, name, data):
        records = []
        for offset, member in self.members(name, data):
            where = f"{name}@{offset}"
            r = self.parse(where, offset, member)
            if r is None:
                continue
            self.check_record(name, where, r)
            records.append(r)
        if not records:
            self.error(name, "no records")
            return records
        first = records[0]
        if first.get("WARC-Type") != "warcinfo":
            self.error(f"{name}@0", "first record is not warcinfo")
        infos = {r.get("WARC-Record-ID") for r in records
                 if r.get("WARC-Type") == "warcinfo"}
        by_id = {r.get("WARC-Record-ID"): r for r in records}
        for r in records:
            where = f"{name}@{r.offset}"
            wid = r.get("WARC-Warcinfo-ID")
            if wid is not None and wid not in infos:
                self.error(where, f"WARC-Warcinfo-ID {wid} names no warcinfo "
                           "record of this file")
            rtype = r.get("WARC-Type")
            if rtype not in ("request", "response", "revisit"):
                continue
            # A request's answer is a response, or a revisit of a page
            # archived before.
            other_types = (("response", "revisit") if rtype == "request"
                           else ("request",))
            other_type = "/".join(other_types)
            links = r.get_all("WARC-Concurrent-To")
            partners = [by_id.get(x) for x in links]
            partners = [p for p in partners
                        if p is not None and p.get("WARC-Type") in other_types]
            if len(partners) != 1:
                self.error(where, f"{rtype} for {r.get('WARC-Target-URI')} "
                           f"has {len(partners)} {other_type} records linked "
                           "by WARC-Concurrent-To in this file, expected 1")
                continue
            p = partners[0]
            if p.get("WARC-Target-URI") != r.get("WARC-Target-URI"):
                self.error(where, f"{rtype} and its {other_type} differ in "
                           "WARC-Target-URI")
            if r.get("WARC-Record-ID") not in p.get_all("WARC-Concurrent-To"):
                self.error(where, f"its {other_type} does not link back with "
                           "WARC-Concurrent-To")
        return records


def check(files):
    """(name, bytes) pairs -> (error list, record count)."""
    checker = Checker()
    total = 0
    for name, data in files:
        total += len(checker.check_file(name, data))
    return checker.errors, total, checker.counts


# ---- self-test: corrupted copies must be caught ---------------------------

def gz(data):
    c = zlib.compressobj(wbits=31)
    return c.compress(data) + c.flush()


def split_members(data):
    out, pos = [], 0
    while pos < len(data):
        d = zlib.decompressobj(wbits=31)
        plain = d.decompress(data[pos:])
        used = len(data) - pos - len(d.unused_data)
        out.append((data[pos:pos + used], plain))
        pos += used
    return out


def self_test(name, data):
    """Returns a list of failures of the checker itself."""
    failures = []
    errors, _, _ = check([(name, data)])
    if errors:
        return [f"the unmodified file fails: {errors[:3]}"]
    members = split_members(data)
    resp = next(i for i, (_, p) in enumerate(members)
                if b"\r\nWARC-Type: response\r\n" in p)
    plain = members[resp][1]
    cl = re.search(rb"\r\nContent-Length: (\d+)\r\n", plain)

    def rebuild(replacements):
        return b"".join(replacements.get(i, raw)
                        for i, (raw, _) in enumerate(members))

    flipped = bytearray(plain)
    flipped[-5] ^= 0x01  # the last byte of the block
    cases = {
        "flipped block byte": rebuild({resp: gz(bytes(flipped))}),
        "Content-Length + 1": rebuild({resp: gz(
            plain[:cl.start(1)] + str(int(cl.group(1)) + 1).encode()
            + plain[cl.end(1):])}),
        "Content-Length - 1": rebuild({resp: gz(
            plain[:cl.start(1)] + str(int(cl.group(1)) - 1).encode()
            + plain[cl.end(1):])}),
        "dropped response": rebuild({resp: b""}),
        "two records in one member": rebuild(
            {resp - 1: gz(members[resp - 1][1] + plain), resp: b""}),
        "truncated file": data[:len(data) - 3],
        "trailing garbage": data + b"garbage",
        "WARC/1.0 version": rebuild({resp: gz(
            plain.replace(b"WARC/1.1", b"WARC/1.0", 1))}),
        "duplicate record": data + members[resp][0],
        "no warcinfo first": rebuild({0: b""}),
        "payload digest changed": rebuild({resp: gz(re.sub(
            rb"WARC-Payload-Digest: sha1:.", b"WARC-Payload-Digest: sha1:A",
            plain))}),
        "uncompressed record": rebuild({resp: plain}),
    }
    for label, corrupted in cases.items():
        errors, _, _ = check([(name, corrupted)])
        if not errors:
            failures.append(f"not caught: {label}")
        else:
            print(f"  caught {label}: {errors[0]}")
    return failures


def main(argv):
    args = argv[1:]
    selftest = False
    if args and args[0] == "--self-test":
        selftest = True
        args = args[1:]
    if not args or any(a.startswith("-") for a in args):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    files = []
    for path in args:
        with open(path, "rb") as f:
            files.append((path, f.read()))
    if selftest:
        failures = []
        for name, data in files:
            print(f"self-test on {name}")
            failures += self_test(name, data)
        for f in failures:
            print(f"FAIL: {f}", file=sys.stderr)
        return 1 if failures else 0
    errors, total, counts = check(files)
    for e in errors:
        print(e, file=sys.stderr)
    summary = ", ".join(f"{n} {t}" for t, n in sorted(counts.items()))
    if errors:
        print(f"FAILED: {len(errors)} problems in {len(files)} files "
              f"({total} records: {summary})", file=sys.stderr)
        return 1
    print(f"OK: {len(files)} files, {total} records ({summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

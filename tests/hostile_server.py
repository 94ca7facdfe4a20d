#!/usr/bin/env python3
"""A hostile HTTP server for crawler tests (used by hostile_crawl_test.py).

    python3 tests/hostile_server.py [--port N] [--hostname hostile.test]
                                    [--log FILE]

prints the port it listens on (127.0.0.1) as the first line of standard
output, then serves until SIGINT or SIGTERM, writing one JSON line per
finished request to FILE (standard error by default). From Python:

    sys.path.insert(0, "tests")
    from hostile_server import HostileServer
    with HostileServer() as server:          # a free port on 127.0.0.1
        server.port, server.url("/never")    # http://hostile.test/never
        server.requests("/rate-limited")     # what was asked, when, how it ended

One virtual host (any Host header is answered the same way; the pages link
with the name given as `hostname`, default hostile.test, so a crawler connects
to 127.0.0.1:PORT and keeps that name, e.g. curl --connect-to). The home page
"/" links to every hostile path, each followed by a normal page
(/ok/after-<name>.html) so a test can tell the crawl went on after it; every
normal page links to /ok/deep.html (depth 2). The hostile paths:

  /never            reads the request, never answers; the socket stays open
                    until the client closes it (or the server stops)
  /trickle          headers, then one byte every 0.5 s, forever
  /redirect-loop    302 -> /redirect-loop2 -> /redirect-loop -> ... (relative
                    Locations)
  /redirect-long    302 -> /redirect-long/1 -> ... -> /redirect-long/9 ->
                    /ok/redirect-long-end.html: 10 hops (absolute Locations)
  /redirect-ok      a good one: 2 hops to /ok/redirect-target.html
  /gzip-bomb        Content-Encoding: gzip, text/html, chunked: about 1 MB on
                    the wire that inflates to 1 GiB of spaces (built once,
                    in memory, without compressing 1 GiB: see _gzip_bomb)
  /huge             text/html, Content-Length: 1073741824, the body made on
                    the fly in 64 KiB pieces (never held in memory)
  /huge-chunked     the same, chunked, no length
  /binary           256 KiB of random bytes labelled text/html
  /bad-charset      Content-Type: text/html; charset=x-no-such-charset, with
                    invalid bytes
  /bad-charset-meta <meta charset> naming an unknown charset, invalid UTF-8
  /mixed-charset    declared utf-8, body in latin1
  /rate-limited     429 with Retry-After: 2 the first time, 200 afterwards
  /unavailable      503 with Retry-After: 1 the first time, 200 afterwards
  /headers-flood    500 KB of response headers (500 lines of 1,000 bytes)
  /empty            200 with an empty body
  /not-html         application/pdf
  /forbidden        a normal page, but disallowed by /robots.txt
  /robots.txt       User-agent: * / Disallow: /forbidden

Anything else is 404. Normal pages use keep-alive (HTTP/1.1, Content-Length);
the hostile ones close the connection after answering.

Every request is logged (HostileServer.requests()): path, wall and monotonic
time of arrival and of the end, status sent, body bytes sent and how it ended
("complete", "client closed", "server stopped", "write timeout", "gave up").

Robustness: handler threads are daemons; every socket has a 10 s timeout, so a
client that stops reading does not block a handler for longer; the waiting
handlers (/never, /trickle) watch the client socket and the server's stop
event and end within 0.25 s of either; stop() shuts every open client socket
down. Nothing of this server outlives stop() by more than a moment, and a
forgotten server does not keep the interpreter alive.
"""

import argparse
import html
import json
import random
import select
import signal
import socket
import struct
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

HUGE_BYTES = GIB              # /huge and /huge-chunked
BOMB_BYTES = GIB              # what /gzip-bomb inflates to
TRICKLE_INTERVAL = 0.5        # seconds between two bytes of /trickle
HOLD_LIMIT = 600              # /never and /trickle give up after this (s)
SOCKET_TIMEOUT = 10           # every client socket, reads and writes
REDIRECT_LONG_HOPS = 10       # redirects from /redirect-long to its end
RATE_LIMIT_RETRY_AFTER = 2    # seconds, /rate-limited
UNAVAILABLE_RETRY_AFTER = 1   # seconds, /unavailable
HEADER_FLOOD_LINES = 500      # of HEADER_FLOOD_LINE_BYTES each
HEADER_FLOOD_LINE_BYTES = 1000

# The hostile links of the home page, in order, with what each one is.
HOSTILE = [
    ("/never", "never answers"),
    ("/trickle", "one byte every 0.5 s"),
    ("/redirect-loop", "redirect loop"),
    ("/redirect-long", "10-hop redirect chain"),
    ("/redirect-ok", "2-hop redirect to a normal page"),
    ("/gzip-bomb", "1 GiB gzip bomb"),
    ("/huge", "1 GiB body with Content-Length"),
    ("/huge-chunked", "1 GiB chunked body"),
    ("/binary", "random bytes as text/html"),
    ("/bad-charset", "unknown charset in Content-Type"),
    ("/bad-charset-meta", "unknown charset in meta"),
    ("/mixed-charset", "latin1 declared as utf-8"),
    ("/rate-limited", "429 Retry-After: 2 once"),
    ("/unavailable", "503 Retry-After: 1 once"),
    ("/headers-flood", "500 KB of headers"),
    ("/empty", "empty body"),
    ("/not-html", "application/pdf"),
    ("/forbidden", "disallowed by robots.txt"),
]

ROBOTS_TXT = b"User-agent: *\nDisallow: /forbidden\n"

TEXT = ("Crawlers meet hostile servers: pages that never answer, bodies that "
        "never end, redirects that go round in circles and compressed bodies "
        "that inflate a thousandfold. A robust crawler bounds the time, the "
        "bytes and the hops of every fetch, records what went wrong and goes "
        "on with the next page of the frontier.")


def _name(path):
    """"/redirect-loop" -> "redirect-loop"."""
    return path.strip("/").replace("/", "-")


def after_page(path):
    """The normal page linked right after the hostile `path` on the home page."""
    return "/ok/after-%s.html" % _name(path)


NORMAL = ([after_page(p) for p, _ in HOSTILE]
          + ["/ok/deep.html", "/ok/redirect-target.html"])
REDIRECT_LOOP = ["/redirect-loop", "/redirect-loop2"]
REDIRECT_LONG = (["/redirect-long"]
                 + ["/redirect-long/%d" % i
                    for i in range(1, REDIRECT_LONG_HOPS)])
REDIRECT_LONG_END = "/ok/redirect-long-end.html"
REDIRECT_OK = ["/redirect-ok", "/redirect-ok/1"]
REDIRECT_OK_TARGET = "/ok/redirect-target.html"


def _page(title, body_html):
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>%s'
            '</title></head>\n<body>\n%s\n</body></html>\n'
            % (html.escape(title), body_html)).encode("utf-8")


def _home_page(hostname):
    items = []
    for i, (path, what) in enumerate(HOSTILE):
        # Alternate root-relative and absolute links.
        href = path if i % 2 == 0 else "http://%s%s" % (hostname, path)
        items.append('<li><a href="%s">%s</a> (%s)</li>'
                     % (href, html.escape(path), html.escape(what)))
        items.append('<li><a href="%s">Normal page after %s</a></li>'
                     % (after_page(path), html.escape(path)))
    return _page("Hostile server", "<h1>Hostile server</h1>\n<p>%s</p>\n"
                 "<ul>\n%s\n</ul>" % (TEXT, "\n".join(items)))


def _normal_page(path):
    return _page("Normal page %s" % path,
                 '<h1>Normal page</h1>\n<p>%s</p>\n<p>This is %s.</p>\n'
                 '<p><a href="/ok/deep.html">A page one level deeper</a> '
                 '<a href="/">Home</a></p>' % (TEXT, html.escape(path)))


def _huge_piece():
    """64 KiB of HTML paragraphs, repeated to make /huge."""
    para = ("<p>%s</p>\n" % TEXT).encode("ascii")
    piece = para * (64 * KIB // len(para) + 1)
    return piece[:64 * KIB]


def _gf2_times(mat, vec):
    s, i = 0, 0
    while vec:
        if vec & 1:
            s ^= mat[i]
        vec >>= 1
        i += 1
    return s


def _crc32_combine(crc1, crc2, len2):
    """CRC-32 of A+B from crc(A), crc(B) and len(B) (zlib's crc32_combine,
    which Python's zlib does not expose)."""
    if len2 <= 0:
        return crc1
    odd = [0xEDB88320] + [1 << k for k in range(31)]  # one zero bit
    even = [_gf2_times(odd, odd[k]) for k in range(32)]  # two
    odd = [_gf2_times(even, even[k]) for k in range(32)]  # four
    while True:
        even = [_gf2_times(odd, odd[k]) for k in range(32)]
        if len2 & 1:
            crc1 = _gf2_times(even, crc1)
        len2 >>= 1
        if not len2:
            break
        odd = [_gf2_times(even, even[k]) for k in range(32)]
        if len2 & 1:
            crc1 = _gf2_times(odd, crc1)
        len2 >>= 1
        if not len2:
            break
    return crc1 ^ crc2


def _crc32_repeat(crc, length, n):
    """CRC-32 of n copies of a block whose CRC-32 is `crc` and size `length`."""
    result = 0
    while n:
        if n & 1:
            result = _crc32_combine(result, crc, length)
        crc = _crc32_combine(crc, crc, length)
        length *= 2
        n >>= 1
    return result


def _gzip_bomb(total=BOMB_BYTES):
    """A gzip member that inflates to `total` bytes (HTML head + spaces).

    Deflating 1 GiB would take seconds; instead one MiB of spaces is deflated
    once, ending with a full flush: that output is byte-aligned and refers to
    nothing before it, so the same bytes can be repeated to make the stream
    (each copy inflates to the same MiB). CRC-32 and length go in the trailer.
    About 1 MB in all (deflate's ratio is at most about 1032:1), built in
    about 0.5 s.
    """
    head = b"<!DOCTYPE html><html><head><title>bomb</title></head><body><p>"
    chunk = b" " * MIB
    n, rest = divmod(total - len(head), len(chunk))

    def deflate(data, last=False):
        c = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
        return c.compress(data) + c.flush(zlib.Z_FINISH if last
                                          else zlib.Z_FULL_FLUSH)

    block = deflate(chunk)
    parts = [b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff", deflate(head)]
    parts.append(block * n)
    parts.append(deflate(chunk[:rest], last=True))
    crc = _crc32_combine(zlib.crc32(head),
                         _crc32_repeat(zlib.crc32(chunk), len(chunk), n),
                         n * len(chunk))
    crc = zlib.crc32(chunk[:rest], crc)
    parts.append(struct.pack("<II", crc & 0xFFFFFFFF, total & 0xFFFFFFFF))
    return b"".join(parts)


class _Stop(Exception):
    """The handler ends: client gone, server stopping, or timed out."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hostile/1.0"
    sys_version = ""
    timeout = SOCKET_TIMEOUT

    # --- plumbing ------------------------------------------------------

    def setup(self):
        super().setup()
        self.server.owner._track(self.connection, True)

    def finish(self):
        try:
            super().finish()
        finally:
            self.server.owner._track(self.connection, False)

    def log_message(self, format, *args):  # noqa: A002 (base class name)
        pass  # requests are logged as records, see _begin/_end

    def _begin(self):
        owner = self.server.owner
        self.rec = {
            "path": self.path,
            "method": self.command,
            "host": self.headers.get("Host", ""),
            "user_agent": self.headers.get("User-Agent", ""),
            "accept_encoding": self.headers.get("Accept-Encoding", ""),
            "client_port": self.client_address[1],
            "start": time.time(),
            "mono": time.monotonic(),
            "end": None,
            "end_mono": None,
            "status": None,
            "sent": 0,
            "outcome": "running",
        }
        owner._log_start(self.rec)

    def _end(self, outcome):
        self.rec["end"] = time.time()
        self.rec["end_mono"] = time.monotonic()
        self.rec["outcome"] = outcome
        self.server.owner._log_end(self.rec)

    def _stopping(self):
        return self.server.owner._stop.is_set()

    def _write(self, data, body=True):
        if self._stopping():
            raise _Stop("server stopped")
        try:
            self.wfile.write(data)
        except socket.timeout:
            raise _Stop("write timeout")
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError,
                OSError):
            raise _Stop("server stopped" if self._stopping()
                        else "client closed")
        if body:
            self.rec["sent"] += len(data)

    def _head(self, status, headers, close=False):
        self.rec["status"] = status
        lines = ["HTTP/1.1 %d %s" % (status, self.responses.get(
            status, ("",))[0]),
                 "Server: " + self.server_version,
                 "Date: " + self.date_time_string()]
        for k, v in headers:
            lines.append("%s: %s" % (k, v))
        if close:
            lines.append("Connection: close")
            self.close_connection = True
        self._write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"),
                    body=False)

    def _send(self, status, body, content_type="text/html; charset=utf-8",
              extra=(), close=False):
        headers = [("Content-Type", content_type),
                   ("Content-Length", str(len(body)))] + list(extra)
        self._head(status, headers, close)
        if self.command != "HEAD":
            self._write(body)

    def _wait(self, seconds):
        """Sleeps up to `seconds` while the client stays connected.

        Raises _Stop when the client closes (or sends anything: this server
        answers one request per connection on the waiting paths) or the
        server stops.
        """
        deadline = time.monotonic() + seconds
        while True:
            if self._stopping():
                raise _Stop("server stopped")
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                r, _, _ = select.select([self.connection], [], [],
                                        min(0.25, left))
            except (OSError, ValueError):
                raise _Stop("client closed")
            if r:
                try:
                    data = self.connection.recv(4096)
                except (OSError, socket.timeout):
                    data = b""
                if not data:
                    raise _Stop("server stopped" if self._stopping()
                                else "client closed")

    # --- dispatch ------------------------------------------------------

    def do_GET(self):
        self._begin()
        outcome = "complete"
        try:
            self._route(urlsplit(self.path).path)
        except _Stop as e:
            outcome = str(e)
            self.close_connection = True
        except Exception as e:  # a bug here must not kill the server
            outcome = "handler error: %r" % (e,)
            self.close_connection = True
        finally:
            self._end(outcome)

    do_HEAD = do_GET

    def _route(self, path):
        owner = self.server.owner
        if path == "/":
            return self._send(200, owner._home)
        if path == "/robots.txt":
            return self._send(200, ROBOTS_TXT, "text/plain")
        if path in NORMAL or path in (REDIRECT_LONG_END, "/forbidden"):
            return self._send(200, _normal_page(path))
        handler = {
            "/never": self._never,
            "/trickle": self._trickle,
            "/gzip-bomb": self._gzip_bomb,
            "/huge": self._huge,
            "/huge-chunked": self._huge_chunked,
            "/binary": self._binary,
            "/bad-charset": self._bad_charset,
            "/bad-charset-meta": self._bad_charset_meta,
            "/mixed-charset": self._mixed_charset,
            "/rate-limited": self._rate_limited,
            "/unavailable": self._unavailable,
            "/headers-flood": self._headers_flood,
            "/empty": self._empty,
            "/not-html": self._not_html,
        }.get(path)
        if handler:
            return handler()
        if path in REDIRECT_LOOP:
            other = REDIRECT_LOOP[1 - REDIRECT_LOOP.index(path)]
            return self._redirect(other.lstrip("/"))  # relative reference
        if path in REDIRECT_LONG:
            i = REDIRECT_LONG.index(path)
            nxt = (REDIRECT_LONG[i + 1] if i + 1 < len(REDIRECT_LONG)
                   else REDIRECT_LONG_END)
            return self._redirect("http://%s%s" % (owner.hostname, nxt))
        if path in REDIRECT_OK:
            i = REDIRECT_OK.index(path)
            nxt = (REDIRECT_OK[i + 1] if i + 1 < len(REDIRECT_OK)
                   else REDIRECT_OK_TARGET)
            return self._redirect(nxt)
        return self._send(404, _page("Not found", "<p>Not found.</p>"))

    # --- the hostile paths ---------------------------------------------

    def _redirect(self, location):
        self._send(302, _page("Moved", '<p><a href="%s">Moved</a></p>'
                              % html.escape(location)),
                   extra=[("Location", location)])

    def _never(self):
        self.rec["status"] = 0
        self._wait(HOLD_LIMIT)
        raise _Stop("gave up")

    def _trickle(self):
        self._head(200, [("Content-Type", "text/html; charset=utf-8")],
                   close=True)  # no length: the body ends when we close
        self._write(b"<html><body><p>")
        deadline = time.monotonic() + HOLD_LIMIT
        while time.monotonic() < deadline:
            self._wait(TRICKLE_INTERVAL)
            self._write(b"x")
        raise _Stop("gave up")

    def _chunked(self, pieces):
        for piece in pieces:
            self._write(b"%x\r\n" % len(piece), body=False)
            self._write(piece)
            self._write(b"\r\n", body=False)
        self._write(b"0\r\n\r\n", body=False)

    def _gzip_bomb(self):
        bomb = self.server.owner._bomb
        self._head(200, [("Content-Type", "text/html; charset=utf-8"),
                         ("Content-Encoding", "gzip"),
                         ("Transfer-Encoding", "chunked")], close=True)
        self._chunked(bomb[i:i + 64 * KIB]
                      for i in range(0, len(bomb), 64 * KIB))

    def _huge_pieces(self):
        piece = self.server.owner._huge_piece
        head = b"<!DOCTYPE html><html><head><title>huge</title></head><body>"
        yield head
        left = HUGE_BYTES - len(head)
        while left > 0:
            n = min(left, len(piece))
            yield piece[:n]
            left -= n

    def _huge(self):
        self._head(200, [("Content-Type", "text/html; charset=utf-8"),
                         ("Content-Length", str(HUGE_BYTES))], close=True)
        for piece in self._huge_pieces():
            self._write(piece)

    def _huge_chunked(self):
        self._head(200, [("Content-Type", "text/html; charset=utf-8"),
                         ("Transfer-Encoding", "chunked")], close=True)
        self._chunked(self._huge_pieces())

    def _binary(self):
        self._send(200, self.server.owner._binary, close=True)

    def _bad_charset(self):
        body = (b"<html><head><title>Bad charset \xff\xfe</title></head><body>"
                b"<p>" + TEXT.encode() + b" Invalid bytes: \xff\xfe\x80\x81"
                b"\xc0\xaf \xed\xa0\x80 \xf8\x88\x80\x80\x80 end.</p>"
                b"</body></html>\n")
        self._send(200, body, "text/html; charset=x-no-such-charset",
                   close=True)

    def _bad_charset_meta(self):
        body = (b'<html><head><meta charset="x-unknown-charset-42">'
                b'<meta http-equiv="Content-Type" content="text/html; '
                b'charset=x-also-unknown"><title>Bad meta charset \xc3\x28'
                b"</title></head><body><p>" + TEXT.encode()
                + b" Invalid UTF-8: \xc3\x28 \xa0\xa1 \xe2\x28\xa1 \xf0\x28"
                b"\x8c\xbc \xff end.</p></body></html>\n")
        self._send(200, body, "text/html", close=True)

    def _mixed_charset(self):
        body = ("<html><head><meta charset=\"utf-8\"><title>Caf\u00e9 "
                "na\u00efve</title></head><body><p>%s \u00dcber caf\u00e9, "
                "na\u00efve, se\u00f1or, \u00e0 la carte.</p>"
                "<p>Mixed: UTF-8 caf\u00e9 follows.</p></body></html>\n"
                % TEXT).encode("latin-1")
        body = body.replace(b"UTF-8 caf\xe9", "UTF-8 café".encode("utf-8"))
        self._send(200, body, "text/html; charset=utf-8", close=True)

    def _once_then_ok(self, path, status, retry_after):
        owner = self.server.owner
        with owner._lock:
            first = owner._served.get(path, 0) == 0
            owner._served[path] = owner._served.get(path, 0) + 1
        if first:
            self._send(status, _page("Try later", "<p>Try again later.</p>"),
                       extra=[("Retry-After", str(retry_after))], close=True)
        else:
            self._send(200, _normal_page(path))

    def _rate_limited(self):
        self._once_then_ok("/rate-limited", 429, RATE_LIMIT_RETRY_AFTER)

    def _unavailable(self):
        self._once_then_ok("/unavailable", 503, UNAVAILABLE_RETRY_AFTER)

    def _headers_flood(self):
        name_len = len("X-Flood-000: ") + 2  # and CRLF
        value = "a" * (HEADER_FLOOD_LINE_BYTES - name_len)
        flood = [("X-Flood-%03d" % i, value)
                 for i in range(HEADER_FLOOD_LINES)]
        body = _normal_page("/headers-flood")
        self._head(200, [("Content-Type", "text/html; charset=utf-8"),
                         ("Content-Length", str(len(body)))] + flood,
                   close=True)
        self._write(body)

    def _empty(self):
        self._send(200, b"", close=True)

    def _not_html(self):
        body = (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >>\n"
                b"endobj\n" + bytes(range(256)) * 16 + b"\n%%EOF\n")
        self._send(200, body, "application/pdf", close=True)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 64

    def handle_error(self, request, client_address):
        pass  # a client that vanishes mid-request is normal here


class HostileServer:
    """The server on 127.0.0.1; a context manager (start on enter, stop on
    exit). `log` (a file object) gets one JSON line per finished request."""

    def __init__(self, port=0, hostname="hostile.test", log=None):
        self.hostname = hostname
        self._log_file = log
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._records = []
        self._served = {}
        self._conns = set()
        self._home = _home_page(hostname)
        self._huge_piece = _huge_piece()
        self._binary = random.Random(20240601).randbytes(256 * KIB)
        self._bomb = _gzip_bomb()
        self._httpd = _Server(("127.0.0.1", port), _Handler,
                              bind_and_activate=True)
        self._httpd.owner = self
        self.port = self._httpd.server_address[1]
        self._thread = None

    # --- life ----------------------------------------------------------

    def start(self):
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1},
            name="hostile-server", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        """Stops accepting, ends every handler, closes every client socket."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self._thread:
            self._httpd.shutdown()
            self._thread.join(5)
        with self._lock:
            conns = list(self._conns)
        for c in conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._httpd.server_close()
        # Handlers notice within 0.25 s; give them a moment to log their end.
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            with self._lock:
                if not self._conns:
                    break
            time.sleep(0.05)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # --- what tests use ------------------------------------------------

    def url(self, path):
        return "http://%s%s" % (self.hostname, path)

    def requests(self, path=None):
        """Copies of the request records, in arrival order; only those for
        `path` (exact, query included) when given."""
        with self._lock:
            recs = [dict(r) for r in self._records]
        if path is not None:
            recs = [r for r in recs if r["path"] == path]
        return recs

    def open_requests(self):
        """Requests whose handler has not finished yet."""
        return [r for r in self.requests() if r["end"] is None]

    # --- internals -----------------------------------------------------

    def _track(self, conn, add):
        with self._lock:
            if add:
                self._conns.add(conn)
            else:
                self._conns.discard(conn)

    def _log_start(self, rec):
        with self._lock:
            self._records.append(rec)

    def _log_end(self, rec):
        if self._log_file is not None:
            line = json.dumps(rec, sort_keys=True)
            with self._lock:
                try:
                    self._log_file.write(line + "\n")
                    self._log_file.flush()
                except (OSError, ValueError):
                    pass


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=0,
                    help="port on 127.0.0.1 (default: a free one)")
    ap.add_argument("--hostname", default="hostile.test",
                    help="host name used in the pages' links")
    ap.add_argument("--log", help="request log (JSON lines; default stderr)")
    args = ap.parse_args(argv)
    log = open(args.log, "a") if args.log else sys.stderr
    server = HostileServer(args.port, args.hostname, log)
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    server.start()
    print(server.port, flush=True)
    try:
        while not done.wait(0.1):
            pass
    finally:
        server.stop()
        if args.log:
            log.close()


if __name__ == "__main__":
    main()

"""A DNS server on 127.0.0.1 for tests and benchmarks of the crawl's own
resolver (fetch.dns_servers, protocol/resolver.h): hosts that do not resolve,
the way an old web's dead hosts do, without a network.

    dns = FakeDns({"a.test": "127.0.0.1", "b.test": "NXDOMAIN", "c.test": None})
    ... fetch { dns_servers: "127.0.0.1:%d" } ... % dns.port
    dns.stop()
"""

import collections
import socket
import threading


class FakeDns:
    """A DNS server on 127.0.0.1 (UDP, a free port) for the crawl's own
    resolver (fetch.dns_servers). `answers` maps a name to an IPv4 address,
    'NXDOMAIN', or None (never answered); other names are NXDOMAIN. AAAA
    questions for a name with an address get an empty answer. Counts the A
    questions per name."""

    def __init__(self, answers):
        self.answers = answers
        self.queries = collections.Counter()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(('127.0.0.1', 0))
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.stopping = False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def stop(self):
        self.stopping = True
        self.thread.join()
        self.sock.close()

    def serve(self):
        while not self.stopping:
            try:
                q, peer = self.sock.recvfrom(512)
            except socket.timeout:
                continue
            if len(q) < 12:
                continue
            i, labels = 12, []
            while i < len(q) and q[i] != 0:
                labels.append(q[i + 1:i + 1 + q[i]].decode('ascii', 'replace'))
                i += 1 + q[i]
            qtype = int.from_bytes(q[i + 1:i + 3], 'big')
            question_end = i + 5
            name = '.'.join(labels).lower()
            if qtype == 1:
                self.queries[name] += 1
            answer = self.answers.get(name, 'NXDOMAIN')
            if answer is None:
                continue  # silence: the lookup times out
            nx = answer == 'NXDOMAIN'
            header = q[:2] + bytes([0x81, 0x83 if nx else 0x80]) + b'\x00\x01'
            records = b''
            if not nx and qtype == 1:
                records = (b'\xc0\x0c\x00\x01\x00\x01' + (300).to_bytes(4, 'big') +
                           b'\x00\x04' + socket.inet_aton(answer))
            header += (1 if records else 0).to_bytes(2, 'big') + b'\x00\x00\x00\x00'
            self.sock.sendto(header + q[12:question_end] + records, peer)

# SPDX-License-Identifier: GPL-2.0-only
# udp-send.py SIZE... - for the e2e scripts: one datagram of each SIZE
# bytes to udp ports 9 and 10 of 127.0.0.1, then of ::1, with sockets
# bound there to receive them; a send the ruleset refuses is passed over.
import socket
import sys

rx = []
for fam, addr in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    for port in (9, 10):
        r = socket.socket(fam, socket.SOCK_DGRAM)
        r.bind((addr, port))
        rx.append(r)
for fam, addr in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    s = socket.socket(fam, socket.SOCK_DGRAM)
    for size in (int(a) for a in sys.argv[1:]):
        for port in (9, 10):
            try:
                s.sendto(b"x" * size, (addr, port))
            except OSError:
                pass

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""xt-string-tcp.py FAMILY: one TCP connection over lo to port 8000 sending
each message of MSGS as its own segment (TCP_NODELAY, the next one only
after the peer has read it and answered): the payloads sit in page
fragments of the skbs (tcp_sendmsg()), the headers in their heads."""
import socket
import sys

MSGS = [b"XYZhello world", b"abcXYZdef", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"Q" * 3000 + b"XYZ" + b"R" * 100, b"xyz" + b"\xe9" * 40 + b"END"]

fam = socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET
addr = "::1" if fam == socket.AF_INET6 else "127.0.0.1"
srv = socket.socket(fam)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind((addr, 8000))
srv.listen(1)
c = socket.create_connection((addr, 8000), timeout=5)
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
a, _ = srv.accept()
a.settimeout(5)
for m in MSGS:
    c.sendall(m)
    got = b""
    while len(got) < len(m):
        got += a.recv(65536)
    a.sendall(b"k")
    assert c.recv(1) == b"k"
c.close()
a.close()

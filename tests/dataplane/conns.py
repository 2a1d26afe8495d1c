#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""conns.py - the "conns" phase of the differential suite: real TCP
connections and UDP flows inside fw, over its loopback, from several of its
own source addresses (IPv4 and IPv6), some kept open, some closed, for
rulesets that count connections (ct count, meters, xt connlimit).

Run in fw's namespace (ip netns exec). Prints one line per event: what it
was and its outcome (TCP connect: ok, refused, timeout (no answer within
CONNECT_WAIT: the SYN was dropped), or an errno name; UDP: the send result
and whether the receiver got the datagram). Events are spaced by GAP so
that no two of them fall in the same jiffy: the kernel's connection
counting skips its garbage collection within one jiffy, and the outcome of
an event must not depend on where a jiffy boundary falls. Closes are
complete (both ends closed, the connection in TIME_WAIT) before the next
event starts. Every loop is bounded; the phase takes a few seconds.
"""
import errno
import select
import socket
import sys
import threading
import time

GAP = 0.03            # s between events (> 1 jiffy at HZ >= 100)
CONNECT_WAIT = 0.5    # s: a connect with no answer by then was dropped
CLOSE_WAIT = 3.0      # s: the server thread closes its end by then
RECV_WAIT = 0.2       # s: a datagram not received by then was dropped
PORT_TCP, PORT_UDP = 8181, 9191
V4, V4B, V6, V6B = '10.1.0.1', '10.1.0.3', 'fd01::1', 'fd01::3'


def server(fam, addr):
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    s.bind((addr, PORT_TCP))
    s.listen(64)

    def serve(c):
        # close when the client does: both ends closed, no data
        try:
            while c.recv(64):
                pass
        except OSError:
            pass
        c.close()

    def loop():
        while True:
            try:
                c, _ = s.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(c,), daemon=True).start()
    threading.Thread(target=loop, daemon=True).start()
    return s


def connect(fam, src, dst):
    c = socket.socket(fam, socket.SOCK_STREAM)
    c.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    c.bind((src, 0))
    c.setblocking(False)
    err = c.connect_ex((dst, PORT_TCP))
    if err == errno.EINPROGRESS:
        _, w, _ = select.select([], [c], [], CONNECT_WAIT)
        err = c.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) if w else errno.ETIMEDOUT
    if err:
        c.close()
        return None, {errno.ECONNREFUSED: 'refused', errno.ETIMEDOUT: 'timeout'}.get(
            err, errno.errorcode.get(err, str(err)))
    return c, 'ok'


def close(c):
    """close a connection and wait (bounded) until the server closed its
    end too: the client socket sees EOF before it is closed"""
    if c is None:
        return 'none'
    c.setblocking(True)
    c.shutdown(socket.SHUT_WR)
    c.settimeout(CLOSE_WAIT)
    try:
        got = c.recv(64)
        res = 'closed' if got == b'' else 'data'
    except OSError as e:
        res = errno.errorcode.get(e.errno, 'timeout')
    c.close()
    return res


def main():
    out = []
    srv = [server(socket.AF_INET, '0.0.0.0'), server(socket.AF_INET6, '::')]
    urecv = {}
    for fam, addr in ((socket.AF_INET, V4), (socket.AF_INET6, V6)):
        u = socket.socket(fam, socket.SOCK_DGRAM)
        u.bind((addr, PORT_UDP))
        urecv[fam] = u
    conns = {}

    def tcp(name, fam, src, dst):
        conns[name], res = connect(fam, src, dst)
        out.append('%s tcp %s -> %s: %s' % (name, src, dst, res))
        time.sleep(GAP)

    def end(name):
        out.append('%s close: %s' % (name, close(conns.pop(name))))
        time.sleep(GAP)

    usocks = {}

    def udp(name, fam, src, dst):
        u = usocks.get(name)
        if u is None:
            u = usocks[name] = socket.socket(fam, socket.SOCK_DGRAM)
            u.bind((src, 0))
        try:
            u.sendto(name.encode(), (dst, PORT_UDP))
            sent = 'sent'
        except OSError as e:
            sent = errno.errorcode.get(e.errno, str(e.errno))
        r, _, _ = select.select([urecv[fam]], [], [], RECV_WAIT)
        got = urecv[fam].recv(64).decode() if r else ''
        out.append('%s udp %s -> %s: %s, %s' % (name, src, dst, sent,
                                                'received' if got == name else 'not received'))
        time.sleep(GAP)

    A4, A6 = socket.AF_INET, socket.AF_INET6
    for i in range(1, 5):
        tcp('t%d' % i, A4, V4, V4)
    tcp('t5', A4, V4B, V4)
    tcp('t6', A4, V4B, V4)
    end('t1')
    tcp('t7', A4, V4, V4)
    end('t2')
    end('t3')
    tcp('t8', A4, V4, V4)
    tcp('t9', A4, V4, V4)
    tcp('t10', A4, V4B, V4)
    for i in range(1, 5):
        udp('u%d' % i, A4, V4, V4)
    udp('u1', A4, V4, V4)
    udp('u5', A4, V4B, V4)
    for i in range(1, 4):
        tcp('s%d' % i, A6, V6, V6)
    tcp('s4', A6, V6B, V6)
    end('s1')
    tcp('s5', A6, V6, V6)
    udp('w1', A6, V6, V6)
    udp('w2', A6, V6B, V6)
    for name in sorted(conns):
        end(name)
    for s in srv + list(urecv.values()) + list(usocks.values()):
        s.close()
    print('\n'.join(out))
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# connlimit-meter.py NFT... - run in a scratch netns whose ruleset counts
# connections per source in a dynamic set (tests/e2e/connlimit_meter.sh):
# real TCP connections and UDP flows over lo from 127.0.0.2 and 127.0.0.3,
# then the set's listing ("nft list set ip t perip", with the command
# prefix given as arguments), the meter's (tcpm, keyed by the /24 of
# the source) and an IPv6 set's (m6, keyed by the source /127, connections
# from ::1) at fixed points: while connections are open,
# after some close, and long enough after the others ended for the set's
# garbage collection (once a second) to have removed the elements whose
# connection list emptied. Prints one block per checkpoint; timing lines
# ("# ...") are informational: when each element left the listing (polled
# every 100 ms). Then elements deleted and flushed by the control plane:
# their lists go with them.
import socket
import subprocess
import sys
import time

NFT = sys.argv[1:]


def listing(what=('set', 'perip')):
    fam, table = ('ip6', 't6') if what[1] == 'm6' else ('ip', 't')
    out = subprocess.run(NFT + ['list', what[0], fam, table, what[1]],
                         capture_output=True, text=True, timeout=20)
    return out.stdout + out.stderr


def elements(what=('set', 'perip')):
    """the set's elements line(s), joined; "(none)" without"""
    out, inside = [], False
    for line in listing(what).splitlines():
        line = line.strip()
        if line.startswith('elements = '):
            inside = True
        if inside:
            out.append(line)
            if line.endswith('}'):
                break
    return ' '.join(out) if out else 'elements = (none)'


def show(label):
    print('## ' + label)
    print(elements())
    print('meter tcpm: ' + elements(('meter', 'tcpm')))
    print('set m6: ' + elements(('set', 'm6')))
    sys.stdout.flush()


def tcp(src):
    v6 = ':' in src
    c = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET, socket.SOCK_STREAM)
    c.settimeout(2)
    c.bind((src, 0))
    try:
        c.connect(('::1' if v6 else '127.0.0.1', 8181))
    except OSError as e:
        c.close()
        return None, 'refused' if isinstance(e, ConnectionRefusedError) else 'timeout'
    s, _ = (srv6 if v6 else srv).accept()
    return (c, s), 'ok'


def close(pair):
    c, s = pair
    c.close()
    time.sleep(0.05)
    s.close()
    time.sleep(0.05)


def udp(src, n=1):
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind((src, 0))
    for _ in range(n):
        u.sendto(b'x', ('127.0.0.1', 9191))
    u.close()


def wait_gone(pattern, limit):
    """seconds until @pattern leaves the listing (None: still there)"""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if pattern not in elements():
            return time.monotonic() - t0
        time.sleep(0.1)
    return None


srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(('127.0.0.1', 8181))
srv.listen(16)
srv6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
srv6.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv6.bind(('::1', 8181))
srv6.listen(16)
usrv = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
usrv.bind(('127.0.0.1', 9191))

events = []
a1, r = tcp('127.0.0.2'); events.append('a1 ' + r)
a2, r = tcp('127.0.0.2'); events.append('a2 ' + r)
b1, r = tcp('127.0.0.3'); events.append('b1 ' + r)
a3, r = tcp('127.0.0.2'); events.append('a3 ' + r + ' (over 2)')
v1, r = tcp('::1'); events.append('v1 ' + r)
v2, r = tcp('::1'); events.append('v2 ' + r + ' (over 1)')
udp('127.0.0.4')
print('\n'.join(events))
show('open: 127.0.0.2 x2, 127.0.0.3 x1, udp from 127.0.0.4')
# the elements as the other listings show them
for args in (['list', 'meters'], ['-j', 'list', 'set', 'ip', 't', 'perip'],
             ['--debug=netlink', 'list', 'set', 'ip', 't', 'perip']):
    out = subprocess.run(NFT + args, capture_output=True, text=True, timeout=20)
    lines = (out.stdout + out.stderr).splitlines()
    # element lines of the netlink dump in hash order: sorted
    elems = sorted(l for l in lines if l.startswith('\telement '))
    lines = [l for l in lines if not l.startswith('\telement ')] + elems
    print('## nft ' + ' '.join(args))
    print('\n'.join(lines))
# 127.0.0.3's only connection closes (TIME_WAIT: the list's gc drops it),
# and so does ::1's
close(b1)
close(v1)
t = wait_gone('127.0.0.3', 5)
print('# 127.0.0.3 left %s after its close' % ('%.1fs' % t if t is not None else 'not'))
time.sleep(1.5)
show('127.0.0.3 closed, 2.5 s or more')
# one of 127.0.0.2's two closes: it stays
close(a1)
time.sleep(2.5)
show('127.0.0.2: one of two closed, 2.5 s')
a4, r = tcp('127.0.0.2')
print('a4 ' + r + ' (one open: not over 2)')
close(a2)
close(a4)
t = wait_gone('127.0.0.2', 5)
print('# 127.0.0.2 left %s after its last close' % ('%.1fs' % t if t is not None else 'not'))
time.sleep(1.5)
show('127.0.0.2 closed, 2.5 s or more')
# the UDP flow's conntrack times out (nf_conntrack_udp_timeout set low)
t = wait_gone('127.0.0.4', 15)
print('# 127.0.0.4 left %s after the last checkpoint' % ('%.1fs' % t if t is not None else 'not'))
time.sleep(1.5)
show('udp conntrack timed out, 1.5 s or more')
# a new connection from a source whose element went: a new element
b2, r = tcp('127.0.0.3'); print('b2 ' + r)
show('127.0.0.3 again')
# an element deleted with two connections open: the next connection makes
# a new element whose list starts empty (the old list went with the old
# element), so a third connection is not over 2
a5, r = tcp('127.0.0.2'); print('a5 ' + r)
a6, r = tcp('127.0.0.2'); print('a6 ' + r)
subprocess.run(NFT + ['delete', 'element', 'ip', 't', 'perip', '{ 127.0.0.2 }'],
               check=True, timeout=20)
show('127.0.0.2 deleted')
a7, r = tcp('127.0.0.2'); print('a7 ' + r + ' (a new list)')
a8, r = tcp('127.0.0.2'); print('a8 ' + r)
a9, r = tcp('127.0.0.2'); print('a9 ' + r + ' (over 2)')
show('127.0.0.2 anew')
subprocess.run(NFT + ['flush', 'set', 'ip', 't', 'perip'], check=True, timeout=20)
b3, r = tcp('127.0.0.2'); print('b3 ' + r + ' (flushed: a new list)')
show('flushed, 127.0.0.2 anew')
for pair in (a5, a6, a7, a8, b2, b3):
    if pair:
        close(pair)
time.sleep(2.5)
show('all closed, 2.5 s')

# SPDX-License-Identifier: GPL-2.0-only
# persist-udp.py - for tests/e2e/persist.sh.
#   recv OUT: bind udp ports 9 and 10 of 10.9.0.2, create OUT.ready, then
#     count datagrams per port until COUNT arrived on port 10 (sent after
#     those to port 9, over one veth: in order) or 10 s passed; write
#     "9:<n> 10:<n>" to OUT
#   send COUNT: COUNT datagrams to 10.9.0.2 port 9, then COUNT to port 10
import select, socket, sys, time

if sys.argv[1] == 'send':
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    n = int(sys.argv[2])
    for port in (9, 10):
        for i in range(n):
            s.sendto(b'p%d' % i, ('10.9.0.2', port))
    sys.exit(0)

out, count = sys.argv[2], int(sys.argv[3])
socks = {}
for port in (9, 10):
    r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    r.bind(('10.9.0.2', port))
    socks[r] = port
got = {9: 0, 10: 0}
open(out + '.ready', 'w').close()
end = time.monotonic() + 10
while got[10] < count and time.monotonic() < end:
    ready, _, _ = select.select(list(socks), [], [], 0.2)
    for r in ready:
        r.recv(100)
        got[socks[r]] += 1
# what port 9 got before the last of port 10 (already queued) counts too
for r in socks:
    r.setblocking(False)
    try:
        while True:
            r.recv(100)
            got[socks[r]] += 1
    except BlockingIOError:
        pass
with open(out, 'w') as f:
    f.write('9:%d 10:%d\n' % (got[9], got[10]))

# SPDX-License-Identifier: GPL-2.0-only
# arp-send.py IFACE SRC_MAC TPA SPA... [-- CMD...] - for tests/e2e/arptables.sh:
# in the peer's netns, capture ARP frames on IFACE, run CMD (if any: it
# makes the other side's kernel send ARP requests), send one ARP request
# "who has TPA" from each SPA (sender address SRC_MAC), then print every
# ARP frame received until nothing came for 0.5 s (at most 5 s), sorted:
# "reply SPA SHA -> TPA THA" / "request ..." / "other N ...".
import socket
import struct
import subprocess
import sys
import time

ETH_P_ARP = 0x0806
PACKET_OUTGOING = 4
argv = sys.argv[1:]
cmd = []
if '--' in argv:
    k = argv.index('--')
    argv, cmd = argv[:k], argv[k + 1:]
iface, smac, tpa, spas = argv[0], argv[1], argv[2], argv[3:]
mac = bytes(int(x, 16) for x in smac.split(':'))

s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ARP))
s.bind((iface, ETH_P_ARP))
s.setblocking(False)
if cmd:
    subprocess.run(cmd, check=True, timeout=30)
for spa in spas:
    body = struct.pack('!HHBBH', 1, 0x0800, 6, 4, 1) + mac + socket.inet_aton(spa) + \
        b'\0' * 6 + socket.inet_aton(tpa)
    s.send(b'\xff' * 6 + mac + struct.pack('!H', ETH_P_ARP) + body)
seen = []
t0 = last = time.monotonic()
while time.monotonic() - last < 0.5 and time.monotonic() - t0 < 5:
    try:
        data, addr = s.recvfrom(2048)
    except BlockingIOError:
        time.sleep(0.02)
        continue
    if addr[2] == PACKET_OUTGOING or len(data) < 42:
        continue
    last = time.monotonic()
    op = struct.unpack('!H', data[20:22])[0]
    what = {1: 'request', 2: 'reply'}.get(op, 'other %d' % op)
    seen.append('%s %s %s -> %s %s' % (what, socket.inet_ntoa(data[28:32]), data[22:28].hex(':'),
                                        socket.inet_ntoa(data[38:42]), data[32:38].hex(':')))
print('\n'.join(sorted(seen)))

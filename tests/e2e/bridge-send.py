# SPDX-License-Identifier: GPL-2.0-only
# bridge-send.py FW A B - for tests/e2e/bridge.sh: UDP datagrams across the
# bridge of netns FW (br0 10.11.0.254) between its port peers A (10.11.0.1)
# and B (10.11.0.2) and FW itself, from one process (sockets opened in each
# netns by setns). Each datagram carries its name; every receiver prints
# what it got, sorted. Each path ends with a datagram to an unfiltered port
# that the receiver waits for (5 s at most), so the output does not depend
# on timing.
import ctypes
import os
import select
import socket
import sys

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)


def in_netns(name, fn):
    home = os.open("/proc/self/ns/net", os.O_RDONLY)
    fd = os.open("/run/netns/" + name, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), "setns " + name)
        return fn()
    finally:
        libc.setns(home, CLONE_NEWNET)
        os.close(fd)
        os.close(home)


fw, a, b = sys.argv[1:4]
addr = {a: "10.11.0.1", b: "10.11.0.2", fw: "10.11.0.254"}
label = {a: "a", b: "b", fw: "fw"}
PORTS = range(7000, 7012)
END = 7011


def udp(ns, bind=None):
    def mk():
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        if bind:
            s.bind(bind)
        return s
    return in_netns(ns, mk)


rx = {}
for ns in (a, b, fw):
    for port in PORTS:
        rx[udp(ns, ("", port))] = ns
tx = {ns: udp(ns, (addr[ns], 0)) for ns in (a, b, fw)}

# (from, to address, port, name): 7001 pre drop, 7002 input drop from pa,
# 7003 forward drop pa -> pb, 7004 output drop to pa, 7005 postrouting
# drop; the others pass
sends = [
    (a, addr[b], 7001, "a-b-7001"),
    (a, addr[b], 7003, "a-b-7003"),
    (a, addr[b], 7000, "a-b-7000"),
    (b, addr[a], 7003, "b-a-7003"),
    (a, addr[fw], 7002, "a-fw-7002"),
    (b, addr[fw], 7002, "b-fw-7002"),
    (a, addr[fw], 7000, "a-fw-7000"),
    (fw, addr[a], 7004, "fw-a-7004"),
    (fw, addr[b], 7004, "fw-b-7004"),
    (fw, addr[a], 7000, "fw-a-7000"),
    (a, addr[b], 7005, "a-b-7005"),
    (fw, addr[b], 7005, "fw-b-7005"),
    (a, "10.11.0.255", 7006, "a-bcast-7006"),
    (fw, "10.11.0.255", 7007, "fw-bcast-7007"),
    (b, "10.11.0.255", 7008, "b-bcast-7008"),
    (b, addr[a], 7009, "b-a-7009-" + "y" * 100),
]
ends = [(a, b), (b, a), (a, fw), (b, fw), (fw, a), (fw, b)]
for src, dst, port, name in sends:
    try:
        tx[src].sendto(name.encode(), (dst, port))
    except OSError as e:
        print("send %s: %s" % (name, e.strerror))
for src, dst in ends:
    tx[src].sendto(("end-%s-%s" % (label[src], label[dst])).encode(),
                   (addr[dst], END))

got = []
want = {"end-%s-%s" % (label[s], label[d]) for s, d in ends}
seen = set()
deadline = 50
while deadline and not want <= seen:
    deadline -= 1
    ready, _, _ = select.select(list(rx), [], [], 0.1)
    for s in ready:
        data = s.recv(2048).decode()
        if data.startswith("end-"):
            seen.add(data)
        else:
            got.append("%s got %s" % (label[rx[s]], data[:14]))
# late datagrams of the same paths: none may be left
ready, _, _ = select.select(list(rx), [], [], 0)
for s in ready:
    got.append("%s got %s" % (label[rx[s]], s.recv(2048).decode()[:14]))
for line in sorted(got):
    print(line)
for e in sorted(want - seen):
    print("missing " + e)

# SPDX-License-Identifier: GPL-2.0-only
# bridge-send.py FW A B [raw|raw6] - for tests/e2e/bridge.sh: UDP datagrams across the
# bridge of netns FW (br0 10.11.0.254) between its port peers A (10.11.0.1)
# and B (10.11.0.2) and FW itself, from one process (sockets opened in each
# netns by setns). Each datagram carries its name; every receiver prints
# what it got, sorted. Each path ends with a datagram to an unfiltered port
# that the receiver waits for (5 s at most), so the output does not depend
# on timing. With "raw": no datagrams but 12 frames written on A's port
# (link-local, bad sources, VLAN, ARP, IPv6, a bad IPv4 header), then the
# end datagrams.
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


def raw6(ma, mb):
    """IPv6 frames A -> B for ebtables' ip6 match (ipv6_skip_exthdr())"""
    def ip6(nh, payload, tc=0, src="fd00::1"):
        return (mb, ma, "86dd", ((6 << 28 | tc << 20 | 0x12345).to_bytes(4, "big") +
                len(payload).to_bytes(2, "big") + bytes([nh, 64]) +
                socket.inet_pton(socket.AF_INET6, src) +
                socket.inet_pton(socket.AF_INET6, "fd00::2") + payload))

    def ext(nh, n8=1):
        return bytes([nh, n8 - 1, 1, 8 * n8 - 4]) + bytes(8 * n8 - 4)

    def ports(sp, dp):
        return sp.to_bytes(2, "big") + dp.to_bytes(2, "big") + bytes(4) + b"six6"

    def frag(nh, off, mf):
        return bytes([nh, 0]) + (off << 3 | mf).to_bytes(2, "big") + bytes(4)
    return [
        ip6(0, ext(60) + ext(17, 2) + ports(40201, 7201), tc=0xb8),
        ip6(51, bytes([6, 4, 0, 0]) + bytes(20) + ports(40202, 7202) + bytes(12)),
        ip6(44, frag(17, 8, 1) + ports(40201, 7201)),
        ip6(44, frag(17, 0, 1) + ports(40203, 7201)),
        ip6(59, bytes(8)),
        ip6(0, ext(50) + bytes(16)),
        ip6(60, b"".join(ext(60) for _ in range(11)) + ext(17) + ports(40201, 7201)),
        ip6(60, b"".join(ext(60) for _ in range(11)) + ext(17) + b"\x9d\x09"),
        ip6(58, bytes([128, 0, 0, 0, 0, 1, 0, 1]) + b"ping", src="fd00::3"),
        ip6(58, bytes([1, 4, 0, 0]) + bytes(4), tc=0x04, src="fd00:1::1"),
        ip6(51, bytes([58, 1, 0, 0]) + bytes(8) + bytes([129, 0, 0, 0])),
        ip6(43, bytes([6, 0, 0, 0]) + bytes(4) + ports(40204, 80) + bytes(12)),
        # 40 extension headers: the walker's ipv6_find_hdr() and ebt_ip6's
        # ipv6_skip_exthdr() are bpf_loops without a header limit
        ip6(60, b"".join(ext(60) for _ in range(39)) + ext(17) + ports(40205, 7201)),
    ] + stp(ma) + llc(ma, mb)


def stp(ma):
    """802.3/LLC BPDUs to the bridge group address, for ebtables' stp match
    (STP is off on the bridge: they are forwarded). ebt_stp.c reads a 6-byte
    header (LLC, then one byte each of protocol id, version and type) and the
    configuration at 6: config() lays its fields out there"""
    def bpdu(body):
        llc = bytes.fromhex("424203") + body
        return ("0180c2000000", ma, "%04x" % len(llc), llc)

    def config(flags, rprio, raddr, cost, sprio, saddr, port, ages):
        return bpdu(bytes([0, 0, 0, flags]) + rprio.to_bytes(2, "big") +
                    bytes.fromhex(raddr) + cost.to_bytes(4, "big") +
                    sprio.to_bytes(2, "big") + bytes.fromhex(saddr) +
                    port.to_bytes(2, "big") +
                    b"".join(a.to_bytes(2, "big") for a in ages))
    return [
        config(0x01, 0x8000, "020000000baa", 4, 0x8000, ma, 0x8001,
               (0x100, 0x1400, 0x200, 0xf00)),
        config(0x80, 0x1000, "020000000bbb", 200000, 0x9000, "020000000b02",
               0x8002, (0, 0x1400, 0x200, 0x5)),
        bpdu(bytes([0, 0, 0x80])),                   # TCN
        bpdu(bytes([0, 0, 2, 2, 0x3c]) + bytes(35)),  # RSTP
    ]


def llc(ma, mb):
    """802.3 frames with LLC and SNAP headers to B, for ebtables' 802_3
    match (ebt_802_3.c: DSAP, SSAP, then the SNAP type after a 1-byte
    (unnumbered, ctrl & 3) or a 2-byte control field)"""
    def f(hdr, body=b"llcframe"):
        l = bytes.fromhex(hdr) + body
        return (mb, ma, "%04x" % len(l), l)
    return [
        f("aaaa03000000" "0800"),        # SNAP UI, IPv4
        f("aaaa03000000" "0806"),        # SNAP UI, ARP
        f("aaaa0000000000" "77" "0806"),  # 2-byte ctrl: type at 8 (aligned)
        f("aaab03000000" "0800"),        # SSAP not 0xaa
        f("0a0a03"),                     # SAP 0x0a both
        f("0a0b03"),                     # DSAP 0x0a, SSAP 0x0b
        f("e0e003"),                     # IPX
    ]


if sys.argv[4:] in (["raw"], ["raw6"]):
    # frames written on A's port (packet socket, device ea): where the
    # bridge takes them is what the ruleset counts
    MA, MB, BR = "020000000b01", "020000000b02", "020000000bfe"

    def ip4(ihl=5, proto=17, dst="10.11.0.2"):
        body = bytes.fromhex("1b581b5800100000") + b"rawframe"
        tot = 4 * ihl + len(body) if ihl >= 5 else 20 + len(body)
        hdr = bytes([0x40 | ihl, 0]) + tot.to_bytes(2, "big") + bytes(4) + \
            bytes([64, proto, 0, 0]) + socket.inet_aton("10.11.0.1") + \
            socket.inet_aton(dst)
        csum = sum(int.from_bytes(hdr[i:i + 2], "big") for i in range(0, 20, 2))
        while csum >> 16:
            csum = (csum & 0xffff) + (csum >> 16)
        return hdr[:10] + (~csum & 0xffff).to_bytes(2, "big") + hdr[12:] + body

    def arp_req(target):
        return bytes.fromhex("0001080006040001") + bytes.fromhex(MA) + \
            socket.inet_aton("10.11.0.1") + bytes(6) + socket.inet_aton(target)

    frames = [
        ("0180c2000000", MA, "9000", bytes(46)),    # STP off: forwarded
        ("0180c2000001", MA, "8808", bytes(46)),    # pause: dropped
        ("0180c2000002", MA, "8809", bytes(46)),    # input hook at the port
        ("0180c2000003", MA, "888e", bytes(46)),    # input hook at the port
        ("0180c200000e", MA, "88cc", bytes(46)),    # LLDP: the port's stack
        (MB, "030000000001", "0800", ip4()),         # multicast source
        (MB, "000000000000", "0800", ip4()),         # zero source
        (BR, MA, "0800", ip4(dst="10.11.0.254")),    # to the bridge
        (MB, MA, "8100", bytes.fromhex("00050800") + ip4()),  # VLAN 5
        (MB, MA, "0800", ip4(ihl=4)),                # bad IPv4 header
        ("ffffffffffff", MA, "0806", arp_req("10.11.0.254")),
        (MB, MA, "86dd", bytes.fromhex("6000000000101140") +
         socket.inet_pton(socket.AF_INET6, "fd00::1") +
         socket.inet_pton(socket.AF_INET6, "fd00::2") +
         bytes.fromhex("1b581b5800100000") + b"rawframe"),
    ]

    if sys.argv[4:] == ["raw6"]:
        frames = raw6(MA, MB)

    def mkraw():
        r = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        r.bind(("ea", 0))
        return r
    raw = in_netns(a, mkraw)
    for dst, src, etype, payload in frames:
        frame = bytes.fromhex(dst + src + etype) + payload
        raw.send(frame + bytes(max(0, 60 - len(frame))))
    sends = []
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

# SPDX-License-Identifier: GPL-2.0-only
# mangle-send.py FW A B PHASE - for tests/e2e/payload_set.sh: frames from
# netns A (port ea, mac 02:00:00:00:0b:01) across the bridge br0 of netns
# FW to netns B (port eb), captured on eb with an AF_PACKET socket;
# prints every frame B received (hex, then what it decodes to: addresses,
# ports, TTL/hop limit, DSCP, whether the IPv4 header checksum and the
# transport checksum are right), sorted. PHASE "nft": raw IPv4/IPv6
# UDP, TCP, ICMPv6 frames (UDP with and without a checksum) for ports
# 9100-9299, and UDP datagrams from A's stack (CHECKSUM_PARTIAL on veth);
# PHASE "ebt": frames for the ebtables dnat/snat rules (ports 9300-9399,
# ARP request and reply, redirect's 9306 and 9307), and FW listens on udp
# 9302, 9306 and 9307 (a frame dnat'ed or redirected to the bridge's mac
# goes up to FW's stack). Each phase ends with a frame
# to port 9399 that B waits for (5 s at most): bounded in count and time.
import ctypes
import os
import select
import socket
import struct
import sys
import time

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)

MAC_A = bytes.fromhex("02000000" "0b01")
MAC_B = bytes.fromhex("02000000" "0b02")
MAC_X = bytes.fromhex("02000000" "0b55")   # nobody's: flooded
MAC_BR = bytes.fromhex("02000000" "0bfe")
IP_A, IP_B, IP_FW = "10.11.0.1", "10.11.0.2", "10.11.0.254"
IP6_A, IP6_B = "fd00::1", "fd00::2"
END = 9399


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


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def ip4(proto, payload, src=IP_A, dst=IP_B, ttl=64, tos=0):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, tos, 20 + len(payload), 0,
                    0x4000, ttl, proto, 0, socket.inet_aton(src),
                    socket.inet_aton(dst))
    h = h[:10] + struct.pack("!H", 0xffff - csum(h)) + h[12:]
    return h + payload


def pseudo4(src, dst, proto, n):
    return socket.inet_aton(src) + socket.inet_aton(dst) + \
        struct.pack("!BBH", 0, proto, n)


def pseudo6(src, dst, proto, n):
    return socket.inet_pton(socket.AF_INET6, src) + \
        socket.inet_pton(socket.AF_INET6, dst) + struct.pack("!IxxxB", n, proto)


def l4(proto, sport, dport, pseudo, data, zero=False):
    if proto == 17:
        h = struct.pack("!HHHH", sport, dport, 8 + len(data), 0)
        seg = h + data
        c = 0 if zero else (0xffff - csum(pseudo(17, len(seg)) + seg)) or 0xffff
        return seg[:6] + struct.pack("!H", c) + seg[8:]
    if proto == 6:
        h = struct.pack("!HHIIBBHHH", sport, dport, 1, 0, 0x50, 0x02, 512, 0, 0)
        seg = h + data
        c = 0xffff - csum(pseudo(6, len(seg)) + seg)
        return seg[:16] + struct.pack("!H", c) + seg[18:]
    # ICMPv6 echo request
    h = struct.pack("!BBHHH", 128, 0, 0, 7, 1)
    seg = h + data
    c = 0xffff - csum(pseudo(58, len(seg)) + seg)
    return seg[:2] + struct.pack("!H", c) + seg[4:]


def frame4(proto, dport, dst=MAC_B, zero=False, tos=0, ttl=64, ipdst=IP_B):
    data = b"nfbpf-%d" % dport
    seg = l4(proto, 4000, dport,
             lambda p, n: pseudo4(IP_A, ipdst, p, n), data, zero)
    return dst + MAC_A + b"\x08\x00" + ip4(proto, seg, dst=ipdst, tos=tos,
                                           ttl=ttl)


def frame6(proto, dport, dst=MAC_B):
    data = b"nfbpf-%d" % dport
    seg = l4(proto, 4000, dport,
             lambda p, n: pseudo6(IP6_A, IP6_B, p, n), data)
    h = struct.pack("!IHBB", 0x60000000, len(seg), proto, 64) + \
        socket.inet_pton(socket.AF_INET6, IP6_A) + \
        socket.inet_pton(socket.AF_INET6, IP6_B)
    return dst + MAC_A + b"\x86\xdd" + h + seg


def arp(op, dst=b"\xff" * 6):
    body = struct.pack("!HHBBH", 1, 0x0800, 6, 4, op) + MAC_A + \
        socket.inet_aton(IP_A) + (b"\0" * 6 if op == 1 else MAC_B) + \
        socket.inet_aton(IP_B)
    return dst + MAC_A + b"\x08\x06" + body


def decode(f):
    out = ["dst=" + f[0:6].hex(), "src=" + f[6:12].hex()]
    et = struct.unpack("!H", f[12:14])[0]
    p = f[14:]
    if et == 0x0806:
        out += ["arp", "op=%d" % struct.unpack("!H", p[6:8])[0],
                "sha=" + p[8:14].hex()]
        return " ".join(out)
    if et == 0x0800:
        ihl = (p[0] & 0xf) * 4
        proto, ttl = p[9], p[8]
        src, dst = socket.inet_ntoa(p[12:16]), socket.inet_ntoa(p[16:20])
        out += ["ip", "dscp=%d" % (p[1] >> 2), "ttl=%d" % ttl,
                "ipsum=" + ("ok" if csum(p[:ihl]) == 0xffff else "bad")]
        seg = p[ihl:struct.unpack("!H", p[2:4])[0]]
        ps = pseudo4(src, dst, proto, len(seg))
    elif et == 0x86dd:
        proto = p[6]
        src = socket.inet_ntop(socket.AF_INET6, p[8:24])
        dst = socket.inet_ntop(socket.AF_INET6, p[24:40])
        out += ["ip6", "tc=%d" % (((p[0] & 0xf) << 4 | p[1] >> 4) >> 2),
                "hl=%d" % p[7]]
        seg = p[40:40 + struct.unpack("!H", p[4:6])[0]]
        ps = pseudo6(src, dst, proto, len(seg))
    else:
        return " ".join(out + ["type=%04x" % et])
    out += ["saddr=" + src, "daddr=" + dst, "proto=%d" % proto]
    if proto in (6, 17) and len(seg) >= 8:
        out += ["sport=%d" % struct.unpack("!H", seg[0:2])[0],
                "dport=%d" % struct.unpack("!H", seg[2:4])[0]]
    if proto == 17 and len(seg) >= 8 and seg[6:8] == b"\0\0":
        out.append("l4sum=none")
    elif proto in (6, 17, 58):
        out.append("l4sum=" + ("ok" if csum(ps + seg) == 0xffff else "bad"))
    return " ".join(out)


def main():
    fw, a, b, phase = sys.argv[1:5]

    def cap():
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                          socket.htons(0x0003))
        s.bind(("eb", 0))
        return s
    rx = in_netns(b, cap)

    def raw():
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        s.bind(("ea", 0))
        return s
    tx = in_netns(a, raw)
    up = None
    frames = []
    if phase == "nft":
        for port in (9101, 9102, 9103, 9104, 9106, 9112, 9113, 9120):
            frames.append(frame4(17, port))
        frames.append(frame4(17, 9104, zero=True))
        frames.append(frame4(17, 9106, zero=True))
        frames.append(frame4(17, 9102, tos=0xff))
        for port in (9105, 9107, 9120):
            frames.append(frame4(6, port))
        for port in (9108, 9109, 9111, 9120):
            frames.append(frame6(17, port))
        frames.append(frame6(6, 9110))
        frames.append(frame6(58, 0))
        frames.append(frame4(17, 9201, dst=MAC_X))
        for port in (9202, 9210, 9211):
            frames.append(frame4(17, port))
        frames.append(frame4(6, 9203))
        frames.append(frame6(17, 9212))
        for port in (9115, 9116):
            frames.append(frame4(17, port))
        f = frame4(17, 9121)
        frames.append(f[:12] + b"\x81\x00\x00\x05" + f[12:])
        frames.append(frame6(17, 9213, dst=MAC_X))
    else:
        frames.append(frame4(17, 9301, dst=MAC_X))
        frames.append(frame4(17, 9302, dst=MAC_X, ipdst=IP_FW))
        frames.append(frame4(17, 9303))
        frames.append(frame4(17, 9304, dst=MAC_X))
        frames.append(frame4(17, 9305, dst=MAC_BR))
        frames.append(frame4(17, 9306, ipdst=IP_FW))
        frames.append(frame4(17, 9307, dst=MAC_X, ipdst=IP_FW))
        frames.append(arp(1))
        frames.append(arp(2, dst=MAC_B))

        def fwsock(port):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("", port))
            return s
        up = [(port, in_netns(fw, lambda: fwsock(port)))
              for port in (9302, 9306, 9307)]
    for f in frames:
        tx.send(f)
    if phase == "nft":
        # from A's stack: CHECKSUM_PARTIAL UDP (veth offloads it)
        def udp():
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.IPPROTO_IP, 10, 2)  # IP_MTU_DISCOVER: DO
            s.bind((IP_A, 4001))
            return s
        us = in_netns(a, udp)
        for port in (9102, 9104, 9106, 9214):
            us.sendto(b"nfbpf-stack-%d" % port, (IP_B, port))

        # from FW's stack: a TCP SYN (TCP sends clones)
        def tcp():
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((IP_FW, 4002))
            s.setblocking(False)
            return s
        ts = in_netns(fw, tcp)

        # ... and a UDP broadcast (looped back to FW: a clone)
        def bc():
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            s.setsockopt(socket.IPPROTO_IP, 10, 2)
            s.bind((IP_FW, 4003))
            return s
        bs = in_netns(fw, bc)

        def bcrx():
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("", 9402))
            return s
        # FW's own copy, held unread in this socket, keeps the datagram
        # sent a clone at br0's egress
        bcr = in_netns(fw, bcrx)
        bs.sendto(b"nfbpf-bcast", ("10.11.0.255", 9402))
        try:
            ts.connect((IP_B, 9401))
        except BlockingIOError:
            pass
    time.sleep(0.2)
    tx.send(frame4(17, END))
    got = []
    deadline = time.time() + 5
    done = False
    while not done and time.time() < deadline and len(got) < 200:
        r, _, _ = select.select([rx], [], [], max(0, deadline - time.time()))
        if not r:
            break
        f, addr = rx.recvfrom(4096)
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        d = decode(f)
        if "dport=%d " % END in d + " ":
            done = True
            continue
        if d.find("saddr=" + IP_FW + " ") >= 0 and " proto=6 " in d:
            # its sequence number is random: the decoded line only
            got.append("fw tcp: " + d)
        else:
            got.append(f.hex() + "\n  " + d)
    for g in sorted(got):
        print(g)
    if phase == "nft":
        r, _, _ = select.select([bcr], [], [], 0.5)
        print("fw udp 9402: " + (bcr.recv(100).decode() if r else "nothing"))
    for port, u in up or ():
        r, _, _ = select.select([u], [], [], 0.5)
        print("fw udp %d: " % port + (u.recv(100).decode() if r else "nothing"))
    if not done:
        print("end frame not seen")


main()

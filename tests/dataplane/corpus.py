# SPDX-License-Identifier: GPL-2.0-only
"""corpus.py - the packet corpus of the differential dataplane suite.

Every packet is built here byte for byte (no scapy). Its last 6 bytes are
the marker b'\\xd5\\x5d' + be32 id, so whatever receives it (a raw socket in
fw, a packet socket in a or b) can say which packet it was; an ICMP error
quoting a short packet or an echo reply ends with the same marker.

Paths (see README.md for the topology):
  in   a --frame--> fw: an AF_PACKET frame from a, for an fw address
  fwd  a --frame--> fw --> b: forwarded by fw
  out  fw raw socket (IP_HDRINCL / IPPROTO_RAW) --> b
  self fw raw socket --> fw over lo (output, postrouting, prerouting, input)
  arp  a --ARP frame--> fw over a:eth2 -- fw:a2 (the one pair that does
       ARP): fw's arp input hook, and its answer (a reply the kernel's ARP
       code builds: the arp output hook) back to a2
  arppkt  an ARP frame written by a packet socket in fw out of a2: the
       kernel's arp output hook does not see it (arp_xmit() is not on
       that path); a2 receives it

`cls` splits the corpus into phases sent one after the other: 'main', then
'frag' (non-first fragments, see README.md: the kernel's fast payload path
reads them as if they had a transport header).

`base` is the outcome with no ruleset at all, checked before the rulesets
run ("harness self-check"): 'fw', 'b0', 'b1', several joined by '+', or '-'
(the stack drops it).
"""
import struct

MARK = b'\xd5\x5d'

# ---- addresses (keep in sync with README.md) ------------------------------
MAC = {
    'a:eth0': '02:00:0a:00:00:01', 'a:eth1': '02:00:0a:00:01:01',
    'fw:a0': '02:00:0f:00:00:a0', 'fw:a1': '02:00:0f:00:00:a1',
    'fw:b0': '02:00:0f:00:00:b0', 'fw:b1': '02:00:0f:00:00:b1',
    'b:eth0': '02:00:0b:00:00:01', 'b:eth1': '02:00:0b:00:01:01',
    'a:eth2': '02:00:0a:00:02:01', 'fw:a2': '02:00:0f:00:00:a2',
}
# ARP frames carry their id in the sender hardware address (02:5d + be32
# id), which fw's reply returns as its target hardware address, and at
# their end like every other packet
ARP_HW = b'\x02\x5d'
# fw's peers: a:eth0 <-> fw:a0, a:eth1 <-> fw:a1, fw:b0 <-> b:eth0, fw:b1 <-> b:eth1
A_IF_TO_FW = {'eth0': 'a0', 'eth1': 'a1'}


def mac_bytes(m):
    return bytes(int(x, 16) for x in m.split(':'))


def ip4(s):
    return bytes(int(x) for x in s.split('.'))


def ip6(s):
    import socket
    return socket.inet_pton(socket.AF_INET6, s)


def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


# ---- L4 builders: return bytes with a zero checksum field + checksum offset
def tcp(sport, dport, flags='S', seq=1000, ack=0, win=64240, opts=b'', data=b'', urg=0):
    fl = 0
    for c, bit in (('F', 1), ('S', 2), ('R', 4), ('P', 8), ('A', 16), ('U', 32), ('E', 64), ('C', 128)):
        if c in flags:
            fl |= bit
    opts = opts + b'\x01' * (-len(opts) % 4)
    off = (20 + len(opts)) // 4
    h = struct.pack('!HHIIBBHHH', sport, dport, seq, ack, off << 4, fl, win, 0, urg)
    return h + opts + data, 16


def udp(sport, dport, data=b'', length=None):
    ln = 8 + len(data) if length is None else length
    return struct.pack('!HHHH', sport, dport, ln, 0) + data, 6


def icmp(typ, code=0, rest=b'\0\0\0\0', data=b''):
    return struct.pack('!BBH', typ, code, 0) + rest + data, 2


def raw(data):
    return data, None


# ---- L3 builders -----------------------------------------------------------
class L3:
    """ipv4 or ipv6 packet; the marker goes at the very end."""


def v4(src, dst, proto, l4, id_=0, ttl=64, tos=0, frag=0, mf=False, df=False,
       opts=b'', l4csum=True, bad_iphdr_csum=False):
    """l4 = (bytes, csum offset or None); returns a builder taking the marker."""
    def build(marker):
        body, coff = l4
        body = body + marker
        body = bytearray(body)
        if coff is not None and l4csum and frag == 0 and not mf:
            # UDP length covers the marker too
            if proto == 17:
                struct.pack_into('!H', body, 4, len(body))
            ph = ip4(src) + ip4(dst) + struct.pack('!BBH', 0, proto, len(body))
            c = csum((ph if proto != 1 else b'') + bytes(body))
            if proto == 17 and c == 0:
                c = 0xffff
            struct.pack_into('!H', body, coff, c)
        elif coff is not None and proto == 17 and frag == 0:
            struct.pack_into('!H', body, 4, len(body))
        o = opts + b'\0' * (-len(opts) % 4)
        ihl = 5 + len(o) // 4
        fo = (frag // 8) | (0x2000 if mf else 0) | (0x4000 if df else 0)
        h = bytearray(struct.pack('!BBHHHBBH4s4s', 0x40 | ihl, tos, ihl * 4 + len(body),
                                  id_, fo, ttl, proto, 0, ip4(src), ip4(dst)) + o)
        c = csum(bytes(h))
        struct.pack_into('!H', h, 10, c ^ (0x5a5a if bad_iphdr_csum else 0))
        return bytes(h) + bytes(body)
    return build


def v6(src, dst, nh, l4, hlim=64, tc=0, flow=0, ext=(), l4csum=True):
    """ext: list of (type, bytes) extension headers placed before l4; each
    ext header's next-header byte is filled in. For a fragment header use
    frag6(off, m, ident)."""
    def build(marker):
        body, coff = l4
        body = bytearray(body + marker)
        nonfirst = any(t == 44 and (struct.unpack('!H', b[2:4])[0] >> 3) for t, b in ext)
        first_frag = any(t == 44 and struct.unpack('!H', b[2:4])[0] & 1 for t, b in ext)
        if coff is not None and not nonfirst:
            if nh == 17:
                struct.pack_into('!H', body, 4, len(body))
            if l4csum and not first_frag:
                ph = ip6(src) + ip6(dst) + struct.pack('!IxxxB', len(body), nh)
                c = csum(ph + bytes(body))
                if nh == 17 and c == 0:
                    c = 0xffff
                struct.pack_into('!H', body, coff, c)
        chain = b''
        types = [t for t, _ in ext] + [nh]
        for i, (t, b) in enumerate(ext):
            chain += bytes([types[i + 1]]) + b[1:]
        first = types[0]
        pl = chain + bytes(body)
        h = struct.pack('!IHBB16s16s', (6 << 28) | (tc << 20) | flow, len(pl), first, hlim,
                        ip6(src), ip6(dst))
        return h + pl
    return build


def hbh_pad():        # hop-by-hop, PadN to 8 bytes
    return (0, b'\0\0\x01\x04\0\0\0\0')


def dstopt_pad():     # destination options, PadN to 8 bytes
    return (60, b'\0\0\x01\x04\0\0\0\0')


def rt0_done():       # routing header type 0... use type 4 (SRH) segleft 0? keep type 2 nope:
    # routing header, type 0, segments left 0: processed as a no-op
    return (43, b'\0\0\0\0\0\0\0\0')


def frag6(off, m, ident):
    return (44, struct.pack('!BBHI', 0, 0, (off & ~7) | (1 if m else 0), ident))


# ---- the corpus ------------------------------------------------------------
class Pkt:
    __slots__ = ('idx', 'path', 'fam', 'desc', 'build', 'a_if', 'dst', 'mark',
                 'prio', 'base', 'eth_dst', 'out_if', 'cls', 'mcast_if', 'uid')

    def __init__(self, path, fam, desc, build, base, a_if='eth0', dst=None,
                 mark=0, prio=0, eth_dst=None, out_if=None, mcast_if=None, uid=0):
        self.path, self.fam, self.desc, self.build = path, fam, desc, build
        self.mcast_if, self.uid = mcast_if, uid
        self.base, self.a_if, self.dst, self.mark, self.prio = base, a_if, dst, mark, prio
        self.eth_dst, self.out_if = eth_dst, out_if
        self.idx = None

    def frame(self, pid):
        """(bytes to send, sockaddr hint) for packet id pid."""
        pkt = self.build(MARK + struct.pack('!I', pid))
        if self.path in ('arp', 'arppkt'):
            return pkt      # a whole Ethernet frame
        if self.path in ('in', 'fwd'):
            dmac = self.eth_dst or MAC['fw:' + A_IF_TO_FW[self.a_if]]
            eth = mac_bytes(dmac) + mac_bytes(MAC['a:' + self.a_if]) + \
                struct.pack('!H', 0x0800 if self.fam == 4 else 0x86dd)
            return eth + pkt
        return pkt


def build_corpus():
    P = []

    def add(*a, **k):
        P.append(Pkt(*a, **k))

    pad = lambda n: bytes((i * 7 + 3) & 0xff for i in range(n))  # noqa: E731
    ipid = [100]

    def nid():
        ipid[0] += 1
        return ipid[0]

    # -------- IPv4, a -> fw (input) --------
    srcs4 = [('eth0', '10.1.0.2'), ('eth0', '10.1.0.77'), ('eth0', '10.8.3.4'),
             ('eth1', '10.1.1.2'), ('eth1', '10.8.200.9')]
    dsts4 = {'eth0': ['10.1.0.1', '10.1.0.3'], 'eth1': ['10.1.1.1']}
    tcp_cases = [(1024, 22, 'S'), (40000, 23, 'S'), (12345, 80, 'S'), (65535, 443, 'S'),
                 (33000, 8080, 'SA'), (33001, 8080, 'A'), (33002, 22, 'FA'), (33003, 22, 'R'),
                 (33004, 25, 'PA'), (2000, 1000, 'S'), (2001, 1001, 'S'), (2002, 1002, 'SE'),
                 (2003, 1005, 'S'), (2004, 65535, 'S'), (53, 53, 'SAFRPUEC'), (0, 0, '')]
    i = 0
    for sport, dport, fl in tcp_cases:
        a_if, s = srcs4[i % len(srcs4)]
        d = dsts4[a_if][i % len(dsts4[a_if])]
        i += 1
        opts = b'\x02\x04\x05\xb4' if 'S' in fl else b''
        add('in', 4, 'tcp %s:%d->%s:%d [%s] via %s' % (s, sport, d, dport, fl, a_if),
            v4(s, d, 6, tcp(sport, dport, fl, opts=opts, data=pad(i * 3)), id_=nid(), tos=(i * 4) & 0xfc),
            'fw', a_if=a_if)
    udp_cases = [(5353, 53, 0), (1234, 53, 20), (68, 67, 100), (123, 123, 48), (40000, 161, 1),
                 (500, 500, 7), (45000, 4789, 50), (1, 5000, 333), (60000, 5001, 0), (60001, 5002, 2),
                 (7, 33434, 13), (65535, 65535, 1000)]
    for sport, dport, n in udp_cases:
        a_if, s = srcs4[i % len(srcs4)]
        d = dsts4[a_if][i % len(dsts4[a_if])]
        i += 1
        add('in', 4, 'udp %s:%d->%s:%d len+%d via %s' % (s, sport, d, dport, n, a_if),
            v4(s, d, 17, udp(sport, dport, pad(n)), id_=nid(), ttl=1 + i * 9 % 250),
            'fw', a_if=a_if)
    for typ, code in ((8, 0), (0, 0), (3, 3), (11, 0), (13, 0), (42, 1)):
        a_if, s = srcs4[i % len(srcs4)]
        d = dsts4[a_if][0]
        i += 1
        add('in', 4, 'icmp type %d code %d %s->%s via %s' % (typ, code, s, d, a_if),
            v4(s, d, 1, icmp(typ, code, struct.pack('!HH', 0x1234, i), pad(typ * 3)), id_=nid()),
            'fw', a_if=a_if)
    for proto, name in ((47, 'gre'), (50, 'esp'), (132, 'sctp'), (136, 'udplite'), (253, 'exp253')):
        add('in', 4, '%s proto %d 10.1.0.2->10.1.0.1' % (name, proto),
            v4('10.1.0.2', '10.1.0.1', proto, raw(struct.pack('!HH', 1111, 2222) + pad(proto % 40)), id_=nid()),
            'fw')
    add('in', 4, 'tcp with ip options (ihl 6) 10.1.0.2:5555->10.1.0.1:22',
        v4('10.1.0.2', '10.1.0.1', 6, tcp(5555, 22, 'S'), id_=nid(), opts=b'\x01\x01\x01\x00'), 'fw')
    add('in', 4, 'udp with ip options (ihl 7) 10.1.0.2:5556->10.1.0.1:53',
        v4('10.1.0.2', '10.1.0.1', 17, udp(5556, 53, pad(9)), id_=nid(), opts=b'\x01' * 7 + b'\x00'), 'fw')
    # IPv4 options fw records into (RR, TS) on receipt and icmp_send()
    # echoes (__ip_options_echo()): an RR whose next slot is cut short
    # makes the echo fail (no ICMP error at all), a TS whose overflow the
    # receipt makes 15. UDP checksum 0: the receipt's changes to the
    # options leave the IP header checksum stale, so nf_reject's checksum
    # check (nf_ip_checksum() sums from the IP header) fails for a packet
    # whose UDP checksum is set (the first one): no ICMP error for it
    add('in', 4, 'udp with record route, 2 slots, udp checksum 10.1.0.2:7810->10.1.0.1:53',
        v4('10.1.0.2', '10.1.0.1', 17, udp(7810, 53, pad(5)), id_=nid(),
           opts=b'\x07\x0b\x04' + b'\0' * 8 + b'\x00'), 'fw')
    for n, (what, opts) in enumerate((
            ('record route, 2 slots', b'\x07\x0b\x04' + b'\0' * 8 + b'\x00'),
            ('record route cut short (len 9)', b'\x07\x09\x04' + b'\0' * 6 + b'\0\0\0'),
            ('timestamp only, 2 slots', b'\x44\x0c\x05\x00' + b'\0' * 8),
            ('timestamp and address, 1 pair', b'\x44\x0c\x05\x01' + b'\0' * 8),
            ('timestamp full, overflow 14', b'\x44\x08\x09\xe0' + b'\0' * 4),
            ('timestamp prespecified 10.1.0.1', b'\x44\x0c\x05\x03\x0a\x01\x00\x01' + b'\0' * 4))):
        add('in', 4, 'udp with %s 10.1.0.2:%d->10.1.0.1:53' % (what, 7811 + n),
            v4('10.1.0.2', '10.1.0.1', 17, udp(7811 + n, 53, pad(5), length=8 + 5 + 6), id_=nid(),
               opts=opts, l4csum=False), 'fw')
    add('in', 4, 'udp tos 0xb8 (dscp ef) ecn 1', v4('10.1.0.2', '10.1.0.1', 17, udp(7000, 7001, pad(5)), id_=nid(), tos=0xb9), 'fw')
    add('in', 4, 'truncated tcp (6 bytes of header)', v4('10.1.0.2', '10.1.0.1', 6, raw(b''), id_=nid()), 'fw')
    add('in', 4, 'truncated udp (6 bytes)', v4('10.1.0.2', '10.1.0.1', 17, raw(b''), id_=nid()), 'fw')
    add('in', 4, 'udp broadcast 10.1.0.255:9999 (bcast mac)',
        v4('10.1.0.2', '10.1.0.255', 17, udp(9998, 9999, pad(4)), id_=nid()), 'fw',
        eth_dst='ff:ff:ff:ff:ff:ff')
    add('in', 4, 'udp limited broadcast 255.255.255.255',
        v4('10.1.0.2', '255.255.255.255', 17, udp(9998, 9997, pad(3)), id_=nid()), 'fw',
        eth_dst='ff:ff:ff:ff:ff:ff')
    add('in', 4, 'udp multicast 224.0.0.1 (mcast mac)',
        v4('10.1.0.2', '224.0.0.1', 17, udp(9998, 9996, pad(6)), id_=nid(), ttl=1), 'fw',
        eth_dst='01:00:5e:00:00:01')
    add('in', 4, 'udp bad ip header checksum (dropped by ip_rcv)',
        v4('10.1.0.2', '10.1.0.1', 17, udp(1, 2), id_=nid(), bad_iphdr_csum=True), '-')
    for n in (1, 2, 3, 5, 8, 17, 64, 255, 256, 511, 1024, 1400):
        add('in', 4, 'udp 10.1.0.77:4000->10.1.0.1:4001 payload %d' % n,
            v4('10.1.0.77', '10.1.0.1', 17, udp(4000, 4001, pad(n)), id_=nid(), df=n > 500), 'fw')

    # -------- IPv6, a -> fw (input) --------
    srcs6 = [('eth0', 'fd01::2'), ('eth0', 'fd01::77'), ('eth0', 'fd08::3:4'),
             ('eth1', 'fd01:1::2'), ('eth1', 'fd08::c8:9')]
    dsts6 = {'eth0': ['fd01::1', 'fd01::3'], 'eth1': ['fd01:1::1']}
    i = 0
    for sport, dport, fl in tcp_cases:
        a_if, s = srcs6[i % len(srcs6)]
        d = dsts6[a_if][i % len(dsts6[a_if])]
        i += 1
        add('in', 6, 'tcp [%s]:%d->[%s]:%d [%s] via %s' % (s, sport, d, dport, fl, a_if),
            v6(s, d, 6, tcp(sport, dport, fl, data=pad(i * 5)), tc=(i * 8) & 0xff, flow=i * 1001),
            'fw', a_if=a_if)
    for sport, dport, n in udp_cases:
        a_if, s = srcs6[i % len(srcs6)]
        d = dsts6[a_if][i % len(dsts6[a_if])]
        i += 1
        add('in', 6, 'udp [%s]:%d->[%s]:%d len+%d via %s' % (s, sport, d, dport, n, a_if),
            v6(s, d, 17, udp(sport, dport, pad(n)), hlim=1 + i * 13 % 250), 'fw', a_if=a_if)
    for typ, code in ((128, 0), (129, 0), (1, 4), (3, 0), (4, 1), (200, 0)):
        a_if, s = srcs6[i % len(srcs6)]
        d = dsts6[a_if][0]
        i += 1
        add('in', 6, 'icmpv6 type %d code %d %s->%s via %s' % (typ, code, s, d, a_if),
            v6(s, d, 58, icmp(typ, code, struct.pack('!HH', 0x4321, i), pad(typ % 50))),
            'fw', a_if=a_if)
    for proto, name in ((47, 'gre'), (50, 'esp'), (132, 'sctp'), (136, 'udplite'), (253, 'exp253')):
        add('in', 6, '%s nexthdr %d fd01::2->fd01::1' % (name, proto),
            v6('fd01::2', 'fd01::1', proto, raw(struct.pack('!HH', 1111, 2222) + pad(proto % 40))), 'fw')
    add('in', 6, 'udp after hop-by-hop fd01::2:6000->fd01::1:53',
        v6('fd01::2', 'fd01::1', 17, udp(6000, 53, pad(11)), ext=[hbh_pad()]), 'fw')
    add('in', 6, 'tcp after dstopts fd01::2:6001->fd01::1:22',
        v6('fd01::2', 'fd01::1', 6, tcp(6001, 22, 'S'), ext=[dstopt_pad()]), 'fw')
    add('in', 6, 'udp after hbh+dstopts fd01::2:6002->fd01::1:80',
        v6('fd01::2', 'fd01::1', 17, udp(6002, 80, pad(3)), ext=[hbh_pad(), dstopt_pad()]), 'fw')
    add('in', 6, 'udp atomic fragment (off 0, M 0) fd01::2:6003->fd01::1:53',
        v6('fd01::2', 'fd01::1', 17, udp(6003, 53, pad(20)), ext=[frag6(0, False, 77)]), 'fw')
    add('in', 6, 'udp tclass 0xb8 flowlabel 0x12345',
        v6('fd01::2', 'fd01::1', 17, udp(7000, 7001, pad(5)), tc=0xb8, flow=0x12345), 'fw')
    add('in', 6, 'truncated tcp (6 bytes)', v6('fd01::2', 'fd01::1', 6, raw(b'')), 'fw')
    add('in', 6, 'udp multicast ff02::1 (mcast mac)',
        v6('fd01::2', 'ff02::1', 17, udp(9998, 9996, pad(6)), hlim=1), 'fw',
        eth_dst='33:33:00:00:00:01')
    for n in (1, 2, 3, 5, 8, 17, 64, 255, 256, 511, 1024, 1400):
        add('in', 6, 'udp [fd01::77]:4000->[fd01::1]:4001 payload %d' % n,
            v6('fd01::77', 'fd01::1', 17, udp(4000, 4001, pad(n))), 'fw')
    # sources whose interface id is (or nearly is) the modified EUI-64 of
    # the sender's MAC (ip6tables -m eui64): a:eth0 02:00:0a:00:00:01 ->
    # 0000:0aff:fe00:0001, a:eth1 02:00:0a:00:01:01 -> 0000:0aff:fe00:0101
    add('in', 6, 'udp from the EUI-64 of a:eth0 fd01::aff:fe00:1',
        v6('fd01::aff:fe00:1', 'fd01::1', 17, udp(4100, 4101, pad(9))), 'fw')
    add('in', 6, 'udp from fd01::200:aff:fe00:1 (EUI-64 of a:eth0, u/l bit not flipped)',
        v6('fd01::200:aff:fe00:1', 'fd01::1', 17, udp(4100, 4102, pad(9))), 'fw')
    add('in', 6, 'udp from the EUI-64 of a:eth1 fd01:1::aff:fe00:101 via eth1',
        v6('fd01:1::aff:fe00:101', 'fd01:1::1', 17, udp(4100, 4103, pad(9))), 'fw', a_if='eth1')
    add('in', 6, 'udp from the EUI-64 of a:eth0 fd01:1::aff:fe00:1 via eth1 (other MAC)',
        v6('fd01:1::aff:fe00:1', 'fd01:1::1', 17, udp(4100, 4104, pad(9))), 'fw', a_if='eth1')

    # -------- forward, a -> fw -> b --------
    fw4 = [('eth0', '10.1.0.2', '10.2.0.2', 'b0'), ('eth0', '10.8.3.4', '10.9.1.1', 'b0'),
           ('eth1', '10.1.1.2', '10.2.1.2', 'b1'), ('eth0', '10.1.0.77', '10.10.3.3', 'b1'),
           ('eth1', '10.8.200.9', '10.9.200.7', 'b0'), ('eth0', '10.1.0.2', '10.2.0.50', 'b0')]
    fw6 = [('eth0', 'fd01::2', 'fd02::2', 'b0'), ('eth0', 'fd08::3:4', 'fd09::1:1', 'b0'),
           ('eth1', 'fd01:1::2', 'fd02:1::2', 'b1'), ('eth0', 'fd01::77', 'fd0a::3', 'b1'),
           ('eth1', 'fd08::c8:9', 'fd09::c8:7', 'b0'), ('eth0', 'fd01::2', 'fd02::50', 'b0')]
    k = 0
    for sport, dport, fl in tcp_cases[:12]:
        a_if, s, d, bif = fw4[k % len(fw4)]
        add('fwd', 4, 'tcp %s:%d->%s:%d [%s] via %s' % (s, sport, d, dport, fl, a_if),
            v4(s, d, 6, tcp(sport, dport, fl, data=pad(k)), id_=nid(), ttl=64 - k), bif, a_if=a_if)
        a_if, s, d, bif = fw6[k % len(fw6)]
        add('fwd', 6, 'tcp [%s]:%d->[%s]:%d [%s] via %s' % (s, sport, d, dport, fl, a_if),
            v6(s, d, 6, tcp(sport, dport, fl, data=pad(k + 1)), hlim=64 - k), bif, a_if=a_if)
        k += 1
    for sport, dport, n in udp_cases:
        a_if, s, d, bif = fw4[k % len(fw4)]
        add('fwd', 4, 'udp %s:%d->%s:%d len+%d via %s' % (s, sport, d, dport, n, a_if),
            v4(s, d, 17, udp(sport, dport, pad(n)), id_=nid()), bif, a_if=a_if)
        a_if, s, d, bif = fw6[k % len(fw6)]
        add('fwd', 6, 'udp [%s]:%d->[%s]:%d len+%d via %s' % (s, sport, d, dport, n, a_if),
            v6(s, d, 17, udp(sport, dport, pad(n))), bif, a_if=a_if)
        k += 1
    for typ in (8, 0, 3, 11):
        a_if, s, d, bif = fw4[k % len(fw4)]
        add('fwd', 4, 'icmp type %d %s->%s' % (typ, s, d),
            v4(s, d, 1, icmp(typ, 0, b'\0\1\0\2', pad(10))), bif, a_if=a_if)
        k += 1
    for typ in (128, 129, 1, 135):
        a_if, s, d, bif = fw6[k % len(fw6)]
        add('fwd', 6, 'icmpv6 type %d %s->%s' % (typ, s, d),
            v6(s, d, 58, icmp(typ, 0, b'\0\1\0\2', pad(10))), bif, a_if=a_if)
        k += 1
    for proto in (47, 50, 132, 253):
        add('fwd', 4, 'proto %d 10.1.0.2->10.2.0.2' % proto,
            v4('10.1.0.2', '10.2.0.2', proto, raw(b'\x04\x57\x08\xae' + pad(8)), id_=nid()), 'b0')
        add('fwd', 6, 'nexthdr %d fd01::2->fd02::2' % proto,
            v6('fd01::2', 'fd02::2', proto, raw(b'\x04\x57\x08\xae' + pad(8))), 'b0')
    # fragments (forwarded one by one: no conntrack, no defrag)
    add('fwd', 4, 'udp first fragment (MF, off 0) 10.1.0.2:7777->10.2.0.2:53',
        v4('10.1.0.2', '10.2.0.2', 17, udp(7777, 53, pad(64)), id_=4242, mf=True), 'b0')
    add('fwd', 4, 'udp middle fragment (MF, off 80) 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 17, raw(udp(7777, 53)[0] + pad(40)), id_=4242, frag=80, mf=True), 'b0')
    add('fwd', 4, 'udp last fragment (off 200) 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 17, raw(udp(7777, 53)[0] + pad(10)), id_=4242, frag=200), 'b0')
    add('fwd', 4, 'tcp first fragment (MF) 10.1.0.2:7778->10.2.0.2:22',
        v4('10.1.0.2', '10.2.0.2', 6, tcp(7778, 22, 'S'), id_=4343, mf=True), 'b0')
    add('fwd', 4, 'tcp non-first fragment off 8 (bytes look like tcp :22) 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 6, raw(tcp(7778, 22, 'S')[0]), id_=4343, frag=8), 'b0')
    add('fwd', 4, 'icmp non-first fragment off 16 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 1, raw(icmp(8)[0] + pad(8)), id_=4444, frag=16, mf=True), 'b0')
    add('fwd', 6, 'udp first fragment (M, off 0) fd01::2:7777->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7777, 53, pad(64)), ext=[frag6(0, True, 4242)]), 'b0')
    add('fwd', 6, 'udp non-first fragment (off 80, M) fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 17, raw(udp(7777, 53)[0] + pad(40)), ext=[frag6(80, True, 4242)]), 'b0')
    add('fwd', 6, 'udp last fragment (off 200) fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 17, raw(udp(7777, 53)[0] + pad(10)), ext=[frag6(200, False, 4242)]), 'b0')
    add('fwd', 6, 'tcp non-first fragment off 8 after dstopts fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 6, raw(tcp(7778, 22, 'S')[0]), ext=[dstopt_pad(), frag6(8, False, 4343)]), 'b0')
    add('fwd', 6, 'tcp after hbh+dstopts fd01::2:7779->fd02::2:22',
        v6('fd01::2', 'fd02::2', 6, tcp(7779, 22, 'S'), ext=[hbh_pad(), dstopt_pad()]), 'b0')
    add('fwd', 6, 'udp after routing hdr (segleft 0) fd01::2:7780->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7780, 53, pad(2)), ext=[rt0_done()]), 'b0')
    add('fwd', 4, 'udp ttl 1 (expires in fw before forward; icmp time exceeded back to a)',
        v4('10.1.0.2', '10.2.0.2', 17, udp(7781, 53, pad(3)), id_=nid(), ttl=1), '-')
    add('fwd', 6, 'udp from the EUI-64 of a:eth0 fd01::aff:fe00:1->fd02::2',
        v6('fd01::aff:fe00:1', 'fd02::2', 17, udp(4100, 53, pad(4))), 'b0')
    add('fwd', 6, 'udp hoplimit 1 (expires in fw; icmpv6 time exceeded back to a)',
        v6('fd01::2', 'fd02::2', 17, udp(7781, 53, pad(3)), hlim=1), '-')
    # no route: fw drops it; the unreachable it would send back is rate
    # limited by the host-wide route.error_cost, so the source has no
    # route back and nothing is ever sent
    add('fwd', 4, 'udp 192.0.2.1->10.3.3.3 (no route in fw: dropped by the stack)',
        v4('192.0.2.1', '10.3.3.3', 17, udp(7782, 53, pad(1)), id_=nid()), '-')
    # IPv6 address types (fib ... type): the subnet-router anycast address
    # of a0's prefix (fw forwards, so it is joined), an unspecified source,
    # no route, fw's reject routes (errors back to a for prohibit and
    # unreachable, none for blackhole)
    add('in', 6, 'icmpv6 echo request to the subnet-router anycast fd01::',
        v6('fd01::2', 'fd01::', 58, icmp(128, 0, struct.pack('!HH', 0x4444, 1), pad(8))), 'fw')
    add('in', 6, 'udp from the unspecified address :: to fd01::1:4001',
        v6('::', 'fd01::1', 17, udp(4000, 4001, pad(5))), 'fw')
    for dst, what in (('fd0b::1', 'no route'), ('fd0c::1', 'blackhole route'),
                      ('fd0d::1', 'prohibit route'), ('fd0e::1', 'unreachable route')):
        add('fwd', 6, 'udp fd01::2->%s (%s in fw)' % (dst, what),
            v6('fd01::2', dst, 17, udp(7790, 53, pad(2))), '-')
    for n in (0, 1, 9, 100, 700, 1400):
        add('fwd', 4, 'udp 10.8.3.4->10.9.1.1:4001 payload %d' % n,
            v4('10.8.3.4', '10.9.1.1', 17, udp(4000, 4001, pad(n)), id_=nid()), 'b0')
        add('fwd', 6, 'udp fd08::3:4->fd09::1:1:4001 payload %d' % n,
            v6('fd08::3:4', 'fd09::1:1', 17, udp(4000, 4001, pad(n))), 'b0')
    # less common headers: IPv6 AH, no next header, dstopts+routing+dstopts,
    # a first fragment with dstopts after the fragment header; IPv4 record
    # route and router alert options; tcp with many options; sctp chunks
    ah = (51, struct.pack('!BBHII', 0, 2, 0, 0x1001, 7) + b'\xaa' * 4)
    add('fwd', 6, 'tcp after AH fd01::2:7790->fd02::2:22',
        v6('fd01::2', 'fd02::2', 6, tcp(7790, 22, 'S'), ext=[ah]), 'b0')
    add('fwd', 6, 'udp after dstopts+AH fd01::2:7791->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7791, 53, pad(4)), ext=[dstopt_pad(), ah]), 'b0')
    # IPsec headers (xt esp, ah, ipcomp): SPIs low, middle and high, an
    # AH with its reserved field set and a longer one, IPComp CPIs, an ESP
    # too short for its header (the matches hotdrop it)
    for spi in (1, 0x1001, 0xfffffff0):
        add('fwd', 4, 'esp spi %#x 10.1.0.2->10.2.0.2' % spi,
            v4('10.1.0.2', '10.2.0.2', 50, raw(struct.pack('!II', spi, 9) + pad(12)), id_=nid()), 'b0')
        add('fwd', 6, 'esp spi %#x fd01::2->fd02::2' % spi,
            v6('fd01::2', 'fd02::2', 50, raw(struct.pack('!II', spi, 9) + pad(12))), 'b0')
        add('fwd', 4, 'ah spi %#x then udp 10.1.0.2->10.2.0.2' % spi,
            v4('10.1.0.2', '10.2.0.2', 51, raw(struct.pack('!BBHII', 17, 2, 0, spi, 3) + pad(4) +
                                                udp(7795, 53, pad(2))[0]), id_=nid()), 'b0')
    add('fwd', 4, 'ah reserved 0x0101 hdrlen 4 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 51, raw(struct.pack('!BBHII', 17, 4, 0x101, 0x1001, 3) + pad(12)),
           id_=nid()), 'b0')
    ah_res = (51, struct.pack('!BBHII', 0, 4, 0x101, 0x1001, 7) + b'\xbb' * 12)
    add('fwd', 6, 'udp after AH (reserved set, hdrlen 4) fd01::2:7796->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7796, 53, pad(4)), ext=[ah_res]), 'b0')
    for cpi in (0x0100, 0x1234, 0xfff0):
        add('fwd', 4, 'ipcomp cpi %#x 10.1.0.2->10.2.0.2' % cpi,
            v4('10.1.0.2', '10.2.0.2', 108, raw(struct.pack('!BBH', 4, 0, cpi) + pad(20)), id_=nid()), 'b0')
        add('fwd', 6, 'ipcomp cpi %#x fd01::2->fd02::2' % cpi,
            v6('fd01::2', 'fd02::2', 108, raw(struct.pack('!BBH', 41, 0, cpi) + pad(20))), 'b0')
    add('fwd', 4, 'esp of 3 bytes 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 50, raw(b'\x00\x00\x10'), id_=nid()), 'b0')
    add('fwd', 6, 'esp of 3 bytes fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 50, raw(b'\x00\x00\x10')), 'b0')
    # extension header fields (ip6tables rt, hbh, dst): a type 2 routing
    # header with a segment left, a type 0 one with its reserved word set,
    # a router alert hop-by-hop option, Pad1 + PadN and a 16-byte
    # destination options header
    add('fwd', 6, 'udp after routing hdr type 2 segleft 1 fd01::2:7797->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7797, 53, pad(2)),
           ext=[(43, b'\0\x02\x02\x01\0\0\0\0' + b'\xfd\x0a' + b'\0' * 13 + b'\x05')]), 'b0')
    add('fwd', 6, 'udp after routing hdr type 0 segleft 1 reserved set fd01::2:7798->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7798, 53, pad(2)),
           ext=[(43, b'\0\x02\x00\x01\0\0\x01\0' + b'\xfd\x0a' + b'\0' * 13 + b'\x06')]), 'b0')
    add('fwd', 6, 'udp after hop-by-hop router alert fd01::2:7799->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7799, 53, pad(2)),
           ext=[(0, b'\0\0\x05\x02\0\0\x01\0')]), 'b0')
    add('fwd', 6, 'udp after dstopts Pad1+PadN fd01::2:7800->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7800, 53, pad(2)),
           ext=[(60, b'\0\0\x00\x01\x03\0\0\0')]), 'b0')
    add('fwd', 6, 'udp after 16-byte dstopts fd01::2:7801->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7801, 53, pad(2)),
           ext=[(60, b'\0\x01\x01\x0c' + b'\0' * 12)]), 'b0')
    add('fwd', 6, 'no next header (59) with data fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 59, raw(b'\x00\x16\x00\x35' + pad(12))), 'b0')
    add('fwd', 6, 'tcp after dstopts+routing+dstopts fd01::2:7792->fd02::2:80',
        v6('fd01::2', 'fd02::2', 6, tcp(7792, 80, 'S'), ext=[dstopt_pad(), rt0_done(), dstopt_pad()]), 'b0')
    add('fwd', 6, 'udp first fragment with dstopts after the fragment header fd01::2:7793->fd02::2:53',
        v6('fd01::2', 'fd02::2', 17, udp(7793, 53, pad(30)), ext=[frag6(0, True, 4545), dstopt_pad()]), 'b0')
    add('fwd', 4, 'tcp with record route option 10.1.0.2:7794->10.2.0.2:22',
        v4('10.1.0.2', '10.2.0.2', 6, tcp(7794, 22, 'S'), id_=nid(),
           opts=b'\x07\x0b\x04' + b'\0' * 8 + b'\x00'), 'b0')
    add('fwd', 4, 'udp with router alert option 10.1.0.2:7795->10.2.0.2:53',
        v4('10.1.0.2', '10.2.0.2', 17, udp(7795, 53, pad(5)), id_=nid(), opts=b'\x94\x04\x00\x00'), 'b0')
    add('fwd', 4, 'tcp with mss, sack-perm, timestamp, window options 10.1.0.2:7796->10.2.0.2:443',
        v4('10.1.0.2', '10.2.0.2', 6, tcp(7796, 443, 'S', opts=b'\x02\x04\x05\x78\x04\x02\x08\x0a'
                                         b'\x00\x00\x10\x00\x00\x00\x00\x00\x01\x03\x03\x07'),
           id_=nid()), 'b0')
    add('fwd', 6, 'tcp with timestamp and sack options [fd01::2]:7797->[fd02::2]:443',
        v6('fd01::2', 'fd02::2', 6, tcp(7797, 443, 'A', opts=b'\x01\x01\x08\x0a\x00\x00\x20\x00'
                                        b'\x00\x00\x00\x01\x01\x01\x05\x0a\x00\x00\x00\x10'
                                        b'\x00\x00\x00\x20')), 'b0')
    add('fwd', 4, 'sctp init chunk 10.1.0.2:7798->10.2.0.2:9',
        v4('10.1.0.2', '10.2.0.2', 132, raw(struct.pack('!HHII', 7798, 9, 0, 0) +
                                             struct.pack('!BBHIIHHI', 1, 0, 20, 0x11, 0x1000, 2, 2, 0x22)),
           id_=nid()), 'b0')
    add('fwd', 4, 'tcp doff 15 but only 20 bytes of header 10.1.0.2:7799->10.2.0.2:22',
        v4('10.1.0.2', '10.2.0.2', 6, raw(struct.pack('!HHIIBBHHH', 7799, 22, 1, 0, 0xf0, 2, 512, 0, 0)),
           id_=nid()), 'b0')
    # sctp chunk walks (exthdr sctp): several chunks with padding, a zero
    # length that ends the walk, a chunk longer than the packet, a chunk
    # header cut short, many small chunks; a first and a later fragment.
    # The marker after the chunks reads as a chunk of type 0xd5 (its
    # length, the id's high half, is 0: the walk ends there)
    def chunk(typ, flags, body, length=None, padded=True):
        ln = 4 + len(body) if length is None else length
        c = struct.pack('!BBH', typ, flags, ln) + body
        return c + b'\0' * (-len(c) % 4 if padded else 0)

    def sctp_pkt(sport, dport, chunks):
        return raw(struct.pack('!HHII', sport, dport, 0x5ca1ab1e, 0) + chunks)

    init_body = struct.pack('!IIHHI', 0x11, 0x1000, 7, 5, 0x22)
    sctp_cases = [
        ('data (len 17, padded) + init + sack + heartbeat',
         chunk(0, 3, pad(13)) + chunk(1, 0, init_body) + chunk(3, 0, pad(12)) + chunk(4, 0, pad(4))),
        ('init (2 inbound streams) + cookie echo (len 10, padded)',
         chunk(1, 0, struct.pack('!IIHHI', 0x33, 0x2000, 1, 2, 0x44)) + chunk(10, 0, pad(6))),
        ('data flags 2 + data flags 1 (first data counts)',
         chunk(0, 2, pad(12)) + chunk(0, 1, pad(12))),
        ('abort with zero length, then sack (walk ends)',
         chunk(6, 1, b'', length=0) + chunk(3, 0, pad(12))),
        ('shutdown + init whose length (64) passes the packet end',
         chunk(7, 0, pad(4)) + chunk(1, 0, init_body, length=64)),
        ('sack len 7 (padding 1) then shutdown ack',
         chunk(3, 0, pad(3)) + chunk(8, 0, b'')),
        ('a 2-byte chunk header', b'\x03\x00'),
        ('no chunks', b''),
        ('100 error chunks then shutdown complete',
         b''.join(chunk(9, 0, b'') for _ in range(100)) + chunk(14, 1, b'')),
        ('heartbeat ack + asconf (type 193) + forward tsn (type 192)',
         chunk(5, 0, pad(8)) + chunk(193, 0, pad(8)) + chunk(192, 0, pad(4))),
    ]
    for k, (what, chunks) in enumerate(sctp_cases):
        add('fwd', 4, 'sctp %s 10.1.0.2:%d->10.2.0.2:9' % (what, 7900 + k),
            v4('10.1.0.2', '10.2.0.2', 132, sctp_pkt(7900 + k, 9, chunks), id_=nid()), 'b0')
        add('fwd', 6, 'sctp %s [fd01::2]:%d->[fd02::2]:9' % (what, 7900 + k),
            v6('fd01::2', 'fd02::2', 132, sctp_pkt(7900 + k, 9, chunks)), 'b0')
    add('fwd', 4, 'sctp first fragment (MF) init + sack 10.1.0.2:7950->10.2.0.2:9',
        v4('10.1.0.2', '10.2.0.2', 132, sctp_pkt(7950, 9, chunk(1, 0, init_body) + chunk(3, 0, pad(4))),
           id_=4646, mf=True), 'b0')
    add('fwd', 4, 'sctp non-first fragment off 8 (bytes look like init + sack) 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 132, sctp_pkt(7950, 9, chunk(1, 0, init_body) + chunk(3, 0, pad(4))),
           id_=4646, frag=8), 'b0')
    add('fwd', 6, 'sctp non-first fragment off 8 (bytes look like init + sack) fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 132, sctp_pkt(7950, 9, chunk(1, 0, init_body) + chunk(3, 0, pad(4))),
           ext=[frag6(8, False, 4646)]), 'b0')
    # inner header (@ih): GRE version 0 with and without its optional
    # fields, with routing, version 1; IPIP; udp/tcp are everywhere above
    inner4 = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 40, 0x14, 0, 64, 17, 0, ip4('10.7.0.1'), ip4('10.7.0.2'))
    for k, (flags, what) in enumerate(((0x0000, 'plain'), (0xb000, 'csum key seq'), (0x2000, 'key'),
                                       (0x1000, 'seq'), (0x4000, 'routing'), (0x2001, 'version 1 key'),
                                       (0x8000, 'csum'))):
        opt = b''.join(struct.pack('!I', 0x0a0b0c00 | b) for b in (0x80, 0x20, 0x10) if flags >> 8 & b)
        add('fwd', 4, 'gre %s (flags 0x%04x) 10.1.0.2->10.2.0.2' % (what, flags),
            v4('10.1.0.2', '10.2.0.2', 47, raw(struct.pack('!HH', flags, 0x0800) + opt + inner4 + pad(k)),
               id_=nid()), 'b0')
    add('fwd', 6, 'gre key (flags 0x2000) fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 47, raw(struct.pack('!HHI', 0x2000, 0x0800, 0x77) + inner4)), 'b0')
    add('fwd', 4, 'ipip 10.1.0.2->10.2.0.2 (inner 10.7.0.1->10.7.0.2)',
        v4('10.1.0.2', '10.2.0.2', 4, raw(inner4 + pad(8)), id_=nid()), 'b0')
    add('fwd', 4, 'gre first fragment plain 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 47, raw(struct.pack('!HH', 0, 0x0800) + inner4), id_=4747, mf=True), 'b0')
    add('fwd', 4, 'gre non-first fragment off 8 10.1.0.2->10.2.0.2',
        v4('10.1.0.2', '10.2.0.2', 47, raw(struct.pack('!HH', 0, 0x0800) + inner4), id_=4747, frag=8), 'b0')

    # -------- output (fw raw socket -> b) and self (fw -> fw over lo) --------
    out4 = [('10.2.0.1', '10.2.0.2', 'b0'), ('10.2.1.1', '10.2.1.2', 'b1'), ('10.2.0.1', '10.9.4.4', 'b0'),
            ('10.1.0.3', '10.10.0.9', 'b1'), ('10.2.0.1', '10.2.0.50', 'b0')]
    out6 = [('fd02::1', 'fd02::2', 'b0'), ('fd02:1::1', 'fd02:1::2', 'b1'), ('fd02::1', 'fd09::4:4', 'b0'),
            ('fd01::3', 'fd0a::9', 'b1'), ('fd02::1', 'fd02::50', 'b0')]
    marks = [0, 0, 0x2a, 0xff00, 0x2a, 1, 0x80000000, 7]
    k = 0
    for sport, dport, fl in tcp_cases[:10]:
        s, d, bif = out4[k % len(out4)]
        add('out', 4, 'tcp %s:%d->%s:%d [%s] mark 0x%x' % (s, sport, d, dport, fl, marks[k % 8]),
            v4(s, d, 6, tcp(sport, dport, fl, data=pad(k * 2)), id_=nid()), bif, dst=d,
            mark=marks[k % 8], out_if=bif)
        s, d, bif = out6[k % len(out6)]
        add('out', 6, 'tcp [%s]:%d->[%s]:%d [%s] mark 0x%x' % (s, sport, d, dport, fl, marks[(k + 3) % 8]),
            v6(s, d, 6, tcp(sport, dport, fl, data=pad(k * 2 + 1))), bif, dst=d,
            mark=marks[(k + 3) % 8], out_if=bif)
        k += 1
    for sport, dport, n in udp_cases[:10]:
        s, d, bif = out4[k % len(out4)]
        add('out', 4, 'udp %s:%d->%s:%d len+%d mark 0x%x prio %d' % (s, sport, d, dport, n, marks[k % 8], k % 3),
            v4(s, d, 17, udp(sport, dport, pad(n)), id_=nid()), bif, dst=d, mark=marks[k % 8],
            prio=k % 3, out_if=bif)
        s, d, bif = out6[k % len(out6)]
        add('out', 6, 'udp [%s]:%d->[%s]:%d len+%d mark 0x%x' % (s, sport, d, dport, n, marks[(k + 1) % 8]),
            v6(s, d, 17, udp(sport, dport, pad(n))), bif, dst=d, mark=marks[(k + 1) % 8], out_if=bif)
        k += 1
    for typ in (8, 0, 3):
        s, d, bif = out4[k % len(out4)]
        add('out', 4, 'icmp type %d %s->%s' % (typ, s, d), v4(s, d, 1, icmp(typ, 0, b'\0\5\0\6', pad(4)), id_=nid()),
            bif, dst=d, out_if=bif)
        k += 1
    for typ in (128, 129, 2):
        s, d, bif = out6[k % len(out6)]
        add('out', 6, 'icmpv6 type %d %s->%s' % (typ, s, d), v6(s, d, 58, icmp(typ, 0, b'\0\5\0\6', pad(4))),
            bif, dst=d, out_if=bif)
        k += 1
    add('out', 4, 'gre 10.2.0.1->10.2.0.2', v4('10.2.0.1', '10.2.0.2', 47, raw(pad(12)), id_=nid()), 'b0',
        dst='10.2.0.2')
    add('out', 6, 'esp fd02::1->fd02::2', v6('fd02::1', 'fd02::2', 50, raw(pad(12))), 'b0', dst='fd02::2')
    add('out', 4, 'sctp %s 10.2.0.1:7960->10.2.0.2:9' % sctp_cases[0][0],
        v4('10.2.0.1', '10.2.0.2', 132, sctp_pkt(7960, 9, sctp_cases[0][1]), id_=nid()), 'b0', dst='10.2.0.2')
    add('out', 6, 'sctp %s [fd02::1]:7961->[fd02::2]:9' % sctp_cases[4][0],
        v6('fd02::1', 'fd02::2', 132, sctp_pkt(7961, 9, sctp_cases[4][1])), 'b0', dst='fd02::2')
    add('out', 4, 'udp first fragment 10.2.0.1:8888->10.2.0.2:53',
        v4('10.2.0.1', '10.2.0.2', 17, udp(8888, 53, pad(32)), id_=5151, mf=True), 'b0', dst='10.2.0.2')
    add('out', 4, 'udp non-first fragment off 40 10.2.0.1->10.2.0.2',
        v4('10.2.0.1', '10.2.0.2', 17, raw(udp(8888, 53)[0] + pad(16)), id_=5151, frag=40), 'b0', dst='10.2.0.2')
    add('out', 6, 'udp non-first fragment off 40 fd02::1->fd02::2',
        v6('fd02::1', 'fd02::2', 17, raw(udp(8888, 53)[0] + pad(16)), ext=[frag6(40, False, 5151)]), 'b0',
        dst='fd02::2')
    add('out', 6, 'udp first fragment fd02::1:8888->fd02::2:53',
        v6('fd02::1', 'fd02::2', 17, udp(8888, 53, pad(32)), ext=[frag6(0, True, 5151)]), 'b0', dst='fd02::2')
    for n in (0, 3, 200, 1300):
        add('out', 4, 'udp 10.2.0.1->10.2.0.2:4001 payload %d' % n,
            v4('10.2.0.1', '10.2.0.2', 17, udp(4000, 4001, pad(n)), id_=nid()), 'b0', dst='10.2.0.2')
        add('out', 6, 'udp fd02::1->fd02::2:4001 payload %d' % n,
            v6('fd02::1', 'fd02::2', 17, udp(4000, 4001, pad(n))), 'b0', dst='fd02::2')
    # from a socket whose file belongs to uid/gid 1000 (meta skuid/skgid)
    for n, (s, d, bif) in enumerate(out4[:3]):
        add('out', 4, 'udp %s->%s:%d from a uid 1000 socket' % (s, d, 7100 + n),
            v4(s, d, 17, udp(7100, 7100 + n, pad(n + 2)), id_=nid()), bif, dst=d, uid=1000)
    for n, (s, d, bif) in enumerate(out6[:3]):
        add('out', 6, 'tcp %s->%s:%d from a uid 1000 socket' % (s, d, 7100 + n),
            v6(s, d, 6, tcp(7100, 7100 + n, 'S')), bif, dst=d, uid=1000)
    # multicast and broadcast from fw: out on the wire, and a looped copy
    # (pkt_type PACKET_LOOPBACK at prerouting) delivered to fw itself
    add('out', 4, 'udp 10.2.0.1->224.0.0.1:9100 multicast out b0 (+ looped copy)',
        v4('10.2.0.1', '224.0.0.1', 17, udp(9100, 9100, pad(5)), id_=nid(), ttl=1), 'b0+fw',
        dst='224.0.0.1', mcast_if='b0')
    add('out', 4, 'udp 10.2.1.1->10.2.1.255:9101 broadcast out b1 (+ looped copy)',
        v4('10.2.1.1', '10.2.1.255', 17, udp(9101, 9101, pad(6)), id_=nid()), 'b1+fw',
        dst='10.2.1.255')
    add('out', 6, 'udp fd02::1->ff02::1:9100 multicast out b0 (+ looped copy)',
        v6('fd02::1', 'ff02::1', 17, udp(9100, 9100, pad(5)), hlim=1), 'b0+fw',
        dst='ff02::1', mcast_if='b0')
    # self: fw -> fw over lo. The receiving raw socket reads it as 'fw'; an
    # echo request also brings the echo reply (fw:2).
    add('self', 4, 'udp 10.1.0.1:9000->10.1.0.1:9001 over lo',
        v4('10.1.0.1', '10.1.0.1', 17, udp(9000, 9001, pad(4)), id_=nid()), 'fw', dst='10.1.0.1')
    add('self', 4, 'tcp 127.0.0.1:9002->127.0.0.1:22 over lo',
        v4('127.0.0.1', '127.0.0.1', 6, tcp(9002, 22, 'S'), id_=nid()), 'fw', dst='127.0.0.1')
    add('self', 4, 'icmp echo 10.2.0.1->10.2.0.1 over lo (+ reply)',
        v4('10.2.0.1', '10.2.0.1', 1, icmp(8, 0, b'\0\7\0\1', pad(8)), id_=nid()), 'fw', dst='10.2.0.1')
    add('self', 6, 'udp [::1]:9000->[::1]:9001 over lo',
        v6('::1', '::1', 17, udp(9000, 9001, pad(4))), 'fw', dst='::1')
    add('self', 6, 'tcp [fd01::1]:9002->[fd01::1]:22 over lo',
        v6('fd01::1', 'fd01::1', 6, tcp(9002, 22, 'S')), 'fw', dst='fd01::1')
    add('self', 6, 'icmpv6 echo fd02::1->fd02::1 over lo (+ reply)',
        v6('fd02::1', 'fd02::1', 58, icmp(128, 0, b'\0\7\0\1', pad(8))), 'fw', dst='fd02::1')

    # IPv4 option lists (ip option): source routes (dropped after
    # prerouting, accept_source_route is 0), lists __ip_options_compile()
    # refuses (dropped with a parameter problem back to a), a timestamp
    # before a record route, a router alert with a value
    for n, (what, opts, base) in enumerate((
            ('lsrr option', b'\x83\x07\x04\x0a\x02\x00\x02\x00', '-'),
            ('ssrr option', b'\x89\x07\x04\x0a\x02\x00\x02\x00', '-'),
            ('two record route options (invalid)', b'\x07\x03\x04\x07\x03\x04\x00\x00', '-'),
            ('record route without room (invalid)', b'\x07\x05\x04\x00\x00\x00\x00\x00', '-'),
            ('timestamp and record route options', b'\x44\x08\x05\x00\x00\x00\x00\x00\x07\x03\x04\x00', 'b0'),
            ('router alert with value 1', b'\x94\x04\x00\x01', 'b0'))):
        add('fwd', 4, 'udp with %s 10.1.0.2:%d->10.2.0.2:53' % (what, 7801 + n),
            v4('10.1.0.2', '10.2.0.2', 17, udp(7801 + n, 53, pad(3)), id_=nid(), opts=opts), base)

    # xt tcp --tcp-option and ip6tables -m frag corner cases: option lists
    # with lengths 0 and 1 and one running past the header, a kind in the
    # last byte, a data offset below 5; a fragment header with reserved
    # bits, one cut short (6 bytes), one behind 11, 12 and 40 destination
    # options headers, a chain whose next header lies past the packet
    # (-EBADMSG). ipv6_find_hdr() walks any number of extension headers
    # (no IP6_MAX_EXT_HDRS_CNT in this kernel): UDP and TCP behind 13 and
    # 40 of them, and a chain of 40 cut inside its 41st header.
    for n, opts in enumerate((b'\x1e\x00\x00\x05\x01\x01\x01\x01', b'\x03\x14\x01\x01',
                              b'\x01\x01\x01\x04', b'\x1e\x01\x08\x02\x01\x00\x00\x00')):
        add('fwd', 4, 'tcp with option list %s 10.1.0.2:%d->10.2.0.2:22' % (opts.hex(), 7811 + n),
            v4('10.1.0.2', '10.2.0.2', 6, tcp(7811 + n, 22, 'S', opts=opts), id_=nid()), 'b0')
        add('fwd', 6, 'tcp with option list %s [fd01::2]:%d->[fd02::2]:22' % (opts.hex(), 7811 + n),
            v6('fd01::2', 'fd02::2', 6, tcp(7811 + n, 22, 'S', opts=opts)), 'b0')
    add('fwd', 4, 'tcp doff 4 10.1.0.2:7815->10.2.0.2:22',
        v4('10.1.0.2', '10.2.0.2', 6, raw(struct.pack('!HHIIBBHHH', 7815, 22, 1, 0, 0x40, 2, 512, 0, 0)),
           id_=nid()), 'b0')
    add('fwd', 6, 'tcp doff 4 [fd01::2]:7815->[fd02::2]:22',
        v6('fd01::2', 'fd02::2', 6, raw(struct.pack('!HHIIBBHHH', 7815, 22, 1, 0, 0x40, 2, 512, 0, 0))), 'b0')
    add('fwd', 6, 'udp atomic fragment, reserved byte and bits set, id 99 fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 17, udp(7816, 53, pad(8)),
           ext=[(44, struct.pack('!BBHI', 0, 0x5a, 6, 99))]), 'b0')
    add('fwd', 6, 'fragment header cut to 6 bytes fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 44, raw(b'')), 'b0')
    add('fwd', 6, 'udp first fragment behind 11 dstopts fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 17, udp(7817, 53, pad(8)), ext=[dstopt_pad()] * 11 + [frag6(0, True, 4646)]),
        'b0')
    add('fwd', 6, 'udp first fragment behind 12 dstopts fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 17, udp(7818, 53, pad(8)), ext=[dstopt_pad()] * 12 + [frag6(0, True, 4747)]),
        'b0')
    add('fwd', 6, 'udp first fragment behind 40 dstopts fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 17, udp(7821, 53, pad(8)), ext=[dstopt_pad()] * 40 + [frag6(0, True, 4848)]),
        'b0')
    for n in (13, 40):
        add('fwd', 6, 'udp behind %d dstopts [fd01::2]:%d->[fd02::2]:53' % (n, 7822 + n),
            v6('fd01::2', 'fd02::2', 17, udp(7822 + n, 53, pad(8)), ext=[dstopt_pad()] * n), 'b0')
        add('fwd', 6, 'tcp syn behind %d dstopts [fd01::2]:%d->[fd02::2]:22' % (n, 7822 + n),
            v6('fd01::2', 'fd02::2', 6, tcp(7822 + n, 22, 'S'), ext=[dstopt_pad()] * n), 'b0')
    add('fwd', 6, 'dstopts chain of 40, the 41st cut short fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 60, raw(b''), ext=[dstopt_pad()] * 40), 'b0')
    add('fwd', 6, 'udp behind a dstopts header claiming 2048 bytes, then dstopts fd01::2->fd02::2',
        v6('fd01::2', 'fd02::2', 17, udp(7819, 53, pad(8)),
           ext=[(60, b'\0\xff\x01\x04\0\0\0\0'), dstopt_pad()]), 'b0')

    arp_corpus(add)

    for n, p in enumerate(P):
        p.idx = n
        p.cls = 'frag' if p.fam and nonfirst_fragment(p.build(MARK + b'\0\0\0\0')) else 'main'
    return P


def arp_frame(op, spa, tpa, dmac='ff:ff:ff:ff:ff:ff', smac=None, htype=1, ptype=0x0800,
              hlen=6, plen=4, tha=b'\0' * 6, vlan=None, cut=None):
    """builder of an Ethernet ARP frame; sha = ARP_HW + the marker's id
    (hlen 6), then the marker at the end"""
    def build(marker):
        sha = ARP_HW + marker[2:6]
        body = struct.pack('!HHBBH', htype, ptype, hlen, plen, op)
        body += (sha + b'\0' * hlen)[:hlen] + (ip4(spa) + b'\0' * plen)[:plen]
        body += (tha + b'\0' * hlen)[:hlen] + (ip4(tpa) + b'\0' * plen)[:plen]
        if cut is not None:
            body = body[:cut]
        eth = mac_bytes(dmac) + mac_bytes(smac or MAC['a:eth2'])
        if vlan is not None:
            eth += struct.pack('!HH', 0x8100, vlan)
        return eth + struct.pack('!H', 0x0806) + body + marker
    return build


def arp_corpus(add):
    """ARP frames a -> fw:a2 ('a2': fw answered, its reply came back) and
    from a packet socket in fw ('a2': it left)"""
    fwmac = MAC['fw:a2']
    for desc, b, base in (
            ('request 10.1.2.2 -> 10.1.2.1 broadcast', arp_frame(1, '10.1.2.2', '10.1.2.1'), 'a2'),
            ('request 10.1.2.3 -> 10.1.2.1 unicast', arp_frame(1, '10.1.2.3', '10.1.2.1', fwmac), 'a2'),
            ('request 10.1.2.4 -> 10.2.0.1 (an address of b0)', arp_frame(1, '10.1.2.4', '10.2.0.1'), 'a2'),
            ('request 10.1.2.5 -> 10.1.2.99 (not fw)', arp_frame(1, '10.1.2.5', '10.1.2.99'), '-'),
            ('request to another host (PACKET_OTHERHOST)',
             arp_frame(1, '10.1.2.6', '10.1.2.1', '02:00:0f:00:00:ff'), '-'),
            ('reply 10.1.2.7 -> 10.1.2.1', arp_frame(2, '10.1.2.7', '10.1.2.1', fwmac,
                                                   tha=mac_bytes(fwmac)), '-'),
            ('request with hlen 8 (arp_rcv drops)', arp_frame(1, '10.1.2.8', '10.1.2.1', hlen=8), '-'),
            ('request with plen 6 (arp_rcv drops)', arp_frame(1, '10.1.2.9', '10.1.2.1', plen=6), '-'),
            ('request cut to 20 bytes (arp_rcv drops)', arp_frame(1, '10.1.2.10', '10.1.2.1', cut=20), '-'),
            ('op 3 (rarp request) 10.1.2.11', arp_frame(3, '10.1.2.11', '10.1.2.1'), '-'),
            ('request htype 6 (ieee802) 10.1.2.12 -> 10.1.2.1', arp_frame(1, '10.1.2.12', '10.1.2.1', htype=6), 'a2'),
            ('request ptype 0x86dd 10.1.2.13', arp_frame(1, '10.1.2.13', '10.1.2.1', ptype=0x86dd), '-'),
            ('gratuitous request 10.1.2.14', arp_frame(1, '10.1.2.14', '10.1.2.14'), '-'),
            ('probe 0.0.0.0 -> 10.1.2.1 (duplicate address detection)',
             arp_frame(1, '0.0.0.0', '10.1.2.1'), 'a2'),
            ('request in vlan 5 (no vlan device: PACKET_OTHERHOST)',
             arp_frame(1, '10.1.2.15', '10.1.2.1', vlan=5), '-'),
            ('request priority-tagged (vlan 0) 10.1.2.16 -> 10.1.2.1',
             arp_frame(1, '10.1.2.16', '10.1.2.1', vlan=0x6000), 'a2')):
        add('arp', 0, desc, b, base, a_if='eth2')
    add('arppkt', 0, 'request 10.1.2.1 -> 10.1.2.20 from a packet socket in fw',
        arp_frame(1, '10.1.2.1', '10.1.2.20', smac=fwmac), 'a2')


def nonfirst_fragment(ip):
    """True for an ipv4 packet with a fragment offset, or an ipv6 packet
    whose fragment header (after any hbh/dstopts/routing) has one."""
    if ip[0] >> 4 == 4:
        return struct.unpack('!H', ip[6:8])[0] & 0x1fff != 0
    nh, off = ip[6], 40
    while nh in (0, 43, 60, 44) and off + 4 <= len(ip):
        if nh == 44:
            return struct.unpack('!H', ip[off + 2:off + 4])[0] >> 3 != 0
        nh, off = ip[off], off + 8 * (ip[off + 1] + 1)
    return False


# protocols the fw raw receivers listen to (every L4 protocol of the corpus)
RAW_PROTOS = {4: (1, 6, 17, 47, 50, 132, 136, 253), 6: (6, 17, 58, 47, 50, 132, 136, 253)}

if __name__ == '__main__':
    import collections
    c = build_corpus()
    print(len(c), 'packets', dict(collections.Counter((p.path, p.fam) for p in c)),
          dict(collections.Counter(p.cls for p in c)))

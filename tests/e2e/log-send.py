# SPDX-License-Identifier: GPL-2.0-only
# log-send.py - test packets for tests/e2e/expr_log.sh: ARG=icmp4=DST,
# icmp6=DST, udp=DST,PORT, udpopt=DST,PORT (IPv4 options), udpmark=DST,PORT
# (SO_MARK 0x2a), big=DST,PORT (3000 bytes: fragments), tcp=DST,PORT (one
# SYN, then give up)
import socket, struct, sys
def csum(b):
    if len(b) % 2: b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b)//2), b)); s = (s >> 16) + (s & 0xffff); s += s >> 16
    return (~s) & 0xffff
def icmp4(dst, ident=0x1234, seq=1):
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    h = struct.pack('!BBHHH', 8, 0, 0, ident, seq) + b'abcdefgh'
    h = h[:2] + struct.pack('!H', csum(h)) + h[4:]
    s.sendto(h, (dst, 0)); s.settimeout(0.5)
    try: s.recv(2000)
    except Exception: pass
def icmp6(dst, ident=0x1234, seq=1):
    s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
    h = struct.pack('!BBHHH', 128, 0, 0, ident, seq) + b'abcdefgh'
    s.sendto(h, (dst, 0)); s.settimeout(0.5)
    try: s.recv(2000)
    except Exception: pass
def udp(dst, port, opts=None, mark=0):
    fam = socket.AF_INET6 if ':' in dst else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    if mark: s.setsockopt(socket.SOL_SOCKET, 36, mark)  # SO_MARK
    if opts: s.setsockopt(socket.IPPROTO_IP, socket.IP_OPTIONS, opts)
    s.sendto(b'hello', (dst, port))
def tcp(dst, port):
    fam = socket.AF_INET6 if ':' in dst else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM); s.settimeout(0.3)
    try: s.connect((dst, port))
    except Exception: pass
for a in sys.argv[1:]:
    k, _, v = a.partition('=')
    if k == 'icmp4': icmp4(v)
    elif k == 'icmp6': icmp6(v)
    elif k == 'udp': d, p = v.rsplit(',', 1); udp(d, int(p))
    elif k == 'udpopt': d, p = v.rsplit(',', 1); udp(d, int(p), b'\x01\x01\x01\x00')
    elif k == 'udpmark': d, p = v.rsplit(',', 1); udp(d, int(p), mark=0x2a)
    elif k == 'big':
        d, p = v.rsplit(',', 1)
        fam = socket.AF_INET6 if ':' in d else socket.AF_INET
        socket.socket(fam, socket.SOCK_DGRAM).sendto(b'z' * 3000, (d, int(p)))
    elif k == 'tcp': d, p = v.rsplit(',', 1); tcp(d, int(p))

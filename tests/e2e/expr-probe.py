#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""expr-probe.py - ask the nf_tables on this socket which expressions and keys it knows.

For each family (ip ip6 inet arp bridge netdev) it commits a table and a regular
chain, then sends one NEWRULE batch per probe and prints the errno name the rule
got (OK when it was accepted; the batch is then committed, which is harmless):
  expr NAME      the expression NAME with an empty NFTA_EXPR_DATA
  meta KEY       meta with NFTA_META_KEY=KEY, NFTA_META_DREG=NFT_REG_1
  ct KEY         ct with NFTA_CT_KEY=KEY, NFTA_CT_DREG=NFT_REG_1 (no direction)
Run it once against the kernel (`unshare -n`) and once through nfbpf-run, and
compare: the kernel's build decides which types exist (nft_expr_type_get()).
"""
import errno
import socket
import struct
import sys

NETLINK_NETFILTER = 12
FAMILIES = (('ip', 2), ('ip6', 10), ('inet', 1), ('arp', 3), ('bridge', 7), ('netdev', 5))
NLA_F_NESTED = 0x8000


def attr(t, data):
    n = 4 + len(data)
    return struct.pack('HH', n, t) + data + b'\0' * ((4 - n % 4) % 4)


def sz(v):
    return v.encode() + b'\0'


def be32(v):
    return struct.pack('>I', v)


class Nft:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
        self.s.bind((0, 0))
        self.s.settimeout(2.0)
        self.seq = 0

    def msg(self, typ, flags, fam, payload, resid=0):
        self.seq += 1
        body = struct.pack('BBH', fam, 0, socket.htons(resid)) + payload
        return struct.pack('IHHII', 16 + len(body), typ, flags, self.seq, 0) + body

    def batch(self, msgs):
        """send BEGIN, msgs, END; return the first non-zero error (0: none)"""
        begin = self.msg(0x10, 1, 0, b'', 10)
        body = [self.msg((10 << 8) | t, 1 | 4 | 0x400, fam, p) for t, fam, p in msgs]
        last = self.seq
        self.s.send(begin + b''.join(body) + self.msg(0x11, 1, 0, b'', 10))
        first, seen = 0, set()
        while len(seen) < len(msgs):
            data = self.s.recv(65536)
            off = 0
            while off + 16 <= len(data):
                n, t, _f, sq, _p = struct.unpack_from('IHHII', data, off)
                if t == 2:
                    e = -struct.unpack_from('i', data, off + 16)[0]
                    seen.add(sq)
                    if e and not first:
                        first = e
                off += (n + 3) & ~3
                if n < 16:
                    break
            if sq > last + len(msgs):
                break
        return first


def rule(fam_name, expr_name, data):
    e = attr(1, sz(expr_name)) + attr(2 | NLA_F_NESTED, data)
    return (attr(1, sz('probe')) + attr(2, sz('c')) +
            attr(4 | NLA_F_NESTED, attr(1 | NLA_F_NESTED, e)))


def main():
    probes = []
    for arg in sys.argv[1:]:
        kind, _, what = arg.partition(':')
        for w in what.split(','):
            if kind == 'expr':
                probes.append(('expr ' + w, w, b''))
            elif kind in ('meta', 'ct'):
                lo, _, hi = w.partition('-')
                for k in range(int(lo), int(hi or lo) + 1):
                    # NFTA_{META,CT}_KEY = 2, NFTA_{META,CT}_DREG = 1
                    probes.append(('%s %d' % (kind, k), kind,
                                   attr(2, be32(k)) + attr(1, be32(1))))
            else:
                sys.exit('unknown probe kind ' + kind)
    nft = Nft()
    for fam_name, fam in FAMILIES:
        err = nft.batch([(0, fam, attr(1, sz('probe'))),
                         (3, fam, attr(1, sz('probe')) + attr(3, sz('c')))])
        if err:
            sys.exit('%s: table/chain: %s' % (fam_name, errno.errorcode.get(err, err)))
        for label, name, data in probes:
            err = nft.batch([(6, fam, rule(fam_name, name, data))])
            print('%s %s %s' % (fam_name, label, errno.errorcode.get(err, err) if err else 'OK'))


if __name__ == '__main__':
    main()

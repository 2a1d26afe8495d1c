#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""xt-target-raw.py FAMILY TABLE CHAIN NAME REV INFOHEX - append a rule holding
one xtables target (nft_compat's "target" expression) with this info, which
no front end writes (ebtables' log watcher with EBT_LOG_NFLOG, which the
kernel refuses: tests/e2e/log_l2.sh). Exit status: the errno of the batch
(0: added)."""
import errno
import socket
import struct
import sys

NETLINK_NETFILTER = 12
NLA_F_NESTED = 0x8000


def attr(t, data):
    n = 4 + len(data)
    return struct.pack('HH', n, t) + data + b'\0' * ((4 - n % 4) % 4)


def sz(v):
    return v.encode() + b'\0'


def main():
    fam, table, chain, name, rev, info = sys.argv[1:7]
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    s.bind((0, 0))
    s.settimeout(2.0)

    def msg(typ, flags, f, payload, seq, resid=0):
        body = struct.pack('BBH', f, 0, socket.htons(resid)) + payload
        return struct.pack('IHHII', 16 + len(body), typ, flags, seq, 0) + body
    target = (attr(1, sz(name)) + attr(2, struct.pack('>I', int(rev))) +
              attr(3, bytes.fromhex(info)))
    expr = attr(1, sz('target')) + attr(2 | NLA_F_NESTED, target)
    rule = (attr(1, sz(table)) + attr(2, sz(chain)) +
            attr(4 | NLA_F_NESTED, attr(1 | NLA_F_NESTED, expr)))
    # BEGIN, NEWRULE (request, ack, create, append), END
    s.send(msg(0x10, 1, 0, b'', 1, 10) +
           msg((10 << 8) | 6, 1 | 4 | 0x400 | 0x800, int(fam), rule, 2) +
           msg(0x11, 1, 0, b'', 3, 10))
    while True:
        data = s.recv(65536)
        n, t, _f, seq, _p = struct.unpack_from('IHHII', data, 0)
        if t == 2 and seq == 2:
            err = -struct.unpack_from('i', data, 16)[0]
            if err:
                print("xt-target-raw: %s" % errno.errorcode.get(err, err))
            return err


if __name__ == '__main__':
    sys.exit(main())

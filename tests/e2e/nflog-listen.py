# SPDX-License-Identifier: GPL-2.0-only
# nflog-listen.py READY COUNT - for tests/e2e/nflog.sh: an nfnetlink_log
# listener on a raw NETLINK_NETFILTER socket. First it sends config
# messages the kernel refuses or accepts and prints each answer; then it
# binds groups 1-6 (see GROUPS), creates the file READY and prints every
# NFULNL_MSG_PACKET (and NLMSG_DONE) it receives, decoded, one line each,
# with the datagram it came in, until COUNT packet messages or 20 s.
# Timestamps (checked to be the time of day, within a minute) and the IPv4 ID/checksum, IPv6 flow label and fragment id of
# the payload are masked: they legitimately differ between two runs.
import os
import select
import socket
import struct
import sys
import time

NETLINK_NETFILTER = 12
NFNL_SUBSYS_ULOG = 4
MSG_PACKET, MSG_CONFIG = 0, 1
NLM_F_REQUEST, NLM_F_ACK = 1, 4
CMD, MODE, NLBUFSIZ, TIMEOUT, QTHRESH, FLAGS = 1, 2, 3, 4, 5, 6
BIND, UNBIND, PF_BIND, PF_UNBIND = 1, 2, 3, 4
COPY_NONE, COPY_META, COPY_PACKET = 0, 1, 2
ATTRS = {1: "HDR", 2: "MARK", 3: "TIMESTAMP", 4: "INDEV", 5: "OUTDEV",
         6: "PHYSINDEV", 7: "PHYSOUTDEV", 8: "HWADDR", 9: "PAYLOAD",
         10: "PREFIX", 11: "UID", 12: "SEQ", 13: "SEQ_GLOBAL", 14: "GID",
         15: "HWTYPE", 16: "HWHEADER", 17: "HWLEN", 18: "CT", 19: "CT_INFO",
         20: "VLAN", 21: "L2HDR"}
seq = 0


def attr(t, data):
    return struct.pack("=HH", 4 + len(data), t) + data + b"\0" * (-len(data) % 4)


def msg(sock, mtype, family, group, attrs, flags=NLM_F_REQUEST | NLM_F_ACK):
    """send one message, return the errno of its ack (0: ok)"""
    global seq
    seq += 1
    body = struct.pack("=BBH", family, 0, socket.htons(group)) + b"".join(attrs)
    sock.send(struct.pack("=IHHII", 16 + len(body),
                          NFNL_SUBSYS_ULOG << 8 | mtype, flags, seq, 0) + body)
    while True:
        data = sock.recv(65536)
        off = 0
        while off + 16 <= len(data):
            ln, typ, _, sq, _ = struct.unpack_from("=IHHII", data, off)
            if typ == 2 and sq == seq:
                return -struct.unpack_from("=i", data, off + 16)[0]
            off += (ln + 3) & ~3


def cfg(sock, group, *attrs, family=socket.AF_INET):
    return msg(sock, MSG_CONFIG, family, group, attrs)


def cmd(c):
    return attr(CMD, bytes([c]))


def mode(m, rng):
    return attr(MODE, struct.pack(">IBB", rng, m, 0))


def u32(t, v):
    return attr(t, struct.pack(">I", v))


def sock_new():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    s.bind((0, 0))
    return s


def errors(a, b):
    """config answers; every group used here is unbound at the end"""
    out = []

    def check(name, err):
        out.append("cfg %s: %s" % (name, os.strerror(err) if 0 < err < 500
                                   else err))
    check("unbind unbound", cfg(a, 50, cmd(UNBIND)))
    check("qthresh unbound", cfg(a, 50, u32(QTHRESH, 5)))
    check("mode unbound", cfg(a, 50, mode(COPY_META, 0)))
    check("bind", cfg(a, 51, cmd(BIND)))
    check("bind again", cfg(a, 51, cmd(BIND)))
    check("bind other socket", cfg(b, 51, cmd(BIND)))
    check("qthresh other socket", cfg(b, 51, u32(QTHRESH, 5)))
    check("unbind other socket", cfg(b, 51, cmd(UNBIND)))
    check("cmd none", cfg(a, 51, cmd(0)))
    check("cmd 9", cfg(a, 51, cmd(9)))
    check("cmd 9 unbound", cfg(a, 52, cmd(9)))
    check("mode bad", cfg(a, 51, mode(7, 0)))
    check("mode short", cfg(a, 51, attr(MODE, b"\0" * 5)))
    check("cmd empty", cfg(a, 51, attr(CMD, b"")))
    check("qthresh short", cfg(a, 51, attr(QTHRESH, b"\0\1")))
    check("qthresh long", cfg(a, 51, attr(QTHRESH, b"\0\0\0\1\0")))
    check("nlbufsiz small", cfg(a, 51, u32(NLBUFSIZ, 100)))
    check("nlbufsiz big", cfg(a, 51, u32(NLBUFSIZ, 1 << 20)))
    check("timeout", cfg(a, 51, u32(TIMEOUT, 7)))
    check("flags reserved", cfg(a, 51, attr(FLAGS, struct.pack(">H", 8))))
    check("flags short", cfg(a, 51, attr(FLAGS, b"\1")))
    check("flags seq", cfg(a, 51, attr(FLAGS, struct.pack(">H", 3))))
    check("unknown attr", cfg(a, 51, u32(9, 1)))
    check("pf_bind inet", cfg(a, 0, cmd(PF_BIND), family=socket.AF_INET))
    check("pf_bind 13", cfg(a, 0, cmd(PF_BIND), family=13))
    check("pf_bind 200", cfg(a, 0, cmd(PF_BIND), family=200))
    check("pf_unbind 200", cfg(a, 0, cmd(PF_UNBIND), family=200))
    check("pf_unbind inet", cfg(a, 0, cmd(PF_UNBIND), family=socket.AF_INET))
    check("packet msg", msg(a, MSG_PACKET, 2, 51, []))
    check("msg type 2", msg(a, 2, 2, 51, []))
    check("msg type 9", msg(a, 9, 2, 51, []))
    check("unbind", cfg(a, 51, cmd(UNBIND)))
    check("qthresh after unbind", cfg(a, 51, u32(QTHRESH, 5)))
    check("bind other socket after unbind", cfg(b, 51, cmd(BIND)))
    check("unbind other socket", cfg(b, 51, cmd(UNBIND)))
    return out


# group: config attributes after BIND
GROUPS = {
    1: [u32(QTHRESH, 1)],
    2: [mode(COPY_PACKET, 10), u32(QTHRESH, 1)],
    3: [],		# qthreshold 100: the rule's 2 decides
    4: [mode(COPY_META, 0), attr(FLAGS, struct.pack(">H", 3)),
        u32(QTHRESH, 1)],
    5: [attr(FLAGS, struct.pack(">H", 1)), u32(QTHRESH, 3),
        u32(NLBUFSIZ, 8192)],
    6: [mode(COPY_PACKET, 0)],	# the xt rule's threshold 2
}


def mask_payload(p):
    p = bytearray(p)
    if len(p) >= 6 and p[0] >> 4 == 4:
        p[4:6] = b"II"
        if len(p) >= 12:
            p[10:12] = b"CC"
    elif len(p) >= 26 and p[12:14] == b"\x08\x00" and p[14] >> 4 == 4:
        # from an ethernet header (netdev egress): the IPv4 header's
        p[18:20] = b"II"
        p[24:26] = b"CC"
    elif len(p) >= 4 and p[0] >> 4 == 6:
        p[1] &= 0xf0
        p[2:4] = b"FF"
        if len(p) >= 48 and p[6] == 44:	# fragment header: its id
            p[44:48] = b"IIII"
    return bytes(p).hex()


def decode(data, dgram):
    lines = []
    off = 0
    while off + 16 <= len(data):
        ln, typ, flags, sq, pid = struct.unpack_from("=IHHII", data, off)
        fam, ver, res = struct.unpack_from("=BBH", data, off + 16)
        head = "dgram %d: type 0x%x flags 0x%x seq %d pid %d fam %d ver %d group %d len %d" % (
            dgram, typ, flags, sq, pid, fam, ver, socket.ntohs(res), ln)
        a = off + 20
        parts = []
        while a + 4 <= off + ln:
            alen, atype = struct.unpack_from("=HH", data, a)
            v = data[a + 4:a + alen]
            name = ATTRS.get(atype & 0x7fff, str(atype))
            if name == "TIMESTAMP":
                # the time of day the packet was logged: within a minute
                sec, usec = struct.unpack(">QQ", v)
                v = "ts(%s)" % ("ok" if abs(sec + usec / 1e6 - time.time()) < 60
                                and usec < 1000000 else "bad %d.%06d" % (sec, usec))
            elif name in ("INDEV", "OUTDEV"):
                v = socket.if_indextoname(struct.unpack(">I", v)[0])
            elif name == "PAYLOAD":
                v = mask_payload(v)
            else:
                v = v.hex()
            parts.append("%s=%s" % (name, v))
            a += (alen + 3) & ~3
        lines.append(head + " " + " ".join(parts))
        off += (ln + 3) & ~3
    return lines


def main():
    ready, count = sys.argv[1], int(sys.argv[2])
    a, b = sock_new(), sock_new()
    for line in errors(a, b):
        print(line)
    b.close()
    for g, extra in GROUPS.items():
        err = cfg(a, g, cmd(BIND), *extra)
        print("bind %d: %d" % (g, err))
    sys.stdout.flush()
    open(ready, "w").close()
    got, dgram, end = 0, 0, time.monotonic() + 20
    while got < count and time.monotonic() < end:
        r, _, _ = select.select([a], [], [], max(0, end - time.monotonic()))
        if not r:
            break
        data = a.recv(1 << 20)
        dgram += 1
        for line in decode(data, dgram):
            print(line)
            if " type 0x400 " in line:
                got += 1
    print("packets: %d" % got)


main()

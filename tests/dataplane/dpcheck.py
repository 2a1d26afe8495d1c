#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""dpcheck.py - differential dataplane suite: the same rulesets and packets
through the kernel's nf_tables (side K) and through nfbpfd (side B).

See README.md. Prints TAP ("ok N - NAME", "not ok N - NAME # why" followed by
indented details). Exit 0 iff every case agrees, 1 otherwise, 2 on harness
errors (bad ruleset on the kernel side, topology failure, baseline failure).
Needs root; creates and deletes its own network namespaces only.
"""
import argparse
import collections
import ctypes
import difflib
import fnmatch
import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # the source tree may be read-only (distcheck)
import corpus  # noqa: E402

CLONE_NEWNET = 0x40000000
ETH_P_ALL = 0x0003
SO_MARK = 36
SO_RCVBUFFORCE = 33
PACKET_OUTGOING = 4
QUIET = float(os.environ.get('DPCHECK_QUIET', '0.25'))   # s without a packet = done
DRAIN_MAX = 5.0                                          # s, per ruleset, upper bound
CMD_TIMEOUT = int(os.environ.get('DPCHECK_CMD_TIMEOUT', '60'))

libc = ctypes.CDLL(None, use_errno=True)


def setns(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            e = ctypes.get_errno()
            raise OSError(e, 'setns %s: %s' % (path, os.strerror(e)))
    finally:
        os.close(fd)


class HarnessError(Exception):
    pass


def run(cmd, check=True, timeout=CMD_TIMEOUT):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    if check and p.returncode:
        raise HarnessError('%s: exit %d: %s' % (' '.join(cmd), p.returncode,
                                                  p.stderr.decode(errors='replace').strip()))
    return p


# ---------------------------------------------------------------------------
# One side: a -- fw -- b, three namespaces, plus the sockets that send the
# corpus and see where each packet went.
class Side:
    def __init__(self, label, prefix, wrapper):
        self.label = label
        self.ns = {r: '%s%s%s' % (prefix, label, r) for r in ('a', 'fw', 'b')}
        self.wrapper = wrapper          # [] = kernel nf_tables; [nfbpf-run] = nfbpfd
        self.socks = {}                 # fd -> (name, socket, kind)
        self.tx = {}

    # -- topology ----------------------------------------------------------
    def sysctl(self, role, settings):
        setns('/run/netns/' + self.ns[role])
        try:
            for k, v in settings:
                with open('/proc/sys/' + k.replace('.', '/'), 'w') as f:
                    f.write(v)
        finally:
            setns(ORIG_NS)

    def build(self):
        a, fw, b = self.ns['a'], self.ns['fw'], self.ns['b']
        for n in (a, fw, b):
            run(['ip', 'netns', 'add', n])
        # a and b only send and capture frames: no IPv6, no addresses, so
        # they never answer anything and never speak on their own.
        for r in ('a', 'b'):
            self.sysctl(r, [('net.ipv6.conf.all.disable_ipv6', '1'),
                            ('net.ipv6.conf.default.disable_ipv6', '1')])
        # fw: a router that never speaks unless spoken to; ICMP errors are
        # not rate limited (ratemask 0), so they are as deterministic as
        # the packets that cause them.
        self.sysctl('fw', [('net.ipv4.ip_forward', '1'),
                           ('net.ipv4.conf.all.rp_filter', '0'),
                           ('net.ipv4.conf.default.rp_filter', '0'),
                           ('net.ipv4.icmp_ratemask', '0'),
                           ('net.ipv4.icmp_echo_ignore_broadcasts', '1'),
                           ('net.ipv6.conf.all.forwarding', '1'),
                           ('net.ipv6.conf.default.accept_ra', '0'),
                           ('net.ipv6.conf.default.router_solicitations', '0'),
                           ('net.ipv6.conf.default.accept_dad', '0'),
                           ('net.ipv6.conf.default.addr_gen_mode', '1'),
                           ('net.ipv6.icmp.ratelimit', '0'),
                           # fw's own ipv6 answers get flow label 0, not a hash
                           ('net.ipv6.auto_flowlabels', '0'),
                           # forwarding joins ff02::2: its MLD report and
                           # retransmissions leave at once, before settle()
                           ('net.ipv6.conf.all.mldv2_unsolicited_report_interval', '1'),
                           ('net.ipv6.conf.default.mldv2_unsolicited_report_interval', '1'),
                           ('net.ipv6.conf.all.mldv1_unsolicited_report_interval', '1'),
                           ('net.ipv6.conf.default.mldv1_unsolicited_report_interval', '1'),
                           ('net.ipv6.icmp.ratemask', '255')])
        M = corpus.MAC
        for fwif, peer, pns in (('a0', 'eth0', a), ('a1', 'eth1', a), ('b0', 'eth0', b), ('b1', 'eth1', b)):
            role = 'a' if pns == a else 'b'
            run(['ip', '-n', fw, 'link', 'add', fwif, 'address', M['fw:' + fwif], 'type', 'veth',
                 'peer', 'name', peer, 'address', M[role + ':' + peer], 'netns', pns])
            # NOARP: no ARP/ND and no solicited-node MLD joins; frames to a
            # neighbour leave with fw's own MAC as destination, which the
            # capturing packet sockets in a and b do not mind.
            run(['ip', '-n', fw, 'link', 'set', fwif, 'arp', 'off', 'addrgenmode', 'none'])
        # a:eth2 -- fw:a2: the one pair that does ARP (arp family
        # rulesets, corpus.arp_corpus()); nothing routes through it, so
        # fw only speaks there to answer ARP requests
        run(['ip', '-n', fw, 'link', 'add', 'a2', 'address', M['fw:a2'], 'type', 'veth',
             'peer', 'name', 'eth2', 'address', M['a:eth2'], 'netns', a])
        run(['ip', '-n', fw, 'link', 'set', 'a2', 'addrgenmode', 'none'])
        run(['ip', '-n', fw, 'addr', 'add', '10.1.2.1/24', 'dev', 'a2'])
        # device groups for meta iifgroup/oifgroup
        run(['ip', '-n', fw, 'link', 'set', 'a1', 'group', '7'])
        run(['ip', '-n', fw, 'link', 'set', 'b1', 'group', '9'])
        addrs = {'a0': ['10.1.0.1/24', '10.1.0.3/24', 'fd01::1/64', 'fd01::3/64'],
                 'a1': ['10.1.1.1/24', 'fd01:1::1/64'],
                 'b0': ['10.2.0.1/24', 'fd02::1/64'],
                 'b1': ['10.2.1.1/24', 'fd02:1::1/64']}
        for dev, lst in addrs.items():
            for ad in lst:
                extra = ['nodad'] if ':' in ad else []
                run(['ip', '-n', fw, 'addr', 'add', ad, 'dev', dev] + extra)
        for dev in ('lo', 'a0', 'a1', 'b0', 'b1', 'a2'):
            run(['ip', '-n', fw, 'link', 'set', dev, 'up'])
        for dev in ('eth0', 'eth1', 'eth2'):
            run(['ip', '-n', a, 'link', 'set', dev, 'up'])
        for dev in ('eth0', 'eth1'):
            run(['ip', '-n', b, 'link', 'set', dev, 'up'])
        for pfx, dev in (('10.8.0.0/16', 'a0'), ('10.9.0.0/16', 'b0'), ('10.10.0.0/16', 'b1'),
                         ('fd08::/64', 'a0'), ('fd09::/64', 'b0'), ('fd0a::/64', 'b1')):
            run(['ip', '-n', fw, 'route', 'add', pfx, 'dev', dev])
        # reject routes (fib ... type blackhole/prohibit/unreachable)
        for typ, pfx in (('blackhole', 'fd0c::/64'), ('prohibit', 'fd0d::/64'),
                         ('unreachable', 'fd0e::/64')):
            run(['ip', '-n', fw, '-6', 'route', 'add', typ, pfx])

    def destroy(self):
        for s in list(self.socks.values()):
            s[1].close()
        self.socks = {}
        for n in self.ns.values():
            subprocess.run(['ip', 'netns', 'del', n], stderr=subprocess.DEVNULL)

    # -- sockets -----------------------------------------------------------
    def _add(self, name, s, kind):
        s.setblocking(False)
        try:
            s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
        except OSError:
            pass
        self.socks[s.fileno()] = (name, s, kind)

    def open_sockets(self):
        try:
            setns('/run/netns/' + self.ns['a'])
            for dev in ('eth0', 'eth1', 'eth2'):
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
                s.bind((dev, ETH_P_ALL))
                self.tx[dev] = s
                self._add('a' + dev[-1], s, 'packet')
            setns('/run/netns/' + self.ns['b'])
            for dev in ('eth0', 'eth1'):
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
                s.bind((dev, ETH_P_ALL))
                self._add('b' + dev[-1], s, 'packet')
            setns('/run/netns/' + self.ns['fw'])
            for fam, protos in corpus.RAW_PROTOS.items():
                af = socket.AF_INET if fam == 4 else socket.AF_INET6
                for p in protos:
                    self._add('fw', socket.socket(af, socket.SOCK_RAW, p), 'raw%d' % fam)
            self.tx[4] = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
            self.tx[4].setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            self.tx[6] = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
            # the same, but the socket's file is uid/gid 1000's (meta skuid):
            # the file takes the creator's fsuid/fsgid
            libc.setfsgid(1000)
            libc.setfsuid(1000)
            try:
                self.tx[(4, 1000)] = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
                self.tx[(6, 1000)] = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
            finally:
                libc.setfsuid(0)
                libc.setfsgid(0)
            self.ifindex = {d: socket.if_nametoindex(d) for d in ('a0', 'a1', 'b0', 'b1')}
            # ARP frames written by a packet socket (protocol 0: it
            # receives nothing)
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
            s.bind(('a2', 0))
            self.tx['fwa2'] = s
        finally:
            setns(ORIG_NS)

    # -- traffic -----------------------------------------------------------
    def send(self, pkts, epoch):
        for p in pkts:
            data = p.frame((epoch << 16) | p.idx)
            if p.path in ('in', 'fwd', 'arp'):
                self.tx[p.a_if].send(data)
                continue
            if p.path == 'arppkt':
                self.tx['fwa2'].send(data)
                continue
            s = self.tx[(p.fam, p.uid) if p.uid else p.fam]
            s.setsockopt(socket.SOL_SOCKET, SO_MARK, struct.pack('=I', p.mark))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, p.prio)
            ifi = self.ifindex[p.mcast_if] if p.mcast_if else 0
            if p.fam == 4:
                s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, struct.pack('=4s4si', bytes(4), bytes(4), ifi))
            else:
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, ifi)
            try:
                s.sendto(data, (p.dst, 0) if p.fam == 4 else (p.dst, 0, 0, 0))
            except OSError as e:   # a dropping output hook makes sendmsg fail (EPERM)
                self.send_errors[p.idx] = e.errno

    @staticmethod
    def marker_of(kind, data):
        """id of the corpus packet in data, or None; plus a stray label."""
        ip = data
        if kind == 'packet':
            if len(data) < 14:
                return None, 'runt'
            et = struct.unpack('!H', data[12:14])[0]
            ip = data[14:]
            if et == 0x0800 and len(ip) >= 20:
                ip = ip[:struct.unpack('!H', ip[2:4])[0]]
            elif et == 0x86dd and len(ip) >= 40:
                ip = ip[:40 + struct.unpack('!H', ip[4:6])[0]]
            elif et == 0x0806:
                # a frame of corpus.arp_corpus(), or fw's reply to one:
                # the sender's hardware address is the target's there
                if len(ip) >= 6 and ip[-6:-4] == corpus.MARK:
                    return struct.unpack('!I', ip[-4:])[0], None
                if len(ip) >= 24 and ip[4] == 6 and ip[18:20] == corpus.ARP_HW:
                    return struct.unpack('!I', ip[20:24])[0], None
                return None, 'arp'
            else:
                return None, 'ethertype 0x%04x' % et
        if len(ip) >= 6 and ip[-6:-4] == corpus.MARK:
            return struct.unpack('!I', ip[-4:])[0], None
        if kind == 'packet' and len(ip) >= 20:
            if ip[0] >> 4 == 4:
                return None, 'ipv4 proto %d' % ip[9]
            if os.environ.get('DPCHECK_DEBUG'):
                return None, 'ipv6 nh %d %s' % (ip[6], ip.hex())
            return None, 'ipv6 nh %d' % ip[6]
        return None, kind

    def start_round(self):
        self.seen = collections.defaultdict(collections.Counter)
        self.strays = collections.Counter()
        self.send_errors = {}


def drain(sides, epoch):
    """Read every receiver of every side until QUIET s pass without a packet."""
    fds = {}
    for sd in sides:
        for fd, (name, s, kind) in sd.socks.items():
            fds[fd] = (sd, name, s, kind)
    p = select.poll()
    for fd in fds:
        p.register(fd, select.POLLIN)
    t0 = time.monotonic()
    last = t0
    while True:
        now = time.monotonic()
        if now - last >= QUIET or now - t0 >= DRAIN_MAX:
            break
        ev = p.poll(max(1, int((QUIET - (now - last)) * 1000)))
        for fd, _ in ev:
            sd, name, s, kind = fds[fd]
            for _ in range(10000):
                try:
                    data, addr = s.recvfrom(65535)
                except BlockingIOError:
                    break
                if kind == 'packet' and addr[2] == PACKET_OUTGOING:
                    continue
                last = time.monotonic()
                pid, stray = Side.marker_of(kind, data)
                if pid is not None and pid >> 16 == epoch:
                    sd.seen[pid & 0xffff][name] += 1
                else:
                    sd.strays['%s: %s' % (name, stray or 'old marker')] += 1


def settle(sides):
    """after setup: wait until nothing has moved for 0.5 s (max 5 s)"""
    global QUIET
    q, QUIET = QUIET, 0.5
    try:
        for sd in sides:
            sd.start_round()
        drain(sides, -1)
    finally:
        QUIET = q
    return sum(sum(sd.strays.values()) for sd in sides)


def outcome(counter):
    if not counter:
        return 'dropped'
    return ' '.join('%s%s' % (k, '' if v == 1 else '*%d' % v) for k, v in sorted(counter.items()))


# ---------------------------------------------------------------------------
def nft(side, args, stdin=None):
    cmd = ['ip', 'netns', 'exec', side.ns['fw']] + side.wrapper + ['nft'] + args
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE), stdin


IPT_RE = re.compile(rb'\A\s*#\s*dpcheck:\s*(iptables|ip6tables)\s*$', re.M)


def load(side, text):
    """load one batch: nft -f, or iptables-nft-restore / ip6tables-nft-restore
    for a batch whose first line is '# dpcheck: iptables' / 'ip6tables'"""
    m = IPT_RE.match(text)
    if not m:
        return nft(side, ['-f', '-'], text)
    cmd = ['ip', 'netns', 'exec', side.ns['fw']] + side.wrapper + \
        ['%s-nft-restore' % m.group(1).decode(), '--noflush']
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE), text[m.end():]


def wait_all(procs):
    out = []
    for p, stdin in procs:
        try:
            so, se = p.communicate(stdin, timeout=CMD_TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            so, se = p.communicate()
            se += b'\n(timed out)'
        out.append((p.returncode, so.decode(errors='replace'), se.decode(errors='replace')))
    return out


def udiff(a, b, la, lb, n=80):
    d = list(difflib.unified_diff(a.splitlines(), b.splitlines(), la, lb, lineterm=''))
    return d[:n] + (['... (%d more diff lines)' % (len(d) - n)] if len(d) > n else [])


def traffic(sides, pkts, epoch):
    for sd in sides:
        sd.start_round()
    for sd in sides:
        sd.send(pkts, epoch)
    drain(sides, epoch)


def compare_traffic(K, B, pkts, detail, maxshow=25):
    """appends lines to detail; returns number of packets that differ"""
    bad = 0
    for p in pkts:
        ok_, ob = outcome(K.seen.get(p.idx)), outcome(B.seen.get(p.idx))
        ek, eb = K.send_errors.get(p.idx), B.send_errors.get(p.idx)
        if ek:
            ok_ += ' (send: %s)' % os.strerror(ek)
        if eb:
            ob += ' (send: %s)' % os.strerror(eb)
        if ok_ != ob:
            bad += 1
            if bad <= maxshow:
                detail.append('packet %d %s v%d %s: kernel=%s %s=%s' %
                              (p.idx, p.path, p.fam, p.desc, ok_, B.label_long, ob))
    if bad > maxshow:
        detail.append('... and %d more packets differ' % (bad - maxshow))
    if K.strays != B.strays:
        detail.append('unmarked frames differ: kernel=%s %s=%s' %
                      (dict(sorted(K.strays.items())), B.label_long, dict(sorted(B.strays.items()))))
        bad += 1
    return bad


COUNTER_RE = re.compile(r'packets (\d+) bytes (\d+)')


def counter_delta(before, after):
    """after - before for every 'packets N bytes M' of two listings of the
    same ruleset; None when the listings do not line up."""
    b, a = before.splitlines(), after.splitlines()
    if len(a) != len(b):
        return None
    out = []
    for lb, la in zip(b, a):
        if COUNTER_RE.sub('', lb) != COUNTER_RE.sub('', la):
            return None
        nb = [(int(x), int(y)) for x, y in COUNTER_RE.findall(lb)]
        it = iter(nb)

        def sub(m):
            p0, b0 = next(it)
            return 'packets %d bytes %d' % (int(m.group(1)) - p0, int(m.group(2)) - b0)
        out.append(COUNTER_RE.sub(sub, la))
    return '\n'.join(out) + '\n'


def list_both(K, B, kernel_only):
    procs = [nft(K, ['list', 'ruleset']), nft(B, ['list', 'ruleset'])]
    if not kernel_only:
        procs.append((subprocess.Popen(['ip', 'netns', 'exec', B.ns['fw'], 'nft', 'list', 'ruleset'],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE), None))
    return wait_all(procs)


CONNS_RE = re.compile(rb'^#\s*dpcheck:.*\bconns\b', re.M)
CONNS_SETTLE = 2.5  # seconds: two set gc runs (nft_rhash_gc()) and a margin


def conns_phase(K, B, args, name, prev):
    """the conns phase (conns.py, rulesets with '# dpcheck: conns'): the
    same real connections in fw on both sides at once; their outcomes and
    the counters they added must agree. Returns (test result, prev)."""
    t0 = time.monotonic()
    tname = name + '+conns'
    procs = [(subprocess.Popen(['ip', 'netns', 'exec', sd.ns['fw'], sys.executable,
                                os.path.join(HERE, 'conns.py')],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE), None)
             for sd in (K, B)]
    (rk, ok_, ek), (rb, ob, eb) = wait_all(procs)
    if rk or rb:
        return (tname, 'harness: conns.py failed', ('kernel: %s %s: %s' % (ek, B.label_long, eb)).splitlines()[:12],
                time.monotonic() - t0), prev
    # elements a rule added with a ct count leave their set once their
    # connections ended, at the set's next gc run (once a second on both
    # sides, each at its own phase; the kernel's may skip one when a
    # packet collected the list in the same jiffy): let it run on both
    # before the listing
    time.sleep(CONNS_SETTLE)
    detail, why = [], None
    if ok_ != ob:
        detail.append('connection outcomes differ:')
        detail += udiff(ok_, ob, 'kernel', B.label_long)
        why = 'connection outcomes differ'
    lk, lb = list_both(K, B, True)[:2]
    if lk[0] or lb[0]:
        return (tname, 'listing failed', [lk[2].strip(), lb[2].strip()], time.monotonic() - t0), None
    ck, cb, what = lk[1], lb[1], 'nft list ruleset'
    if prev is not None:
        dk, db = counter_delta(prev[0], ck), counter_delta(prev[1], cb)
        if dk is not None and db is not None:
            ck, cb, what = dk, db, 'counters added by this phase'
    if ck != cb:
        detail.append('%s differ:' % what)
        detail += udiff(ck, cb, 'kernel', B.label_long)
        why = (why + '; ' if why else '') + 'counters/listing differ'
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for sd, lst, o in ((K, lk[1], ok_), (B, lb[1], ob)):
            with open(os.path.join(args.keep, '%s.%s' % (tname, sd.label)), 'w') as f:
                f.write(lst + '\n# connections\n' + o)
    return (tname, why, detail, time.monotonic() - t0), (lk[1], lb[1])


def run_case(K, B, args, name, steps, pkts, classes, epoch0):
    """steps: [(suffix, nft text)]. For each step, load its text on both
    sides, then run one phase per corpus class: send, compare each packet's
    outcome and the counters. Returns a list of (test name, why or None,
    detail lines, seconds)."""
    out = []
    prev = None
    conns = bool(CONNS_RE.search(steps[0][1]))
    for k, (suffix, text) in enumerate(steps):
        res, prev = run_step(K, B, args, name + suffix, text, pkts, classes,
                             epoch0 + k * len(classes), prev)
        if conns and prev is not None:
            r, prev = conns_phase(K, B, args, name + suffix, prev)
            res.append(r)
        elif conns:
            res.append((name + suffix + '+conns', res[0][1], ['step %s failed' % (suffix or '1')], 0.0))
        out += res
        if prev is None:
            # later steps build on this one: report them as failed too
            for suffix2, _ in steps[k + 1:]:
                out += [(name + suffix2 + ('' if c == 'main' else '+' + c), res[0][1],
                         ['step %s failed' % (suffix or '1')], 0.0)
                        for c in classes + (['conns'] if conns else [])]
            break
    return out


def run_step(K, B, args, name, text, pkts, classes, epoch0, prev):
    blabel = B.label_long
    t0 = time.monotonic()
    # a step may be several batches (nft -f each), split at "# dpcheck: batch"
    for part in re.split(rb'^#\s*dpcheck:\s*batch\s*$', text, flags=re.M):
        rk, rb = wait_all([load(K, part), load(B, part)])
        if rk[0] or rb[0]:
            break
    if rk[0]:
        # a broken ruleset, not a difference: fails the whole run
        return [(name, 'harness: the kernel refuses the ruleset',
                 rk[2].strip().splitlines()[:12], time.monotonic() - t0)], None
    if rb[0]:
        detail = ['%s: exit %d' % (blabel, rb[0])] + rb[2].strip().splitlines()[:12]
        return [(name if c == 'main' else '%s+%s' % (name, c), '%s refused the ruleset' % blabel,
                 detail, time.monotonic() - t0) for c in classes], None
    out = []
    for i, cls in enumerate(classes):
        sel = [p for p in pkts if p.cls == cls]
        tname = name if cls == 'main' else '%s+%s' % (name, cls)
        detail, why = [], None
        traffic((K, B), sel, epoch0 + i)
        nbad = compare_traffic(K, B, sel, detail)
        res = list_both(K, B, args.kernel_only)
        lk, lb = res[0], res[1]
        if lk[0] or lb[0]:
            detail.append('listing failed: kernel exit %d %s exit %d: %s %s' %
                          (lk[0], blabel, lb[0], lk[2].strip(), lb[2].strip()))
            why = 'listing failed'
        else:
            ck, cb, what = lk[1], lb[1], 'nft list ruleset'
            if prev is not None:
                # count only this phase's packets
                dk, db = counter_delta(prev[0], ck), counter_delta(prev[1], cb)
                if dk is not None and db is not None:
                    ck, cb, what = dk, db, 'counters added by this phase'
            if ck != cb:
                detail.append('%s differ:' % what)
                detail += udiff(ck, cb, 'kernel', blabel)
                why = 'counters/listing differ'
            prev = (lk[1], lb[1])
        if prev is None:
            prev = ('', '')
        # nfbpfd may keep a chain-less dormant table there (it holds the
        # netns's conntrack hooks for ct rules); a chain would filter
        if len(res) > 2 and (res[2][0] or re.search(r'^\s*chain ', res[2][1], re.M)):
            detail.append('the kernel nf_tables of the nfbpf side has chains:')
            detail += res[2][1].splitlines()[:20]
            why = 'kernel nf_tables of the nfbpf netns filters'
        if nbad:
            why = '%d packet outcome(s) differ' % nbad + ('; ' + why if why else '')
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for sd, lst in ((K, lk[1]), (B, lb[1])):
                with open(os.path.join(args.keep, '%s.%s' % (tname, sd.label)), 'w') as f:
                    f.write(lst)
                    f.write('\n# outcomes\n')
                    for p in sel:
                        f.write('%d %s\n' % (p.idx, outcome(sd.seen.get(p.idx))))
                    f.write('# unmarked %s\n' % dict(sorted(sd.strays.items())))
        out.append((tname, why, detail, time.monotonic() - t0))
        t0 = time.monotonic()
    return out, prev


def main():
    global ORIG_NS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--nfbpf-run', default=os.environ.get('NFBPF_RUN'))
    ap.add_argument('--kernel-only', action='store_true',
                    help='side B is the kernel too: proves the harness deterministic')
    ap.add_argument('--rulesets', default=os.path.join(HERE, 'rulesets'))
    ap.add_argument('--filter', default='*', help='glob on ruleset names')
    ap.add_argument('--keep', help='directory for listings and outcomes of every case')
    ap.add_argument('--list-corpus', action='store_true')
    ap.add_argument('cases', nargs='*')
    args = ap.parse_args()

    pkts = corpus.build_corpus()
    if args.list_corpus:
        for p in pkts:
            print('%3d %-4s v%d base=%-2s %s' % (p.idx, p.path, p.fam, p.base, p.desc))
        return 0
    if os.geteuid() != 0:
        print('dpcheck: needs root, skipped')
        return 77
    if args.kernel_only:
        wrapper, blabel = [], 'kernel(B)'
    else:
        if not args.nfbpf_run:
            print('dpcheck: pass --nfbpf-run PATH or --kernel-only', file=sys.stderr)
            return 2
        wrapper, blabel = [os.path.abspath(args.nfbpf_run)], 'nfbpf'

    names = sorted(f[:-4] for f in os.listdir(args.rulesets) if f.endswith('.nft'))
    if args.cases:
        names = [n for n in names if n in args.cases or any(fnmatch.fnmatch(n, c) for c in args.cases)]
    names = [n for n in names if fnmatch.fnmatch(n, args.filter)]
    if not names:
        print('dpcheck: no rulesets selected', file=sys.stderr)
        return 2

    # keep a handle: /proc/PID/ns/net follows setns, so pin the original
    orig_fd = os.open('/proc/self/ns/net', os.O_RDONLY)
    ORIG_NS = '/proc/%d/fd/%d' % (os.getpid(), orig_fd)
    prefix = 'dp%d' % os.getpid()
    K = Side('K', prefix, [])
    B = Side('B', prefix, wrapper)
    K.label_long, B.label_long = 'kernel', blabel

    def bye(*_):
        raise SystemExit(130)
    signal.signal(signal.SIGTERM, bye)
    signal.signal(signal.SIGINT, bye)

    t_start = time.monotonic()
    rc = 0
    try:
        for sd in (K, B):
            sd.build()
            sd.open_sockets()
        nsettle = settle((K, B))
        nsteps = sum(len(then_steps(os.path.join(args.rulesets, n))) + 1 for n in names)
        nconns = 0
        for n in names:
            with open(os.path.join(args.rulesets, n + '.nft'), 'rb') as f:
                if CONNS_RE.search(f.read()):
                    nconns += len(then_steps(os.path.join(args.rulesets, n))) + 1
        print('1..%d' % (1 + nsteps * len({p.cls for p in pkts}) + nconns))
        print('# topology up; %d frames before settling' % nsettle)
        sys.stdout.flush()

        # 1. harness self-check: no ruleset on either side, every packet
        # goes where the corpus says, both sides identical.
        for sd in (K, B):
            r = wait_all([nft(sd, ['flush', 'ruleset'])])[0]
            if r[0]:
                raise HarnessError('%s: nft flush ruleset: %s' % (sd.label_long, r[2]))
        traffic((K, B), pkts, 1)
        detail = []
        for sd in (K, B):
            for p in pkts:
                got = {r for r in sd.seen.get(p.idx, {}) if r in ('fw', 'b0', 'b1', 'a2')}
                want = set() if p.base == '-' else set(p.base.split('+'))
                if got != want:
                    detail.append('%s: packet %d %s v%d %s: expected %s, got %s' %
                                  (sd.label_long, p.idx, p.path, p.fam, p.desc, p.base,
                                   outcome(sd.seen.get(p.idx))))
        compare_traffic(K, B, pkts, detail)
        if detail:
            print('not ok 1 - baseline # harness self-check failed (no ruleset loaded)')
            print('\n'.join('    ' + d for d in detail))
            return 2
        nstray = sum(K.strays.values())
        print('ok 1 - baseline # %d packets per side; %d unmarked frames (responses) per side' %
              (len(pkts), nstray))
        sys.stdout.flush()

        # 2. the rulesets, each in phases: one per corpus class
        classes = sorted({p.cls for p in pkts}, key=lambda c: (c != 'main', c))
        ntest = 1
        epoch = 2  # packet marker epochs: one per phase of every step
        for n, name in enumerate(names):
            path = os.path.join(args.rulesets, name + '.nft')
            with open(path, 'rb') as f:
                steps = [('', b'flush ruleset\n' + f.read())]
            for label, tpath in then_steps(path[:-4]):
                with open(tpath, 'rb') as f:
                    steps.append((label, f.read()))
            results = run_case(K, B, args, name, steps, pkts, classes, epoch)
            epoch += len(steps) * len(classes)
            if re.search(rb'^#\s*dpcheck:.*\bfresh\b', steps[0][1], re.M):
                # state that outlives the ruleset (conntrack entries, hooks
                # held by nfbpfd): later rulesets get new namespaces
                for sd in (K, B):
                    sd.destroy()
                    sd.build()
                    sd.open_sockets()
                settle((K, B))
            for tname, why, detail, dt in results:
                ntest += 1
                if why:
                    rc = max(rc, 2 if why.startswith('harness') else 1)
                    print('not ok %d - %s # %s (%.1fs)' % (ntest, tname, why, dt))
                    print('\n'.join('    ' + d for d in detail))
                else:
                    print('ok %d - %s # %.1fs' % (ntest, tname, dt))
            sys.stdout.flush()
        print('# side B: %s; %d rulesets x %d phases; %d packets per side per ruleset; %.0fs' %
              (blabel, len(names), len(classes), len(pkts), time.monotonic() - t_start))
    except HarnessError as e:
        print('Bail out! %s' % e)
        rc = 2
    finally:
        for sd in (K, B):
            sd.destroy()
    return rc


def then_steps(base):
    """later steps of ruleset BASE: BASE.then (@2), BASE.then3 (@3), ...,
    each loaded with nft -f (one batch) after the traffic of the step
    before"""
    out = []
    k = 2
    while True:
        tpath = base + ('.then' if k == 2 else '.then%d' % k)
        if not os.path.exists(tpath):
            return out
        out.append(('@%d' % k, tpath))
        k += 1


if __name__ == '__main__':
    sys.exit(main())

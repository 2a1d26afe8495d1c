#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""genipt.py SEED N OUTDIR: random iptables-nft/ip6tables-nft rulesets (dpcheck batches)."""
import os, random, sys
sys.path.insert(0, os.path.dirname(__file__))
from gen import A4, A6, PORTS, pick

def m4(v6):
    A = A6 if v6 else A4
    c = [
        lambda: '-s %s' % pick(A + (['fd01::/64', 'fd08::/64'] if v6 else ['10.1.0.0/24', '10.8.0.0/16'])),
        lambda: '! -d %s' % pick(A),
        lambda: '-p tcp --dport %d' % pick(PORTS),
        lambda: '-p tcp --dport %d:%d' % tuple(sorted([pick(PORTS), pick(PORTS)])),
        lambda: '-p udp ! --sport %d' % pick(PORTS),
        lambda: '-p tcp -m multiport --dports %s' % ','.join(map(str, sorted(set(pick(PORTS, 3))))),
        lambda: '-p udp -m multiport --ports %s' % ','.join(map(str, sorted(set(pick(PORTS, 2))))),
        lambda: '-p tcp --tcp-flags %s %s' % (pick(['SYN,RST,ACK,FIN', 'ALL', 'SYN,ACK']), pick(['SYN', 'NONE', 'SYN,ACK', 'ACK'])),
        lambda: '-p tcp --syn',
        lambda: '-m conntrack --ctstate %s' % pick(['NEW', 'ESTABLISHED,RELATED', 'INVALID', 'UNTRACKED', 'NEW,INVALID']),
        lambda: '-m state --state %s' % pick(['NEW', 'ESTABLISHED', 'INVALID']),
        lambda: '-m comment --comment "c%d"' % random.randint(0, 99),
        lambda: '-i %s' % pick(['a0', 'a1', 'b0', 'b1', 'lo', 'a+', 'b+']),
        lambda: '! -i %s' % pick(['a0', 'lo', 'a+']),
        lambda: '-m length --length %d:%d' % tuple(sorted([random.randint(0, 1500), random.randint(0, 1500)])),
        lambda: '-m mark --mark 0x%x/0x%x' % (pick([0, 1, 0x2a, 0xff00]), pick([0xff, 0xffffffff, 0xff00])),
        lambda: '-m pkttype --pkt-type %s' % pick(['unicast', 'broadcast', 'multicast']),
        lambda: '-m addrtype --dst-type %s' % pick(['LOCAL', 'UNICAST', 'BROADCAST', 'MULTICAST']) if not v6 else '-m pkttype --pkt-type unicast',
        lambda: ('-p icmp --icmp-type %s' % pick(['echo-request', 'echo-reply', '3', 'destination-unreachable', 'any'])) if not v6 else ('-p ipv6-icmp --icmpv6-type %s' % pick(['echo-request', '135', 'neighbour-solicitation', '1'])),
        lambda: '-m iprange --src-range %s' % ('10.1.0.1-10.1.0.80' if not v6 else 'fd01::1-fd01::70'),
        lambda: '-m limit --limit %d/second --limit-burst %d' % (random.randint(1, 5), random.randint(1, 10)),
        lambda: ('-m u32 --u32 "%s"' % pick(['0>>22&0x3C@0>>16=0:1024', '6&0xFF=6', '0&0xFFFF=0x100:0xFFFF'])) if not v6 else '-p udp',

        lambda: '-m dscp --dscp %d' % pick([0, 46, 10]),
        lambda: '-m ttl --ttl-%s %d' % (pick(['eq', 'lt', 'gt']), pick([1, 64, 255])) if not v6 else '-m hl --hl-%s %d' % (pick(['eq', 'lt', 'gt']), pick([1, 64, 255])),
        lambda: '-f' if not v6 else '-p udp',
    ]
    return pick(c)()

def target(chains):
    r = random.random()
    if chains and r < .2:
        return '-j ' + pick(chains)
    if r < .3:
        return '-g ' + pick(chains) if chains else '-j ACCEPT'
    return pick(['-j ACCEPT', '-j DROP', '-j RETURN', '', '-j REJECT', '-j REJECT --reject-with %s' % pick(['tcp-reset', 'icmp-port-unreachable', 'icmp-admin-prohibited']), '-j LOG --log-prefix "x "'])

def ruleset(seed):
    random.seed(seed)
    out = ['# random iptables (%d)' % seed]
    for v6 in random.sample([False, True], random.randint(1, 2)):
        out += ['# dpcheck: batch', '# dpcheck: %s' % ('ip6tables' if v6 else 'iptables'), '*filter']
        out += [':INPUT %s [0:0]' % pick(['ACCEPT', 'ACCEPT', 'DROP']), ':FORWARD %s [0:0]' % pick(['ACCEPT', 'DROP']), ':OUTPUT ACCEPT [0:0]']
        users = ['U%d' % i for i in range(random.randint(0, 2))]
        out += [':%s - [0:0]' % u for u in users]
        for ch in ['INPUT', 'FORWARD', 'OUTPUT'] + users:
            for _ in range(random.randint(0 if ch in users else 1, 5)):
                ms = ' '.join(m4(v6) for _ in range(random.randint(0, 2)))
                tgt = target([u for u in users if u > ch] if ch in users else users)
                if 'REJECT' in tgt and v6:
                    tgt = tgt.replace('icmp-port-unreachable', 'icmp6-port-unreachable').replace('icmp-admin-prohibited', 'icmp6-adm-prohibited')
                if '-g' in tgt or (ch in users and 'RETURN' in tgt and False):
                    pass
                out.append(('-A %s %s %s' % (ch, ms, tgt)).replace('  ', ' ').rstrip())
        out.append('COMMIT')
    return '\n'.join(out) + '\n'

if __name__ == '__main__':
    seed, n, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    os.makedirs(d, exist_ok=True)
    for i in range(n):
        open(os.path.join(d, 'i%05d.nft' % (seed + i)), 'w').write(ruleset(seed + i))

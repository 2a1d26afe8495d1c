#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen.py SEED N OUTDIR: N random rulesets (differential hunting)."""
import random, sys, os

A4 = ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.77', '10.1.1.1', '10.1.1.2', '10.2.0.1', '10.2.0.2',
      '10.2.1.1', '10.2.1.2', '10.8.3.4', '10.8.200.9', '10.9.1.1', '10.10.0.3', '127.0.0.1']
N4 = ['10.1.0.0/24', '10.1.0.0/16', '10.8.0.0/16', '10.9.0.0/16', '10.2.0.0/23', '10.1.0.0/30', '10.0.0.0/8',
      '10.1.0.2-10.1.0.80', '10.8.3.0-10.9.255.255']
A6 = ['fd01::1', 'fd01::2', 'fd01::3', 'fd01::77', 'fd01:1::1', 'fd01:1::2', 'fd02::1', 'fd02::2', 'fd08::3:4',
      'fd08::c8:9', 'fd09::1:1', 'fd0a::3', 'fd0a::9', '::1']
N6 = ['fd01::/64', 'fd01::/16', 'fd08::/64', 'fd00::/8', 'fd02::/63', 'fd01::1-fd01::70', 'fd08::-fd0a::ffff']
PORTS = [0, 1, 22, 23, 25, 53, 67, 68, 80, 123, 161, 443, 500, 1000, 1024, 2000, 4789, 5000, 5353, 8080, 33000,
         40000, 65535]
IFS = ['a0', 'a1', 'b0', 'b1', 'lo']
OPS = ['', '!= ', '< ', '> ', '<= ', '>= ']


def pick(l, k=None):
    return random.choice(l) if k is None else random.sample(l, k)


def intmatch(field, lo, hi, vals=None):
    r = random.random()
    v = lambda: pick(vals) if vals and random.random() < .7 else random.randint(lo, hi)
    if r < .35:
        return '%s %s%d' % (field, pick(OPS), v())
    if r < .55:
        a, b = sorted([v(), v()])
        return '%s %s%d-%d' % (field, pick(['', '!= ']), a, b)
    if r < .85:
        els = sorted(set(v() for _ in range(random.randint(1, 5))))
        if random.random() < .3 and len(els) >= 2:
            a, b = sorted([v(), v()])
            if b > a and all(e < a or e > b for e in els):
                els.append('%d-%d' % (a, b))
        return '%s %s{ %s }' % (field, pick(['', '', '!= ']), ', '.join(map(str, els)))
    return '%s & 0x%x %s 0x%x' % (field, random.randint(1, hi), pick(['==', '!=']), random.randint(0, hi))


def addr(fam):
    r = random.random()
    f = 'ip' if fam == 4 else 'ip6'
    k = pick(['saddr', 'daddr'])
    A, N = (A4, N4) if fam == 4 else (A6, N6)
    if r < .4:
        return '%s %s %s%s' % (f, k, pick(['', '', '!= ']), pick(A + N))
    if r < .8:
        els = pick(A, random.randint(1, 3))
        if random.random() < .5:
            els.append(pick(N[:4]))
            return '%s %s %s{ %s }' % (f, k, pick(['', '!= ']), ', '.join(els))
        return '%s %s %s{ %s }' % (f, k, pick(['', '!= ']), ', '.join(els))
    if fam == 4:
        return 'ip %s & 255.255.%d.0 %s 10.%d.%d.0' % (k, pick([0, 255, 254]), pick(['==', '!=']),
                                                      pick([1, 2, 8]), pick([0, 1]))
    return 'ip6 %s & ffff:ffff:: %s fd0%d::' % (k, pick(['==', '!=']), pick([1, 2, 8]))


def match(fam):
    gens = [
        lambda: addr(4) if fam in (4, 0) and (fam == 4 or random.random() < .5) else addr(6) if fam in (6, 0) else addr(4),
        lambda: intmatch(pick(['tcp dport', 'tcp sport', 'udp dport', 'udp sport', 'th dport', 'th sport']), 0, 65535, PORTS),
        lambda: 'meta l4proto %s{ %s }' % (pick(['', '!= ']), ', '.join(pick(['tcp', 'udp', 'icmp', 'ipv6-icmp', '47', '50', '132', '136'], random.randint(1, 3)))),
        lambda: 'tcp flags %s' % pick(['syn', '& (syn|ack) == syn', '& (fin|syn|rst|ack) != syn', '!= 0', '& (syn|rst) == 0', '{ syn, ack, syn|ack }', 'fin|ack', '& ecn == ecn']),
        lambda: intmatch('meta length', 0, 1500, [40, 60, 84, 100, 200, 1000]),
        lambda: 'meta %s %s{ %s }' % (pick(['iifname', 'oifname']), pick(['', '!= ']), ', '.join('"%s"' % x for x in pick(IFS + ['a*', 'b*'], random.randint(1, 3)))),
        lambda: 'meta %s %s"%s"' % (pick(['iifname', 'oifname']), pick(['', '!= ']), pick(IFS + ['a*', 'b*', 'x*'])),
        lambda: intmatch('meta mark', 0, 0xffffffff, [0, 1, 0x2a, 0xff00, 0x80000000]),
        lambda: 'meta pkttype %s{ %s }' % (pick(['', '!= ']), ', '.join(pick(['host', 'broadcast', 'multicast', 'other'], random.randint(1, 2)))),
        lambda: 'icmp type %s{ %s }' % (pick(['', '!= ']), ', '.join(pick(['echo-request', 'echo-reply', 'destination-unreachable', 'time-exceeded', 'timestamp-request'], random.randint(1, 3)))),
        lambda: 'icmpv6 type %s{ %s }' % (pick(['', '!= ']), ', '.join(pick(['echo-request', 'echo-reply', 'nd-neighbor-solicit', 'nd-router-advert', 'mld-listener-query', 'packet-too-big'], random.randint(1, 3)))),
        lambda: intmatch(pick(['ip ttl', 'ip length', 'ip id', 'ip dscp', 'ip6 hoplimit', 'ip6 length', 'ip6 flowlabel', 'ip6 dscp']), 0, 255, [1, 64, 255, 0, 46]),
        lambda: intmatch(pick(['udp length', 'tcp window', 'tcp sequence', 'udp checksum']), 0, 65535, [8, 9, 100, 1000]),
        lambda: 'ct state %s{ %s }' % (pick(['', '!= ']), ', '.join(pick(['new', 'established', 'related', 'invalid', 'untracked'], random.randint(1, 2)))),
        lambda: 'ip saddr . tcp dport { %s }' % ', '.join('%s . %d' % (pick(A4), pick(PORTS)) for _ in range(random.randint(1, 4))),
        lambda: 'ip6 daddr . meta l4proto { %s }' % ', '.join('%s . %s' % (pick(A6), pick(['tcp', 'udp', 'ipv6-icmp'])) for _ in range(random.randint(1, 3))),
        lambda: '@th,%d,%d %s' % (pick([0, 16, 32, 96]), pick([8, 16]), pick(['== 0', '!= 0', '> 0x100', '< 0x80'])),
        lambda: 'meta nfproto %s' % pick(['ipv4', 'ipv6']),
        lambda: 'meta %s' % pick(['iiftype ether', 'oiftype loopback', 'skuid 0', 'skuid 1000', 'priority 0', 'protocol ip6', 'protocol != ip']),
        lambda: 'ip frag-off & 0x1fff %s 0' % pick(['==', '!=']),
        lambda: 'exthdr %s exists' % pick(['hbh', 'dst', 'rt', 'frag']) if fam != 4 else 'ip option rr exists',
        lambda: 'meta %s' % pick(['iifkind "veth"', 'oifkind "veth"', 'iifkind != "veth"', 'skgid 0', 'skuid != 0', 'cgroup 0',
                                  'pkttype host', 'protocol { ip, arp }', 'protocol ip6', 'len > 100', 'priority none', 'priority 0:1',
                                  'priority != 1:2', 'nfproto { ipv4 }', 'oiftype ether', 'iiftype != loopback', 'iifgroup 0', 'oifgroup != 0',
                                  'secpath exists', 'secpath missing', 'iifname "lo"', 'oifname "lo"', 'iifname != "a0"', 'oifname { "b0", "b1" }',
                                  'l4proto ipv6-icmp', 'mark 0x2a', 'mark & 0xff == 0x2a', 'mark != 0', 'pkttype { broadcast, multicast }']),
        lambda: 'ct %s' % pick(['direction original', 'direction reply', 'status dnat', 'status confirmed', 'status assured',
                                'status & seen-reply == seen-reply', 'mark 0', 'mark != 0', 'l3proto ipv4', 'l3proto ipv6', 'protocol tcp',
                                'protocol udp', 'original saddr 10.1.0.2' if fam != 6 else 'original ip6 saddr fd01::2',
                                'reply ip daddr 10.1.0.2' if fam != 6 else 'reply ip6 daddr fd01::2', 'original proto-dst 22',
                                'reply proto-src { 22, 53 }', 'state { new, established } ct direction original', 'expiration > 10s',
                                'zone 0', 'packets > 1', 'bytes < 1000', 'avgpkt > 50']),
        lambda: 'numgen inc mod %d %s' % (pick([2, 3, 5]), pick(['== 0', '!= 1', '< 2', '{ 0, 2 }'])),
        lambda: 'jhash %s mod %d seed 0x%x %s' % (pick(['ip saddr', 'ip daddr . tcp dport', 'ip6 saddr', 'th dport']), pick([2, 4]), random.randint(0, 0xffffffff), pick(['== 0', '!= 1'])),
        lambda: 'tcp option %s' % pick(['maxseg size > 1000', 'maxseg exists', 'sack-perm exists', 'window missing', 'timestamp exists', 'maxseg size 1460']),
        lambda: 'ip6 nexthdr %s' % pick(['tcp', 'udp', '{ hbh, dstopts }', 'ipv6-icmp', '!= tcp', 'esp']),
        lambda: 'udp length %s' % pick(['< 20', '> 100', '8', '9-200']),
        lambda: 'ip ecn %s' % pick(['not-ect', 'ect0', 'ce']) if fam != 6 else 'ip6 ecn not-ect',
    ]
    return pick(gens)()


def rule(fam, targets, user, sets=()):
    ms = [match(fam) for _ in range(random.randint(0, 3))]
    vm = None
    if sets and random.random() < .4:
        m, f = pick(sets)
        if f == -1:
            vm = m
        else:
            ms.insert(0, m.replace(' @', ' != @') if random.random() < .2 else m)
    if fam == 0 and random.random() < .2:
        ms.insert(0, 'meta nfproto %s' % pick(['ipv4', 'ipv6']))
    if random.random() < .7:
        ms.append('counter')
    r = random.random()
    verdicts = ['accept', 'drop', '']
    if user:
        verdicts += ['return', 'return', 'continue']
    if targets and r < .25:
        v = '%s %s' % (pick(['jump', 'goto']), pick(targets))
    elif targets and r < .35:
        key = pick(['tcp dport', 'udp dport', 'meta l4proto'] + (['ip protocol'] if fam != 6 else []))
        vals = ['22', '53', '80', '443', '1000', '5000'] if 'dport' in key else ['tcp', 'udp', 'icmp', 'esp']
        els = sorted(set(pick(vals, random.randint(1, 3))))
        v = '%s vmap { %s }' % (key, ', '.join('%s : %s' % (e, pick(['accept', 'drop', 'jump ' + pick(targets),
                                                                          'goto ' + pick(targets), 'continue']))
                                                for e in els))
    else:
        v = pick(verdicts)
    if vm:
        v = vm
    s = ' '.join(ms + ([v] if v else []))
    return s or 'counter'


def ruleset(seed):
    random.seed(seed)
    out = []
    ntables = random.randint(1, 2)
    for t in range(ntables):
        fam = pick([0, 0, 0, 4, 6, 5])
        fname = {0: 'inet', 4: 'ip', 6: 'ip6', 5: 'netdev'}[fam]
        out.append('table %s t%d {' % (fname, t))
        if fam == 5:
            for b in range(random.randint(1, 3)):
                hook = pick(['ingress', 'ingress', 'egress'])
                devs = ', '.join(pick(['a0', 'a1', 'b0', 'b1'], random.randint(1, 2)))
                out.append('\tchain b%d {' % b)
                out.append('\t\ttype filter hook %s devices = { %s } priority %d; policy %s;' % (hook, devs, pick([-10, 0, 0, 10]), 'drop' if random.random() < .15 else 'accept'))
                for _ in range(random.randint(1, 8)):
                    out.append('\t\t' + rule(0, [], False).replace('ct ', 'meta ').replace('meta nfproto', 'meta protocol').replace('protocol ipv4', 'protocol ip').replace('protocol ipv6', 'protocol ip6'))
                out.append('\t}')
            out.append('}')
            continue
        sets = []
        for k in range(random.randint(0, 3)):
            kind = pick(['a4', 'a6', 'port', 'cc', 'vm']) if fam == 0 else pick(['a4', 'port', 'cc', 'vm']) if fam == 4 else pick(['a6', 'port', 'vm'])
            name = 's%d' % k
            if kind == 'a4':
                els = sorted(set(pick(A4, random.randint(1, 4)) + ([pick(N4[:6])] if random.random() < .5 else [])))
                out.append('\tset %s { type ipv4_addr; flags interval; auto-merge; elements = { %s } }' % (name, ', '.join(els)))
                sets.append(('ip %s @%s' % (pick(['saddr', 'daddr']), name), 4))
            elif kind == 'a6':
                els = sorted(set(pick(A6, random.randint(1, 4)) + ([pick(N6[:5])] if random.random() < .5 else [])))
                out.append('\tset %s { type ipv6_addr; flags interval; auto-merge; elements = { %s } }' % (name, ', '.join(els)))
                sets.append(('ip6 %s @%s' % (pick(['saddr', 'daddr']), name), 6))
            elif kind == 'port':
                els = sorted(set(pick(PORTS, random.randint(1, 5))))
                iv = random.random() < .5
                if iv:
                    els = ['%d-%d' % (a, a + random.randint(1, 100)) if random.random() < .3 else str(a) for a in els]
                out.append('\tset %s { type inet_service;%s elements = { %s } }' % (name, ' flags interval; auto-merge;' if iv else '', ', '.join(map(str, els))))
                sets.append(('%s %s @%s' % (pick(['tcp', 'udp', 'th']), pick(['sport', 'dport']), name), 0))
            elif kind == 'cc':
                els = sorted(set('%s . %s . %d' % (pick(A4), pick(['tcp', 'udp']), pick(PORTS)) for _ in range(random.randint(1, 5))))
                out.append('\tset %s { type ipv4_addr . inet_proto . inet_service; elements = { %s } }' % (name, ', '.join(els)))
                sets.append(('ip daddr . meta l4proto . th dport @%s' % name, 4))
            else:
                els = sorted(set(pick(PORTS, random.randint(1, 4))))
                out.append('\tmap %s { type inet_service : verdict; elements = { %s } }' % (name, ', '.join('%d : %s' % (e, pick(['accept', 'drop', 'continue'])) for e in els)))
                sets.append(('tcp dport vmap @%s' % name, -1))
        nuser = random.randint(0, 3)
        users = ['u%d' % i for i in range(nuser)]
        for i, u in enumerate(users):
            out.append('\tchain %s {' % u)
            for _ in range(random.randint(1, 5)):
                out.append('\t\t' + rule(fam, users[i + 1:], True, sets))
            out.append('\t}')
        for b in range(random.randint(1, 3)):
            hook = pick(['prerouting', 'input', 'forward', 'output', 'postrouting'])
            pol = 'drop' if random.random() < .2 else 'accept'
            out.append('\tchain b%d {' % b)
            out.append('\t\ttype filter hook %s priority %d; policy %s;' % (hook, pick([-300, -150, 0, 0, 10, 100]), pol))
            for _ in range(random.randint(1, 8)):
                out.append('\t\t' + rule(fam, users, False, sets))
            out.append('\t}')
        out.append('}')
    return '\n'.join(out) + '\n'


if __name__ == '__main__':
    seed, n, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    os.makedirs(d, exist_ok=True)
    for i in range(n):
        with open(os.path.join(d, 'g%05d.nft' % (seed + i)), 'w') as f:
            f.write(ruleset(seed + i))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen_then.py DIR SEED: for each ruleset in DIR write a .then step (incremental changes)."""
import os, random, re, sys
sys.path.insert(0, os.path.dirname(__file__))
import gen
d, seed = sys.argv[1], int(sys.argv[2])
for n, f in enumerate(sorted(x for x in os.listdir(d) if x.endswith('.nft'))):
    random.seed(seed + n)
    txt = open(os.path.join(d, f)).read()
    tables = re.findall(r'^table (\w+) (\w+) \{', txt, re.M)
    out = []
    cur = None
    for line in txt.split('\n'):
        m = re.match(r'^table (\w+) (\w+) \{', line)
        if m:
            cur = m.groups()
        m = re.match(r'^\tchain (\w+) \{', line)
        if m and cur:
            fam = {'inet': 0, 'ip': 4, 'ip6': 6, 'netdev': 5}[cur[0]]
            chain = m.group(1)
            users = sorted(set(re.findall(r'^\tchain (u\d+)', txt, re.M)))
            r = random.random()
            if r < .25:
                out.append('flush chain %s %s %s' % (cur[0], cur[1], chain))
            for _ in range(random.randint(0, 3)):
                rr = gen.rule(0 if fam == 5 else fam, [u for u in users if u > chain] if chain.startswith('u') else users, chain.startswith('u'))
                if fam == 5:
                    rr = rr.replace('ct ', 'meta ').replace('meta nfproto', 'meta protocol').replace('protocol ipv4', 'protocol ip').replace('protocol ipv6', 'protocol ip6')
                    rr = re.sub(r'(jump|goto) u\d+', 'accept', rr)
                out.append('%s rule %s %s %s %s' % (random.choice(['add', 'add', 'insert']), cur[0], cur[1], chain, rr))
            if chain.startswith('b') and random.random() < .3:
                out.append('chain %s %s %s { policy %s; }' % (cur[0], cur[1], chain, random.choice(['accept', 'drop'])))
        m = re.match(r'^\tset (s\d+) \{ type (\w+)', line)
        if m and cur:
            name, typ = m.groups()
            vals = {'ipv4_addr': gen.A4, 'ipv6_addr': gen.A6, 'inet_service': [str(p) for p in gen.PORTS]}.get(typ)
            if vals:
                for _ in range(random.randint(0, 2)):
                    out.append('%s element %s %s %s { %s }' % (random.choice(['add', 'delete']), cur[0], cur[1], name, random.choice(vals)))
    open(os.path.join(d, f[:-4] + '.then'), 'w').write('\n'.join(out) + '\n')

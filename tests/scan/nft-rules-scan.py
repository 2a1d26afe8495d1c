#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""nft-rules-scan.py PYDIR [FILTER...] - which rules of the nftables
project's own rule tests (its tests/py directory, PYDIR, from a checkout of
nftables: not shipped here) does the kernel accept and nfbpfd refuse?

Each `RULE;ok` line of each PYDIR/*/*.t is added with `nft add rule` to its
file's tables and chains, in netns `pk` (the kernel) and in netns `pb`
through nfbpf-run ($NFBPF_RUN, with NFBPF_SOCKET/NFBPF_PRELOAD set), both
created by the caller (`ip netns add pk; ip netns add pb`). A rule the
kernel takes and nfbpfd refuses is printed with the reason nfbpfd logged
(the last line of $NFBPF_LOG, the daemon's --verbose --foreground log).
Not part of make check (needs the nftables sources); see tests/scan/README."""
import glob, os, subprocess, sys, re

NFBPF_RUN = os.environ.get('NFBPF_RUN', './nfbpf-run')
LOG = os.environ.get('NFBPF_LOG', '')
files = sorted(glob.glob(os.path.join(sys.argv[1], '*', '*.t')))
if len(sys.argv) > 2:
    files = [f for f in files if any(a in f for a in sys.argv[2:])]


def nft(side, ns, cmd):
    pre = ['ip', 'netns', 'exec', ns]
    if side == 'b':
        pre += [NFBPF_RUN]
    p = subprocess.run(pre + ['nft', cmd], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stderr.strip()


results = []
for f in files:
    chains = {}
    tables = []
    sets = []
    objs = []
    rules = []
    for line in open(f):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        if line.startswith(':'):
            name, spec = line[1:].split(';', 1)
            chains[name] = spec
        elif line.startswith('*'):
            fam, tbl, chs = line[1:].split(';')
            tables.append((fam, tbl, chs.split(',')))
        elif line.startswith('!'):
            parts = line[1:].split(';')
            sets.append(parts[0])
        elif line.startswith('%'):
            parts = line[1:].split(';')
            objs.append(parts[0])
        elif line.startswith('?') or line.startswith('-'):
            continue
        else:
            parts = line.split(';')
            if len(parts) >= 2 and parts[1].strip() == 'ok':
                rules.append(parts[0])
    for fam, tbl, chs in tables:
        for side, ns in (('k', 'pk'), ('b', 'pb')):
            nft(side, ns, 'flush ruleset')
            nft(side, ns, 'add table %s %s' % (fam, tbl))
            for c in chs:
                nft(side, ns, 'add chain %s %s %s { %s; }' % (fam, tbl, c, chains.get(c, '')))
            for s in sets:
                name, rest = s.split(' ', 1)
                nft(side, ns, 'add set %s %s %s { %s; }' % (fam, tbl, name, rest.replace(' flags', '; flags')))
            for o in objs:
                name, rest = o.split(' ', 1)
                m = re.match(r'type (\S+)\s*(.*)', rest)
                if m:
                    typ, args = m.groups()
                    nft(side, ns, 'add %s %s %s %s { %s }' % (typ, fam, tbl, name, args))
        for r in rules:
            for c in chs:
                rk, ek = nft('k', 'pk', 'add rule %s %s %s %s' % (fam, tbl, c, r))
                if rk != 0:
                    continue
                rb, eb = nft('b', 'pb', 'add rule %s %s %s %s' % (fam, tbl, c, r))
                if rb != 0:
                    try:
                        last = open(LOG, errors='replace').read().splitlines()[-1]
                        eb = last.split(': ', 2)[-1] if 'client' in last else eb
                    except OSError:
                        pass
                    results.append((os.path.relpath(f, sys.argv[1]), fam, c, r, eb.splitlines()[0] if eb else ''))
                    print('REFUSED %s %s/%s: %s :: %s' % (os.path.relpath(f, sys.argv[1]), fam, c, r, eb.splitlines()[0] if eb else ''), flush=True)
print('total refused', len(results))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""xt-rules-scan.py EXTDIR [FILTER...] - which rules of the iptables
project's extension tests (its extensions/*.t, EXTDIR, from a checkout of
iptables: not shipped here) does the kernel accept and nfbpfd refuse?

Each `RULE;...;OK` line runs as `<tool> -t TABLE -A CHAIN RULE` (the tool by
the file name: libxt_ iptables-nft and ip6tables-nft, libipt_, libip6t_,
libebt_, libarpt_) after `nft flush ruleset`, in netns `pk` (the kernel)
and `pb` (through $NFBPF_RUN); as nft-rules-scan.py."""
import glob, os, subprocess, sys
NFBPF_RUN = os.environ.get('NFBPF_RUN', './nfbpf-run')
LOG = os.environ.get('NFBPF_LOG', '')
files = sorted(glob.glob(os.path.join(sys.argv[1], '*.t')))
if len(sys.argv) > 2:
    files = [f for f in files if any(a in f for a in sys.argv[2:])]
def run(side, ns, args):
    pre = ['ip', 'netns', 'exec', ns] + ([NFBPF_RUN] if side == 'b' else [])
    p = subprocess.run(pre + args, capture_output=True, text=True, timeout=60)
    return p.returncode, (p.stderr or p.stdout).strip()
n = 0
for f in files:
    b = os.path.basename(f)
    tools = {'libxt_': ['iptables-nft', 'ip6tables-nft'], 'libipt_': ['iptables-nft'],
             'libip6t_': ['ip6tables-nft'], 'libebt_': ['ebtables-nft'], 'libarpt_': ['arptables-nft']}
    tl = next(v for k, v in tools.items() if b.startswith(k)) if any(b.startswith(k) for k in tools) else []
    table, chains = 'filter', ['INPUT']
    for line in open(f):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        if line.startswith(':'):
            chains = line[1:].split(',')
            continue
        if line.startswith('*'):
            table = line[1:]
            continue
        parts = line.split(';')
        if len(parts) < 3 or parts[2].strip() != 'OK':
            continue
        rule = parts[0]
        for tool in tl:
            c = chains[0]
            args = [tool, '-t', table, '-A', c] + rule.split()
            for side, ns in (('k', 'pk'), ('b', 'pb')):
                run(side, ns, ['nft', 'flush', 'ruleset'])
            rk, ek = run('k', 'pk', args)
            if rk != 0:
                continue
            rb, eb = run('b', 'pb', args)
            if rb != 0:
                try:
                    last = open(LOG, errors='replace').read().splitlines()[-1]
                    msg = last.split(': ', 2)[-1]
                except OSError:
                    msg = eb
                n += 1
                print('REFUSED %s %s -t %s -A %s %s :: %s' % (b, tool, table, c, rule, msg), flush=True)
print('total refused', n)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fixthen.py DIR: drop .then lines the kernel refuses after loading the .nft (scratch netns)."""
import os, re, subprocess, sys
d = sys.argv[1]
for f in sorted(x for x in os.listdir(d) if x.endswith('.then')):
    base = os.path.join(d, f[:-5] + '.nft'); th = os.path.join(d, f)
    for _ in range(40):
        r = subprocess.run(['unshare', '-n', 'sh', '-c', 'ip link add a0 type veth peer name b0; ip link add a1 type veth peer name b1; nft -f %s && nft -f %s' % (base, th)], capture_output=True, text=True)
        if r.returncode == 0: break
        m = re.search(re.escape(th) + r':(\d+):', r.stderr)
        if not m:
            print(f, 'unfixable', r.stderr[:200]); os.unlink(th); break
        lines = open(th).read().split('\n'); del lines[int(m.group(1)) - 1]; open(th, 'w').write('\n'.join(lines))
